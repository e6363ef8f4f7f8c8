package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/spf13/afero"
)

// NotRegularError is returned for a path that names a FIFO, a socket or a device where
// k3sconf expects a file. k3sconf never opens such a path for a blocking read: opening a FIFO
// waits for a writer, /dev/zero never ends, and a tty waits for input. What the product would
// do with the same path is the caller's to say (k3s and systemd differ).
type NotRegularError struct {
	Path string
	// Kind is "FIFO", "socket", "character device" or "block device".
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file; k3sconf does not read it (a read could wait forever)", e.Path, e.Kind)
}

// IsDevNull reports whether fi describes /dev/null (character device 1:3, whatever its
// path): reading it ends at once, so it is read like an empty file. A unit, drop-in, env
// file or config linked to /dev/null is the usual way to mask or blank one, and k3s and
// systemd read it as empty (systemd: a unit file that is /dev/null is masked).
func IsDevNull(fi fs.FileInfo) bool {
	if fi.Mode()&fs.ModeCharDevice == 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	rdev := uint64(st.Rdev)
	major := (rdev>>8)&0xfff | (rdev>>32)&^0xfff
	minor := rdev&0xff | (rdev>>12)&^0xff
	return major == 1 && minor == 3
}

// SpecialKind names the kind of a file that is neither a regular file nor a directory, or
// returns "" for those two (and for a symlink, which the caller resolves first).
func SpecialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return ""
}

// AsNotRegular reports whether err says that a path is not a regular file.
func AsNotRegular(err error) (*NotRegularError, bool) {
	var nr *NotRegularError
	ok := errors.As(err, &nr)
	return nr, ok
}

// CheckRegular stats name (following links) and returns a *NotRegularError for a FIFO,
// socket or device. Other stat errors are returned as they are; a directory is fine here
// (callers that need a file say so themselves).
func CheckRegular(fsys afero.Fs, name string) error {
	fi, err := fsys.Stat(name)
	if err != nil {
		return err
	}
	if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
		return &NotRegularError{Path: name, Kind: k}
	}
	return nil
}

// ReadFile reads a whole node file, at most limit bytes, without ever blocking: the path is
// stat'ed before it is opened (a FIFO, socket or device gives a *NotRegularError), and the
// open file is stat'ed again, so a file swapped for a FIFO in between is caught too (Fs.Open
// of this package opens with O_NONBLOCK, so that open cannot block either).
func ReadFile(fsys afero.Fs, name string, limit int64) ([]byte, error) {
	if err := CheckRegular(fsys, name); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
		return nil, &NotRegularError{Path: name, Kind: k}
	}
	if fi.IsDir() {
		return nil, &os.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	if limit > 0 && fi.Size() > limit {
		return nil, &TooLargeError{Path: name, Size: fi.Size(), Limit: limit}
	}
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, &TooLargeError{Path: name, Size: -1, Limit: limit}
	}
	return data, nil
}

// TooLargeError is a file over k3sconf's own size limit. The product would read it: the
// limit is k3sconf's, so the report is incomplete (exit 3), not refused.
type TooLargeError struct {
	Path string
	// Size is the size the file claims, or -1 when it only turned out longer while read (a
	// file growing, /dev/zero behind standard input).
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("read %s: file is %d bytes, more than k3sconf's limit of %d", e.Path, e.Size, e.Limit)
	}
	return fmt.Sprintf("read %s: more than k3sconf's limit of %d bytes", e.Path, e.Limit)
}

// MaxHostFile bounds what ReadHostFile reads: the same 16 MiB as a node file.
const MaxHostFile = 16 << 20

// ReadHostFile reads a file of the machine k3sconf runs on that k3sconf found by itself (an
// inventory or vars file, a playbook, a role's task file, a show document in a folder) the
// way ReadFile reads a node file: never a FIFO, socket or device (a *NotRegularError
// instead, so a stray FIFO in an inventory folder cannot hang the command), and at most
// MaxHostFile bytes.
func ReadHostFile(path string) ([]byte, error) {
	return readHostFile(path)
}

// ReadListedFile is ReadHostFile for a path its folder's listing has just shown as a
// regular file (not a link): one system call fewer (the stat before the open; the open
// file's own stat still turns away anything but a regular file within MaxHostFile).
func ReadListedFile(path string) ([]byte, error) {
	return readListedFile(path)
}
