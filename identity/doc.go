// Package identity derives the name a k3s node registers under and the files that keep it
// stable: the node id of --with-node-id and the node password, whose hash the server keeps in
// a `<node-name>.node-password.k3s` secret — the answer to "why did my node come back as a new
// node?" and "why is it rejected with 'hash does not match'?".
//
// [Derive] follows k3s: the node-name flag from any source (command line, config file,
// K3S_NODE_NAME), else the host name (pkg/util/net.go GetHostnameAndIPs, which then
// lowercases it), plus "-" and the id from /etc/rancher/node/id with --with-node-id
// (pkg/agent/config/config.go ensureNodeID). The password file is only checked for
// existence; its content is never read. The text and JSON of `explain node-name`, and the
// redaction they pass through, are internal (internal/identityreport).
package identity
