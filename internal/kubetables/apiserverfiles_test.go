package kubetables

import "testing"

// TestAPIServerFileVersions: each boundary of data/apiserver-file-versions.tsv on both sides
// (k8s.io/apiserver pkg/apis/audit/install and k8s.io/pod-security-admission
// admission/api/scheme at v0.22.0 to v0.36.0).
func TestAPIServerFileVersions(t *testing.T) {
	tests := []struct {
		file, group, version string
		minor                int
		want, judged         bool
		reason               string
	}{
		{"audit-policy", "audit.k8s.io", "v1beta1", 23, true, true, "v1.23 is the last minor with audit.k8s.io/v1beta1"},
		{"audit-policy", "audit.k8s.io", "v1beta1", 24, false, true, "v1.24 removed it"},
		{"audit-policy", "audit.k8s.io", "v1alpha1", 24, false, true, "and v1alpha1"},
		{"audit-policy", "audit.k8s.io", "v1", 36, true, true, "v1 in every minor"},
		{"pod-security", "pod-security.admission.config.k8s.io", "v1", 24, false, true, "v1 came with v1.25"},
		{"pod-security", "pod-security.admission.config.k8s.io", "v1", 25, true, true, "and is there from v1.25"},
		{"pod-security", "pod-security.admission.config.k8s.io", "v1beta1", 22, false, true, "v1beta1 came with v1.23"},
		{"pod-security", "pod-security.admission.config.k8s.io", "v1beta1", 23, true, true, "there from v1.23"},
		{"pod-security", "eventratelimit.admission.k8s.io", "v1alpha1", 30, false, false, "another plugin's group: not judged"},
	}
	for _, tc := range tests {
		got, judged, _, _ := APIServerFileVersionRegistered(tc.file, tc.group, tc.version, tc.minor)
		if got != tc.want || judged != tc.judged {
			t.Errorf("%s %s/%s in v1.%d: %v (judged %v), want %v (%v): %s", tc.file, tc.group, tc.version, tc.minor, got, judged, tc.want, tc.judged, tc.reason)
		}
	}
}
