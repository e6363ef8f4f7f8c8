package kubetables

import "testing"

// TestComponentFlagRemovals: the table parses, and a flag is judged removed from its minor
// on and not in the minor before.
func TestComponentFlagRemovals(t *testing.T) {
	rows := allComponentFlagRemovals()
	if len(rows) < 40 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if r.RemovedIn <= featureGateOldestMinor || r.RemovedIn > newestKubernetesMinor || r.Fix == "" || r.Source == "" {
			t.Errorf("%s --%s: removed in 1.%d, fix %q, source %q", r.component, r.flag, r.RemovedIn, r.Fix, r.Source)
		}
		if _, ok := ComponentFlagRemoved(r.component, r.flag, r.RemovedIn-1); ok {
			t.Errorf("%s --%s: removed in 1.%d before its removal", r.component, r.flag, r.RemovedIn-1)
		}
		if _, ok := ComponentFlagRemoved(r.component, r.flag, r.RemovedIn); !ok {
			t.Errorf("%s --%s: not removed in 1.%d", r.component, r.flag, r.RemovedIn)
		}
	}
	if _, ok := ComponentFlagRemoved("kubelet", "container-runtime-endpoint", 36); ok {
		t.Error("container-runtime-endpoint is still a kubelet flag")
	}
	if _, ok := ComponentFlagRemoved("kube-apiserver", "pod-eviction-timeout", 36); ok {
		t.Error("pod-eviction-timeout was kube-controller-manager's, not kube-apiserver's")
	}
}
