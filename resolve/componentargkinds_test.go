package resolve_test

import (
	"testing"

	"github.com/k3sconf/k3sconf/diag"
)

// TestComponentArgOverridden: a config.yaml *-arg item that the command line's item of the
// same component flag takes away (k3s-io/k3s#5488), by the flag's kind: profile's
// component-flag-kinds table, read from the Kubernetes flag definitions.
func TestComponentArgOverridden(t *testing.T) {
	const u = "/etc/systemd/system/k3s.service"
	const c = "/etc/rancher/k3s/config.yaml"
	unit := func(args string) string { return "[Service]\nExecStart=/usr/local/bin/k3s server " + args + "\n" }
	node := func(args, config string) map[string]string { return map[string]string{u: unit(args), c: config} }
	const code = "component-arg-overridden"
	runIssue29(t, []issue29Case{
		{name: "5488", reason: "k3s-io/k3s#5488: the unit's system-reserved and kube-reserved keys replace config's cpu and memory key by key: two warnings at config's items",
			files: node("--kubelet-arg system-reserved=cpu=300m,memory=500Mi --kubelet-arg kube-reserved=cpu=300m,memory=600Mi",
				"kubelet-arg:\n  - \"system-reserved=cpu=500m,memory=1Gi\"\n  - \"kube-reserved=cpu=500m,memory=1Gi\"\n"),
			want: map[string]diag.Severity{code: diag.Warning}, count: map[string]int{code: 2},
			hint: "remove --kubelet-arg system-reserved=cpu=300m,memory=500Mi from ExecStart so the config file decides: re-run the install script without it in INSTALL_K3S_EXEC"},
		{name: "5488-merge", reason: "config's ephemeral-storage is a key the command line does not set: the kubelet merges it in, nothing is taken away",
			files: node("--kubelet-arg system-reserved=cpu=300m,memory=500Mi", "kubelet-arg:\n  - system-reserved=ephemeral-storage=2Gi\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "map-one-key-lost", reason: "config sets cpu and ephemeral-storage, the unit cpu: cpu is lost, a warning",
			files: node("--kubelet-arg system-reserved=cpu=300m", "kubelet-arg:\n  - system-reserved=cpu=1,ephemeral-storage=2Gi\n"),
			want:  map[string]diag.Severity{code: diag.Warning}},
		{name: "map-same", reason: "both set cpu=300m: a note (an edit of config alone will not take effect)",
			files: node("--kubelet-arg system-reserved=cpu=300m", "kubelet-arg:\n  - system-reserved=cpu=300m\n"),
			want:  map[string]diag.Severity{code: diag.Info}},
		{name: "eviction-langle", reason: "eviction-hard keys are written key<value: the same threshold with another value is lost",
			files: node("--kubelet-arg eviction-hard=memory.available<100Mi", "kubelet-arg:\n  - eviction-hard=memory.available<500Mi,nodefs.available<10%\n"),
			want:  map[string]diag.Severity{code: diag.Warning}},
		{name: "single-value", reason: "max-pods is a single-value flag: the unit's 150 wins over config's 200",
			files: node("--kubelet-arg max-pods=150", "kubelet-arg:\n  - max-pods=200\n"),
			want:  map[string]diag.Severity{code: diag.Warning}, hint: "remove --kubelet-arg max-pods=150 from ExecStart"},
		{name: "single-same", reason: "the same max-pods in both places: a note",
			files: node("--kubelet-arg max-pods=150", "kubelet-arg:\n  - --max-pods=150\n"),
			want:  map[string]diag.Severity{code: diag.Info}},
		{name: "gates-differ", reason: "feature gates merge gate by gate: two different gates are both on",
			files: node("--kubelet-arg feature-gates=InPlacePodVerticalScaling=true", "kubelet-arg:\n  - feature-gates=GracefulNodeShutdown=true\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "gate-lost", reason: "the same gate turned off by the unit: config's true is lost",
			files: node("--kubelet-arg feature-gates=GracefulNodeShutdown=false", "kubelet-arg:\n  - feature-gates=GracefulNodeShutdown=true\n"),
			want:  map[string]diag.Severity{code: diag.Warning}},
		{name: "apiserver-gates", reason: "kube-apiserver's feature gates merge too (component-base featuregate Set)",
			files: node("--kube-apiserver-arg feature-gates=A=true", "kube-apiserver-arg:\n  - feature-gates=B=true\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "slice-appends", reason: "enable-admission-plugins is a StringSlice: both lists reach kube-apiserver, nothing is taken away; PodSecurityPolicy in config's list is refused on v1.25.4 (check and explain agree)",
			files:   node("--kube-apiserver-arg=enable-admission-plugins=NodeRestriction", "kube-apiserver-arg:\n  - enable-admission-plugins=NodeRestriction,PodSecurityPolicy\n"),
			version: "v1.25.4+k3s1", want: map[string]diag.Severity{code: "", "admission-plugin-unknown": diag.Error}},
		{name: "collapsed-1.23", reason: "before v1.24 k3s passes each flag once with its last value: config's list is lost (a warning) and its unknown plugin never reaches kube-apiserver",
			files:   node("--kube-apiserver-arg=enable-admission-plugins=NodeRestriction", "kube-apiserver-arg:\n  - enable-admission-plugins=NodeRestriction,NoSuchPlugin\n"),
			version: "v1.23.9+k3s1", want: map[string]diag.Severity{code: diag.Warning, "admission-plugin-unknown": ""}},
		{name: "collapsed-boundary-1.24", reason: "from v1.24.0 both items reach kube-apiserver: the unknown plugin is refused, and the list appends",
			files:   node("--kube-apiserver-arg=enable-admission-plugins=NodeRestriction", "kube-apiserver-arg:\n  - enable-admission-plugins=NodeRestriction,NoSuchPlugin\n"),
			version: "v1.24.0+k3s1", want: map[string]diag.Severity{code: "", "admission-plugin-unknown": diag.Error}},
		{name: "array", reason: "service-account-issuer is a StringArray: each occurrence adds an issuer",
			files: node("--kube-apiserver-arg service-account-issuer=https://a", "kube-apiserver-arg:\n  - service-account-issuer=https://b\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "taints-last", reason: "register-with-taints replaces on each Set (pkg/util/flag RegisterWithTaintsVar): config's taint is lost",
			files: node("--kubelet-arg register-with-taints=a=b:NoSchedule", "kubelet-arg:\n  - register-with-taints=c=d:NoSchedule\n"),
			want:  map[string]diag.Severity{code: diag.Warning}},
		{name: "config-only-repeat", reason: "two config items and no command-line one: not this finding",
			files: node("", "kubelet-arg:\n  - max-pods=100\n  - max-pods=200\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "cli-only", reason: "only the unit sets it: quiet",
			files: node("--kubelet-arg max-pods=150", "write-kubeconfig-mode: \"0600\"\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "different-flags", reason: "config's max-pods, the unit's system-reserved: nothing in common",
			files: node("--kubelet-arg system-reserved=cpu=1", "kubelet-arg:\n  - max-pods=200\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "plus-equals", reason: "flag+= places the value around k3s's own (GetArgs): not judged",
			files: node("--kubelet-arg max-pods+=150", "kubelet-arg:\n  - max-pods=200\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "disable-agent", reason: "a server that runs no kubelet: its arguments reach nothing",
			files: node("--disable-agent --kubelet-arg max-pods=150", "kubelet-arg:\n  - max-pods=200\n"),
			want:  map[string]diag.Severity{code: ""}},
		{name: "rke2", reason: "RKE2 builds the argv with the same GetArgs",
			files:   map[string]string{"/usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server --kubelet-arg max-pods=150\n", "/etc/rancher/rke2/config.yaml": "kubelet-arg:\n  - max-pods=200\n"},
			product: "rke2", want: map[string]diag.Severity{code: diag.Warning}},
	})
}

// TestEffectiveItems: the checks that read a component flag's value read what the
// component keeps: the last occurrence of a single-value flag (audit-policy-file), every
// occurrence of a list (enable-admission-plugins), and before v1.24 only the last of each.
func TestEffectiveItems(t *testing.T) {
	const c = "/etc/rancher/k3s/config.yaml"
	const bad = "/var/lib/rancher/k3s/server/audit-old.yaml"
	const good = "/var/lib/rancher/k3s/server/audit.yaml"
	policy := func(v string) string {
		return "apiVersion: audit.k8s.io/" + v + "\nkind: Policy\nrules:\n- level: Metadata\n"
	}
	files := func(first, second string) map[string]string {
		return map[string]string{c: "kube-apiserver-arg:\n  - audit-policy-file=" + first + "\n  - audit-policy-file=" + second + "\n",
			bad: policy("v1beta1"), good: policy("v1")}
	}
	runIssue29(t, []issue29Case{
		{name: "audit-bad-then-good", reason: "audit-policy-file is single-value: the later good file is the one kube-apiserver reads",
			files: files(bad, good), command: "server", version: "v1.24.0+k3s1", want: map[string]diag.Severity{"apiserver-file-version": ""}},
		{name: "audit-good-then-bad", reason: "the later bad file is read: refused",
			files: files(good, bad), command: "server", version: "v1.24.0+k3s1", want: map[string]diag.Severity{"apiserver-file-version": diag.Error}},
		{name: "gates-collapsed", reason: "before v1.24 only the last feature-gates item reaches the kubelet: an earlier gate v1.23 does not know (InPlacePodVerticalScaling came with v1.27) is never parsed",
			files: map[string]string{c: "kubelet-arg:\n  - feature-gates=InPlacePodVerticalScaling=true\n  - feature-gates=GracefulNodeShutdown=true\n"}, command: "server", version: "v1.23.9+k3s1",
			want: map[string]diag.Severity{"feature-gate-refused": ""}},
		{name: "gates-merged", reason: "from v1.24 both items reach the kubelet and merge: v1.24 does not know InPlacePodVerticalScaling either, and refuses it",
			files: map[string]string{c: "kubelet-arg:\n  - feature-gates=InPlacePodVerticalScaling=true\n  - feature-gates=GracefulNodeShutdown=true\n"}, command: "server", version: "v1.24.0+k3s1",
			want: map[string]diag.Severity{"feature-gate-refused": diag.Error}},
	})
}
