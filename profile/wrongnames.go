package profile

import "strings"

// WrongName is a name people write that the product does not accept (any more), with the
// name to write instead. Findings about an unknown key, an undefined flag or a disable item
// that matches nothing use it to name the root cause instead of a bare "remove it".
type WrongName struct {
	// Kind is "key" (a flag, or a config-file key) or "disable" (an item of disable:).
	Kind string
	Name string
	// Use is the replacement: a key name ("server"), a key with a value
	// ("flannel-backend: none"), or a disable item ("local-storage"). Empty when the
	// setting should simply go.
	Use string
	// Why says in one clause where the wrong name comes from or when it went away.
	Why string
	// source names where the rule was read.
	source string
}

// wrongNames is the table; {P} is the program (k3s, rke2) and {E} its variable prefix
// (K3S, RKE2). Sources are k3s-io/k3s commits (read in the manuelbuil/k3s mirror).
var wrongNames = []WrongName{
	{Kind: "key", Name: "url", Use: "server",
		Why:    "{E}_URL is the installer's variable for the server to join; the flag and config key are server (--server, -s), and {P} has no url key",
		source: "k3s-io/k3s pkg/cli/cmds/agent.go ServerURL flag: Name \"server\", EnvVars {E}_URL"},
	{Kind: "key", Name: "no-deploy", Use: "disable",
		Why:    "--no-deploy was deprecated for --disable and removed in k3s v1.26",
		source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574)"},
	{Kind: "key", Name: "cluster-secret", Use: "token",
		Why:    "--cluster-secret was deprecated for --token and removed in k3s v1.26",
		source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574)"},
	{Kind: "key", Name: "no-flannel", Use: "flannel-backend: none",
		Why:    "--no-flannel was deprecated for --flannel-backend=none and removed in k3s v1.26",
		source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574)"},
	{Kind: "key", Name: "disable-selinux", Use: "",
		Why:    "--disable-selinux was removed in k3s v1.26; SELinux support is off unless selinux: true is set",
		source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574)"},
	{Kind: "key", Name: "node-labels", Use: "node-label",
		Why:    "--node-labels is the kubelet's flag; {P}'s is node-label, one label per item",
		source: "k3s-io/k3s pkg/cli/cmds/agent.go NodeLabels flag: Name \"node-label\""},
	{Kind: "key", Name: "node-taints", Use: "node-taint",
		Why:    "{P}'s flag is node-taint, one taint per item (the kubelet's is --register-with-taints)",
		source: "k3s-io/k3s pkg/cli/cmds/agent.go NodeTaints flag: Name \"node-taint\""},
	{Kind: "key", Name: "tls-sans", Use: "tls-san",
		Why:    "the flag is tls-san, one name per item",
		source: "k3s-io/k3s pkg/cli/cmds/server.go TLSSan flag: Name \"tls-san\""},
	{Kind: "key", Name: "kubelet-args", Use: "kubelet-arg",
		Why:    "the flag is kubelet-arg, one kubelet flag per item",
		source: "k3s-io/k3s pkg/cli/cmds/agent.go ExtraKubeletArgs flag: Name \"kubelet-arg\""},
	{Kind: "key", Name: "kube-apiserver-args", Use: "kube-apiserver-arg",
		Why:    "the flag is kube-apiserver-arg, one apiserver flag per item",
		source: "k3s-io/k3s pkg/cli/cmds/server.go ExtraAPIArgs flag: Name \"kube-apiserver-arg\""},
	{Kind: "disable", Name: "local-path", Use: "local-storage",
		Why:    "the component that deploys the local-path provisioner is called local-storage (manifests/local-storage.yaml)",
		source: "k3s-io/k3s pkg/cli/cmds/server.go DisableItems"},
	{Kind: "disable", Name: "local-path-provisioner", Use: "local-storage",
		Why:    "the component that deploys the local-path provisioner is called local-storage (manifests/local-storage.yaml)",
		source: "k3s-io/k3s pkg/cli/cmds/server.go DisableItems"},
	{Kind: "disable", Name: "klipper-lb", Use: "servicelb",
		Why:    "klipper-lb is the image ServiceLB runs; the component is servicelb",
		source: "k3s-io/k3s pkg/cli/cmds/server.go DisableItems"},
	{Kind: "disable", Name: "flannel", Use: "flannel-backend: none",
		Why:    "flannel is not a packaged component but {P}'s built-in CNI, and no disable item turns it off; flannel-backend: none does",
		source: "k3s-io/k3s pkg/cli/cmds/server.go DisableItems (no flannel) and FlannelBackend flag (\"none\")"},
	{Kind: "disable", Name: "traefik-crd", Use: "traefik",
		Why:    "the traefik-crd HelmChart is in traefik.yaml, which disable: traefik removes",
		source: "k3s-io/k3s manifests/traefik.yaml"},
}

// rke2WrongNames: RKE2 has the same keys; its disable items are its chart names.
var rke2WrongNames = []WrongName{
	{Kind: "disable", Name: "traefik", Use: "rke2-traefik",
		Why:    "RKE2's disable items are its chart names, which start with rke2-",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
	{Kind: "disable", Name: "ingress-nginx", Use: "rke2-ingress-nginx",
		Why:    "RKE2's disable items are its chart names, which start with rke2-",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
	{Kind: "disable", Name: "coredns", Use: "rke2-coredns",
		Why:    "RKE2's disable items are its chart names, which start with rke2-",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
	{Kind: "disable", Name: "metrics-server", Use: "rke2-metrics-server",
		Why:    "RKE2's disable items are its chart names, which start with rke2-",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
	{Kind: "disable", Name: "servicelb", Use: "",
		Why:    "RKE2 has no ServiceLB (k3s's load balancer); its servers run no such controller",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
	{Kind: "disable", Name: "local-storage", Use: "",
		Why:    "RKE2 ships no local-path provisioner",
		source: "rancher/rke2 pkg/cli/types.go DisableItems"},
}

// table is the product's rows: k3s's; for RKE2 the same keys (its flags are k3s's) and its
// own disable items, which are chart names.
func (p *Profile) wrongNameTable() []WrongName {
	if p.Name != "rke2" {
		return wrongNames
	}
	var out []WrongName
	for _, w := range wrongNames {
		if w.Kind == "key" {
			out = append(out, w)
		}
	}
	return append(out, rke2WrongNames...)
}

// WrongName looks a wrong name up; nil when the table has none. The texts come with the
// product's program and variable prefix filled in.
func (p *Profile) WrongName(kind, name string) *WrongName {
	// Texts are filled in for the match only: components asks once per disable item, and
	// filling in the whole table each time cost 0.2 s on a node with 2,000 items.
	for _, w := range p.wrongNameTable() {
		if w.Kind == kind && w.Name == name {
			r := strings.NewReplacer("{P}", p.Program, "{E}", p.EnvPrefix)
			w.Why, w.source = r.Replace(w.Why), r.Replace(w.source)
			return &w
		}
	}
	return nil
}

// WrongNames returns the product's table, texts filled in, for lookups and documentation.
func (p *Profile) WrongNames() []WrongName {
	r := strings.NewReplacer("{P}", p.Program, "{E}", p.EnvPrefix)
	var out []WrongName
	for _, w := range p.wrongNameTable() {
		w.Why, w.source = r.Replace(w.Why), r.Replace(w.source)
		out = append(out, w)
	}
	return out
}

// Fix is the one-sentence fix for a wrong name, e.g. "rename url to server — K3S_URL is …".
func (w *WrongName) Fix() string {
	switch {
	case w.Kind == "disable" && strings.Contains(w.Use, ":"):
		return "remove " + w.Name + " from disable and set " + w.Use + " — " + w.Why
	case w.Kind == "disable" && w.Use != "":
		return "write " + w.Use + " instead of " + w.Name + " — " + w.Why
	case w.Kind == "disable":
		return "remove " + w.Name + " from disable — " + w.Why
	case strings.Contains(w.Use, ":"):
		return "replace " + w.Name + " with " + w.Use + " — " + w.Why
	case w.Use != "":
		return "rename " + w.Name + " to " + w.Use + " — " + w.Why
	}
	return "remove " + w.Name + " — " + w.Why
}
