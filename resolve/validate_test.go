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
		{"agent-whole-list", "k3s stops at its first refusal; k3sconf goes on and marks the kubelet's refusal after fixing the above", "", "",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\nnode-ip: [10.0.0.1, 10.0.0.2]\n"},
			"agent-token-required,+node-ip-not-dual-stack", "--token is required"},
		{"agent-cert-newest", "an existing client-kubelet certificate passes agent.go's token check (992e64993), but the token loop then retries for ever: \"token must not be empty\"", "", "",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"join-token-invalid", ""},
		{"agent-cert-v1.25.6", "before v1.25.7 the certificate did not count", "", "v1.25.6+k3s1",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"agent-token-required", "--token is required"},
		{"agent-cert-v1.25.7", "the backport is in v1.25.7 (and the token loop retries)", "", "v1.25.7+k3s1",
			merge(cert, map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\n"}),
			"join-token-invalid", ""},
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
		{"join-already-joined", "a server whose etcd member wal directory exists has joined: no token needed (etcd IsInitialized)", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\ncluster-init: true\n", "/var/lib/rancher/k3s/server/db/etcd/member/wal/0.wal": "x"},
			"", ""},
		{"join-etcd-folder-only", "db/etcd without member/wal is not initialised: the join still needs the token", "", "",
			map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": "server: https://s:6443\ncluster-init: true\n", "/var/lib/rancher/k3s/server/db/etcd/config": "x"},
			"server-join-token-required", "token is required to join a cluster"},
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
	// k3s's checks after parsing, each both ways (issue 20): the datastore choice and the
	// join, the agent's load balancer and URL, the server's value checks in their order, the
	// etcd-snapshot subcommands' arguments, and the release of each.
	cfg := func(c string) map[string]string {
		return map[string]string{"/etc/systemd/system/k3s.service": serverUnit, "/etc/rancher/k3s/config.yaml": c}
	}
	acfg := func(c string) map[string]string {
		return map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": c}
	}
	hash := strings.Repeat("ab", 32)
	wal := map[string]string{"/var/lib/rancher/k3s/server/db/etcd/member/wal/0.wal": "x"}
	snapTok := map[string]string{"/var/lib/rancher/k3s/server/token": "K10" + hash + "::server:pw\n"}
	tests = append(tests, []struct {
		name, reason string
		product      string
		version      string
		files        map[string]string
		want         string
		refuses      string
	}{
		{"join-no-token-no-cluster-init", "server: without token or cluster-init: no managed etcd, k3s starts alone on sqlite and ignores --server (a warning, no refusal)", "", "",
			cfg("server: https://s:6443\n"), "server-url-ignored", ""},
		{"join-no-server", "no server: nothing to ignore", "", "", cfg("token: pw\n"), "", ""},
		{"join-token-and-url", "token and server without cluster-init pick the managed etcd; a bare password is a valid token", "", "",
			cfg("server: https://s:6443\ntoken: pw\n"), "", ""},
		{"join-ca-hash-length", "a K10 token whose CA hash is not 64 hex digits", "", "",
			cfg("server: https://s:6443\ntoken: K10abc::server:pw\n"), "join-token-invalid", "failed to validate token: invalid token CA hash length"},
		{"join-token-format", "a K10 token with an empty password", "", "",
			cfg("server: https://s:6443\ntoken: \"K10" + hash + "::server:\"\n"), "join-token-invalid", "invalid token format"},
		{"join-token-full", "a full K10 token parses", "", "",
			cfg("server: https://s:6443\ntoken: K10" + hash + "::server:pw\n"), "", ""},
		{"join-http", "the join URL must be https", "", "",
			cfg("server: http://s:6443\ntoken: pw\n"), "join-url-invalid", "only https:// URLs are supported, invalid scheme: http://s:6443"},
		{"join-no-scheme", "Go's url.Parse rejects host:port without a scheme", "", "",
			cfg("server: 10.0.0.1:6443\ntoken: pw\n"), "join-url-invalid", `Invalid server url, failed to parse: 10.0.0.1:6443: parse "10.0.0.1:6443": first path segment in URL cannot contain colon`},
		{"join-joined-bad-token", "an initialised member ignores token errors", "", "",
			merge(wal, cfg("server: https://s:6443\ntoken: K10abc::server:pw\n")), "", ""},
		{"join-rke2-no-token", "RKE2 sets cluster-init on every server, so server: without a token is the bootstrap refusal", "rke2", "",
			map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server\n", "/etc/rancher/rke2/config.yaml": "server: https://s:9345\n"},
			"server-join-token-required", "token is required to join a cluster"},
		{"rke2-disable-etcd-kine", "RKE2 runs kine for disable-etcd without server (rke2_linux.go initStaticPodExecutor)", "rke2", "",
			map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server\n", "/etc/rancher/rke2/config.yaml": "disable-etcd: true\n"}, "", ""},
		{"k3s-disable-etcd-no-server", "k3s refuses disable-etcd without server", "", "",
			cfg("disable-etcd: true\n"), "server-flag-conflict", "--server is required with --disable-etcd"},
		{"agent-lb-port", "the agent's load balancer cannot listen on a port above 65535", "", "",
			acfg("server: https://s:6443\ntoken: pw\nlb-server-port: 70000\n"), "agent-lb-port-invalid", "listen tcp: address 70000: invalid port"},
		{"agent-lb-port-ok", "6444 is fine", "", "", acfg("server: https://s:6443\ntoken: pw\nlb-server-port: 6444\n"), "", ""},
		{"agent-lb-disabled", "without the load balancer the port is not used", "", "",
			acfg("server: https://s:6443\ntoken: pw\nlb-server-port: 70000\ndisable-apiserver-lb: true\n"), "", ""},
		{"agent-url-no-scheme", "the load balancer's url.Parse rejects 10.0.0.1:6443", "", "",
			acfg("server: 10.0.0.1:6443\ntoken: pw\n"), "join-url-invalid", `parse "10.0.0.1:6443": first path segment in URL cannot contain colon`},
		{"agent-http-retries", "an http:// server: the agent's token loop retries for ever (no exit, still an error)", "", "",
			acfg("server: http://s:6443\ntoken: pw\n"), "join-url-invalid", ""},
		{"agent-bad-token-retries", "a token with a short CA hash: the agent retries for ever", "", "",
			acfg("server: https://s:6443\ntoken: K10abc::server:pw\n"), "join-token-invalid", ""},
		{"agent-node-ip-newest", "since a7d3c8559 (v1.34.2) the agent stops on a bad node-ip before it connects", "", "",
			acfg("server: https://s:6443\ntoken: pw\nnode-ip: bogus\n"), "node-ip-invalid", "failed to get node name and addresses: invalid node-ip: invalid ip format 'bogus'"},
		{"agent-node-ip-v1.34.1", "before, it retried for ever once it had its configuration", "", "v1.34.1+k3s1",
			acfg("server: https://s:6443\ntoken: pw\nnode-ip: bogus\n"), "node-ip-invalid", ""},
		{"rootless-node-ip-comma", "a rootless server checks node-ip items whole first (IsDualStackIPStrings)", "", "",
			cfg("rootless: true\nnode-ip: \"10.0.0.1,fd00::1\"\n"), "node-ip-invalid", "invalid IP[0]: 10.0.0.1,fd00::1"},
		{"node-ip-comma-not-rootless", "without rootless a comma-separated dual-stack pair is fine", "", "",
			cfg("node-ip: \"10.0.0.1,fd00::1\"\n"), "", ""},
		{"rootless-node-ip-leading-zero", "ParseIPSloppy takes leading zeros, so the rootless check passes and GetHostnameAndIPs refuses", "", "",
			cfg("rootless: true\nnode-ip: 192.168.001.10\n"), "node-ip-invalid", "invalid node-ip: invalid ip format '192.168.001.10'"},
		{"node-port-range-colon", "ParsePortRange wants FIRST-LAST", "", "",
			cfg("service-node-port-range: \"30000:32767\"\n"), "server-flag-invalid", `invalid port range 30000:32767: strconv.Atoi: parsing "30000:32767": invalid syntax`},
		{"node-port-range-reversed", "end before start", "", "",
			cfg("service-node-port-range: 32767-30000\n"), "server-flag-invalid", "end port cannot be less than start port: 32767-30000"},
		{"node-port-range-ok", "the default shape", "", "", cfg("service-node-port-range: 30000-32767\n"), "", ""},
		{"service-cidr-30", "a /30 has fewer than 8 addresses", "", "",
			cfg("service-cidr: 10.43.0.0/30\n"), "server-flag-invalid", "the service cluster IP range must be at least 8 IP addresses"},
		{"service-cidr-29-default-dns", "a /29 has no index 10 for the default cluster-dns", "", "",
			cfg("service-cidr: 10.43.0.0/29\n"), "server-flag-invalid", `cannot configure default cluster-dns address: can't generate IP with index 10 from subnet. subnet too small. subnet: "10.43.0.0/29"`},
		{"service-cidr-29-explicit-dns", "with cluster-dns set the default is not computed", "", "",
			cfg("service-cidr: 10.43.0.0/29\ncluster-dns: 10.43.0.2\n"), "", ""},
		{"service-cidr-28", "a /28 fits index 10", "", "", cfg("service-cidr: 10.43.0.0/28\n"), "", ""},
		{"tls-min-version", "an unknown TLS version in kube-apiserver-arg", "", "",
			cfg("kube-apiserver-arg: [tls-min-version=VersionTLS14]\n"), "server-flag-invalid", `invalid tls-min-version: unknown tls version "VersionTLS14"`},
		{"tls-min-version-ok", "VersionTLS13 is known", "", "", cfg("kube-apiserver-arg: [tls-min-version=VersionTLS13]\n"), "", ""},
		{"tls-cipher", "an unknown cipher suite", "", "",
			cfg("kube-apiserver-arg: [\"tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_FOO\"]\n"), "server-flag-invalid", "invalid tls-cipher-suites: Cipher suite TLS_FOO not supported or doesn't exist"},
		{"tls-cipher-ok", "Go's names", "", "",
			cfg("kube-apiserver-arg: [\"tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305\"]\n"), "", ""},
		{"tls-arg-no-value", "util.ArgValue indexes past an item without =, and run recovers the panic", "", "",
			cfg("kube-apiserver-arg: [tls-min-version]\n"), "server-flag-invalid", "server panicked: runtime error: index out of range [1] with length 1"},
		{"helm-controller-arg-json", "job-tolerations that is not JSON", "", "",
			cfg("helm-controller-arg: [\"job-tolerations=[{\"]\n"), "server-flag-invalid", "failed to parse helm-controller-arg: invalid --job-tolerations JSON: unexpected end of JSON input"},
		{"helm-controller-arg-ok", "valid JSON", "", "", cfg("helm-controller-arg: [\"job-tolerations=[]\"]\n"), "", ""},
		{"helm-controller-threads", "threads must be positive", "", "",
			cfg("helm-controller-arg: [threads=0]\n"), "server-flag-invalid", "cannot start with thread count of 0"},
		{"restore-no-token", "a restore without --token needs server/token in the data dir", "", "",
			merge(wal, cfg("cluster-reset: true\ncluster-reset-restore-path: /snap\n")), "cluster-reset-restore-no-token", "/var/lib/rancher/k3s/server/token does not exist, please pass --token to complete the restoration"},
		{"restore-with-token", "--token given", "", "", merge(wal, cfg("cluster-reset: true\ncluster-reset-restore-path: /snap\ntoken: pw\n")), "", ""},
		{"reconcile-interval-newest", "etcd-snapshot-reconcile-interval must be positive", "", "",
			cfg("etcd-snapshot-reconcile-interval: 0s\n"), "server-flag-invalid", "etcd-snapshot-reconcile-interval must be greater than 0s"},
		{"s3-timeout-v1.32.2", "before v1.32.3 the S3 timeout was not checked", "", "v1.32.2+k3s1",
			cfg("etcd-s3: true\netcd-s3-timeout: 0s\n"), "", ""},
		{"s3-timeout-v1.32.3", "from v1.32.3 it is", "", "v1.32.3+k3s1",
			cfg("etcd-s3: true\netcd-s3-timeout: 0s\n"), "server-flag-invalid", "etcd-s3-timeout must be greater than 0s"},
		{"server-whole-list", "every problem in one run, in k3s's order, the later ones after fixing the above", "", "",
			cfg("cluster-cidr: \"10.42.0.0/16, fd00::/56\"\negress-selector-mode: none\nnode-label: [worker]\n"),
			"server-flag-invalid,+server-flag-invalid,+node-label-not-key-value", "invalid cluster-cidr  fd00::/56"},
		{"etcd-snapshot-delete-no-names", "delete needs the names", "", "", snapTok, "etcd-snapshot-invalid-use", "no snapshots given for removal"},
		{"etcd-snapshot-delete-names", "names given", "", "", snapTok, "", ""},
		{"etcd-snapshot-save-args", "save takes no arguments", "", "", snapTok, "etcd-snapshot-invalid-use", "this command does not take any arguments"},
		{"etcd-snapshot-ls-format", "ls -o xml", "", "", snapTok, "etcd-snapshot-invalid-use", "invalid output format: xml"},
		{"etcd-snapshot-ls-json", "ls -o json", "", "", snapTok, "", ""},
		{"etcd-snapshot-token-format", "the server token file is validated like a join token", "", "",
			map[string]string{"/var/lib/rancher/k3s/server/token": "K10abc::server:pw\n"}, "join-token-invalid", "invalid token CA hash length"},
	}...)
	// Disagreements found by the differential run against a transcription of k3s's checks
	// (issue 20; 400 generated nodes per seed, newest and v1.32.2): the whole list after a
	// refusal, as k3s reports it once the refusal is fixed. Each is kept here by name.
	tests = append(tests, []struct {
		name, reason string
		product      string
		version      string
		files        map[string]string
		want         string
		refuses      string
	}{
		{"diff-agent-http-after-token", "after --token is required, the token loop still refuses an http:// server", "", "",
			acfg("server: http://10.0.0.1:6443\n"), "agent-token-required,+join-url-invalid", "--token is required"},
		{"diff-agent-cert-no-server", "a certificate and no server: after --server is required, the token loop has no token", "", "",
			merge(cert, acfg("node-label: [a=b]\n")), "agent-server-required,+join-token-invalid", "--server is required"},
		{"diff-agent-lb-port-then-http", "the token loop's local URL has the fixed load-balancer port, not the refused one", "", "",
			acfg("server: http://10.0.0.1:6443\ntoken: pw\nlb-server-port: 70000\n"), "agent-lb-port-invalid,+join-url-invalid", "invalid port"},
		{"diff-agent-ipv6-local-url", "with an IPv6 first node-ip the load balancer listens on ::1", "", "",
			acfg("server: http://10.0.0.1:6443\ntoken: pw\nnode-ip: fd00::5\n"), "join-url-invalid", ""},
		{"diff-agent-bad-url-then-token", "after the unparsable URL, the token loop refuses the token", "", "",
			acfg("server: 10.0.0.1:6443\ntoken: K10abc::server:pw\n"), "join-url-invalid,+join-token-invalid", "first path segment"},
		{"diff-reset-server-no-join", "after cannot perform cluster-reset while server URL is set (fix: remove server), no join checks", "", "",
			cfg("cluster-reset: true\nserver: https://10.0.0.1:6443\ntoken: K10abc::server:pw\n"), "server-flag-conflict", "cannot perform cluster-reset"},
		{"diff-reset-server-disable-etcd", "once server is removed for the reset, disable-etcd needs one", "", "",
			cfg("cluster-reset: true\nserver: https://10.0.0.1:6443\ntoken: pw\ndisable-etcd: true\n"), "server-flag-conflict,+server-flag-conflict", "cannot perform cluster-reset"},
		{"diff-join-token-then-url", "after the token format refusal, the URL is checked too", "", "",
			cfg("cluster-init: true\nserver: http://10.0.0.1:6443\ntoken: K10abc::server:pw\n"), "join-token-invalid,+join-url-invalid", "invalid token CA hash length"},
		{"diff-join-required-then-url", "after token is required, the URL is checked too", "", "",
			cfg("cluster-init: true\nserver: 10.0.0.1:6443\n"), "server-join-token-required,+join-url-invalid", "token is required to join a cluster"},
		{"etcd-snapshot-diff-token-then-url", "etcd-snapshot: after the token format refusal, --etcd-server is checked too", "", "",
			map[string]string{"/var/lib/rancher/k3s/server/token": "K10" + hash + "::server:\n", "/etc/rancher/k3s/config.yaml": "etcd-server: http://127.0.0.1:6443\n"}, "join-token-invalid,+join-url-invalid", "invalid token format"},
		{"etcd-snapshot-diff-no-token-then-url", "etcd-snapshot: after the missing token file, --etcd-server is checked too", "", "",
			map[string]string{"/var/lib/rancher/k3s/server/x": "", "/etc/rancher/k3s/config.yaml": "etcd-server: 127.0.0.1:6443\n"}, "etcd-snapshot-no-token,+join-url-invalid", "no such file or directory"},
		{"diff-rke2-reset-server-disable-etcd", "RKE2: once server is removed for the reset, disable-etcd is kine, not a refusal", "rke2", "",
			map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server\n", "/etc/rancher/rke2/config.yaml": "cluster-reset: true\nserver: https://10.0.0.1:9345\ntoken: pw\ndisable-etcd: true\n"},
			"server-flag-conflict", "cannot perform cluster-reset"},
		{"diff-disable-etcd-twice", "disable-etcd without server and with a datastore: one fix (remove it), one refusal", "", "",
			cfg("disable-etcd: true\ndatastore-endpoint: mysql://u:p@tcp(db:3306)/k3s\n"), "server-flag-conflict", "--server is required with --disable-etcd"},
	}...)
	snapArgs := map[string][]string{
		"etcd-snapshot-delete-no-names": {"etcd-snapshot", "delete"},
		"etcd-snapshot-delete-names":    {"etcd-snapshot", "delete", "snap-1", "snap-2"},
		"etcd-snapshot-save-args":       {"etcd-snapshot", "save", "nightly"},
		"etcd-snapshot-ls-format":       {"etcd-snapshot", "ls", "-o", "xml"},
		"etcd-snapshot-ls-json":         {"etcd-snapshot", "ls", "-o", "json"},
	}
	codes := map[string]bool{"etcd-snapshot-no-token": true, "agent-token-required": true, "agent-server-required": true, "server-flag-conflict": true, "server-flag-invalid": true,
		"server-join-token-required": true, "node-ip-invalid": true, "node-ip-not-dual-stack": true, "node-label-not-key-value": true,
		"server-url-ignored": true, "join-token-invalid": true, "join-url-invalid": true, "agent-lb-port-invalid": true, "etcd-snapshot-invalid-use": true,
		"cluster-reset-restore-no-token": true}
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
				if a, ok := snapArgs[tc.name]; ok {
					opts.Args = a
				}
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
				want = strings.Split(tc.want, ",")
			}
			var after []string
			for _, d := range res.Diagnostics {
				if codes[d.Code] {
					c := d.Code
					if d.AfterFixing {
						c = "+" + c
					}
					after = append(after, c)
				}
			}
			if strings.Join(after, ",") != tc.want {
				t.Errorf("%s: findings with after-fixing marks %v, want %q", tc.reason, after, tc.want)
			}
			for i := range want {
				want[i] = strings.TrimPrefix(want[i], "+")
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

// TestValidateRetryMessages checks the text of retries-forever findings, which are not
// Result.Error: the agent's token loop validates the load balancer's local URL (found by the
// differential run: the fixed port, and ::1 for an IPv6 first node-ip).
func TestValidateRetryMessages(t *testing.T) {
	unit := "[Service]\nExecStart=/usr/local/bin/k3s agent\n"
	for _, tc := range []struct{ name, config, want string }{
		{"ipv6", "server: http://s:6443\ntoken: pw\nnode-ip: fd00::5\n", "invalid scheme: http://[::1]:6444"},
		{"fixed-port", "server: http://s:6443\ntoken: pw\nlb-server-port: 70000\n", "invalid scheme: http://127.0.0.1:6444"},
		{"port", "server: http://s:6443\ntoken: pw\nlb-server-port: 7000\n", "invalid scheme: http://127.0.0.1:7000"},
		{"no-lb", "server: http://s:6443\ntoken: pw\ndisable-apiserver-lb: true\n", "invalid scheme: http://s:6443"},
		{"missing-server", "token: K10abc::server:pw\n", "Failed to validate connection to cluster at <server>: invalid token CA hash length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/etc/systemd/system/k3s-agent.service", []byte(unit), 0o644)
			_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(tc.config), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range res.Diagnostics {
				if d.Phase == resolve.PhaseRetry && strings.Contains(d.Message, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no retries-forever finding with %q in %v", tc.want, res.Diagnostics)
			}
		})
	}
}

// TestSnapshotPositional: etcd-snapshot delete's snapshot names are its arguments, kept in
// Result.Positional and not reported as stray words; a flag after them is (urfave/cli reads
// it as one more name).
func TestSnapshotPositional(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		positional int
		stray      bool
	}{
		{[]string{"etcd-snapshot", "delete", "a", "b"}, 2, false},
		{[]string{"etcd-snapshot", "delete", "a", "--etcd-s3"}, 2, true},
		{[]string{"etcd-snapshot", "save", "nightly"}, 1, true},
	} {
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, "/var/lib/rancher/k3s/server/token", []byte("pw\n"), 0o600)
		res, err := resolve.Resolve(resolve.Options{FS: fs, Command: "etcd-snapshot", Args: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		stray := false
		for _, d := range res.Diagnostics {
			if d.Code == "cli-positional" {
				stray = true
			}
		}
		if len(res.Positional) != tc.positional || stray != tc.stray {
			t.Errorf("%v: %d positional, cli-positional %v; want %d, %v", tc.args, len(res.Positional), stray, tc.positional, tc.stray)
		}
	}
}
