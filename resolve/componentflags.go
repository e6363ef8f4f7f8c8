package resolve

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
	"github.com/k3sconf/k3sconf/profile"
)

// componentDisabled names, per component, the flags that stop k3s from running it: its
// arguments then reach nothing.
var componentDisabled = map[string][]string{
	"kube-apiserver":          {"disable-apiserver"},
	"kube-controller-manager": {"disable-controller-manager"},
	"kube-scheduler":          {"disable-scheduler"},
	"kube-proxy":              {"disable-kube-proxy"},
	"kubelet":                 {"disable-agent"},
}

// componentRuns reports whether k3s runs the component on this node: a flag of
// componentDisabled turns it off (on a server; disable-kube-proxy on an agent too), and its
// arguments then reach nothing, so nothing about them can stop k3s.
func (r *resolver) componentRuns(comp string) bool {
	for _, d := range componentDisabled[comp] {
		if (r.res.Command == "server" || d == "disable-kube-proxy") && r.boolValue(d) {
			return false
		}
	}
	return true
}

// checkComponentFlags reports items of kube-apiserver-arg, kubelet-arg and the others that
// name a flag the modelled release's Kubernetes minor removed (profile's component-flag
// table, read from the Kubernetes sources of each minor). k3s passes each item to the
// component as --NAME=VALUE; the component's flag parsing fails with "unknown flag: --NAME"
// after k3s started, and k3s shuts down with it (pkg/executor/embed/embed.go).
func (r *resolver) checkComponentFlags() {
	minor := profile.KubernetesMinor(r.res.Version)
	if minor == 0 {
		return
	}
	for _, key := range []string{"kube-apiserver-arg", "kube-controller-manager-arg", "kube-scheduler-arg", "kubelet-arg", "kube-proxy-arg"} {
		k := r.res.Key(key)
		if k == nil {
			continue
		}
		comp := componentArgKeys[key]
		if !r.componentRuns(comp) {
			continue
		}
		items, _ := k.Value.([]string)
		for _, it := range items {
			name, _, _ := strings.Cut(strings.TrimLeft(it, "-"), "=")
			rm, ok := kubetables.ComponentFlagRemoved(comp, name, minor)
			if !ok {
				continue
			}
			msg := "unknown flag: --" + name
			if comp == "kubelet" {
				msg = "failed to parse kubelet flag: " + msg // cmd/kubelet/app/server.go parses its flags itself
			}
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "component-flag-removed", Pos: r.itemPos(key, it), Key: key,
				Phase: PhaseAfterStart,
				Message: fmt.Sprintf("%s of Kubernetes v1.%d (%s %s) has no --%s (removed in Kubernetes v1.%d): %s starts, then shuts down when %s exits with %q",
					comp, minor, r.p.Program, releaseName(r.res.Version), name, rm.RemovedIn, r.p.Program, comp, msg),
				Hint: fmt.Sprintf("%s: %s", strings.TrimSpace(it), rm.Fix) + fmt.Sprintf(" (%s up to v1.%d had it)", comp, rm.RemovedIn-1),
				Rule: rm.Source})
		}
	}
}
