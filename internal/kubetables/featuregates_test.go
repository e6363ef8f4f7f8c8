package kubetables

import (
	"testing"

	"github.com/k3sconf/k3sconf/profile"
)

// TestFeatureGateError: rows checked by hand against the Kubernetes sources (pkg/features at
// v1.M.0) and the messages of k8s.io/component-base featuregate (feature_gate.go Set).
func TestFeatureGateError(t *testing.T) {
	tests := []struct {
		name, reason string
		gate         string
		value        bool
		minor        int
		want         string
	}{
		{"selflink-1.23", "RemoveSelfLink could still be turned off before 1.24", "RemoveSelfLink", false, 23, ""},
		{"selflink-1.24", "locked to true in 1.24 (the NFS provisioner workaround stops working)", "RemoveSelfLink", false, 24, "cannot set feature gate RemoveSelfLink to false, feature is locked to true"},
		{"selflink-true-1.24", "setting the locked value is accepted", "RemoveSelfLink", true, 24, ""},
		{"selflink-1.30", "the gate is gone in 1.30", "RemoveSelfLink", true, 30, "unrecognized feature gate: RemoveSelfLink"},
		{"ephemeral-1.27", "EphemeralContainers was removed in 1.27", "EphemeralContainers", true, 27, "unrecognized feature gate: EphemeralContainers"},
		{"dualstack-1.25", "k8s.io/kubernetes removed IPv6DualStack in 1.25, but k8s.io/controller-manager still defined it in 1.25 and 1.26: not judged there", "IPv6DualStack", true, 25, ""},
		{"dualstack-1.27", "no module defines it from 1.27", "IPv6DualStack", true, 27, "unrecognized feature gate: IPv6DualStack"},
		{"sidecar-1.27", "SidecarContainers came with 1.28", "SidecarContainers", true, 27, "unrecognized feature gate: SidecarContainers"},
		{"sidecar-1.33", "still there", "SidecarContainers", true, 33, ""},
		{"graceful", "a gate in every minor is not in the table and always accepted", "GracefulNodeShutdown", true, 30, ""},
		{"unknown", "a name the table never saw is not judged", "NoSuchGateAnywhere", true, 30, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FeatureGateError(tc.gate, tc.value, tc.minor); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}

// TestNewestMinor: the tables end at the Kubernetes minor of the newest modelled release.
func TestNewestMinor(t *testing.T) {
	if got := profile.KubernetesMinor("newest"); got != newestKubernetesMinor {
		t.Errorf("profile.KubernetesMinor(newest) = %d, the tables' newest minor %d", got, newestKubernetesMinor)
	}
}
