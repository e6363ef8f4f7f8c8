package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// maxHops is Linux's MAXSYMLINKS.
const maxHops = 40

var errIsDir = syscall.EISDIR

// ErrEscape is never returned: paths are clamped to the root, as chroot does. ErrLoop is.
var ErrLoop = errors.New("too many levels of symbolic links")

// Fs is the node rooted at Root.
type Fs struct {
	root string
	os   afero.Fs
	// dirs remembers node directories already found to be real directories (no link), so
	// reading 2,000 drop-ins does not lstat /etc, /etc/rancher, … 2,000 times. A node
	// tree does not change under k3sconf during one run.
	mu   sync.Mutex
	dirs map[string]bool
}

// New returns a read-only view of the node under dir.
func New(dir string) *Fs {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &Fs{root: abs, os: afero.NewOsFs()}
}

// resolve turns a node path into a host path inside the root, following symlinks in every
// component the way the kernel would inside a chroot. With final false the last component is
// not followed (for Lstat).
func (f *Fs) resolve(name string, final bool) (string, error) {
	hops := 0
	// done is the resolved node path so far ("/" based); todo the components left.
	done := "/"
	todo := splitPath(name)
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			done = path.Dir(done)
			continue
		}
		next := path.Join(done, c)
		if len(todo) == 0 && !final {
			done = next
			break
		}
		if len(todo) > 0 && f.knownDir(next) {
			done = next
			continue
		}
		host := filepath.Join(f.root, filepath.FromSlash(next))
		fi, err := os.Lstat(host)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			// Missing components are left for the real call to report.
			if err == nil && fi.IsDir() {
				f.rememberDir(next)
			}
			done = next
			continue
		}
		hops++
		if hops > maxHops {
			return "", &os.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(host)
		if err != nil {
			return "", &os.PathError{Op: "readlink", Path: next, Err: err}
		}
		target = filepath.ToSlash(target)
		if strings.HasPrefix(target, "/") {
			done = "/"
		}
		todo = append(splitPath(target), todo...)
	}
	return filepath.Join(f.root, filepath.FromSlash(done)), nil
}

func splitPath(p string) []string { return strings.Split(p, "/") }

func (f *Fs) knownDir(p string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dirs[p]
}

func (f *Fs) rememberDir(p string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dirs == nil {
		f.dirs = map[string]bool{}
	}
	f.dirs[p] = true
}

// nodeErr keeps the node path in errors, never the host path.
func nodeErr(op, name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: op, Path: name, Err: pe.Err}
	}
	return err
}

// Open opens a file for reading. The directories on the way are resolved (and remembered);
// the last component is looked at with lstat, a link is followed inside the root, and only a
// regular file (or /dev/null) is opened, non-blocking and with O_NOFOLLOW.
func (f *Fs) Open(name string) (afero.File, error) {
	host, err := f.resolve(name, false)
	if err != nil {
		return nil, err
	}
	// Never block, never open what is not a regular file: a FIFO, socket or device is
	// refused before it is opened. Lstat is the only way to learn the type without opening
	// (opening a FIFO waits for a writer; opening some devices acts — a watchdog arms), so it
	// stays even though the drop-in listing knew the type. The open itself is non-blocking
	// and without following links, and the open file is checked again for one swapped in
	// between.
	fi, err := os.Lstat(host)
	if err != nil {
		return nil, nodeErr("open", name, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if host, err = f.resolve(name, true); err != nil {
			return nil, err
		}
		if fi, err = os.Stat(host); err != nil {
			return nil, nodeErr("open", name, err)
		}
	}
	if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
		return nil, &NotRegularError{Path: name, Kind: k}
	}
	fh, err := openNoFollow(host)
	if errors.Is(err, syscall.ELOOP) {
		// A link (swapped in since the lstat, or every path where O_NOFOLLOW is missing).
		if host, err = f.resolve(name, true); err != nil {
			return nil, err
		}
		fh, err = os.OpenFile(host, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, nodeErr("open", name, err)
	}
	fi, err = fh.Stat()
	if err == nil {
		if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
			fh.Close()
			return nil, &NotRegularError{Path: name, Kind: k}
		}
	} else {
		fi = nil
	}
	return &file{File: fh, name: name, fi: fi}, nil
}

// Stat follows links (inside the root).
func (f *Fs) Stat(name string) (os.FileInfo, error) {
	host, err := f.resolve(name, true)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(host)
	return fi, nodeErr("stat", name, err)
}

// LstatIfPossible describes the last component itself.
func (f *Fs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	host, err := f.resolve(name, false)
	if err != nil {
		return nil, true, err
	}
	fi, err := os.Lstat(host)
	return fi, true, nodeErr("lstat", name, err)
}

// ReadlinkIfPossible returns a link's target as written on the node (not resolved).
func (f *Fs) ReadlinkIfPossible(name string) (string, error) {
	host, err := f.resolve(name, false)
	if err != nil {
		return "", err
	}
	t, err := os.Readlink(host)
	if err != nil {
		return "", nodeErr("readlink", name, err)
	}
	return filepath.ToSlash(t), nil
}

// Name identifies the filesystem.
func (f *Fs) Name() string { return "rootfs" }

// OpenFile allows reading only.
func (f *Fs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.EPERM}
	}
	return f.Open(name)
}

func readOnly(op, name string) error { return &os.PathError{Op: op, Path: name, Err: syscall.EPERM} }

// The rest refuse: k3sconf never writes to the node it inspects.

func (f *Fs) Create(name string) (afero.File, error)              { return nil, readOnly("create", name) }
func (f *Fs) Mkdir(name string, perm os.FileMode) error           { return readOnly("mkdir", name) }
func (f *Fs) MkdirAll(p string, perm os.FileMode) error           { return readOnly("mkdir", p) }
func (f *Fs) Remove(name string) error                            { return readOnly("remove", name) }
func (f *Fs) RemoveAll(p string) error                            { return readOnly("remove", p) }
func (f *Fs) Rename(o, n string) error                            { return readOnly("rename", o) }
func (f *Fs) Chmod(name string, mode os.FileMode) error           { return readOnly("chmod", name) }
func (f *Fs) Chown(name string, uid, gid int) error               { return readOnly("chown", name) }
func (f *Fs) Chtimes(name string, a time.Time, m time.Time) error { return readOnly("chtimes", name) }

// file is an open node file; writes are refused and errors carry node paths.
type file struct {
	*os.File
	name string
	// fi is what fstat said when the file was opened: Stat returns it instead of asking
	// again (every reader stats the file it just opened; 2,000 drop-ins made 2,000 extra
	// fstat calls).
	fi os.FileInfo
}

func (fl *file) Name() string { return fl.name }

func (fl *file) Write([]byte) (int, error)          { return 0, readOnly("write", fl.name) }
func (fl *file) WriteAt([]byte, int64) (int, error) { return 0, readOnly("write", fl.name) }
func (fl *file) WriteString(string) (int, error)    { return 0, readOnly("write", fl.name) }
func (fl *file) Truncate(int64) error               { return readOnly("truncate", fl.name) }

func (fl *file) Read(p []byte) (int, error) {
	n, err := fl.File.Read(p)
	return n, nodeErr("read", fl.name, err)
}

func (fl *file) Readdirnames(n int) ([]string, error) {
	names, err := fl.File.Readdirnames(n)
	return names, nodeErr("readdirent", fl.name, err)
}

// ReadDir lists a directory with each entry's type from the listing itself (no stat per
// entry), as os.ReadDir does.
func (fl *file) ReadDir(n int) ([]fs.DirEntry, error) {
	ents, err := fl.File.ReadDir(n)
	return ents, nodeErr("readdirent", fl.name, err)
}

// Stat describes the open file: what fstat said when it was opened, if it said.
func (fl *file) Stat() (os.FileInfo, error) {
	if fl.fi != nil {
		return fl.fi, nil
	}
	fi, err := fl.File.Stat()
	return fi, nodeErr("stat", fl.name, err)
}
