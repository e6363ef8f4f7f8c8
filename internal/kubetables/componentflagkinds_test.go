package kubetables

import (
	"strings"
	"testing"
)

func TestComponentFlagKinds(t *testing.T) {
	rows := allComponentFlagKinds()
	if len(rows) < 70 {
		t.Fatalf("%d rows: the table lost rows", len(rows))
	}
	for _, r := range rows {
		if !strings.HasPrefix(r.source, "k8s.io/") {
			t.Errorf("%s --%s: source %q does not name the module it was read in", r.component, r.flag, r.source)
		}
	}
	tests := []struct {
		name, reason, comp, flag string
		minor                    int
		want                     ArgKind
	}{
		{"system-reserved", "cliflag.NewMapStringString in cmd/kubelet/app/options/options.go", "kubelet", "system-reserved", 36, ArgMap},
		{"eviction-hard", "cliflag.NewLangleSeparatedMapStringString", "kubelet", "eviction-hard", 22, ArgMap},
		{"node-labels", "cliflag.ConfigurationMap", "kubelet", "node-labels", 30, ArgMap},
		{"kubelet-gates", "the kubelet's feature-gates is a MapStringBool", "kubelet", "feature-gates", 36, ArgGates},
		{"apiserver-gates", "component-base featuregate", "kube-apiserver", "feature-gates", 25, ArgGates},
		{"admission", "k8s.io/apiserver options/admission.go StringSliceVar", "kube-apiserver", "enable-admission-plugins", 25, ArgSlice},
		{"issuer", "StringArrayVar", "kube-apiserver", "service-account-issuer", 30, ArgArray},
		{"manifest-url-header", "a header given again keeps every value: nothing is taken away", "kubelet", "manifest-url-header", 30, ArgArray},
		{"taints", "RegisterWithTaintsVar replaces on each Set: not listed, single-value", "kubelet", "register-with-taints", 30, ArgLast},
		{"max-pods", "an Int32Var", "kubelet", "max-pods", 30, ArgLast},
		{"other-component", "node-labels is the kubelet's, not kube-proxy's", "kube-proxy", "node-labels", 30, ArgLast},
		{"until", "service-account-api-audiences is gone from v1.25", "kube-apiserver", "service-account-api-audiences", 25, ArgLast},
		{"before-until", "and a StringSlice on v1.24", "kube-apiserver", "service-account-api-audiences", 24, ArgSlice},
		{"since", "topology-manager-policy-options came with v1.26", "kubelet", "topology-manager-policy-options", 25, ArgLast},
		{"since-on", "a map from v1.26", "kubelet", "topology-manager-policy-options", 26, ArgMap},
		{"minor-unknown", "minor 0 takes the row", "kubelet", "topology-manager-policy-options", 0, ArgMap},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := ComponentArgKind(tc.comp, tc.flag, tc.minor); got != tc.want {
				t.Errorf("%s: %s --%s on v1.%d is %q, want %q", tc.reason, tc.comp, tc.flag, tc.minor, got, tc.want)
			}
		})
	}
}
