package resolve_test

import (
	"fmt"
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
				if kind == "device" && tc.name == "unit" {
					// systemd counts a unit file that is a device as masked (checked with
					// systemd --test); k3sconf knows that without reading it.
					if res.InputInvalid() || !strings.Contains(res.Error, "is masked") {
						t.Errorf("a device as unit file is a masked unit, not unreadable input: InputInvalid=%v Error=%q", res.InputInvalid(), res.Error)
					}
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

// TestDevNull: /dev/null is the one device k3sconf reads (as empty: its read ends at once).
// A unit linked to /dev/null is masked; an env file, config or drop-in that is /dev/null is
// empty, as k3s and systemd read it, and nothing is missing from the report.
func TestDevNull(t *testing.T) {
	tests := []struct {
		name, reason, path string
		link               bool // a symlink whose text is /dev/null (dangling under --root)
		wantMasked         bool
	}{
		{"unit-link", "systemctl mask makes a link to /dev/null; under --root the link's text counts", "/etc/systemd/system/k3s.service", true, true},
		{"unit-device", "a unit file that is /dev/null itself", "/etc/systemd/system/k3s.service", false, true},
		{"envfile", "an env file that is /dev/null sets nothing", "/etc/systemd/system/k3s.service.env", false, false},
		{"config", "k3s reads /dev/null as an empty config", "/etc/rancher/k3s/config.yaml", false, false},
		{"unit-dropin", "systemd reads a /dev/null drop-in as empty", "/etc/systemd/system/k3s.service.d/10-x.conf", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			h := filepath.Join(root, tc.path)
			if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.path != "/etc/systemd/system/k3s.service" {
				u := filepath.Join(root, "/etc/systemd/system/k3s.service")
				if err := os.MkdirAll(filepath.Dir(u), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(u, []byte(neverBlockUnit), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.link {
				if err := os.Symlink("/dev/null", h); err != nil {
					t.Fatal(err)
				}
			} else if err := syscall.Mknod(h, syscall.S_IFCHR|0o666, int(unixMkdev(1, 3))); err != nil {
				t.Skipf("mknod (needs root): %v", err)
			}
			done := make(chan *resolve.Result, 1)
			go func() {
				res, _ := resolve.Resolve(resolve.Options{FS: k3sconf.Node(root)})
				done <- res
			}()
			var res *resolve.Result
			select {
			case res = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: did not end", tc.reason)
			}
			if res.InputInvalid() {
				t.Errorf("%s: nothing is missing from the report, yet InputInvalid; %v", tc.reason, res.Diagnostics)
			}
			if masked := strings.Contains(res.Error, "is masked"); masked != tc.wantMasked {
				t.Errorf("%s: masked=%v, want %v (Error=%q)", tc.reason, masked, tc.wantMasked, res.Error)
			}
			if !tc.wantMasked {
				if k := res.Key("write-kubeconfig-mode"); k == nil || k.Value == nil {
					t.Errorf("%s: the unit's flags are missing", tc.reason)
				}
			}
		})
	}
}

// TestMaskedServerAgentInUse: with k3s.service masked and k3s-agent.service present, the
// agent's unit is the one systemd runs, so it is the one resolved.
func TestMaskedServerAgentInUse(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "etc/systemd/system")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(dir, "k3s.service")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "k3s-agent.service"), []byte("[Service]\nExecStart=/usr/local/bin/k3s agent --server https://s:6443 --token t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(root)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Command != "agent" || strings.Contains(res.Error, "masked") {
		t.Errorf("the masked server unit must not hide the agent unit: command=%q error=%q", res.Command, res.Error)
	}
}

// TestHostFileUnreadableOneFinding: a FIFO at /etc/hostname (or /etc/machine-id, or
// /etc/os-release) that the unit's specifiers need is one cause, so one finding: the
// input-unreadable error naming the file. The specifier stays as written, without a second
// unit-specifier finding saying the node "does not have" the file (it has it). With a
// regular file missing, the unit-specifier finding is the one finding, as before.
func TestHostFileUnreadableOneFinding(t *testing.T) {
	tests := []struct {
		name, reason, path, spec string
		fifo                     bool
		want                     []string // codes of the findings, in order
	}{
		{"hostname-fifo", "the FIFO is the cause; %H is unknown because of it", "/etc/hostname", "%H", true, []string{"input-unreadable"}},
		{"hostname-fifo-short", "%l comes from the same file", "/etc/hostname", "%l", true, []string{"input-unreadable"}},
		{"machine-id-fifo", "%m comes from /etc/machine-id", "/etc/machine-id", "%m", true, []string{"input-unreadable"}},
		{"os-release-fifo", "%o comes from /etc/os-release (no /usr/lib/os-release to fall back to)", "/etc/os-release", "%o", true, []string{"input-unreadable"}},
		{"hostname-missing", "no file at all: the unit-specifier finding says so", "/etc/hostname", "%H", false, []string{"unit-specifier"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			u := filepath.Join(root, "/etc/systemd/system/k3s.service")
			if err := os.MkdirAll(filepath.Dir(u), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(u, []byte("[Service]\nExecStart=/usr/local/bin/k3s server --node-label host="+tc.spec+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.fifo {
				special(t, root, tc.path, "fifo")
			}
			res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(root)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Code)
				if strings.Contains(d.Message, "does not have") && tc.fifo {
					t.Errorf("%s: %q says the node does not have a file it has", tc.reason, d.Message)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("%s: findings %v, want %v", tc.reason, got, tc.want)
			}
			if k := res.Key("node-label"); k == nil || fmt.Sprint(k.Value) != "[host="+tc.spec+"]" {
				t.Errorf("%s: the specifier stays as written: %v", tc.reason, k.Value)
			}
		})
	}
}
