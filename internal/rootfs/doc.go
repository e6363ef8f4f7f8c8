// Package rootfs is a read-only afero filesystem for a node's files under a directory, in
// which symbolic links resolve as they would on the node: an absolute link target is taken
// relative to the root, ".." never climbs above it, and a link chain longer than 40 hops (the
// kernel's limit) is an error. No path ever leaves the root.
//
// Support bundles and mounted disks are full of absolute links
// (/etc/systemd/system/multi-user.target.wants/k3s.service -> /etc/systemd/system/k3s.service);
// afero.BasePathFs would follow them on the machine running k3sconf, reading that machine's
// files instead of the node's, or anything a hostile bundle points at.
package rootfs
