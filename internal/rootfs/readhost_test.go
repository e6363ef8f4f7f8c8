package rootfs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestReadHostFileAsReadFile: ReadHostFile's fast path, and ReadListedFile's (no stat
// before the open, links not followed), give what ReadFile on the host's file system
// gives — the bytes of a regular file (empty, small, larger than a page, behind a link),
// and for a FIFO (also behind a link), a folder or a missing path an error of the same
// kind, without blocking on the FIFO.
func TestReadHostFileAsReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, tc := range []struct {
		name, reason, path string
		notRegular         bool
	}{
		{"empty", "an empty file reads as no bytes", write("empty", nil), false},
		{"small", "a vars file", write("main.yml", []byte("a: 1\nb: [x]\n")), false},
		{"large", "several reads' worth", write("big.j2", bytes.Repeat([]byte("{{ x }}\n"), 100000)), false},
		{"fifo", "a FIFO is refused, never read", fifo, true},
		{"folder", "a folder is an error", dir, false},
		{"missing", "a missing path is an error", filepath.Join(dir, "nope"), false},
		{"link", "a link to a regular file reads as the file (ReadListedFile: through ReadFile)", link(t, dir, "main.yml", "link.yml"), false},
		{"link to fifo", "a link to a FIFO is refused, never read", link(t, dir, "fifo", "fifo.yml"), true},
	} {
		for _, read := range []struct {
			name string
			f    func(string) ([]byte, error)
		}{{"ReadHostFile", ReadHostFile}, {"ReadListedFile", ReadListedFile}} {
			t.Run(tc.name+"/"+read.name, func(t *testing.T) {
				done := make(chan struct{})
				var got, want []byte
				var gerr, werr error
				go func() {
					got, gerr = read.f(tc.path)
					want, werr = ReadFile(afero.NewOsFs(), tc.path, MaxHostFile)
					close(done)
				}()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatalf("%s: %s blocked", tc.reason, read.name)
				}
				if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) {
					t.Fatalf("%s: got %d bytes, %v; ReadFile %d bytes, %v", tc.reason, len(got), gerr, len(want), werr)
				}
				var nr *NotRegularError
				if errors.As(gerr, &nr) != tc.notRegular {
					t.Errorf("%s: error %v, want a NotRegularError: %v", tc.reason, gerr, tc.notRegular)
				}
				if gerr != nil && werr != nil && !strings.Contains(gerr.Error(), tc.path) {
					t.Errorf("%s: error %q does not name the path", tc.reason, gerr)
				}
			})
		}
	}
}

// link makes dir/name a symbolic link to dir/target.
func link(t *testing.T, dir, target, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlink: %v", err)
	}
	return p
}
