package resolve_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/resolve"
)

// special makes a FIFO, a unix socket or a character device (/dev/zero's numbers, so a
// regression reads forever instead of passing) at p. mknod needs root, which CI has.
func special(t *testing.T, root, p, kind string) {
	t.Helper()
	host := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "fifo":
		if err := syscall.Mkfifo(host, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	case "socket":
		l, err := net.Listen("unix", host)
		if err != nil {
			t.Skipf("unix socket: %v", err)
		}
		t.Cleanup(func() { l.Close() })
	case "device":
		if err := syscall.Mknod(host, syscall.S_IFCHR|0o644, int(unixMkdev(1, 5))); err != nil {
			t.Skipf("mknod (needs root): %v", err)
		}
	}
}

func unixMkdev(major, minor uint32) uint64 {
	return uint64(major)<<8 | uint64(minor&0xff) | uint64(minor&^0xff)<<12
}

const neverBlockUnit = `[Service]
EnvironmentFile=-/etc/default/k3s
EnvironmentFile=-/etc/systemd/system/k3s.service.env
ExecStart=/usr/local/bin/k3s server --write-kubeconfig-mode 644
`

// TestNeverBlock puts a FIFO, a socket and a character device at every path k3sconf reads
// and checks that resolving the node ends (a regression fails on the timeout instead of
// hanging the test run), that the path is reported as unreadable input naming its kind, and
// that the rest of the report is still there.
func TestNeverBlock(t *testing.T) {
	paths := []struct {
		name, reason, path string
		// wantRest is a flag whose value must still be resolved from the other files.
		wantRest string
	}{
		{"config", "k3s blocks reading a FIFO config; k3sconf says so and goes on", "/etc/rancher/k3s/config.yaml", ""},
		{"config-dropin", "a drop-in is read like the main file", "/etc/rancher/k3s/config.yaml.d/10-x.yaml", ""},
		{"envfile", "systemd opens an env file when the service starts", "/etc/systemd/system/k3s.service.env", "write-kubeconfig-mode"},
		{"unit-dropin", "systemd 252 blocks on a FIFO drop-in while loading units", "/etc/systemd/system/k3s.service.d/10-x.conf", "write-kubeconfig-mode"},
		{"unit", "systemd takes a FIFO unit file as not found", "/etc/systemd/system/k3s.service", ""},
	}
	for _, kind := range []string{"fifo", "socket", "device"} {
		for _, tc := range paths {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
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
				if tc.path != "/etc/systemd/system/k3s.service" {
					write("/etc/systemd/system/k3s.service", neverBlockUnit)
				}
				if tc.path != "/etc/rancher/k3s/config.yaml" {
					write("/etc/rancher/k3s/config.yaml", "node-name: n1\n")
				}
				special(t, root, tc.path, kind)
				done := make(chan *resolve.Result, 1)
				go func() {
					res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(root)})
					if err != nil {
						t.Error(err)
					}
					done <- res
				}()
				var res *resolve.Result
				select {
				case res = <-done:
				case <-time.After(20 * time.Second):
					t.Fatalf("%s: resolving a node with a %s at %s did not end", tc.reason, kind, tc.path)
				}
				if res == nil {
					return
				}
				if !res.InputInvalid() {
					t.Errorf("%s: a %s at %s must make the report incomplete (input unreadable)", tc.reason, kind, tc.path)
				}
				found := false
				for _, d := range res.Diagnostics {
					if d.Code == "input-unreadable" && strings.Contains(d.Message, tc.path) && strings.Contains(d.Message, "not a regular file") {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: no input-unreadable finding naming %s; got %v", tc.reason, tc.path, res.Diagnostics)
				}
				if tc.wantRest != "" {
					k := res.Key(tc.wantRest)
					if k == nil || k.Value == nil {
						t.Errorf("%s: the rest of the report is missing: %s not resolved", tc.reason, tc.wantRest)
					}
				}
			})
		}
	}
}
