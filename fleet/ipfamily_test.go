package fleet_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/fleet"
)

// TestAgentIPFamilies: an agent's node-ip against its server's cluster-cidr, by release
// (resolve's ip-family-node and ip-family-node-strict rows: k3s-io/k3s 314e3f56d from
// v1.24.0 and v1.23.7, relaxed by d90ba3035 in v1.24.4 and v1.23.10), and the cases fleet
// leaves alone.
func TestAgentIPFamilies(t *testing.T) {
	const dual = "cluster-cidr: 10.42.0.0/16,2001:cafe:42::/56\nservice-cidr: 10.43.0.0/16,2001:cafe:43::/112\nnode-ip: 10.0.0.11,2001:db8::11\n"
	const v4 = "cluster-cidr: 10.42.0.0/16\nnode-ip: 10.0.0.11\n"
	for _, tc := range []struct {
		name, reason, version, server, agent string
		want                                 bool
	}{
		{"v4-agent-dual-cluster", "the agent lacks the cluster's IPv6", "", dual, "node-ip: 10.0.0.21\n", true},
		{"dual-agent", "both versions: quiet", "", dual, "node-ip: 10.0.0.21,2001:db8::21\n", false},
		{"v6-agent-v4-cluster", "an IPv6-only agent in an IPv4 cluster", "", v4, "node-ip: 2001:db8::21\n", true},
		{"dual-agent-v4-cluster", "relaxed: more versions than the cluster is fine", "", v4, "node-ip: 10.0.0.21,2001:db8::21\n", false},
		{"dual-agent-v4-cluster-1.24.3", "strict on v1.24.3", "v1.24.3+k3s1", v4, "node-ip: 10.0.0.21,2001:db8::21\n", true},
		{"dual-agent-v4-cluster-1.24.4", "relaxed from v1.24.4", "v1.24.4+k3s1", v4, "node-ip: 10.0.0.21,2001:db8::21\n", false},
		{"v4-agent-dual-cluster-1.23.6", "before the check", "v1.23.6+k3s1", dual, "node-ip: 10.0.0.21\n", false},
		{"v4-agent-dual-cluster-1.23.7", "the strict check's backport", "v1.23.7+k3s1", dual, "node-ip: 10.0.0.21\n", true},
		{"no-node-ip", "without node-ip the host's addresses decide: not judged", "", dual, "", false},
		{"default-cluster-cidr", "the server's default cluster-cidr follows its addresses: not judged", "", "node-ip: 10.0.0.11\n", "node-ip: 2001:db8::21\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(node, p, c string) {
				full := filepath.Join(dir, node, p)
				_ = os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("server-1", "etc/systemd/system/k3s.service", "[Service]\nExecStart=/usr/local/bin/k3s server\n")
			write("server-1", "etc/rancher/k3s/config.yaml", "token: s\nnode-name: server-1\n"+tc.server)
			write("agent-1", "etc/systemd/system/k3s-agent.service", "[Service]\nExecStart=/usr/local/bin/k3s agent\n")
			write("agent-1", "etc/rancher/k3s/config.yaml", "server: https://10.0.0.11:6443\ntoken: s\nnode-name: agent-1\n"+tc.agent)
			l := &fleet.Loader{Version: tc.version}
			var nodes []*fleet.Node
			for _, n := range []string{"server-1", "agent-1"} {
				ns, bad := l.Path(filepath.Join(dir, n))
				if len(bad) > 0 {
					t.Fatal(bad)
				}
				nodes = append(nodes, ns...)
			}
			var got []string
			for _, f := range fleet.Analyze(nodes, nil).Findings {
				if f.Code == "agent-ip-family-mismatch" {
					got = append(got, f.Message)
				}
			}
			if (len(got) > 0) != tc.want {
				t.Errorf("%s: findings %q, want one: %v", tc.reason, strings.Join(got, "; "), tc.want)
			}
		})
	}
}
