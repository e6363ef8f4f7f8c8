package components

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
)

// ciliumKubeProxyFree: rancher/rke2#4862 (RKE2 v1.25.13). With disable-kube-proxy RKE2 runs
// no kube-proxy, and a HelmChartConfig for rke2-cilium that turns on Cilium's kube-proxy
// replacement (kubeProxyReplacement: strict, or true from Cilium 1.14) without
// k8sServiceHost leaves the Cilium agent and operator to reach the API server through the
// kubernetes Service's ClusterIP (the in-cluster KUBERNETES_SERVICE_HOST), which nothing
// translates until Cilium itself runs: Cilium never comes up, the operator stays Pending and
// the node NotReady. Cilium's kube-proxy-free guide sets k8sServiceHost and k8sServicePort
// for this, as RKE2's own kube-proxy-free test does (rancher/rke2
// tests/e2e/scripts/cilium_nokubeproxy.sh at v1.36.3+rke2r1: kubeProxyReplacement: true,
// k8sServiceHost: the node's address, k8sServicePort: 6443); RKE2 passes neither itself (no
// k8sServiceHost in rancher/rke2 at v1.25.13+rke2r1, v1.30.1+rke2r1, v1.36.3+rke2r1, and the
// rke2-cilium chart's default is ""). Judged only from the node's own HelmChartConfig
// (valuesContent); k8sServiceHostRef or any k8sServiceHost value (auto included) is taken as
// set.
func (in *inspector) ciliumKubeProxyFree() {
	if in.res.Product != "rke2" || !slices.Contains(listKey(in.res, "cni"), "cilium") || !boolKey(in.res, "disable-kube-proxy") {
		return
	}
	o := in.rep.HelmChartConfigFor("kube-system", "rke2-cilium")
	if o == nil || o.Doc == nil {
		return
	}
	spec := field(o.Doc, "spec")
	if spec == nil {
		return
	}
	content := scalar(spec, "valuesContent")
	var values map[string]any
	if content == "" || yaml.Unmarshal([]byte(content), &values) != nil {
		return
	}
	kpr := strings.ToLower(fmt.Sprint(values["kubeProxyReplacement"]))
	if kpr != "strict" && kpr != "true" {
		return
	}
	if h, ok := values["k8sServiceHost"]; ok && fmt.Sprint(h) != "" && h != nil {
		return
	}
	if ref, ok := values["k8sServiceHostRef"].(map[string]any); ok && ref["name"] != nil && fmt.Sprint(ref["name"]) != "" {
		return
	}
	in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-cilium-no-apiserver-host", Pos: o.Pos, Key: "disable-kube-proxy",
		Message: fmt.Sprintf("the HelmChartConfig rke2-cilium sets kubeProxyReplacement: %v and disable-kube-proxy is true, but it sets no k8sServiceHost: without kube-proxy the Cilium agent and operator cannot reach the API server through the kubernetes Service's ClusterIP, which only Cilium would translate, so Cilium never starts and the node stays NotReady (rancher/rke2#4862)", values["kubeProxyReplacement"]),
		Hint:    fmt.Sprintf("set k8sServiceHost and k8sServicePort in the valuesContent of %s to an address and port where every node reaches the API server (RKE2's kube-proxy-free test uses the server's address and 6443)", o.File)})
}
