package resolve

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
	"github.com/k3sconf/k3sconf/profile"
)

// admissionFixes say what to write instead of a plugin Kubernetes removed.
var admissionFixes = map[string]string{
	"PodSecurityPolicy":     "remove PodSecurityPolicy from the list: Kubernetes v1.25 removed PodSecurityPolicy; its successor, Pod Security Admission (the PodSecurity plugin), is on by default and is configured with pod-security-admission-config-file (k3s) or profile: cis (RKE2)",
	"SecurityContextDeny":   "remove SecurityContextDeny from the list: Kubernetes v1.30 removed it; Pod Security Admission's restricted level covers what it denied",
	"PersistentVolumeLabel": "remove PersistentVolumeLabel from the list: Kubernetes v1.31 removed it; the cloud provider's controller manager labels volumes",
}

// checkAdmissionPlugins reports plugin names in kube-apiserver-arg's
// enable-admission-plugins, disable-admission-plugins and admission-control that the
// modelled release's kube-apiserver does not register (profile's admission-plugin table).
// kube-apiserver validates its options after k3s started it and exits with
// "enable-admission-plugins plugin "X" is unknown" (k8s.io/apiserver
// pkg/server/options/admission.go Validate; for admission-control, k8s.io/kubernetes
// pkg/kubeapiserver/options/admission.go Validate), and k3s shuts down with it
// (pkg/executor/embed: "apiserver exited: …"). Names are compared as written but trimmed;
// empty names (a trailing comma) are not judged.
func (r *resolver) checkAdmissionPlugins() {
	minor, items := r.apiserverArgItems()
	if minor == 0 {
		return
	}
	for _, it := range items {
		flag, val, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(it), "-"), "=")
		if !ok || (flag != "enable-admission-plugins" && flag != "disable-admission-plugins" && flag != "admission-control") {
			continue
		}
		for _, name := range strings.Split(val, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			registered, row, known := kubetables.AdmissionPluginRegistered(name, minor)
			if registered {
				continue
			}
			msg := fmt.Sprintf("%s plugin %q is unknown", flag, name)
			var why, fix string
			switch {
			case !known:
				why = fmt.Sprintf("no kube-apiserver from Kubernetes v1.22 to v1.36 has an admission plugin named %s (names are case-sensitive)", name)
				fix = fmt.Sprintf("remove %s from %s (`kube-apiserver --help` lists the plugins under --enable-admission-plugins)", name, flag)
				if s := admissionSuggestion(name); s != "" {
					fix = fmt.Sprintf("write %s instead of %s in %s", s, name, flag)
				}
			case row.Until != 0 && minor >= row.Until:
				why = fmt.Sprintf("Kubernetes v1.%d removed the %s admission plugin (v1.%d was the last minor with it)", row.Until, name, row.Until-1)
				fix = admissionFixes[name]
				if fix == "" {
					fix = fmt.Sprintf("remove %s from %s", name, flag)
				}
			default:
				why = fmt.Sprintf("the %s admission plugin came with Kubernetes v1.%d", name, row.Since)
				fix = fmt.Sprintf("remove %s from %s, or run a release of Kubernetes v1.%d or later", name, flag, row.Since)
			}
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "admission-plugin-unknown", Pos: r.itemPos("kube-apiserver-arg", it), Key: "kube-apiserver-arg",
				Phase: PhaseAfterStart,
				Message: fmt.Sprintf("kube-apiserver of Kubernetes v1.%d (%s %s) has no admission plugin %s: %s; %s starts, then shuts down when kube-apiserver exits with %q",
					minor, r.p.Program, releaseName(r.res.Version), name, why, r.p.Program, msg),
				Hint: fix,
				Rule: row.Source})
		}
	}
}

// admissionSuggestion is the registered plugin a name means when it differs only in case
// (podsecurity, noderestriction).
func admissionSuggestion(name string) string {
	for _, p := range kubetables.AdmissionPlugins() {
		if strings.EqualFold(p.Name, name) {
			return p.Name
		}
	}
	return ""
}

// apiserverArgItems is what the checks of kube-apiserver's own arguments read: the
// Kubernetes minor of the modelled release and the kube-apiserver-arg items kube-apiserver
// really gets (effectiveItems). minor is 0, and the checks stay quiet, when the release has
// no known minor or k3s does not run kube-apiserver; items is nil when no item is set.
func (r *resolver) apiserverArgItems() (minor int, items []string) {
	minor = profile.KubernetesMinor(r.res.Version)
	if minor == 0 || !r.componentRuns("kube-apiserver") {
		return 0, nil
	}
	if k := r.res.Key("kube-apiserver-arg"); k != nil {
		all, _ := k.Value.([]string)
		items = r.effectiveItems("kube-apiserver", all)
	}
	return minor, items
}
