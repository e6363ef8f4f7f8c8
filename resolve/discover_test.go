package resolve_test

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestDiscoverUnit: without k3s.service or k3s-agent.service, the unit whose ExecStart runs
// k3s is read; the command asked for wins, else server before agent; units that run
// something else (k3s-killall.sh, a shell) are not taken.
func TestDiscoverUnit(t *testing.T) {
	units := map[string]string{
		"/etc/systemd/system/k3s-node.service":     "[Service]\nExecStart=/nix/store/x-k3s/bin/k3s agent --server https://10.0.0.1:6443 --token t\n",
		"/etc/systemd/system/k3s-server.service":   "[Service]\nExecStart=/nix/store/x-k3s/bin/k3s server --cluster-init\n",
		"/etc/systemd/system/k3s-cleanup.service":  "[Service]\nExecStart=/usr/local/bin/k3s-killall.sh\n",
		"/usr/lib/systemd/system/other.service":    "[Service]\nExecStart=/bin/sh -c 'k3s server'\n",
		"/usr/lib/systemd/system/k3s-args.service": "[Service]\nExecStart=/usr/bin/k3s $K3S_ARGS\n",
	}
	tests := []struct {
		name, reason string
		only         []string
		command      string
		want         string
	}{
		{"server-first", "no command asked: server before agent", []string{"/etc/systemd/system/k3s-node.service", "/etc/systemd/system/k3s-server.service"}, "", "/etc/systemd/system/k3s-server.service"},
		{"agent-asked", "--command agent picks the agent's unit", []string{"/etc/systemd/system/k3s-node.service", "/etc/systemd/system/k3s-server.service"}, "agent", "/etc/systemd/system/k3s-node.service"},
		{"not-k3s", "k3s-killall.sh and a shell are not k3s", []string{"/etc/systemd/system/k3s-cleanup.service", "/usr/lib/systemd/system/other.service"}, "", ""},
		{"variable", "the command word in a variable still runs k3s", []string{"/usr/lib/systemd/system/k3s-args.service"}, "", "/usr/lib/systemd/system/k3s-args.service"},
		{"agent-asked-none", "--command agent and only a server unit: none is taken", []string{"/etc/systemd/system/k3s-server.service"}, "agent", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for _, p := range tc.only {
				_ = afero.WriteFile(fs, p, []byte(units[p]), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs, Command: tc.command})
			if err != nil {
				t.Fatal(err)
			}
			if res.Unit != tc.want {
				t.Errorf("%s: unit %q, want %q", tc.reason, res.Unit, tc.want)
			}
		})
	}
}
