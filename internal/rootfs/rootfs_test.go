package rootfs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// tree builds a node under a temp dir and a secret file outside it.
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "node")
	outside = filepath.Join(base, "host-secret")
	must(t, os.WriteFile(outside, []byte("HOST"), 0o600))
	must(t, os.MkdirAll(filepath.Join(root, "etc/systemd/system/multi-user.target.wants"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "etc/rancher/k3s"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "etc/systemd/system/k3s.service"), []byte("NODE"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "host-secret"), []byte("NODE-SECRET"), 0o644))
	// Absolute link, as on a real node.
	must(t, os.Symlink("/etc/systemd/system/k3s.service", filepath.Join(root, "etc/systemd/system/multi-user.target.wants/k3s.service")))
	// Links that try to leave the root.
	must(t, os.Symlink("../../../../../../host-secret", filepath.Join(root, "etc/rancher/k3s/dotdot.yaml")))
	must(t, os.Symlink(outside, filepath.Join(root, "etc/rancher/k3s/abs.yaml")))
	// A loop.
	must(t, os.Symlink("b", filepath.Join(root, "etc/a")))
	must(t, os.Symlink("a", filepath.Join(root, "etc/b")))
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestLinksStayInsideTheRoot(t *testing.T) {
	root, _ := tree(t)
	fsys := New(root)
	tests := []struct {
		name, reason, path, want string
	}{
		{"absolute-link", "an absolute target is the node's path, not the host's", "/etc/systemd/system/multi-user.target.wants/k3s.service", "NODE"},
		{"dotdot-link", "'..' stops at the root, like chroot", "/etc/rancher/k3s/dotdot.yaml", "NODE-SECRET"},
		{"dotdot-path", "'..' in the path itself stops at the root too", "/../../etc/systemd/system/k3s.service", "NODE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := afero.ReadFile(fsys, tc.path)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if string(got) != tc.want {
				t.Errorf("%s: read %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
	// The absolute link to the host file resolves to <root>/<that path>, which does not exist.
	_, err := afero.ReadFile(fsys, "/etc/rancher/k3s/abs.yaml")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a link to a host path must not reach the host: err = %v", err)
	}
	if err != nil && strings.Contains(err.Error(), root) {
		t.Errorf("errors must name node paths, not %s: %v", root, err)
	}
}

func TestLoop(t *testing.T) {
	root, _ := tree(t)
	_, err := New(root).Open("/etc/a")
	if !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("a link loop must fail with ELOOP, got %v", err)
	}
}

func TestReadOnly(t *testing.T) {
	root, _ := tree(t)
	fsys := New(root)
	if _, err := fsys.Create("/etc/new"); !errors.Is(err, syscall.EPERM) {
		t.Errorf("Create must be refused, got %v", err)
	}
	if err := fsys.Remove("/etc/systemd/system/k3s.service"); !errors.Is(err, syscall.EPERM) {
		t.Errorf("Remove must be refused, got %v", err)
	}
	if _, err := fsys.OpenFile("/etc/systemd/system/k3s.service", os.O_WRONLY, 0); !errors.Is(err, syscall.EPERM) {
		t.Errorf("opening for writing must be refused, got %v", err)
	}
	f, err := fsys.Open("/etc/systemd/system/k3s.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("x")); !errors.Is(err, syscall.EPERM) {
		t.Errorf("Write must be refused, got %v", err)
	}
	if b, _ := io.ReadAll(f); string(b) != "NODE" {
		t.Errorf("the file must be unchanged, read %q", b)
	}
}
