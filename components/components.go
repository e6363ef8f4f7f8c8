package components

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// State is what k3s does with a component.
type State string

const (
	// Enabled: k3s writes (packaged) or finds (AddOn) the manifest and applies it.
	Enabled State = "enabled"
	// Disabled: a `disable` item matches it. k3s does not write the packaged manifest,
	// deletes the file if it is on disk, and removes what the AddOn deployed.
	Disabled State = "disabled"
	// Skipped: a `<file>.skip` exists. k3s no longer applies the file; what it deployed
	// stays, and upgrades stop.
	Skipped State = "skipped"
)

// Component is one packaged component or one user AddOn file.
type Component struct {
	// Name is the component name as `disable` spells it, or for a user AddOn the AddOn name
	// k3s derives from the file name (everything before its first dot).
	Name string
	// Packaged is true for components k3s ships.
	Packaged bool
	State    State
	// Files are the manifest files on disk (node paths) that belong to the component.
	Files []string
	// Reasons say why the component is in its state, and what k3s does with it.
	Reasons []string
}

// DisableItem is one item of the effective `disable` list after k3s's splitting.
type DisableItem struct {
	Item string
	// From are the assignments that contributed the item (applied or appended).
	From []*resolve.Assignment
	// Rule says why the product added the item itself (RKE2 disables the CNI charts it
	// does not run); empty for items the configuration lists.
	Rule string
}

// Where says where the item came from, as k3sconf prints it: "config
// /etc/rancher/k3s/config.yaml:1:11, cli /etc/systemd/system/k3s.service:12:5", or "k3s's
// own rule" for an item the product added itself.
func (d DisableItem) Where() string { return describeFrom(d.From) }

// Flag is one of the --disable-* booleans people confuse with `disable`.
type Flag struct {
	Name  string
	Value bool
	// Source is the assignment that set it; nil means the default (false).
	Source *resolve.Assignment
	// Meaning says what the flag turns off.
	Meaning string
}

// Report is everything [Inspect] found.
type Report struct {
	Product string
	Command string
	// DataDir is the data directory k3s uses; ManifestsDir is <DataDir>/server/manifests.
	DataDir      string
	ManifestsDir string
	// Disable is the effective disable list, in k3s's order, duplicates removed.
	Disable     []DisableItem
	Flags       []Flag
	Components  []Component
	Diagnostics diag.Diagnostics
	// Refused is k3s's reason for refusing to start, when it would: then nothing is
	// deployed, and the states say what k3s will do once it starts.
	Refused string
	// Incomplete is set when k3sconf could not list part of the manifests folder: the
	// files in it are missing from the report.
	Incomplete bool
	// Helm are the HelmCharts and HelmChartConfigs in the manifests folder, packaged
	// manifests included, in the order k3s walks the files.
	Helm []HelmObject
}

// packaged is one manifest set k3s embeds and stages into the manifests folder
// (pkg/deploy/stage.go; the files come from the repository's manifests/ folder).
type packaged struct {
	name string
	// files are paths relative to the manifests folder; dir is a folder staged whole.
	files []string
	dir   string
	// charts are the HelmCharts the manifest defines, as namespace/name.
	charts []string
	note   string
}

// k3sPackaged is current k3s's set: pkg/cli/cmds/stage.go DisableItems ("coredns, servicelb,
// traefik, local-storage, metrics-server, runtimes") plus ccm.yaml (disabled with
// --disable-cloud-controller together with servicelb, or --disable=ccm) and rolebindings.yaml.
var k3sPackaged = []packaged{
	{name: "coredns", files: []string{"coredns.yaml"},
		note: "cluster DNS; disabling it also stops k3s's controller that keeps node addresses in the coredns NodeHosts"},
	{name: "servicelb", note: "has no manifest: the ServiceLB (klipper-lb) controller runs inside k3s and is turned off by disable: servicelb"},
	{name: "traefik", files: []string{"traefik.yaml"}, charts: []string{"kube-system/traefik-crd", "kube-system/traefik"},
		note: "installed by the Helm controller from the HelmCharts traefik-crd and traefik in kube-system; customize it with a HelmChartConfig named traefik in namespace kube-system, not by editing traefik.yaml"},
	{name: "local-storage", files: []string{"local-storage.yaml"}},
	{name: "metrics-server", dir: "metrics-server"},
	{name: "runtimes", files: []string{"runtimes.yaml"}, note: "RuntimeClasses for the container runtimes k3s detects (nvidia, crun, …)"},
	{name: "ccm", files: []string{"ccm.yaml"},
		note: "RBAC for k3s's cloud controller; k3s disables it when both disable-cloud-controller and disable: servicelb are set, or with disable: ccm (undocumented)"},
	{name: "rolebindings", files: []string{"rolebindings.yaml"}, note: "k3s's own RBAC; not in k3s's list of disable values"},
}

// Inspect reports the components of the server whose configuration res is, reading its
// manifests folder from node. It only reads.
func Inspect(node afero.Fs, res *resolve.Result) *Report {
	rep := &Report{Product: res.Product, Command: res.Command, Refused: res.Error}
	if res.Command != "server" {
		rep.Diagnostics = append(rep.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "component-not-server",
			Message: fmt.Sprintf("%s %s deploys no packaged components or AddOns: only servers run the deploy controller", res.Product, res.Command),
			Hint:    "run `k3sconf components` on a server, or with --command server"})
		return rep
	}
	pkgs := packagedSets[res.Product]
	rep.DataDir, rep.ManifestsDir = dataDir(res)
	in := &inspector{node: node, res: res, rep: rep, pkgs: pkgs}
	in.disableList()
	if res.Product == "rke2" {
		in.rke2Rules()
	}
	in.flags()
	in.walk()
	in.packaged()
	in.addons()
	in.skipFiles()
	in.unknownDisables()
	in.helm()
	in.ciliumKubeProxyFree()
	in.valuesLinks()
	sortDiags(rep.Diagnostics)
	productize(rep)
	return rep
}

// dataDir is the data-dir in force and its manifests folder. k3s makes a relative data-dir
// absolute against its working directory, which is / under systemd
// (pkg/datadir/datadir.go LocalHome), and adds server/ for the control plane
// (pkg/server/server.go ResolveDataDir).
func dataDir(res *resolve.Result) (string, string) {
	d := "/var/lib/rancher/" + res.Product
	if k := res.Key("data-dir"); k != nil {
		if s, ok := k.Value.(string); ok && s != "" {
			d = s
		}
	}
	if !path.IsAbs(d) {
		d = path.Join("/", d)
	}
	d = path.Clean(d)
	return d, path.Join(d, "server", "manifests")
}

type inspector struct {
	node afero.Fs
	res  *resolve.Result
	rep  *Report
	// pkgs is the product's packaged set.
	pkgs []packaged

	disables map[string]bool
	// lost maps an item to the assignments that listed it without effect.
	lost    map[string][]*resolve.Assignment
	files   []*manifestFile
	byRel   map[string]*manifestFile
	skips   map[string][]*manifestFile // target file name → .skip files
	charts  []chartRef
	configs []chartRef
	// owned marks manifest files that belong to a packaged component.
	owned map[*manifestFile]bool
}

// disableList computes the effective disable list: the value urfave hands k3s, each element
// split on commas (util.SplitStringSlice) and trimmed (pkg/cli/server/server.go).
func (in *inspector) disableList() {
	in.disables = map[string]bool{}
	in.lost = map[string][]*resolve.Assignment{}
	k := in.res.Key("disable")
	if k == nil {
		return
	}
	contrib := map[string][]*resolve.Assignment{}
	for _, a := range k.History {
		if a.Kind == sources.KindDefault {
			continue
		}
		raw := a.Items
		if len(raw) == 0 {
			raw = []string{a.Value}
		}
		for _, it := range splitTrim(raw) {
			if it == "" {
				continue
			}
			if a.Outcome == provenance.Applied || a.Outcome == provenance.Appended {
				if !containsAssignment(contrib[it], a) {
					contrib[it] = append(contrib[it], a)
				}
			} else {
				in.lost[it] = append(in.lost[it], a)
			}
		}
	}
	val, _ := k.Value.([]string)
	for _, it := range splitTrim(val) {
		if it == "" || in.disables[it] {
			continue
		}
		in.disables[it] = true
		in.rep.Disable = append(in.rep.Disable, DisableItem{Item: it, From: contrib[it]})
	}
	// pkg/cli/server/server.go: with the cloud controller and servicelb both disabled, k3s
	// adds ccm to the disables.
	if in.disables["servicelb"] && boolKey(in.res, "disable-cloud-controller") && !in.disables["ccm"] {
		in.disables["ccm"] = true
		var from []*resolve.Assignment
		if k := in.res.Key("disable-cloud-controller"); k != nil && k.Source != nil {
			from = append(from, k.Source)
		}
		in.rep.Disable = append(in.rep.Disable, DisableItem{Item: "ccm", From: from})
	}
}

// serverService is the systemd service of the server: the unit read, else the product's
// (k3s, rke2-server).
func serverService(res *resolve.Result) string {
	if res.Unit != "" {
		return strings.TrimSuffix(path.Base(res.Unit), ".service")
	}
	if res.Product == "rke2" {
		return "rke2-server"
	}
	return "k3s"
}

func containsAssignment(list []*resolve.Assignment, a *resolve.Assignment) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

// splitTrim is util.SplitStringSlice followed by strings.TrimSpace on each item.
func splitTrim(ss []string) []string {
	var out []string
	for _, s := range ss {
		for _, p := range strings.Split(s, ",") {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

func boolKey(res *resolve.Result, name string) bool {
	k := res.Key(name)
	if k == nil {
		return false
	}
	b, _ := k.Value.(bool)
	return b
}

var flagMeanings = []struct{ name, meaning string }{
	{"disable-helm-controller", "k3s runs no Helm controller: HelmChart and HelmChartConfig objects (traefik's included) are applied but nothing installs them. Not the same as disable: traefik. Must match on every server"},
	{"disable-network-policy", "k3s runs no network policy controller (kube-router's); NetworkPolicies are not enforced unless the CNI does it. Not a packaged component. Must match on every server"},
	{"disable-kube-proxy", "k3s runs no kube-proxy; Services need a CNI that replaces it. Not a packaged component"},
	{"disable-cloud-controller", "k3s runs no cloud controller (node addresses and provider IDs); servicelb keeps running unless disabled too, and with both disabled k3s also disables ccm. Must match on every server"},
}

func (in *inspector) flags() {
	for _, f := range flagMeanings {
		k := in.res.Key(f.name)
		if k == nil {
			continue
		}
		b, _ := k.Value.(bool)
		in.rep.Flags = append(in.rep.Flags, Flag{Name: f.name, Value: b, Source: k.Source, Meaning: f.meaning})
	}
}

// describeFrom renders where a disable item came from: "cli /etc/…/k3s.service:12:5".
func describeFrom(as []*resolve.Assignment) string {
	if len(as) == 0 {
		return "k3s's own rule"
	}
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = fmt.Sprintf("%s %s", a.Kind, a.Pos)
	}
	return strings.Join(parts, ", ")
}

func (in *inspector) disabledReason(item string) string {
	for _, d := range in.rep.Disable {
		if d.Item == item && d.Rule != "" {
			return "disabled: " + d.Rule
		}
		if d.Item == item {
			if item == "ccm" && len(d.From) > 0 && d.From[0].Name != "" && strings.Contains(d.From[0].Name, "cloud-controller") {
				return fmt.Sprintf("disabled: disable-cloud-controller (%s) together with disable: servicelb makes k3s disable ccm", describeFrom(d.From))
			}
			return fmt.Sprintf("disabled by disable: %s from %s", item, describeFrom(d.From))
		}
	}
	return "disabled: " + item
}

// lostReasons explains assignments that listed the item without effect.
func (in *inspector) lostReasons(item string) []string {
	var out []string
	for _, a := range in.lost[item] {
		out = append(out, fmt.Sprintf("%s %s lists %s in disable, but it does not count (%s): %s", a.Kind, a.Pos, item, a.Outcome, a.Why()))
	}
	return out
}

// packaged reports the components k3s ships.
func (in *inspector) packaged() {
	for _, p := range in.pkgs {
		c := Component{Name: p.name, Packaged: true, State: Enabled}
		var onDisk []*manifestFile
		var expected []string // relative paths k3s stages
		if p.dir != "" {
			for _, f := range in.files {
				if strings.HasPrefix(f.rel, p.dir+"/") {
					onDisk = append(onDisk, f)
					expected = append(expected, f.rel)
				}
			}
		} else {
			for _, rel := range p.files {
				expected = append(expected, rel)
				if f := in.byRel[rel]; f != nil {
					onDisk = append(onDisk, f)
				}
			}
		}
		for _, f := range onDisk {
			in.owned[f] = true
			c.Files = append(c.Files, f.path)
		}
		disabled := in.disables[p.name]
		if p.dir != "" && !disabled {
			disabled = in.disables[p.dir]
		}
		switch {
		case disabled:
			c.State = Disabled
			c.Reasons = append(c.Reasons, in.disabledReason(p.name))
			c.Reasons = append(c.Reasons, in.lostReasons(p.name)...)
			if strings.Contains(in.disabledReason(p.name), "disabled by configuration") {
				c.Reasons = append(c.Reasons, "the file stays in the manifests folder with no objects in it; the deploy controller applies it empty, which removes what the chart deployed")
			} else if len(p.files) > 0 || p.dir != "" {
				c.Reasons = append(c.Reasons, "k3s does not write its manifest, deletes it from the manifests folder if present, and removes what it deployed",
					"k3s does not check that other servers disable it too: a server that does not disable "+p.name+" writes and applies it again when it starts")
			} else if p.name == "servicelb" {
				c.Reasons = append(c.Reasons, "every server must disable it too: k3s compares it when a server joins and refuses a mismatch (\"critical configuration value mismatch\")")
			}
			for _, f := range onDisk {
				in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-stale-manifest", Pos: diag.Position{File: f.path},
					Message: fmt.Sprintf("%s is disabled (%s) but its manifest %s is on disk: k3s has not run with this disable yet (a restart is pending), or the file was put here by hand. When k3s starts it deletes the file and uninstalls %s from the whole cluster; any server that does not disable %s puts it back at its next start",
						p.name, describeFrom(in.itemFrom(p.name)), f.path, p.name, p.name),
					Hint: fmt.Sprintf("set disable: %s on every server, then `systemctl restart %s` here, and k3s removes %s itself", p.name, serverService(in.res), f.path)})
			}
		default:
			var skipped, total int
			for _, rel := range expected {
				total++
				name := path.Base(rel)
				if len(in.skips[name]) > 0 {
					skipped++
					c.Reasons = append(c.Reasons, fmt.Sprintf("skipped by %s: k3s still writes %s at every start but no longer applies it; what it deployed stays and is not upgraded",
						in.skips[name][0].path, path.Join(in.rep.ManifestsDir, rel)))
				}
			}
			if skipped > 0 {
				c.State = Skipped
				if skipped < total {
					c.Reasons = append(c.Reasons, fmt.Sprintf("only %d of its %d manifest files are skipped; the others are still applied", skipped, total))
				}
			} else {
				c.Reasons = append(c.Reasons, "enabled: not in the effective disable list")
			}
			c.Reasons = append(c.Reasons, in.lostReasons(p.name)...)
			switch {
			case p.dir != "":
				c.Reasons = append(c.Reasons, fmt.Sprintf("k3s rewrites the files in %s/ at every start, so edits to them are lost", p.dir))
			case len(p.files) > 0:
				c.Reasons = append(c.Reasons, fmt.Sprintf("k3s rewrites %s at every start, so edits to it are lost", p.files[0]))
			}
		}
		if p.note != "" {
			c.Reasons = append(c.Reasons, p.note)
		}
		in.rep.Components = append(in.rep.Components, c)
	}
}

// itemFrom returns the assignments that contributed a disable item.
func (in *inspector) itemFrom(item string) []*resolve.Assignment {
	for _, d := range in.rep.Disable {
		if d.Item == item {
			return d.From
		}
	}
	return nil
}

func (in *inspector) diag(d diag.Diagnostic) {
	in.rep.Diagnostics = append(in.rep.Diagnostics, d)
}

func sortDiags(ds []diag.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Pos.File != ds[j].Pos.File {
			return ds[i].Pos.File < ds[j].Pos.File
		}
		if ds[i].Pos.Line != ds[j].Pos.Line {
			return ds[i].Pos.Line < ds[j].Pos.Line
		}
		return ds[i].Code < ds[j].Code
	})
}

// valuesLinks points each packaged component's HelmCharts at `k3sconf values` and names the
// HelmChartConfig helm-controller uses for it ([Report.HelmChartConfigFor], the rule
// `values` uses too).
func (in *inspector) valuesLinks() {
	for i := range in.rep.Components {
		c := &in.rep.Components[i]
		if !c.Packaged || c.State == Disabled {
			continue
		}
		for _, p := range in.pkgs {
			if p.name != c.Name {
				continue
			}
			for _, ch := range p.charts {
				ns, name, _ := strings.Cut(ch, "/")
				if strings.HasSuffix(name, "-crd") {
					continue // only CRDs; its values are not what anyone customizes
				}
				cmd := "k3sconf values " + name
				if ns != "kube-system" {
					cmd += " --namespace " + ns
				}
				cfg := "no HelmChartConfig " + ch
				if o := in.rep.HelmChartConfigFor(ns, name); o != nil {
					cfg = fmt.Sprintf("HelmChartConfig %s from %s", ch, o.Pos)
				}
				c.Reasons = append(c.Reasons, fmt.Sprintf("values of the HelmChart %s: `%s` (%s)", ch, cmd, cfg))
			}
		}
	}
}
