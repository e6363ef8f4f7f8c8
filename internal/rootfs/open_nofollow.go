//go:build linux || darwin

package rootfs

import (
	"os"
	"syscall"
)

// openNoFollow opens a host path for reading without following a final symlink, and without
// blocking (a FIFO swapped in after Open's type check must not wait for a writer). It opens
// with open(2) and wraps the descriptor with os.NewFile rather than calling os.OpenFile: on
// Linux os.OpenFile offers every file to the network poller (two fcntl calls to make it
// non-blocking, an epoll_ctl that a regular file refuses, two more fcntl calls to undo it),
// five system calls per drop-in that read nothing (docs/performance.md). Linux and Darwin
// fail such an open with ELOOP when the last component is a symlink; FreeBSD and NetBSD use
// other errors, so they take open_other.go.
func openNoFollow(host string) (*os.File, error) {
	for {
		fd, err := syscall.Open(host, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: host, Err: err}
		}
		return os.NewFile(uintptr(fd), host), nil
	}
}
