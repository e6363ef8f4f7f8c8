package kubetables

import "testing"

// TestAdmissionPlugins: the table loads, and its boundaries hold on both sides (read from
// k8s.io/kubernetes pkg/kubeapiserver/options/plugins.go at v1.22.0 to v1.36.0).
func TestAdmissionPlugins(t *testing.T) {
	if n := len(AdmissionPlugins()); n != 44 {
		t.Errorf("%d plugins, want the 44 some minor from v1.22 to v1.36 registers", n)
	}
	tests := []struct {
		name   string
		minor  int
		want   bool
		reason string
	}{
		{"PodSecurityPolicy", 24, true, "v1.24 is the last minor with PSP"},
		{"PodSecurityPolicy", 25, false, "v1.25 removed it"},
		{"SecurityContextDeny", 29, true, "still in v1.29"},
		{"SecurityContextDeny", 30, false, "removed in v1.30"},
		{"PersistentVolumeLabel", 30, true, "still in v1.30"},
		{"PersistentVolumeLabel", 31, false, "removed in v1.31"},
		{"ValidatingAdmissionPolicy", 25, false, "not yet in v1.25"},
		{"ValidatingAdmissionPolicy", 26, true, "added in v1.26"},
		{"ClusterTrustBundleAttest", 26, false, "not yet in v1.26"},
		{"ClusterTrustBundleAttest", 27, true, "added in v1.27"},
		{"MutatingAdmissionPolicy", 31, false, "not yet in v1.31"},
		{"MutatingAdmissionPolicy", 32, true, "added in v1.32"},
		{"NodeRestriction", 22, true, "every minor"},
		{"NodeRestriction", 36, true, "every minor"},
		{"PodSecurity", 22, true, "Pod Security Admission is in v1.22 already"},
		{"podsecurity", 30, false, "names are case-sensitive"},
	}
	for _, tc := range tests {
		if got, _, _ := AdmissionPluginRegistered(tc.name, tc.minor); got != tc.want {
			t.Errorf("%s in v1.%d: %v, want %v (%s)", tc.name, tc.minor, got, tc.want, tc.reason)
		}
	}
}
