package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type runCase struct {
	name     string
	args     []string
	wantCode int
	wantOut  string
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The embedding example is documentation that runs: each case pins one exit path against
// the example node in examples/node.
func TestRun(t *testing.T) {
	tests := []runCase{
		{"set on the unit's command line: the policy forbids it", []string{"../node", "write-kubeconfig-mode"}, 1,
			"policy violation: write-kubeconfig-mode = 644 is set by /etc/systemd/system/k3s.service:31:2 (cli), not by a config file\n"},
		{"set in config.yaml: compliant", []string{"../node", "cluster-init"}, 0,
			"ok: cluster-init = true from /etc/rancher/k3s/config.yaml:10:15\n"},
		{"the secret stays redacted in an embedding tool's output too", []string{"../node", "token"}, 0,
			"ok: token = REDACTED from /etc/rancher/k3s/config.yaml:3:8\n"},
		{"left at its default: a violation naming the default", []string{"../node", "https-listen-port"}, 1,
			"policy violation: https-listen-port = 6443 is set by its default, not by a config file\n"},
		{"not a k3s flag: usage error", []string{"../node", "no-such-flag"}, 2, ""},
		{"wrong number of arguments: usage error", []string{"../node"}, 2, ""},
	}
	broken := t.TempDir()
	writeFile(t, filepath.Join(broken, "etc/rancher/k3s/config.yaml"), "token: abc\n  bad: indentation\n")
	unread := t.TempDir()
	writeFile(t, filepath.Join(unread, "etc/rancher/k3s/config.yaml"), "")
	// Over k3sconf's 16 MiB limit (sparse, so cheap): k3sconf cannot read it.
	if err := os.Truncate(filepath.Join(unread, "etc/rancher/k3s/config.yaml"), 17<<20); err != nil {
		t.Fatal(err)
	}
	tests = append(tests,
		runCase{"broken YAML: k3s would not start, a violation", []string{broken, "token"}, 1,
			"policy violation: k3s would not start: /etc/rancher/k3s/config.yaml:2:3: yaml: line 2: mapping values are not allowed in this context\n"},
		runCase{"config.yaml unreadable: no verdict", []string{unread, "token"}, 3, ""})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(tt.args, &out, &errOut); code != tt.wantCode {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tt.wantCode, errOut.String())
			}
			if out.String() != tt.wantOut {
				t.Errorf("stdout = %q, want %q", out.String(), tt.wantOut)
			}
			if (tt.wantCode == 2 || tt.wantCode == 3) && errOut.Len() == 0 {
				t.Error("usage error without a message on stderr")
			}
		})
	}
}
