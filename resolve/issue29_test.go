package resolve_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// issue29Case is one node of issue 29's tests: its files, how it is resolved, and the
// findings (code → severity, "" = absent) with a part of the first wanted finding's fix.
type issue29Case struct {
	name, reason     string
	files            map[string]string
	command, version string
	product          string
	want             map[string]diag.Severity
	hint, hintNot    string
	count            map[string]int // code → how many findings of it
}

func runIssue29(t *testing.T, tests []issue29Case) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for p, c := range tc.files {
				_ = afero.WriteFile(fs, p, []byte(c), 0o644)
			}
			opts := resolve.Options{FS: fs, Command: tc.command, Version: tc.version}
			if tc.product == "rke2" {
				opts.Profile = profile.RKE2()
			}
			res, err := resolve.Resolve(opts)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]diag.Severity{}
			n := map[string]int{}
			hints := map[string]string{}
			for _, d := range res.Diagnostics {
				got[d.Code] = d.Severity
				n[d.Code]++
				hints[d.Code] += d.Hint + "\n"
			}
			for code, sev := range tc.want {
				if got[code] != sev {
					t.Errorf("%s: %s is %q, want %q\n%v", tc.reason, code, got[code], sev, res.Diagnostics)
				}
				if sev != "" && tc.hint != "" && !strings.Contains(hints[code], tc.hint) {
					t.Errorf("%s: %s's fix %q lacks %q", tc.reason, code, hints[code], tc.hint)
				}
				if sev != "" && tc.hintNot != "" && strings.Contains(hints[code], tc.hintNot) {
					t.Errorf("%s: %s's fix %q has %q", tc.reason, code, hints[code], tc.hintNot)
				}
			}
			for code, c := range tc.count {
				if n[code] != c {
					t.Errorf("%s: %d findings %s, want %d", tc.reason, n[code], code, c)
				}
			}
		})
	}
}

// TestIssue29Fixes: fixes that keep what the user meant, and one finding per mistake.
func TestIssue29Fixes(t *testing.T) {
	const agentUnit = "[Service]\nExecStart=/usr/local/bin/k3s agent\n"
	const agentJoin = "server: https://10.0.0.1:6443\ntoken: abc\n"
	runIssue29(t, []issue29Case{
		{name: "help-placeholder", reason: "`--write-kubeconfig-mode value 644` (copied from --help): the fix removes \"value\", not 644",
			files: map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --write-kubeconfig-mode value 644\n"},
			want:  map[string]diag.Severity{"cli-positional": diag.Warning}, hint: "remove the word \"value\": write '--write-kubeconfig-mode' '644'",
			count: map[string]int{"cli-positional": 1}},
		{name: "help-placeholder-not", reason: "a stray word after a real value keeps the plain fix",
			files: map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --write-kubeconfig-mode 644 value\n"},
			want:  map[string]diag.Severity{"cli-positional": diag.Warning}, hint: "remove the stray word", hintNot: "remove the word \"value\""},
		{name: "go-field-node-labels", reason: "NodeLabels: (the Go field) in an agent's config is renamed to node-label, not removed",
			files:   map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": agentJoin + "NodeLabels:\n  - a=b\n"},
			command: "agent", want: map[string]diag.Severity{"config-unknown-key-agent": diag.Error}, hint: "rename NodeLabels: to node-label:"},
		{name: "go-field-server", reason: "WriteKubeconfigMode: on a server (skipped key) gets the rename too",
			files:   map[string]string{"/etc/rancher/k3s/config.yaml": "WriteKubeconfigMode: \"0644\"\n"},
			command: "server", want: map[string]diag.Severity{"config-unknown-key": diag.Warning}, hint: "write-kubeconfig-mode"},
		{name: "rke1-extra-args", reason: "kubelet_extra_args: (RKE1's spelling, rancher/rke2#4123) is renamed to kubelet-arg, keeping the arguments",
			files:   map[string]string{"/etc/rancher/k3s/config.yaml": "kubelet_extra_args:\n  - max-pods=200\n"},
			command: "server", want: map[string]diag.Severity{"config-unknown-key": diag.Warning}, hint: "kubelet-arg"},
		{name: "extra-args-no-component", reason: "extra_args: names no component: no *-arg flag is offered",
			files:   map[string]string{"/etc/rancher/k3s/config.yaml": "extra_args:\n  - max-pods=200\n"},
			command: "server", want: map[string]diag.Severity{"config-unknown-key": diag.Warning}, hintNot: "-arg\""},
		{name: "unknown-key-not-folded", reason: "a key no flag folds to keeps the removal fix",
			files:   map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": agentJoin + "Labels:\n  - a=b\n"},
			command: "agent", want: map[string]diag.Severity{"config-unknown-key-agent": diag.Error}, hint: "remove Labels:"},
		{name: "server-key-on-agent", reason: "flannel-backend (k3s-io/k3s#12942, set on every node): a server key on an agent is removed, not renamed to the nearest agent flag flannel-iface",
			files:   map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": agentJoin + "flannel-backend: wireguard-native\n"},
			command: "agent", want: map[string]diag.Severity{"config-unknown-key-agent": diag.Error}, hint: "remove flannel-backend: from the agent's config (it is a k3s server key)", hintNot: "flannel-iface"},
		{name: "typo-key-on-agent", reason: "a misspelt agent flag that no command has keeps the rename",
			files:   map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": agentJoin + "flannel-ifac: eth1\n"},
			command: "agent", want: map[string]diag.Severity{"config-unknown-key-agent": diag.Error}, hint: "rename flannel-ifac: to flannel-iface:"},
		{name: "server-twice-one-finding", reason: "server written twice through INSTALL_K3S_EXEC: one error, no positional warning for the same word; the fix says the command comes first",
			files: map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server '--cluster-init' 'server' '--disable=traefik'\n"},
			want:  map[string]diag.Severity{"cli-repeated-command": diag.Error, "cli-positional": ""}, hint: "as the first word of INSTALL_K3S_EXEC",
			count: map[string]int{"cli-repeated-command": 1}},
		{name: "server-twice-rke2", reason: "RKE2's installer writes no arguments: no INSTALL_K3S_EXEC in the fix",
			files:   map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server --debug server --debug\n"},
			product: "rke2", want: map[string]diag.Severity{"cli-repeated-command": diag.Error, "cli-positional": ""}, hintNot: "INSTALL_K3S_EXEC"},
	})
}

// TestIssue29Overridden: "I set it in config.yaml — why didn't it take effect?" in check.
func TestIssue29Overridden(t *testing.T) {
	unit := func(args string) string {
		return "[Service]\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server " + args + "\n"
	}
	const u = "/etc/systemd/system/k3s.service"
	const c = "/etc/rancher/k3s/config.yaml"
	const e = "/etc/systemd/system/k3s.service.env"
	runIssue29(t, []issue29Case{
		{name: "cli-beats-config", reason: "config 0600, unit 644: the warning names ExecStart and the reload",
			files: map[string]string{u: unit("--write-kubeconfig-mode 644"), c: "write-kubeconfig-mode: \"0600\"\n"},
			want:  map[string]diag.Severity{"config-overridden": diag.Warning}, hint: "remove --write-kubeconfig-mode from ExecStart so the config file decides: re-run the install script without it in INSTALL_K3S_EXEC"},
		{name: "cli-same-as-config", reason: "0644 and 644 are the same mode: a note",
			files: map[string]string{u: unit("--write-kubeconfig-mode 644"), c: "write-kubeconfig-mode: \"0644\"\n"},
			want:  map[string]diag.Severity{"config-overridden": diag.Info}},
		{name: "config-alone", reason: "only the config sets it: quiet",
			files: map[string]string{u: unit(""), c: "write-kubeconfig-mode: \"0600\"\n"},
			want:  map[string]diag.Severity{"config-overridden": "", "env-shadowed": ""}},
		{name: "lists-accumulate", reason: "disable in both places: the items add up, nothing is taken away",
			files: map[string]string{u: unit("--disable traefik"), c: "disable: [servicelb]\n"},
			want:  map[string]diag.Severity{"config-overridden": ""}},
		{name: "bool-cli", reason: "cluster-init: false in config, --cluster-init in the unit",
			files: map[string]string{u: unit("--cluster-init"), c: "cluster-init: false\n"},
			want:  map[string]diag.Severity{"config-overridden": diag.Warning}},
		{name: "secret-not-shown", reason: "a token in both places: the finding never shows either value",
			files: map[string]string{u: unit("--token clitoken123"), c: "token: configtoken456\n"},
			want:  map[string]diag.Severity{"config-overridden": diag.Warning}, hintNot: "clitoken123"},
		{name: "env-shadowed", reason: "K3S_KUBECONFIG_MODE in the env file loses to config.yaml",
			files: map[string]string{u: unit(""), e: "K3S_KUBECONFIG_MODE=644\n", c: "write-kubeconfig-mode: \"0600\"\n"},
			want:  map[string]diag.Severity{"env-shadowed": diag.Warning, "config-overridden": ""}, hint: "set the value in /etc/rancher/k3s/config.yaml"},
		{name: "env-alone", reason: "only the variable: it applies, quiet",
			files: map[string]string{u: unit(""), e: "K3S_KUBECONFIG_MODE=644\n"},
			want:  map[string]diag.Severity{"env-shadowed": ""}},
		{name: "env-same", reason: "the installer's K3S_TOKEN and config's token agree: a note",
			files: map[string]string{u: unit(""), e: "K3S_TOKEN=abc\n", c: "token: abc\n"},
			want:  map[string]diag.Severity{"env-shadowed": diag.Info}},
		{name: "env-beaten-by-cli", reason: "the variable loses to the command line, not to a config file: not this finding",
			files: map[string]string{u: unit("--write-kubeconfig-mode 600"), e: "K3S_KUBECONFIG_MODE=644\n"},
			want:  map[string]diag.Severity{"env-shadowed": "", "config-overridden": ""}},
	})
}

// TestIssue29OverriddenSecret: neither token reaches the message, whether the command line
// (config-overridden) or a later drop-in (config-replaced) wins.
func TestIssue29OverriddenSecret(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"cli":    {"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --token clitoken123\n", "/etc/rancher/k3s/config.yaml": "token: configtoken456\n"},
		"dropin": {"/etc/rancher/k3s/config.yaml.d/10-t.yaml": "token: clitoken123\n", "/etc/rancher/k3s/config.yaml": "token: configtoken456\n"},
	} {
		fs := afero.NewMemMapFs()
		for p, c := range files {
			_ = afero.WriteFile(fs, p, []byte(c), 0o644)
		}
		res, err := resolve.Resolve(resolve.Options{FS: fs, Command: "server"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Code == "config-overridden" || d.Code == "config-replaced" {
				n++
			}
			if strings.Contains(d.Message+d.Hint, "clitoken123") || strings.Contains(d.Message+d.Hint, "configtoken456") {
				t.Errorf("%s: %s shows a token: %s / %s", name, d.Code, d.Message, d.Hint)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d findings of the token in both places, want 1", name, n)
		}
	}
}

// TestIssue29AdmissionPlugins: admission plugins by Kubernetes minor, each boundary on both
// sides, and the components k3s does not run.
func TestIssue29AdmissionPlugins(t *testing.T) {
	cfg := func(items string) map[string]string {
		return map[string]string{"/etc/rancher/k3s/config.yaml": "kube-apiserver-arg:\n" + items}
	}
	psp := cfg("  - enable-admission-plugins=NodeRestriction,PodSecurityPolicy\n")
	runIssue29(t, []issue29Case{
		{name: "psp-1.24", reason: "v1.24 still has PodSecurityPolicy", files: psp, command: "server", version: "v1.24.17+k3s1",
			want: map[string]diag.Severity{"admission-plugin-unknown": ""}},
		{name: "psp-1.25", reason: "v1.25 removed it", files: psp, command: "server", version: "v1.25.0+k3s1",
			want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}, hint: "Pod Security Admission"},
		{name: "psp-newest", reason: "the newest release refuses it too", files: psp, command: "server",
			want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}},
		{name: "psp-rke2", reason: "RKE2 runs the same kube-apiserver", files: map[string]string{"/etc/rancher/rke2/config.yaml": "kube-apiserver-arg:\n  - enable-admission-plugins=NodeRestriction,PodSecurityPolicy\n"},
			product: "rke2", command: "server", version: "v1.25.9+rke2r1", want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}},
		{name: "psp-no-apiserver", reason: "disable-apiserver: k3s runs no kube-apiserver to refuse it",
			files:   map[string]string{"/etc/rancher/k3s/config.yaml": "disable-apiserver: true\nserver: https://10.0.0.1:6443\ntoken: t\nkube-apiserver-arg:\n  - enable-admission-plugins=PodSecurityPolicy\n"},
			command: "server", want: map[string]diag.Severity{"admission-plugin-unknown": ""}},
		{name: "scd-1.29", reason: "SecurityContextDeny in v1.29", files: cfg("  - --disable-admission-plugins=SecurityContextDeny\n"), command: "server", version: "v1.29.4+k3s1",
			want: map[string]diag.Severity{"admission-plugin-unknown": ""}},
		{name: "scd-1.30", reason: "removed in v1.30, also in disable-admission-plugins", files: cfg("  - --disable-admission-plugins=SecurityContextDeny\n"), command: "server", version: "v1.30.0+k3s1",
			want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}},
		{name: "vap-1.25", reason: "ValidatingAdmissionPolicy came with v1.26", files: cfg("  - enable-admission-plugins=ValidatingAdmissionPolicy\n"), command: "server", version: "v1.25.16+k3s4",
			want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}, hint: "v1.26 or later"},
		{name: "vap-1.26", reason: "and is there from v1.26", files: cfg("  - enable-admission-plugins=ValidatingAdmissionPolicy\n"), command: "server", version: "v1.26.0+k3s1",
			want: map[string]diag.Severity{"admission-plugin-unknown": ""}},
		{name: "case", reason: "names are case-sensitive: the fix names the spelling", files: cfg("  - enable-admission-plugins=noderestriction\n"), command: "server",
			want: map[string]diag.Severity{"admission-plugin-unknown": diag.Error}, hint: "write NodeRestriction instead of noderestriction"},
		{name: "cis-list", reason: "the CIS list of current plugins is quiet", files: cfg("  - enable-admission-plugins=NodeRestriction,AlwaysPullImages,EventRateLimit,PodSecurity,ServiceAccount,NamespaceLifecycle\n"), command: "server",
			want: map[string]diag.Severity{"admission-plugin-unknown": ""}},
	})
}

// TestIssue29IPFamilies: the agent part's IP-version checks, each release boundary on both
// sides (tags: rancher/rke2 v1.24.1+rke2r1 and v1.24.4+rke2r1 name the k3s commits that
// have 314e3f56d and d90ba3035; the 1.23 line from k3s-io/k3s#5491 and #5943).
func TestIssue29IPFamilies(t *testing.T) {
	const c = "/etc/rancher/k3s/config.yaml"
	dual := "cluster-cidr: 10.42.0.0/16,2001:cafe:43::/56\nservice-cidr: 10.43.0.0/16,2001:cafe:44:1::/112\n"
	mk := func(name, reason, cfg, version string, want diag.Severity) issue29Case {
		return issue29Case{name: name, reason: reason, files: map[string]string{c: cfg}, command: "server", version: version,
			want: map[string]diag.Severity{"ip-family-mismatch": want}}
	}
	runIssue29(t, []issue29Case{
		mk("no-node-ip-1.23.6", "before the check (v1.23.6): dual-stack without node-ip starts", dual, "v1.23.6+k3s1", ""),
		mk("no-node-ip-1.23.7", "the strict check's backport (v1.23.7)", dual, "v1.23.7+k3s1", diag.Error),
		mk("no-node-ip-1.23.9", "k3s-io/k3s#5943 reproduced it on v1.23.9", dual, "v1.23.9+k3s1", diag.Error),
		mk("no-node-ip-1.23.10", "fixed in v1.23.10", dual, "v1.23.10+k3s1", ""),
		mk("no-node-ip-1.24.3", "main line: strict until v1.24.3", dual, "v1.24.3+k3s1", diag.Error),
		mk("no-node-ip-1.24.4", "d90ba3035 in v1.24.4: the host decides (not judged)", dual, "v1.24.4+k3s1", ""),
		mk("no-node-ip-newest", "newest: not judged without node-ip", dual, "", ""),
		mk("node-ip-v4-newest", "hetzner-k3s-style: dual-stack CIDRs, IPv4 node-ip", dual+"node-ip: 10.0.0.5\n", "", diag.Error),
		mk("node-ip-dual-newest", "dual-stack node-ip: starts", dual+"node-ip: 10.0.0.5,2001:db8::5\n", "", ""),
		mk("node-ip-dual-single-cluster-1.24.2", "strict: a dual-stack node-ip with an IPv4 cluster (k3s-io/k3s#5781 era)", "cluster-cidr: 10.42.0.0/16\nnode-ip: 10.0.0.5,2001:db8::5\n", "v1.24.2+k3s1", diag.Error),
		mk("node-ip-dual-single-cluster-newest", "relaxed: the node may have more versions than the cluster", "cluster-cidr: 10.42.0.0/16\nnode-ip: 10.0.0.5,2001:db8::5\n", "", ""),
		mk("service-v6-cluster-v4", "cluster IPv4, service IPv6 (k3s-io/k3s#5491)", "cluster-cidr: 10.42.0.0/16\nservice-cidr: 2001:cafe:43:1::/112\n", "", diag.Error),
		mk("service-v6-cluster-v4-1.23.6", "before the check", "cluster-cidr: 10.42.0.0/16\nservice-cidr: 2001:cafe:43:1::/112\n", "v1.23.6+k3s1", ""),
		mk("service-order", "dual-stack in both, first items of different versions", "cluster-cidr: 10.42.0.0/16,2001:cafe:43::/56\nservice-cidr: 2001:cafe:44:1::/112,10.43.0.0/16\nnode-ip: 10.0.0.5,2001:db8::5\n", "", diag.Error),
		mk("single-stack", "plain IPv4 everywhere: quiet", "cluster-cidr: 10.42.0.0/16\nservice-cidr: 10.43.0.0/16\nnode-ip: 10.0.0.5\n", "", ""),
		{name: "agent", reason: "an agent takes cluster-cidr from its server: not judged",
			files:   map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent\n", c: "server: https://10.0.0.1:6443\ntoken: t\nnode-ip: 10.0.0.5\n"},
			command: "agent", want: map[string]diag.Severity{"ip-family-mismatch": ""}},
	})
}

// TestIssue29RKE2Profiles: the profile values RKE2 accepts, by tag (rancher/rke2-docs#53:
// cis-1.5 and cis-1.6 must go before v1.25).
func TestIssue29RKE2Profiles(t *testing.T) {
	mk := func(name, reason, profile, version string, want diag.Severity) issue29Case {
		return issue29Case{name: name, reason: reason, product: "rke2", command: "server", version: version,
			files: map[string]string{"/etc/rancher/rke2/config.yaml": "profile: " + profile + "\n"},
			want:  map[string]diag.Severity{"rke2-profile-removed": want}}
	}
	runIssue29(t, []issue29Case{
		mk("cis-1.6-1.24", "cis-1.6 works on v1.24", "cis-1.6", "v1.24.17+rke2r1", ""),
		mk("cis-1.6-1.25", "and is refused from v1.25.0", "cis-1.6", "v1.25.3+rke2r1", diag.Error),
		mk("cis-1.25.14", "cis came to 1.25 with v1.25.15", "cis", "v1.25.14+rke2r1", diag.Error),
		mk("cis-1.25.15", "cis on v1.25.15", "cis", "v1.25.15+rke2r1", ""),
		mk("etcd-1.33.1", "etcd came with d736f9699's backport v1.33.2", "etcd", "v1.33.1+rke2r1", diag.Error),
		mk("etcd-1.33.2", "etcd on v1.33.2", "etcd", "v1.33.2+rke2r1", ""),
		mk("cis-newest", "cis on the newest release", "cis", "", ""),
	})
}

// TestIssue29DropinReplaced: a single-value key of config.yaml that a later drop-in replaces
// (rancher/rke2#6415, RKE2 v1.26.15: Rancher's 50-rancher.yaml sets disable-kube-proxy:
// false over config.yaml's "true"; k3s-io/k3s pkg/configfilearg/parser.go readConfigFile).
func TestIssue29DropinReplaced(t *testing.T) {
	const rc = "/etc/rancher/rke2/config.yaml"
	const rd = "/etc/rancher/rke2/config.yaml.d/50-rancher.yaml"
	const kc = "/etc/rancher/k3s/config.yaml"
	const kd = "/etc/rancher/k3s/config.yaml.d/10-mode.yaml"
	rancher := "{\n  \"cni\": \"calico\",\n  \"disable-kube-proxy\": false\n}\n"
	runIssue29(t, []issue29Case{
		{name: "rke2-6415", reason: "the issue's node: Rancher's false beats config.yaml's \"true\"; the fix is Rancher's cluster configuration",
			files:   map[string]string{rc: "disable-kube-proxy: \"true\"\n", rd: rancher},
			product: "rke2", command: "server", version: "v1.26.15+rke2r1",
			want: map[string]diag.Severity{"config-replaced": diag.Warning}, hint: "in the cluster's configuration in Rancher", count: map[string]int{"config-replaced": 1}},
		{name: "rke2-same", reason: "true in both files (a string and a bool): nothing lost today, a note",
			files:   map[string]string{rc: "disable-kube-proxy: \"true\"\n", rd: "{\"disable-kube-proxy\": true}\n"},
			product: "rke2", command: "server", want: map[string]diag.Severity{"config-replaced": diag.Info}},
		{name: "rke2-config-alone", reason: "only config.yaml sets it: quiet",
			files:   map[string]string{rc: "disable-kube-proxy: \"true\"\n", rd: "{\"cni\": \"calico\"}\n"},
			product: "rke2", command: "server", want: map[string]diag.Severity{"config-replaced": ""}},
		{name: "k3s-dropin", reason: "a k3s drop-in of the user's own: the fix names that file and the restart",
			files:   map[string]string{kc: "write-kubeconfig-mode: \"0600\"\n", kd: "write-kubeconfig-mode: \"0644\"\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": diag.Warning, "config-overridden": ""}, hint: "set write-kubeconfig-mode in " + kd},
		{name: "k3s-mode-same", reason: "0644 and 644 are the same mode",
			files:   map[string]string{kc: "write-kubeconfig-mode: \"0644\"\n", kd: "write-kubeconfig-mode: \"644\"\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": diag.Info}},
		{name: "list-not-this", reason: "a list replaced by a drop-in is config-list-replaced, not this finding",
			files:   map[string]string{kc: "disable: [traefik]\n", kd: "disable: servicelb\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": "", "config-list-replaced": diag.Warning}},
		{name: "chain", reason: "config.yaml, 10- and 20- drop-ins: one finding for the key, at config.yaml, naming the other loser",
			files:   map[string]string{kc: "node-name: a\n", kd: "node-name: b\n", "/etc/rancher/k3s/config.yaml.d/20-name.yaml": "node-name: c\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": diag.Warning}, count: map[string]int{"config-replaced": 1}, hint: "so config.yaml decides"},
		{name: "cli-wins", reason: "the command line beats the drop-in: config-overridden names the drop-in, not this finding",
			files:   map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --node-name d\n", kc: "node-name: a\n", kd: "node-name: b\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": "", "config-overridden": diag.Warning}},
		{name: "secret", reason: "a token in both files: neither shown",
			files:   map[string]string{kc: "token: firsttoken123\n", kd: "token: secondtoken456\n"},
			command: "server", want: map[string]diag.Severity{"config-replaced": diag.Warning}, hintNot: "secondtoken456"},
	})
}

// TestIssue29EtcdListenArgs: rancher/rke2#4479, an etcd-arg listener that the temporary etcd
// of a restart shares with the running etcd pod. Boundaries from the tags and backports named
// in checkrules.go (e61fde93c from v1.27.2, v1.26.5, v1.25.10, v1.24.14; d38b4b30c from
// v1.35.1, and v1.34.4, v1.33.8, v1.32.12 by its backports k3s-io/k3s#13505 to #13508).
func TestIssue29EtcdListenArgs(t *testing.T) {
	const c = "/etc/rancher/rke2/config.yaml"
	const wal = "/var/lib/rancher/rke2/server/db/etcd/member/wal/0.wal"
	metrics := "etcd-expose-metrics: true\netcd-arg:\n  - listen-metrics-urls=http://0.0.0.0:2381\n"
	mk := func(name, reason, cfg, version string, restart bool, want diag.Severity) issue29Case {
		files := map[string]string{c: cfg}
		if restart {
			files[wal] = ""
		}
		return issue29Case{name: name, reason: reason, files: files, product: "rke2", command: "server", version: version,
			want: map[string]diag.Severity{"etcd-arg-listener-conflict": want}}
	}
	runIssue29(t, []issue29Case{
		mk("4479", "the issue's node on v1.25.11, restarted: rke2 exits", metrics, "v1.25.11+rke2r1", true, diag.Error),
		mk("1.25.9", "before the backport the temporary etcd got kube-apiserver-arg's items", metrics, "v1.25.9+rke2r1", true, ""),
		mk("1.25.10", "the backport's release", metrics, "v1.25.10+rke2r1", true, diag.Error),
		mk("1.24.13", "1.24 line before the backport", metrics, "v1.24.13+rke2r1", true, ""),
		mk("1.24.14", "1.24 line with it", metrics, "v1.24.14+rke2r1", true, diag.Error),
		mk("1.26.4", "1.26 line before the backport", metrics, "v1.26.4+rke2r1", true, ""),
		mk("1.27.1", "main line before e61fde93c (rke2 v1.27.1+rke2r1's k3s 944f811dc534)", metrics, "v1.27.1+rke2r1", true, ""),
		mk("1.27.2", "main line with it", metrics, "v1.27.2+rke2r1", true, diag.Error),
		mk("1.33.7", "before the backport of d38b4b30c (k3s-io/k3s#13507)", metrics, "v1.33.7+rke2r1", true, diag.Error),
		mk("1.33.8", "with the backport: no temporary etcd", metrics, "v1.33.8+rke2r1", true, ""),
		mk("1.35.0", "main line before d38b4b30c", metrics, "v1.35.0+rke2r1", true, diag.Error),
		mk("1.35.1", "no temporary etcd", metrics, "v1.35.1+rke2r1", true, ""),
		mk("newest", "no temporary etcd on the newest release", metrics, "", true, ""),
		mk("first-start", "no etcd member yet: the first start works, the restarts after it fail: a warning", metrics, "v1.25.11+rke2r1", false, diag.Warning),
		mk("client-urls", "listen-client-urls collides the same way", "etcd-arg:\n  - --listen-client-urls=https://10.0.0.5:2379\n", "v1.28.9+rke2r1", true, diag.Error),
		mk("quota", "an etcd-arg that opens no listener: quiet", "etcd-arg:\n  - quota-backend-bytes=8589934592\n", "v1.28.9+rke2r1", true, ""),
		mk("expose-only", "etcd-expose-metrics alone is RKE2's own way: quiet", "etcd-expose-metrics: true\n", "v1.28.9+rke2r1", true, ""),
		mk("joins-with-token", "a server with a URL and a token reconciles over HTTP first: not judged", "server: https://10.0.0.1:9345\ntoken: K10abc::server:def\n"+metrics, "v1.28.9+rke2r1", true, ""),
		mk("external-datastore", "no embedded etcd", "datastore-endpoint: postgres://db:5432/k3s\n"+metrics, "v1.28.9+rke2r1", true, ""),
		{name: "k3s", reason: "k3s's etcd stops with k3s: nothing else holds the port",
			files: map[string]string{"/etc/rancher/k3s/config.yaml": "cluster-init: true\n" + metrics, "/var/lib/rancher/k3s/server/db/etcd/member/wal/0.wal": ""}, command: "server", version: "v1.28.9+k3s1",
			want: map[string]diag.Severity{"etcd-arg-listener-conflict": ""}},
	})
}

// TestIssue29RuntimeConfig: kube-apiserver's runtime-config keys by Kubernetes minor
// (internal/kubetables/data/api-group-versions.tsv; k8s.io/apiserver api_enablement.go Validate and
// resourceconfig/helpers.go), each boundary on both sides.
func TestIssue29RuntimeConfig(t *testing.T) {
	mk := func(name, reason, rc, version string, want diag.Severity, hint string) issue29Case {
		return issue29Case{name: name, reason: reason, command: "server", version: version, hint: hint,
			files: map[string]string{"/etc/rancher/k3s/config.yaml": "kube-apiserver-arg:\n  - runtime-config=" + rc + "\n"},
			want:  map[string]diag.Severity{"runtime-config-refused": want}}
	}
	runIssue29(t, []issue29Case{
		mk("v2alpha1", "batch/v2alpha1 is registered by no modelled minor", "batch/v2alpha1=true", "v1.24.17+k3s1", diag.Error, "name a version this release registers (v1, v1beta1)"),
		mk("batch-v1beta1-1.36", "registered (not served) still: kube-apiserver takes the key", "batch/v1beta1=true", "v1.36.0+k3s1", "", ""),
		mk("extensions", "extensions/v1beta1 stays registered in every minor", "extensions/v1beta1=true", "", "", ""),
		mk("flowcontrol-v1alpha1-1.28", "v1.28 is the last minor with it", "flowcontrol.apiserver.k8s.io/v1alpha1=true", "v1.28.15+k3s1", "", ""),
		mk("flowcontrol-v1alpha1-1.29", "v1.29 dropped it", "flowcontrol.apiserver.k8s.io/v1alpha1=true", "v1.29.0+k3s1", diag.Error, "(v1, v1beta1, v1beta2, v1beta3)"),
		mk("resource-1.25", "resource.k8s.io came with v1.26: unknown group before", "resource.k8s.io/v1alpha1=true", "v1.25.16+k3s4", diag.Error, "v1.26 or later"),
		mk("resource-1.26", "and is there in v1.26", "resource.k8s.io/v1alpha1=true", "v1.26.0+k3s1", "", ""),
		mk("resource-v1alpha2-1.31", "v1alpha2 gone in v1.31 (DRA's v1alpha3)", "resource.k8s.io/v1alpha2=true", "v1.31.1+k3s1", diag.Error, "v1alpha3"),
		mk("typo-group", "a group no minor has", "settings.k8s.io/v1alpha1=true", "", diag.Error, "remove settings.k8s.io/v1alpha1"),
		mk("short-group", "flowcontrol is flowcontrol.apiserver.k8s.io", "flowcontrol/v1beta3=true", "v1.28.15+k3s1", diag.Error, "write flowcontrol.apiserver.k8s.io instead of flowcontrol"),
		mk("bad-key", "one token is no group/version", "batch=true", "", diag.Error, "group/version=true"),
		mk("api-all-bad", "api/all takes true or false", "api/all=yes", "", diag.Error, "api/all=true"),
		mk("value", "a group/version's value is a bool", "batch/v1=enabled", "", diag.Error, "batch/v1=true"),
		mk("core", "v1 is the core group, bare: quiet", "v1=true,api/all=true", "", "", ""),
		mk("alpha-apis", "a typical alpha set on v1.30: quiet", "admissionregistration.k8s.io/v1alpha1=true,storage.k8s.io/v1alpha1=true,resource.k8s.io/v1alpha2=true", "v1.30.5+k3s1", "", ""),
		mk("apiextensions", "another scheme's group: known, versions not judged", "apiextensions.k8s.io/v1beta1=true", "", "", ""),
		{name: "append-form", reason: "runtime-config+= reaches kube-apiserver too (k3s pkg/util/args.go GetArgs)", command: "server", version: "v1.29.0+k3s1",
			files: map[string]string{"/etc/rancher/k3s/config.yaml": "kube-apiserver-arg:\n  - runtime-config+=flowcontrol.apiserver.k8s.io/v1alpha1=true\n"},
			want:  map[string]diag.Severity{"runtime-config-refused": diag.Error}},
		{name: "no-apiserver", reason: "disable-apiserver: nothing to refuse it", command: "server",
			files: map[string]string{"/etc/rancher/k3s/config.yaml": "disable-apiserver: true\nserver: https://10.0.0.1:6443\ntoken: t\nkube-apiserver-arg:\n  - runtime-config=batch/v2alpha1=true\n"},
			want:  map[string]diag.Severity{"runtime-config-refused": ""}},
		{name: "rke2", reason: "RKE2 runs the same kube-apiserver", command: "server", product: "rke2", version: "v1.29.3+rke2r1",
			files: map[string]string{"/etc/rancher/rke2/config.yaml": "kube-apiserver-arg:\n  - \"runtime-config=flowcontrol.apiserver.k8s.io/v1alpha1=true\"\n"},
			want:  map[string]diag.Severity{"runtime-config-refused": diag.Error}},
	})
}

// TestIssue29APIServerFiles: the apiVersion of the audit policy and of the PodSecurity
// configuration by Kubernetes minor (internal/kubetables/data/apiserver-file-versions.tsv), each
// boundary on both sides, and files the node's inputs lack.
func TestIssue29APIServerFiles(t *testing.T) {
	const c = "/etc/rancher/k3s/config.yaml"
	const audit = "/var/lib/rancher/k3s/server/audit.yaml"
	const psa = "/var/lib/rancher/k3s/server/psa.yaml"
	auditCfg := "kube-apiserver-arg:\n  - audit-policy-file=" + audit + "\n  - audit-log-path=/var/lib/rancher/k3s/server/logs/audit.log\n"
	psaCfg := "kube-apiserver-arg:\n  - admission-control-config-file=" + psa + "\n"
	policy := func(v string) string {
		return "apiVersion: audit.k8s.io/" + v + "\nkind: Policy\nrules:\n- level: Metadata\n"
	}
	admission := func(v string) string {
		return "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/" + v + "\n    kind: PodSecurityConfiguration\n    defaults:\n      enforce: restricted\n"
	}
	mk := func(name, reason, cfg, file, content, version string, want diag.Severity, hint string) issue29Case {
		files := map[string]string{c: cfg}
		if file != "" {
			files[file] = content
		}
		return issue29Case{name: name, reason: reason, files: files, command: "server", version: version, hint: hint,
			want: map[string]diag.Severity{"apiserver-file-version": want}}
	}
	runIssue29(t, []issue29Case{
		mk("audit-v1beta1-1.23", "v1.23 still decodes audit.k8s.io/v1beta1", auditCfg, audit, policy("v1beta1"), "v1.23.17+k3s1", "", ""),
		mk("audit-v1beta1-1.24", "v1.24 removed it", auditCfg, audit, policy("v1beta1"), "v1.24.0+k3s1", diag.Error, "write apiVersion: audit.k8s.io/v1"),
		mk("audit-v1alpha1-newest", "and v1alpha1", auditCfg, audit, policy("v1alpha1"), "", diag.Error, "audit.k8s.io/v1"),
		mk("audit-v1", "v1 in every minor", auditCfg, audit, policy("v1"), "", "", ""),
		mk("audit-absent", "the file is not in the node's inputs: not judged", auditCfg, "", "", "", "", ""),
		mk("psa-v1-1.24", "pod-security.admission.config.k8s.io/v1 came with v1.25", psaCfg, psa, admission("v1"), "v1.24.17+k3s1", diag.Error, "pod-security.admission.config.k8s.io/v1beta1"),
		mk("psa-v1-1.25", "and is there from v1.25", psaCfg, psa, admission("v1"), "v1.25.0+k3s1", "", ""),
		mk("psa-v1beta1-newest", "v1beta1 is still decoded", psaCfg, psa, admission("v1beta1"), "", "", ""),
		mk("psa-v1-1.22", "v1.22: PodSecurity is off by default, its configuration not judged", psaCfg, psa, admission("v1"), "v1.22.17+k3s1", "", ""),
		{name: "psa-path", reason: "the plugin's configuration in a file named by path, relative to the admission configuration", command: "server", version: "v1.24.17+k3s1",
			files: map[string]string{c: psaCfg, psa: "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: podsecurity.yaml\n",
				"/var/lib/rancher/k3s/server/podsecurity.yaml": "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n"},
			want: map[string]diag.Severity{"apiserver-file-version": diag.Error}},
		{name: "rke2-flag", reason: "RKE2's pod-security-admission-config-file", command: "server", product: "rke2", version: "v1.24.17+rke2r1",
			files: map[string]string{"/etc/rancher/rke2/config.yaml": "pod-security-admission-config-file: /etc/rancher/rke2/psa.yaml\n", "/etc/rancher/rke2/psa.yaml": admission("v1")},
			want:  map[string]diag.Severity{"apiserver-file-version": diag.Error}},
	})
}

// TestIssue29RKE2AuditPolicy: RKE2's own audit policy path (rancher/rke2#3813: profile
// cis-1.6 on v1.24.8 with a user's audit.k8s.io/v1beta1 policy at the default path).
func TestIssue29RKE2AuditPolicy(t *testing.T) {
	const c = "/etc/rancher/rke2/config.yaml"
	const pol = "/etc/rancher/rke2/audit-policy.yaml"
	v1beta1 := "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: Metadata\n"
	runIssue29(t, []issue29Case{
		{name: "3813", reason: "CIS profile: RKE2 passes /etc/rancher/rke2/audit-policy.yaml", product: "rke2", command: "server", version: "v1.24.8+rke2r1",
			files: map[string]string{c: "profile: cis-1.6\n", pol: v1beta1}, want: map[string]diag.Severity{"apiserver-file-version": diag.Error}, hint: "audit.k8s.io/v1"},
		{name: "3813-1.23", reason: "v1.23 still decodes v1beta1", product: "rke2", command: "server", version: "v1.23.16+rke2r1",
			files: map[string]string{c: "profile: cis-1.6\n", pol: v1beta1}, want: map[string]diag.Severity{"apiserver-file-version": ""}},
		{name: "no-profile", reason: "without a CIS profile or audit-policy-file RKE2 passes no policy", product: "rke2", command: "server", version: "v1.24.8+rke2r1",
			files: map[string]string{c: "write-kubeconfig-mode: \"0640\"\n", pol: v1beta1}, want: map[string]diag.Severity{"apiserver-file-version": ""}},
		{name: "flag", reason: "audit-policy-file names another file", product: "rke2", command: "server", version: "v1.26.0+rke2r1",
			files: map[string]string{c: "audit-policy-file: /etc/audit/policy.yaml\n", "/etc/audit/policy.yaml": v1beta1}, want: map[string]diag.Severity{"apiserver-file-version": diag.Error}},
	})
}

// TestIssue29DropinReplacedMany: a node whose 200 drop-ins all set the same key gets one
// config-replaced finding for it, naming three of the other losers, not one per file.
func TestIssue29DropinReplacedMany(t *testing.T) {
	files := map[string]string{"/etc/rancher/k3s/config.yaml": "node-name: base\n"}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("/etc/rancher/k3s/config.yaml.d/%03d.yaml", i)] = fmt.Sprintf("node-name: n%d\n", i)
	}
	runIssue29(t, []issue29Case{{name: "200-dropins", reason: "one finding per key", files: files, command: "server",
		want: map[string]diag.Severity{"config-replaced": diag.Warning}, count: map[string]int{"config-replaced": 1}}})
	fs := afero.NewMemMapFs()
	for p, c := range files {
		_ = afero.WriteFile(fs, p, []byte(c), 0o644)
	}
	res, err := resolve.Resolve(resolve.Options{FS: fs, Command: "server"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "config-replaced" && (!strings.Contains(d.Message, "199 other config files set it and lose too") || d.Pos.File != "/etc/rancher/k3s/config.yaml") {
			t.Errorf("config-replaced at %s: %s", d.Pos, d.Message)
		}
	}
}
