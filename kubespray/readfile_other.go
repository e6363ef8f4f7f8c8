//go:build !linux && !darwin

package kubespray

import "github.com/k3sconf/k3sconf/internal/rootfs"

// readFile is rootfs.ReadHostFile (readfile_unix.go has the faster path).
func readFile(path string) ([]byte, error) { return rootfs.ReadHostFile(path) }
