package components

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// packagedSets are the packaged components per product.
var packagedSets = map[string][]packaged{
	"k3s":  k3sPackaged,
	"rke2": rke2Packaged,
}

// rke2Charts are the charts rancher/rke2@6ce1a8019e bundles (charts/chart_versions.yaml);
// each is staged as <name>.yaml, a HelmChart of the same name in kube-system, by
// pkg/bootstrap/bootstrap.go updateManifests, and k3s's deploy controller (which RKE2
// embeds) skips or removes the ones in the disable list.
var rke2Charts = []struct{ name, note string }{
	{"rke2-coredns", "cluster DNS"},
	{"rke2-metrics-server", ""},
	{"rke2-snapshot-controller", ""},
	{"rke2-snapshot-controller-crd", ""},
	{"rke2-snapshot-validation-webhook", ""},
	{"rke2-security-responder", ""},
	{"rke2-runtimeclasses", "RuntimeClasses for the container runtimes RKE2 detects"},
	{"rke2-canal", "CNI, selected with cni: canal (the default)"},
	{"rke2-calico", "CNI, selected with cni: calico"},
	{"rke2-calico-crd", "CRDs of the calico CNI"},
	{"rke2-cilium", "CNI, selected with cni: cilium"},
	{"rke2-flannel", "CNI, selected with cni: flannel"},
	{"rke2-multus", "selected with cni: multus,<cni> (multus first)"},
	{"rke2-ingress-nginx", "ingress controller, selected with ingress-controller: ingress-nginx"},
	{"rke2-traefik", "ingress controller, selected with ingress-controller: traefik"},
	{"rke2-traefik-crd", "CRDs of traefik"},
	{"rancher-vsphere-cpi", "cloud provider, selected with cloud-provider-name: rancher-vsphere"},
	{"rancher-vsphere-csi", "storage driver, selected with cloud-provider-name: rancher-vsphere"},
	{"harvester-cloud-provider", "cloud provider, selected with cloud-provider-name: harvester"},
	{"harvester-csi-driver", "storage driver, selected with cloud-provider-name: harvester"},
	{"rke2-ovirt-csi-driver", "storage driver, selected with cloud-provider-name: ovirt"},
}

var rke2Packaged = func() []packaged {
	var out []packaged
	for _, c := range rke2Charts {
		out = append(out, packaged{name: c.name, files: []string{c.name + ".yaml"}, charts: []string{"kube-system/" + c.name}, note: c.note})
	}
	return out
}()

// rke2CNIs are pkg/cli/types.go CNIItems; rke2Providers maps cloud-provider-name to the
// charts pkg/cli/cmds/root.go validateCloudProvider keeps.
var (
	rke2CNIs      = []string{"calico", "canal", "cilium", "flannel"}
	rke2Providers = map[string][]string{
		"rancher-vsphere": {"rancher-vsphere-csi", "rancher-vsphere-cpi"},
		"harvester":       {"harvester-csi-driver", "harvester-cloud-provider"},
		"ovirt":           {"rke2-ovirt-csi-driver"},
	}
	rke2Ingresses = []string{"traefik", "ingress-nginx"}
)

// rke2Rules adds the items RKE2 disables itself after parsing (pkg/cli/cmds/server.go
// validateCNI / disableExceptSelected, root.go validateCloudProvider) and the ingress
// controllers it empties (pkg/bootstrap/bootstrap.go updateManifests writes "# disabled by
// configuration" into the unselected controller's files).
func (in *inspector) rke2Rules() {
	add := func(item, rule string) {
		if in.disables[item] {
			return
		}
		in.disables[item] = true
		in.rep.Disable = append(in.rep.Disable, DisableItem{Item: item, Rule: rule})
	}
	cni := listKey(in.res, "cni")
	if len(cni) == 0 {
		cni = []string{"canal"}
	}
	selected := map[string]bool{}
	for _, c := range cni {
		selected[c] = true
	}
	shown := strings.Join(cni, ",")
	for _, c := range rke2CNIs {
		if !selected[c] {
			rule := fmt.Sprintf("RKE2 disables the charts of every CNI not selected (cni: %s)", shown)
			add("rke2-"+c, rule)
			add("rke2-"+c+"-crd", rule)
		}
	}
	if !selected["multus"] {
		add("rke2-multus", fmt.Sprintf("RKE2 disables multus unless cni lists it first (cni: %s)", shown))
	}
	provider := ""
	if k := in.res.Key("cloud-provider-name"); k != nil {
		provider, _ = k.Value.(string)
	}
	for _, name := range []string{"rancher-vsphere", "harvester", "ovirt"} {
		if name == provider {
			continue
		}
		for _, c := range rke2Providers[name] {
			add(c, fmt.Sprintf("RKE2 disables the charts of cloud providers not selected (cloud-provider-name: %q)", provider))
		}
	}
	ingress := listKey(in.res, "ingress-controller")
	chosen := map[string]bool{}
	for _, i := range ingress {
		chosen[i] = true
	}
	if len(ingress) == 0 {
		// The default changed with the release (profile's release facts): ingress-nginx
		// before v1.36.0; since, traefik unless an ingress-nginx HelmChart is deployed.
		def := []string{"traefik"}
		note := "RKE2's default unless an ingress-nginx HelmChart is already deployed"
		noFlag := false
		if f := profile.RKE2().FactAt("default ingress-controller", in.res.Version); f != nil {
			def, note = f.Value, f.Note
			noFlag = f.From == "" // the release has no ingress-controller flag and no traefik chart
		}
		if noFlag {
			add("rke2-traefik", fmt.Sprintf("RKE2 %s ships no traefik chart: %s", releaseText(in.res.Version), note))
			add("rke2-traefik-crd", fmt.Sprintf("RKE2 %s ships no traefik chart: %s", releaseText(in.res.Version), note))
		}
		for _, d := range def {
			chosen[d] = true
		}
		ingress = []string{fmt.Sprintf("%s (%s %s: %s)", strings.Join(def, ","), "RKE2", releaseText(in.res.Version), note)}
	}
	for _, i := range rke2Ingresses {
		if !chosen[i] {
			rule := fmt.Sprintf("RKE2 writes its manifests with only \"# disabled by configuration\" because ingress-controller is %s", strings.Join(ingress, ","))
			add("rke2-"+i, rule)
			if i == "traefik" {
				add("rke2-traefik-crd", rule)
			}
		}
	}
}

var k3sWord = regexp.MustCompile(`\bk3s(\s|'s\b)`)

// productize words the report for the product the user runs: RKE2 embeds k3s's deploy
// controller, but the user runs rke2 ("rke2 rewrites rke2-coredns.yaml at every start").
func productize(rep *Report) {
	if rep.Product == "k3s" {
		return
	}
	w := func(s string) string { return k3sWord.ReplaceAllString(s, rep.Product+"$1") }
	for i := range rep.Components {
		for j := range rep.Components[i].Reasons {
			rep.Components[i].Reasons[j] = w(rep.Components[i].Reasons[j])
		}
	}
	for i := range rep.Diagnostics {
		rep.Diagnostics[i].Message = w(rep.Diagnostics[i].Message)
		rep.Diagnostics[i].Hint = w(rep.Diagnostics[i].Hint)
	}
	for i := range rep.Flags {
		rep.Flags[i].Meaning = w(rep.Flags[i].Meaning)
	}
}

func listKey(res *resolve.Result, name string) []string {
	k := res.Key(name)
	if k == nil {
		return nil
	}
	v, _ := k.Value.([]string)
	var out []string
	for _, s := range splitTrim(v) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// releaseText names the modelled release for a message.
func releaseText(v string) string {
	if v == "" || v == "newest" {
		return "newest"
	}
	return v
}
