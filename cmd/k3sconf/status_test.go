package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// statusNode writes a node whose k3s (pid 321) started at `start`, with each file modified at
// start+age. The acceptance case: k3s started with --disable traefik; afterwards the
// unit was edited to disable servicelb and config.yaml gained a node label.
func statusNode(t *testing.T, edited bool) string {
	t.Helper()
	dir := t.TempDir()
	start := time.Unix(1714550600, 0)
	write := func(p, content string, age time.Duration) {
		host := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(host, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(host, start.Add(age), start.Add(age)); err != nil {
			t.Fatal(err)
		}
	}
	unit := "[Service]\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server --disable traefik\n"
	config := "write-kubeconfig-mode: 0644\n"
	age := -time.Hour
	if edited {
		unit = strings.Replace(unit, "traefik", "servicelb", 1)
		config += "node-label: [env=new]\n"
		age = time.Hour
	}
	write("/etc/systemd/system/k3s.service", unit, age)
	write("/etc/systemd/system/k3s.service.env", "K3S_NODE_NAME=node-a\n", -time.Hour)
	write("/etc/rancher/k3s/config.yaml", config, 2*age)
	// btime + 600s = start; USER_HZ 100.
	write("/proc/stat", "cpu  1 2 3 4\nbtime 1714550000\n", 0)
	write("/proc/321/cmdline", "/usr/local/bin/k3s\x00server\x00--disable\x00traefik\x00", 0)
	write("/proc/321/stat", "321 (k3s-server) S 1 321 321 0 -1 4194560 100 0 0 0 50 20 0 0 20 0 40 0 60000 900000000 20000\n", 0)
	return dir
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestStatusAcceptance(t *testing.T) {
	cases := []struct {
		name, reason string
		edited       bool
		args         []string
		code         int
		want, not    []string
	}{
		{name: "edited", reason: "config.yaml and the unit changed after k3s started", edited: true, code: 1,
			want: []string{
				"k3s server running, pid 321, since 2024-05-01 08:03:20 UTC",
				"/etc/systemd/system/k3s.service  modified 2024-05-01 09:03:20 UTC  systemctl daemon-reload first, then restart",
				"/etc/rancher/k3s/config.yaml     modified 2024-05-01 10:03:20 UTC  restart",
				"daemon-reload pending",
				"disable\n    running: [traefik]  (/proc/321/cmdline)\n    files:   [servicelb]  (cli /etc/systemd/system/k3s.service:3:",
				"node-label             /etc/rancher/k3s/config.yaml:2:14",
				"to apply: systemctl daemon-reload && systemctl restart k3s.service",
			},
			not: []string{"k3s.service.env  modified"}},
		{name: "unchanged", reason: "nothing changed since the start", code: 0,
			want: []string{"in effect: nothing changed since the start"},
			not:  []string{"restart needed", "running:"}},
		{name: "node-json", reason: "a real kubectl get node -o json shape; k3s hid its argv", edited: true, code: 1,
			args: []string{"--node-json", "../../live/testdata/node.json"},
			want: []string{"node node-a: 15 node-args words", "(node annotation k3s.io/node-args)", "not compared (k3s redacts them in the annotation): token"},
			not:  []string{"sess-abc123"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := statusNode(t, tc.edited)
			if tc.name == "node-json" {
				title := "/usr/local/bin/k3s server\x00\x00\x00\x00\x00\x00\x00\x00\x00"
				if err := os.WriteFile(filepath.Join(dir, "proc/321/cmdline"), []byte(title), 0o444); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errOut := runCLI(append([]string{"--root", dir, "status"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("%s: exit %d, want %d\n%s%s", tc.reason, code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: output lacks %q:\n%s", tc.reason, w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("%s: output has %q:\n%s", tc.reason, n, out)
				}
			}
			jcode, js, _ := runCLI(append([]string{"--root", dir, "status", "--json"}, tc.args...)...)
			if jcode != tc.code || !strings.Contains(js, fmt.Sprintf(`"pending":%v`, tc.code == 1)) {
				t.Errorf("%s: --json exit %d:\n%s", tc.reason, jcode, js)
			}
		})
	}
}
