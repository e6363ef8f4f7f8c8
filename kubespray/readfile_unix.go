//go:build linux || darwin

package kubespray

import (
	"os"
	"syscall"

	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// readFile is rootfs.ReadHostFile for the regular files of a checkout, in fewer system
// calls: explain reads the ~700 files of kubespray's roles/ (where searches every
// template), and os.Open spends five calls per file on the poller (fcntl, epoll_ctl)
// that a regular file never uses. The same guarantees hold: the path is stat'ed before
// it is opened, opened non-blocking, and stat'ed again once open; anything but a
// regular file within rootfs.MaxHostFile goes to rootfs.ReadHostFile, which reads it or
// gives its typed error (a FIFO, a device, a folder, too large).
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > rootfs.MaxHostFile {
		return rootfs.ReadHostFile(path)
	}
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return rootfs.ReadHostFile(path)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > rootfs.MaxHostFile {
		return rootfs.ReadHostFile(path)
	}
	buf := make([]byte, 0, st.Size+1)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > rootfs.MaxHostFile {
				return rootfs.ReadHostFile(path) // it grew while read: its error
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
