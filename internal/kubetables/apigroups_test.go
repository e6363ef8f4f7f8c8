package kubetables

import "testing"

// TestAPIGroupVersions: the table loads, and its boundaries hold on both sides (read from
// k8s.io/kubernetes pkg/controlplane/import_known_versions.go and pkg/apis/*/install at
// v1.22.0 to v1.36.0).
func TestAPIGroupVersions(t *testing.T) {
	if n := len(APIGroupVersions()); n != 67 {
		t.Errorf("%d rows, want the 65 group versions some minor from v1.22 to v1.36 registers and the 2 groups of other schemes", n)
	}
	tests := []struct {
		group, version    string
		minor             int
		wantGroup, wantOK bool
		reason            string
	}{
		{"batch", "v1beta1", 36, true, true, "still registered in v1.36 (served until v1.24 only)"},
		{"batch", "v2alpha1", 22, true, false, "gone before v1.22"},
		{"flowcontrol.apiserver.k8s.io", "v1alpha1", 28, true, true, "v1.28 is the last minor with it"},
		{"flowcontrol.apiserver.k8s.io", "v1alpha1", 29, true, false, "v1.29 dropped it"},
		{"resource.k8s.io", "v1alpha2", 30, true, true, "v1.30 is the last minor with it"},
		{"resource.k8s.io", "v1alpha2", 31, true, false, "v1.31 replaced it with v1alpha3"},
		{"resource.k8s.io", "v1alpha1", 25, false, false, "the group came with v1.26"},
		{"storagemigration.k8s.io", "v1alpha1", 29, false, false, "the group came with v1.30"},
		{"storagemigration.k8s.io", "v1alpha1", 34, true, true, "v1.34 is the last minor with it"},
		{"storagemigration.k8s.io", "v1alpha1", 35, true, false, "v1.35 has v1beta1 instead"},
		{"autoscaling", "v2beta2", 35, true, true, "v1.35 still registers it"},
		{"autoscaling", "v2beta2", 36, true, false, "v1.36 does not"},
		{"", "v1", 22, true, true, "the core group"},
		{"settings.k8s.io", "v1alpha1", 22, false, false, "no minor from v1.22 has the group"},
		{"apiextensions.k8s.io", "v1", 30, true, false, "another scheme: the group is known, versions are not read"},
	}
	for _, tc := range tests {
		g, ok, _, _ := APIGroupRegistered(tc.group, tc.version, tc.minor)
		if g != tc.wantGroup || ok != tc.wantOK {
			t.Errorf("%s/%s in v1.%d: group %v version %v, want %v %v (%s)", tc.group, tc.version, tc.minor, g, ok, tc.wantGroup, tc.wantOK, tc.reason)
		}
	}
	if _, _, known, _ := APIGroupRegistered("apiextensions.k8s.io", "v1", 30); known {
		t.Error("apiextensions.k8s.io versions are not read: known must be false")
	}
}
