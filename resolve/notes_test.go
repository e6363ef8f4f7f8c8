package resolve

import (
	"math/rand"
	"strings"
	"testing"
)

func TestComponentArgsNote(t *testing.T) {
	tests := []struct {
		name, reason string
		comp         string
		items        []string
		collapsed    bool
		want         string
	}{
		{"single", "one item per flag needs no note", "kubelet", []string{"max-pods=150"}, false, ""},
		{"repeated", "GetArgs keeps repeats in order (b6e71ef99); the component keeps the last", "kubelet", []string{"max-pods=100", "--max-pods=150"}, false,
			"--max-pods is passed 2 times (100, 150), in this order; a single-value flag of kubelet: the last wins (150)"},
		{"map-merge", "k3s-io/k3s#5488 shape: MapStringString's first Set clears the default, later ones add key by key (component-base cli/flag map_string_string.go)", "kubelet",
			[]string{"system-reserved=ephemeral-storage=2Gi", "system-reserved=cpu=300m,memory=500Mi"}, false,
			"--system-reserved is passed 2 times (ephemeral-storage=2Gi, cpu=300m,memory=500Mi), in this order; kubelet merges a map flag key by key, a later occurrence replacing a key an earlier one set: kubelet gets ephemeral-storage=2Gi,cpu=300m,memory=500Mi"},
		{"map-replace-key", "a key set twice keeps its first place and its last value", "kubelet",
			[]string{"system-reserved=cpu=500m,memory=1Gi", "system-reserved=cpu=300m"}, false,
			"--system-reserved is passed 2 times (cpu=500m,memory=1Gi, cpu=300m), in this order; kubelet merges a map flag key by key, a later occurrence replacing a key an earlier one set: kubelet gets cpu=300m,memory=1Gi"},
		{"langle-map", "eviction-hard is key<value (LangleSeparatedMapStringString)", "kubelet",
			[]string{"eviction-hard=memory.available<100Mi", "eviction-hard=nodefs.available<5%"}, false,
			"--eviction-hard is passed 2 times (memory.available<100Mi, nodefs.available<5%), in this order; kubelet merges a map flag key by key, a later occurrence replacing a key an earlier one set: kubelet gets memory.available<100Mi,nodefs.available<5%"},
		{"gates", "feature gates merge gate by gate (kubelet MapStringBool; component-base featuregate Set)", "kubelet",
			[]string{"feature-gates=GracefulNodeShutdown=true", "feature-gates=InPlacePodVerticalScaling=true"}, false,
			"--feature-gates is passed 2 times (GracefulNodeShutdown=true, InPlacePodVerticalScaling=true), in this order; kubelet merges feature gates gate by gate, a later occurrence replacing a gate an earlier one set: kubelet gets GracefulNodeShutdown=true,InPlacePodVerticalScaling=true"},
		{"slice", "enable-admission-plugins is a pflag StringSlice (k8s.io/apiserver options/admission.go): appended, so check's admission-plugin-unknown and this note agree", "kube-apiserver",
			[]string{"enable-admission-plugins=NodeRestriction,PodSecurityPolicy", "enable-admission-plugins=NodeRestriction"}, false,
			"--enable-admission-plugins is passed 2 times (NodeRestriction,PodSecurityPolicy, NodeRestriction), in this order; a list flag of kube-apiserver, each occurrence appended: kube-apiserver gets NodeRestriction,PodSecurityPolicy,NodeRestriction"},
		{"array", "service-account-issuer is a StringArray: each occurrence one more issuer", "kube-apiserver",
			[]string{"service-account-issuer=a", "service-account-issuer=b"}, false,
			"--service-account-issuer is passed 2 times (a, b), in this order; a repeatable flag of kube-apiserver, each occurrence appended: kube-apiserver gets a; b"},
		{"taints-last", "register-with-taints is a list whose Set replaces (pkg/util/flag RegisterWithTaintsVar): the last wins", "kubelet",
			[]string{"register-with-taints=a=b:NoSchedule", "register-with-taints=c=d:NoExecute"}, false,
			"--register-with-taints is passed 2 times (a=b:NoSchedule, c=d:NoExecute), in this order; a single-value flag of kubelet: the last wins (c=d:NoExecute)"},
		{"other-component", "node-labels is a map of the kubelet only; kube-proxy has no such flag, so it is judged single-value there", "kube-proxy",
			[]string{"node-labels=a=b", "node-labels=c=d"}, false,
			"--node-labels is passed 2 times (a=b, c=d), in this order; a single-value flag of kube-proxy: the last wins (c=d)"},
		{"collapsed", "before v1.24 k3s kept only the last value (k3s-io/k3s#5374)", "kube-apiserver", []string{"service-account-issuer=a", "service-account-issuer=b"}, true,
			"--service-account-issuer is given 2 times (a, b); k3s before v1.24 passes it once, with the last value (b)"},
		{"append", "flag+= appends to k3s's default", "kubelet", []string{"feature-gates+=Foo=true"}, false,
			"--feature-gates+= appends Foo=true to k3s's own value for --feature-gates"},
		{"prepend", "flag-= prepends", "kube-apiserver", []string{"authorization-mode-=Webhook"}, false,
			"--authorization-mode-= puts Webhook before k3s's own value for --authorization-mode"},
		{"no-value", "a flag without = is passed as =true", "kubelet", []string{"protect-kernel-defaults", "protect-kernel-defaults"}, false,
			"--protect-kernel-defaults is passed 2 times (true, true), in this order; a single-value flag of kubelet: the last wins (true)"},
		{"no-component", "a key that reaches no Kubernetes component (etcd-arg) keeps the general sentence", "", []string{"quota-backend-bytes=1", "quota-backend-bytes=2"}, false,
			"--quota-backend-bytes is passed 2 times (1, 2), in this order; a single-value flag of the component keeps the last (2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := componentArgsNote(tc.comp, 36, tc.items, tc.collapsed); got != tc.want {
				t.Errorf("%s:\n got %q\nwant %q", tc.reason, got, tc.want)
			}
		})
	}
}

// TestComponentArgsNeedNote checks componentArgsNote's shortcut on generated lists (fixed
// seed): whenever the full table has a note to give, componentArgsNeedNote says so.
func TestComponentArgsNeedNote(t *testing.T) {
	parts := []string{"--", "a", "b", "max-pods", "+", "-", "=", "1", "x=y", "--a"}
	r := rand.New(rand.NewSource(1))
	withNote := 0
	for i := 0; i < 50000; i++ {
		items := make([]string, r.Intn(5))
		for j := range items {
			var b strings.Builder
			for n := r.Intn(4); n >= 0; n-- {
				b.WriteString(parts[r.Intn(len(parts))])
			}
			items[j] = b.String()
		}
		for _, collapsed := range []bool{false, true} {
			full := componentArgsTable("kubelet", 36, items, collapsed)
			if full != "" {
				withNote++
				if !componentArgsNeedNote(items) {
					t.Fatalf("%q: the table says %q, but componentArgsNeedNote says there is nothing to say", items, full)
				}
			}
		}
	}
	if withNote < 1000 {
		t.Fatalf("only %d generated lists have a note: the test does not exercise the shortcut", withNote)
	}
}
