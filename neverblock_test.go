package k3sconf_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestNeverBlockBeyondResolve puts FIFOs where identity and components read (the node id
// file, the node password file, /etc/hostname, manifests), and a FIFO /etc/hostname and
// /etc/os-release for the unit's specifiers: every command's reading must end. A regression
// fails on the timeout instead of hanging.
func TestNeverBlockBeyondResolve(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		h := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(h, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := func(p string) {
		h := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(h, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	write("/etc/systemd/system/k3s.service", "[Service]\nExecStart=/usr/local/bin/k3s server --node-name=%H-%m-%o\n")
	write("/etc/rancher/k3s/config.yaml", "with-node-id: true\n")
	for _, p := range []string{
		"/etc/hostname", "/etc/machine-id", "/etc/os-release",
		"/etc/rancher/node/id", "/etc/rancher/node/password",
		"/var/lib/rancher/k3s/server/manifests/traefik.yaml",
		"/var/lib/rancher/k3s/server/manifests/custom.yaml",
	} {
		fifo(p)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		node := k3sconf.Node(root)
		res, err := resolve.Resolve(resolve.Options{FS: node})
		if err != nil {
			t.Error(err)
			return
		}
		_ = identity.Derive(node, res, root)
		_ = components.Inspect(node, res)
		// Not "absent": each of the host files is unreadable input, the report incomplete
		// (exit 3), and the rest of it is there.
		if !res.Incomplete() {
			t.Error("FIFOs at /etc/hostname, /etc/machine-id, /etc/os-release: the report is incomplete")
		}
		for _, p := range []string{"/etc/hostname", "/etc/machine-id", "/etc/os-release"} {
			found := false
			for _, d := range res.Diagnostics {
				found = found || d.Code == "input-unreadable" && d.Pos.File == p
			}
			if !found {
				t.Errorf("%s is a FIFO: want an input-unreadable finding for it", p)
			}
		}
		if k := res.Key("with-node-id"); k == nil || k.Value != true {
			t.Error("the rest of the report (config.yaml) must still be read")
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("resolve, identity or components waited on a FIFO")
	}
}
