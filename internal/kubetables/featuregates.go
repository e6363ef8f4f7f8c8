package kubetables

import "fmt"

// featureGate is one row of featureGates (featuregates_data.go).
type featureGate struct {
	First, Last      int
	LockFrom, LockTo int
	Locked           bool
}

// newestKubernetesMinor is the Kubernetes minor of the newest modelled release (v1.36):
// profile.KubernetesMinor("newest") (TestNewestMinor).
const newestKubernetesMinor = 36

// featureGateOldestMinor is the oldest Kubernetes minor the feature-gate table was read from.
const featureGateOldestMinor = 22

// FeatureGateError is what a Kubernetes component of the given minor says when its
// --feature-gates sets name to value (k8s.io/component-base featuregate Set: "unrecognized
// feature gate: X", "cannot set feature gate X to V, feature is locked to D"), and "" when it
// accepts it or the table does not know the gate (a name no minor from v1.22 to v1.36 defines
// is not judged: it may come from a source the table was not read from).
func FeatureGateError(name string, value bool, minor int) string {
	g, ok := featureGates[name]
	if !ok || minor < featureGateOldestMinor || minor > newestKubernetesMinor {
		return ""
	}
	if (g.First != 0 && minor < g.First) || (g.Last != 0 && minor > g.Last) {
		return "unrecognized feature gate: " + name
	}
	if g.LockFrom != 0 && minor >= g.LockFrom && minor <= g.LockTo && value != g.Locked {
		return fmt.Sprintf("cannot set feature gate %s to %t, feature is locked to %t", name, value, g.Locked)
	}
	return ""
}

// FeatureGateSpan says in words in which minors the gate exists, for a fix.
func FeatureGateSpan(name string) string {
	g, ok := featureGates[name]
	if !ok {
		return ""
	}
	switch {
	case g.First != 0 && g.Last != 0:
		return fmt.Sprintf("Kubernetes v1.%d to v1.%d have it", g.First, g.Last)
	case g.First != 0:
		return fmt.Sprintf("it came with Kubernetes v1.%d", g.First)
	case g.Last != 0:
		return fmt.Sprintf("it was removed in Kubernetes v1.%d", g.Last+1)
	}
	return ""
}
