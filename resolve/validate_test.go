package resolve_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestValidate covers k3s's own checks after parsing (resolve/validate.go) where they depend
// on the release, on files of the node, or on other keys, case by case.
func TestValidate(t *testing.T) {
	agentUnit := "[Service]\nExecStart=/usr/local/bin/k3s agent\n"
	serverUnit := "[Service]\nExecStart=/usr/local/bin/k3s server\n"
	cert := map[string]string{
		"/var/lib/rancher/k3s/agent/client-kubelet.crt": "x",
		"/var/lib/rancher/k3s/agent/client-kubelet.key": "x",
	}
	merge := func(ms ...map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	tests := []struct {
		name, reason string
		product      string
		version      string
		files        map[string]string
		want         string // code expected, "" for none of the validation codes
		refuses      string
	}{
		{"agent-no-token", "an agent without any token stops", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"},
			"agent-token-required", "--token is required"},
		{"agent-first-refusal-only", "k3s stops at its first refusal: no kubelet finding after --token is required", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\nnode-ip: [10.0.0.1, 10.0.0.2]\n"},
			"agent-token-required", "--token is required"},
		{"agent-cert-newest", "an existing client-kubelet certificate stands in for the token (992e64993)", "", "",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"", ""},
		{"agent-cert-v1.25.6", "before v1.25.7 the certificate did not count", "", "v1.25.6+k3s1",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"agent-token-required", "--token is required"},
		{"agent-cert-v1.25.7", "the backport is in v1.25.7", "", "v1.25.7+k3s1",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"", ""},
		{"agent-token-file", "token-file counts as a token (k3s reads the file)", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\ntoken-file: /t\n", "/t": "x"},
			"", ""},
		{"agent-token-env", "K3S_TOKEN in the env file is the token", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nEnvironmentFile=/etc/systemd/system/k3s-agent.service.env\nExecStart=/usr/local/bin/k3s agent\n",
				"/etc/systemd/system/k3s-agent.service.env": "K3S_TOKEN=abc\nK3S_URL=https://s:6443\n"},
			"", ""},
		{"agent-no-server", "token but no server", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "token: abc\n"},
			"agent-server-required", "--server is required"},
		{"node-ip-pair-v1.28.3", "since v1.28.3 the kubelet gets both addresses and refuses two IPv4", "", "v1.28.3+k3s1",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: [10.0.0.1, 10.0.0.2]\n"},
			"node-ip-not-dual-stack", "must contain either a single IP or a dual-stack pair of IPs"},
		{"node-ip-pair-v1.28.2", "before, k3s gave the kubelet the first address only", "", "v1.28.2+k3s1",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: [10.0.0.1, 10.0.0.2]\n"},
			"", ""},
		{"node-ip-pair-no-ccm", "with the embedded cloud controller disabled k3s passes only the first of a non-dual-stack list", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: [10.0.0.1, 10.0.0.2]\ndisable-cloud-controller: true\n"},
			"", ""},
		{"node-ip-three", "three addresses are never a pair", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: \"10.0.0.1,fd00::1,10.0.0.3\"\n"},
			"node-ip-not-dual-stack", "bad --node-ip \"10.0.0.1,fd00::1,10.0.0.3\""},
		{"node-ip-rke2", "RKE2 runs with k3s's cloud controller disabled", "rke2", "",
			map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server\n", "/etc/rancher/rke2/config.yaml": "node-ip: [10.0.0.1, 10.0.0.2]\n"},
			"", ""},
		{"node-ip-leading-zero", "net.ParseIP rejects leading zeros, so k3s does", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: 192.168.001.10\n"},
			"node-ip-invalid", "invalid node-ip: invalid ip format '192.168.001.10'"},
		{"node-ip-disable-agent", "a server without an agent runs no kubelet, but k3s still parses node-ip", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "disable-agent: true\nnode-ip: [10.0.0.1, 10.0.0.2]\n"},
			"", ""},
		{"join-already-joined", "a server whose etcd member directory exists has joined: no token needed", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n", "/var/lib/rancher/k3s/server/db/etcd/config": "x"},
			"", ""},
		{"join-external-datastore", "with an external datastore the join check does not apply", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\ndatastore-endpoint: mysql://u:p@tcp(db)/k3s\n"},
			"", ""},
		{"cluster-reset-with-server", "cluster-reset with a server URL", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\ntoken: x\ncluster-reset: true\n"},
			"server-flag-conflict", "cannot perform cluster-reset while server URL is set"},
		{"datastore-disable-etcd", "disable-etcd with an external datastore", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "datastore-endpoint: mysql://u:p@tcp(db)/k3s\ndisable-etcd: true\nserver: https://s:6443\ntoken: x\n"},
			"server-flag-conflict", "cannot use --disable-etcd with --datastore-endpoint"},
		{"egress-mode", "an unknown egress-selector-mode", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "egress-selector-mode: none\n"},
			"server-flag-invalid", "invalid egress-selector-mode none"},
		{"cluster-dns", "a cluster-dns that is not an IP", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "cluster-dns: 10.43.0.10.1\n"},
			"server-flag-invalid", "invalid cluster-dns address 10.43.0.10.1"},
	}
	snapshot := map[string]string{"/var/lib/rancher/k3s/server/db/etcd/config": "x"}
	tests = append(tests, []struct {
		name, reason string
		product      string
		version      string
		files        map[string]string
		want         string
		refuses      string
	}{
		// Found by the differential run against k8s.io/component-helpers ParseNodeIPArgument
		// (3,000 generated node-ip lists, seed 16): a dual-stack pair with an unspecified
		// address is refused too.
		{"node-ip-unspecified-pair", "the kubelet refuses 0.0.0.0 or :: in a dual-stack pair", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: \"0.0.0.0,fd00::1\"\n"},
			"node-ip-not-dual-stack", `bad --node-ip "0.0.0.0,fd00::1": dual-stack node IP cannot include '0.0.0.0' or '::'`},
		{"node-ip-swapped", "with an IPv4 cluster-cidr k3s puts the IPv4 address first, and the kubelet's message shows that order", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "cluster-cidr: 10.42.0.0/16\nnode-ip: \"::,10.0.0.1\"\n"},
			"node-ip-not-dual-stack", `bad --node-ip "10.0.0.1,::"`},
		{"node-ip-v6-first", "without cluster-cidr the default follows the first address: an IPv6-first pair is valid", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: \"fd00::1,10.0.0.1\"\n"},
			"", ""},
		{"node-ip-spaces-config", "k3s's configfilearg trims every config value (pkg/configfilearg/parser.go), so a padded item is valid", "", "v1.30.5+k3s1",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "node-ip: [\" 10.0.0.3\"]\n"},
			"", ""},
		{"node-ip-spaces-cli-v2", "urfave/cli v2 trims each StringSlice value", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server '--node-ip= 10.0.0.3'\n"},
			"", ""},
		{"node-ip-spaces-cli-v1", "urfave/cli v1 (before v1.31.8, v1.32.4, v1.33.0) keeps the space, and net.ParseIP refuses it", "", "v1.30.5+k3s1",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server '--node-ip= 10.0.0.3'\n"},
			"node-ip-invalid", "invalid node-ip: invalid ip format ' 10.0.0.3'"},
		{"etcd-snapshot-no-token", "the request/response etcd-snapshot needs the server token", "", "", snapshot, "etcd-snapshot-no-token", "server/token: no such file"},
		{"etcd-snapshot-v1.29", "before v1.30.0 etcd-snapshot ran locally without a token (backports not modelled)", "", "v1.29.6+k3s1", snapshot, "", ""},
	}...)
	codes := map[string]bool{"etcd-snapshot-no-token": true, "agent-token-required": true, "agent-server-required": true, "server-flag-conflict": true, "server-flag-invalid": true,
		"server-join-token-required": true, "node-ip-invalid": true, "node-ip-not-dual-stack": true, "node-label-not-key-value": true}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for p, data := range tc.files {
				if err := afero.WriteFile(fs, p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := resolve.Options{FS: fs, Version: tc.version}
			if strings.HasPrefix(tc.name, "etcd-snapshot") {
				opts.Command, opts.Args = "etcd-snapshot", []string{"etcd-snapshot", "save"}
			}
			if tc.product != "" {
				opts.Profile, _ = profile.ByName(tc.product)
			}
			res, err := resolve.Resolve(opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Diagnostics {
				if codes[d.Code] {
					got = append(got, d.Code)
				}
			}
			want := []string{}
			if tc.want != "" {
				want = []string{tc.want}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s: validation findings %v, want %v (error %q)", tc.reason, got, want, res.Error)
			}
			if !strings.Contains(res.Error, tc.refuses) || (tc.refuses == "" && res.Error != "") {
				t.Errorf("%s: refusal %q, want one containing %q", tc.reason, res.Error, tc.refuses)
			}
		})
	}
}
