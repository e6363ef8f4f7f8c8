package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadArg: the one rule for file arguments, both ways for each kind of path.
func TestReadArg(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "f.json")
	if err := os.WriteFile(reg, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big")
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(MaxArgFile + 1)
		f.Close()
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { w.WriteString("piped"); w.Close() }()
	pipe := fmt.Sprintf("/proc/self/fd/%d", r.Fd())

	cases := []struct {
		name, reason, path string
		stream             bool
		want               string
		check              func(error) bool
	}{
		{"regular", "a regular file is read", reg, false, "{}", nil},
		{"dev-null", "/dev/null reads as empty", "/dev/null", false, "", nil},
		{"named-fifo", "a named FIFO is refused even where a stream is documented: no writer may come", fifo, true, "", func(e error) bool { _, ok := AsNotRegular(e); return ok }},
		{"dev-zero", "a device never ends", "/dev/zero", false, "", func(e error) bool { _, ok := AsNotRegular(e); return ok }},
		{"over-limit", "larger than the limit", big, false, "", func(e error) bool { _, ok := AsTooLarge(e); return ok }},
		{"folder", "a folder is no file", dir, false, "", func(e error) bool { return errors.Is(e, syscall.EISDIR) }},
		{"missing", "a missing file", filepath.Join(dir, "nope"), false, "", func(e error) bool { return errors.Is(e, fs.ErrNotExist) }},
		{"pipe-stream", "a pipe the shell made is read where a stream is documented", pipe, true, "piped", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadArg(tc.path, tc.stream)
			if tc.check != nil {
				if !tc.check(err) {
					t.Errorf("%s: err = %v", tc.reason, err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("%s: got %q, %v; want %q", tc.reason, got, err, tc.want)
			}
		})
	}
	// The same pipe where no stream is documented is refused.
	r2, w2, _ := os.Pipe()
	defer r2.Close()
	defer w2.Close()
	if _, err := ReadArg(fmt.Sprintf("/proc/self/fd/%d", r2.Fd()), false); err == nil {
		t.Error("a pipe where no stream is documented must be refused")
	}
}
