package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxArgFile bounds a file named on the command line (a node list, a node object, a show
// document, an inventory, an -e @file, a compose file). It is larger than a node file's
// 16 MiB because `kubectl get nodes -o json` of a 5,000-node cluster is about 40 MB.
const MaxArgFile = 64 << 20

// ReadArg is the one reader of every file argument of every command. It reads:
//
//   - "-": standard input, at most MaxArgFile bytes (`kubectl … | k3sconf … -`; a
//     terminal waits for input, as any command reading "-" does);
//   - a regular file (or /dev/null) of at most MaxArgFile bytes, opened without blocking
//     and checked again after the open;
//   - a pipe the shell made only when stream is true: the arguments documented as streams
//     (`--nodes-json <(kubectl get nodes -o json)`, `--node-json <(kubectl get node N -o
//     json)`), read to their end within the limit. Such a path (/dev/fd/63) names an
//     anonymous pipe whose writer the shell started. A named FIFO (mkfifo) is refused
//     everywhere, and any pipe where no stream is documented: opening it waits for a
//     writer that may never come.
//
// Anything else (a socket, a device, a FIFO where no stream is documented) gives a
// *NotRegularError, a folder an EISDIR *fs.PathError, a larger file a *TooLargeError.
// Each is input k3sconf could not read: exit 3 (docs/exit-codes.md).
func ReadArg(name string, stream bool) ([]byte, error) {
	if name == "-" {
		return readLimited(os.Stdin, "standard input", MaxArgFile)
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeNamedPipe != 0 && stream && shellPipe(name) {
		f, err := os.Open(name) // a pipe the shell made: its writer is there
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readLimited(f, name, MaxArgFile)
	}
	if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
		return nil, &NotRegularError{Path: name, Kind: k}
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	if fi.Size() > MaxArgFile {
		return nil, &TooLargeError{Path: name, Size: fi.Size(), Limit: MaxArgFile}
	}
	f, err := openHost(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Checked again on the open file: a FIFO or device swapped in since the stat.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if k := SpecialKind(fi.Mode()); k != "" && !IsDevNull(fi) {
		return nil, &NotRegularError{Path: name, Kind: k}
	}
	return readLimited(f, name, MaxArgFile)
}

// shellPipe reports whether name is a /dev/fd or /proc/*/fd entry for an anonymous pipe
// (its link reads "pipe:[inode]"), what `<(command)` and a piped /dev/stdin give.
func shellPipe(name string) bool {
	for range maxHops { // /dev/stdin -> /proc/self/fd/0 -> pipe:[…]
		t, err := os.Readlink(name)
		if err != nil {
			return false
		}
		if strings.HasPrefix(t, "pipe:[") {
			return true
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(name), t)
		}
		name = t
	}
	return false
}

// openHost opens a host path for reading, following links, without blocking.
func openHost(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}

func readLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: name, Size: -1, Limit: limit}
	}
	return data, nil
}

// AsTooLarge reports whether err is a file over k3sconf's size limit.
func AsTooLarge(err error) (*TooLargeError, bool) {
	var e *TooLargeError
	ok := errors.As(err, &e)
	return e, ok
}
