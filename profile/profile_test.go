package profile

import "testing"

// The counts come from the reference: server 126 flags, agent 46 (45 shared, plus
// disable-apiserver-lb), etcd-snapshot 28 (k3s-io/k3s@2a1e2e8cf pkg/cli/cmds).
func TestK3sCatalog(t *testing.T) {
	p := K3s()
	tests := []struct {
		cmd    string
		flags  int
		reason string
	}{
		{"server", 126, "cmds.ServerFlags"},
		{"agent", 46, "NewAgentCommand flags"},
		{"etcd-snapshot", 28, "cmds.EtcdSnapshotFlags"},
	}
	for _, tc := range tests {
		if got := len(p.Command(tc.cmd).Flags); got != tc.flags {
			t.Errorf("%s: %d flags, want %d (%s)", tc.cmd, got, tc.flags, tc.reason)
		}
	}
	server, agent := p.Command("server"), p.Command("agent")
	if f := server.Lookup("t"); f == nil || f.Name != "token" || !f.Secret {
		t.Errorf("alias t must find the secret flag token, got %+v", f)
	}
	if f := agent.Lookup("data-dir"); f.Default != "/var/lib/rancher/k3s" {
		t.Errorf("agent data-dir default = %q; agent.go sets Value, server computes it at runtime", f.Default)
	}
	if f := server.Lookup("data-dir"); f.Default != "" {
		t.Errorf("server data-dir default = %q, want none", f.Default)
	}
	if !server.FiltersConfig || agent.FiltersConfig || !p.Command("etcd-snapshot").FiltersConfig {
		t.Error("ValidFlags has server and etcd-snapshot, not agent (defaultparser.go)")
	}
	if server.ConfigValid["disable-apiserver-lb"] {
		t.Error("disable-apiserver-lb is agent-only and must be skipped in a server's config")
	}
	if p.Command("etcd-snapshot").ConfigValid["token"] {
		t.Error("etcd-snapshot has etcd-token, not token: token: in config.yaml is skipped (commit 37830fe17)")
	}
	if a, b := server.Lookup("kube-controller-arg"), server.Lookup("kube-controller-manager-arg"); a.Destination == "" || a.Destination != b.Destination {
		t.Error("kube-controller-arg and kube-controller-manager-arg share one Destination (server.go)")
	}
}

func TestBehaviour(t *testing.T) {
	p := K3s()
	tests := []struct {
		version      string
		cli          int
		missingFatal bool
		wantErr      bool
		reason       string
	}{
		{"", 2, false, false, "newest"},
		{"v1.33.0+k3s1", 2, false, false, "v1.33 has urfave/cli v2 from .0"},
		{"v1.32.3+k3s1", 1, false, false, "the v1.32 backport came in v1.32.4"},
		{"v1.32.4+k3s1", 2, false, false, "first v1.32 release with urfave/cli v2"},
		{"v1.31.7+k3s1", 1, false, false, "v1.31.8 was the first v2 release of the line"},
		{"v1.31.8+k3s1", 2, false, false, "PR #12030"},
		{"v1.30.2+k3s2", 1, true, false, "e51494002 came in v1.30.3"},
		{"v1.30.3+k3s1", 1, false, false, "e51494002 backport #10596"},
		{"v1.29.6+k3s1", 1, true, false, "v1.29.7 got the fix"},
		{"1.28.5", 1, true, false, "the v1.28 backport (#10598) came in v1.28.12"},
		{"v1.28.11+k3s2", 1, true, false, "the last v1.28 release before #10598"},
		{"v1.28.12+k3s1", 1, false, false, "#10598, validated on v1.28.12-rc2 (k3s-io/k3s#10594)"},
		{"v1.27.15+k3s1", 1, true, false, "the last v1.27 release before #10599"},
		{"v1.27.16+k3s1", 1, false, false, "#10599, validated on v1.27.16-rc2 (k3s-io/k3s#10595)"},
		{"v1.22.3+k3s1", 0, false, true, "before ef263bd2b config keys were filtered differently"},
		{"banana", 0, false, true, "not a version"},
	}
	for _, tc := range tests {
		b, err := p.Behaviour(tc.version)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v, want error %v (%s)", tc.version, err, tc.wantErr, tc.reason)
			continue
		}
		if err == nil && (b.CLI != tc.cli || b.MissingExplicitConfigFatal != tc.missingFatal) {
			t.Errorf("%s: CLI v%d, missing-config-fatal %v; want v%d, %v (%s)", tc.version, b.CLI, b.MissingExplicitConfigFatal, tc.cli, tc.missingFatal, tc.reason)
		}
	}
}

// Counts from data/rke2-README.md (rancher/rke2@6ce1a8019e): server 135, agent 66,
// etcd-snapshot 28.
func TestRKE2Catalog(t *testing.T) {
	p := RKE2()
	for cmd, want := range map[string]int{"server": 135, "agent": 66, "etcd-snapshot": 28} {
		if got := len(p.Command(cmd).Flags); got != want {
			t.Errorf("%s: %d flags, want %d", cmd, got, want)
		}
	}
	server, agent := p.Command("server"), p.Command("agent")
	if !agent.FiltersConfig || !agent.ConfigValid["node-label"] || agent.ConfigValid["disable"] {
		t.Error("RKE2 registers ValidFlags for agent: node-label is valid, server-only disable is skipped")
	}
	if server.Lookup("cluster-init") != nil || server.ConfigValid["cluster-init"] {
		t.Error("rke2 drops cluster-init: a cluster-init: key is skipped with a warning")
	}
	if f := server.Lookup("cni"); f == nil || f.Default != "canal" || f.Type != StringSlice {
		t.Errorf("cni is RKE2's StringSlice with default canal, got %+v", f)
	}
	if f := server.Lookup("data-dir"); f.Default != "/var/lib/rancher/rke2" {
		t.Errorf("data-dir default %q", f.Default)
	}
	if f := server.Lookup("token"); len(f.EnvVars) == 0 || f.EnvVars[0] != "RKE2_TOKEN" || !f.Secret {
		t.Errorf("token reads RKE2_TOKEN and is secret, got %+v", f)
	}
	if p.Wrapper || len(p.RootFlags) != 0 {
		t.Error("rke2 has no multicall wrapper and no app-level flags")
	}
}

// The agent's flags follow agent.go's declaration order, not the server table's.
func TestAgentOrder(t *testing.T) {
	flags := K3s().Command("agent").Flags
	var got []string
	for _, f := range flags {
		got = append(got, f.Name)
	}
	if len(got) != len(k3sAgentOrder) {
		t.Fatalf("%d agent flags, order lists %d", len(got), len(k3sAgentOrder))
	}
	for i := range got {
		if got[i] != k3sAgentOrder[i] {
			t.Fatalf("flag %d is %s, want %s (agent.go order)", i, got[i], k3sAgentOrder[i])
		}
	}
}
