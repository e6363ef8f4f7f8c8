//go:build !linux && !darwin

package rootfs

import (
	"os"
	"syscall"
)

// openNoFollow reports every path as a symlink where open(2) with O_NOFOLLOW is not
// available, so Open resolves the last component itself before opening (open_nofollow.go).
func openNoFollow(host string) (*os.File, error) {
	return nil, &os.PathError{Op: "open", Path: host, Err: syscall.ELOOP}
}
