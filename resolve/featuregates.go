package resolve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
	"github.com/k3sconf/k3sconf/profile"
)

// componentArgKeys are the keys whose items k3s passes to a Kubernetes component it runs
// in-process; each component parses --feature-gates with the shared default feature gate.
var componentArgKeys = map[string]string{
	"kube-apiserver-arg":          "kube-apiserver",
	"kube-controller-manager-arg": "kube-controller-manager",
	"kube-scheduler-arg":          "kube-scheduler",
	"kubelet-arg":                 "kubelet",
	"kube-proxy-arg":              "kube-proxy",
}

// checkFeatureGates reports --feature-gates items the modelled release's Kubernetes refuses:
// a gate it no longer (or does not yet) define, or a locked gate set against its lock
// (profile's feature-gate table, read from the Kubernetes sources of each minor). The
// component returns the error while parsing its flags; k3s has started by then and shuts
// down with it (pkg/executor/embed/embed.go: "kubelet exited: …", "apiserver exited: …").
func (r *resolver) checkFeatureGates() {
	minor := profile.KubernetesMinor(r.res.Version)
	for _, key := range []string{"kube-apiserver-arg", "kube-controller-manager-arg", "kube-scheduler-arg", "kubelet-arg", "kube-proxy-arg"} {
		k := r.res.Key(key)
		if k == nil || !r.componentRuns(componentArgKeys[key]) {
			continue // a component k3s does not run never parses its feature gates
		}
		items, _ := k.Value.([]string)
		for _, it := range r.effectiveItems(componentArgKeys[key], items) {
			name, val, ok := strings.Cut(strings.TrimLeft(it, "-"), "=")
			if !ok || name != "feature-gates" {
				continue
			}
			for _, pair := range strings.Split(val, ",") {
				gate, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if !ok {
					continue
				}
				b, err := strconv.ParseBool(strings.TrimSpace(v))
				if err != nil {
					continue
				}
				gate = strings.TrimSpace(gate)
				msg := kubetables.FeatureGateError(gate, b, minor)
				if msg == "" {
					continue
				}
				pos := diag.Position{}
				if k.Source != nil {
					pos = k.Source.Pos
				}
				for _, a := range k.History {
					if strings.Contains(a.Value, gate) || strings.Contains(strings.Join(a.Items, ","), gate) {
						pos = a.Pos
					}
				}
				comp := componentArgKeys[key]
				fix := fmt.Sprintf("remove %s=%s from %s's feature-gates", gate, v, key)
				if strings.HasPrefix(msg, "cannot set") {
					fix = fmt.Sprintf("remove %s=%s from %s's feature-gates: Kubernetes v1.%d fixes the gate's value", gate, v, key, minor)
				} else if span := kubetables.FeatureGateSpan(gate); span != "" {
					fix += " (" + span + ")"
				}
				r.diag(diag.Diagnostic{Severity: diag.Error, Code: "feature-gate-refused", Pos: pos, Key: key,
					Phase:   PhaseAfterStart,
					Message: fmt.Sprintf("%s of Kubernetes v1.%d (%s %s) refuses --feature-gates %s=%s: %q; %s starts, then shuts down when %s exits", comp, minor, r.p.Program, releaseName(r.res.Version), gate, v, msg, r.p.Program, comp),
					Hint:    fix})
			}
		}
	}
}
