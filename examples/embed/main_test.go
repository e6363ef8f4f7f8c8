package main

import (
	"strings"
	"testing"
)

// The embedding example is documentation that runs: each case pins one exit path against
// the example node in examples/node.
func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
	}{
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(tt.args, &out, &errOut); code != tt.wantCode {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tt.wantCode, errOut.String())
			}
			if out.String() != tt.wantOut {
				t.Errorf("stdout = %q, want %q", out.String(), tt.wantOut)
			}
			if tt.wantCode == 2 && errOut.Len() == 0 {
				t.Error("usage error without a message on stderr")
			}
		})
	}
}
