package rootfs

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestNeverBlock: Open, ReadFile and CheckRegular refuse a FIFO and a socket with a
// NotRegularError, on this package's Fs and on afero's OsFs (which callers outside --root
// use), each under a timeout so a regression fails instead of hanging.
func TestNeverBlock(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	tests := []struct {
		name, reason string
		fsys         afero.Fs
		path         string
		kind         string
	}{
		{"rootfs-fifo", "opening a FIFO for reading waits for a writer", New(root), "/fifo", "FIFO"},
		{"rootfs-socket", "a socket cannot be read as a file", New(root), "/sock", "socket"},
		{"osfs-fifo", "ReadFile stats before it opens, whatever the Fs", afero.NewOsFs(), filepath.Join(root, "fifo"), "FIFO"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := ReadFile(tc.fsys, tc.path, 1<<20); done <- err }()
			select {
			case err := <-done:
				nr, ok := AsNotRegular(err)
				if !ok || nr.Kind != tc.kind {
					t.Fatalf("%s: got %v, want a NotRegularError of kind %s", tc.reason, err, tc.kind)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: ReadFile(%s) did not return", tc.reason, tc.path)
			}
		})
	}
	t.Run("open", func(t *testing.T) {
		done := make(chan error, 1)
		go func() { _, err := New(root).Open("/fifo"); done <- err }()
		select {
		case err := <-done:
			if _, ok := AsNotRegular(err); !ok {
				t.Fatalf("Open of a FIFO: got %v, want a NotRegularError", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Open of a FIFO did not return")
		}
	})
	t.Run("regular", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(root, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := ReadFile(New(root), "/f", 10)
		if err != nil || string(b) != "x" {
			t.Fatalf("a regular file reads as usual: %q, %v", b, err)
		}
	})
}
