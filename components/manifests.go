package components

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/dnslabel"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/profile"
)

// manifestFile is one file (not a folder) found under the manifests folder.
type manifestFile struct {
	path string // node path
	rel  string // relative to the manifests folder, '/'-separated
	name string // base name
}

// maxManifestSize bounds what k3sconf reads of one manifest.
const maxManifestSize = 8 << 20

// walk lists the manifests folder as pkg/deploy/controller.go walkFiles does: every entry,
// recursively; a symbolic link to a folder is followed, but links inside a followed folder
// are not. A dangling link makes k3s's walk fail, and then it applies nothing from the
// folder.
func (in *inspector) walk() {
	in.byRel = map[string]*manifestFile{}
	in.skips = map[string][]*manifestFile{}
	in.owned = map[*manifestFile]bool{}
	fi, err := in.node.Stat(in.rep.ManifestsDir)
	if err != nil || !fi.IsDir() {
		return
	}
	in.walkDir(in.rep.ManifestsDir, "", true, 0)
	sort.Slice(in.files, func(i, j int) bool { return in.files[i].rel < in.files[j].rel })
	for _, f := range in.files {
		in.byRel[f.rel] = f
		if strings.HasSuffix(f.name, ".skip") {
			// listFilesIn: skips are keyed by file name, not path.
			t := strings.TrimSuffix(f.name, ".skip")
			in.skips[t] = append(in.skips[t], f)
		}
	}
}

func (in *inspector) walkDir(dir, rel string, followLinks bool, depth int) {
	if depth > 32 {
		return
	}
	f, err := in.node.Open(dir)
	if err != nil {
		in.unreadable(dir, err)
		return
	}
	entries, err := f.Readdir(-1)
	f.Close()
	if err != nil {
		in.unreadable(dir, err)
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		r := path.Join(rel, e.Name())
		if e.Mode()&fs.ModeSymlink != 0 {
			st, err := in.node.Stat(p)
			if err != nil {
				in.diag(diag.Diagnostic{Severity: diag.Error, Code: "component-manifests-unreadable", Pos: diag.Position{File: p},
					Message: fmt.Sprintf("%s is a symbolic link that cannot be followed (%v); k3s's walk of %s fails on it, so k3s applies no manifest from the folder and logs \"Failed to process config\" every 15 seconds", p, unwrapPath(err), in.rep.ManifestsDir),
					Hint:    fmt.Sprintf("remove %s or point it at an existing file", p)})
				continue
			}
			if st.IsDir() {
				if followLinks {
					in.walkDir(p, r, false, depth+1)
				}
				continue
			}
		}
		if e.IsDir() {
			in.walkDir(p, r, followLinks, depth+1)
			continue
		}
		in.files = append(in.files, &manifestFile{path: p, rel: r, name: e.Name()})
	}
}

func (in *inspector) unreadable(p string, err error) {
	in.rep.Incomplete = true
	in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-manifests-unreadable", Pos: diag.Position{File: p},
		Message: fmt.Sprintf("k3sconf cannot list %s (%v); files in it are missing from this report — k3s, running as root, reads them", p, unwrapPath(err)),
		Hint:    "run k3sconf with sudo, or copy the node's files somewhere readable and use --root"})
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// deployable is util.HasSuffixI(name, ".yaml", ".yml", ".json") and not a dotfile
// (pkg/deploy/controller.go shouldSkipFile).
func deployable(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	l := strings.ToLower(name)
	return strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".json")
}

// disabledBy is pkg/deploy/controller.go shouldDisableFile: a folder on the file's path, or
// the file's name without its last extension, is a disable item. It returns the item.
func (in *inspector) disabledBy(f *manifestFile) string {
	parts := strings.Split(f.rel, "/")
	for i := 1; i < len(parts); i++ {
		if sub := strings.Join(parts[:i], "/"); in.disables[sub] {
			return sub
		}
	}
	if !deployable(f.name) && !strings.HasPrefix(f.name, ".") {
		return ""
	}
	l := strings.ToLower(f.name)
	if !(strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".json")) {
		return ""
	}
	base := strings.TrimSuffix(f.name, path.Ext(f.name))
	if in.disables[base] {
		return base
	}
	return ""
}

// addonName is pkg/deploy/controller.go basename: the file name up to its first dot.
func addonName(fileName string) string {
	return strings.SplitN(fileName, ".", 2)[0]
}

// rfc1123Label is what a Kubernetes object name without dots must match.
var rfc1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// addons reports every manifest file that is not part of a packaged component.
func (in *inspector) addons() {
	// AddOn names in use by applied files, for conflicts.
	applied := map[string][]string{}
	for _, p := range in.pkgs {
		if in.disables[p.name] {
			continue
		}
		for _, rel := range p.files {
			if len(in.skips[path.Base(rel)]) == 0 {
				applied[addonName(path.Base(rel))] = append(applied[addonName(path.Base(rel))], path.Join(in.rep.ManifestsDir, rel))
			}
		}
	}
	for _, f := range in.files {
		if in.owned[f] && !in.disables[in.addonNameOwner(f)] {
			if deployable(f.name) && in.disabledBy(f) == "" && len(in.skips[f.name]) == 0 && !slices.Contains(applied[addonName(f.name)], f.path) {
				applied[addonName(f.name)] = append(applied[addonName(f.name)], f.path)
			}
		}
	}
	for _, f := range in.files {
		if in.owned[f] || strings.HasSuffix(f.name, ".skip") {
			continue
		}
		item := in.disabledBy(f)
		if !deployable(f.name) && item == "" {
			in.diag(diag.Diagnostic{Severity: diag.Info, Code: "component-file-ignored", Pos: diag.Position{File: f.path},
				Message: fmt.Sprintf("%s is in the manifests folder but k3s does not apply it: only files ending in .yaml, .yml or .json (any case) that do not start with a dot are applied", f.path),
				Hint:    "rename it to end in .yaml if it should be applied; otherwise this is only a note"})
			continue
		}
		name := addonName(f.name)
		c := Component{Name: name, State: Enabled, Files: []string{f.path}}
		switch {
		case item != "":
			c.State = Disabled
			c.Reasons = append(c.Reasons, fmt.Sprintf("disabled by disable: %s from %s", item, describeFrom(in.itemFrom(item))),
				"k3s deletes this file when it starts and removes what the AddOn deployed")
			in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-addon-disabled", Pos: diag.Position{File: f.path},
				Message: fmt.Sprintf("disable: %s (%s) matches the user manifest %s: when k3s starts it deletes the file and everything the AddOn %s deployed", item, describeFrom(in.itemFrom(item)), f.path, name),
				Hint:    fmt.Sprintf("remove %s from disable if the file should stay, or delete the file yourself if it should go", item)})
		case len(in.skips[f.name]) > 0:
			c.State = Skipped
			c.Reasons = append(c.Reasons, fmt.Sprintf("skipped by %s: k3s no longer applies this file; what it deployed stays", in.skips[f.name][0].path))
		default:
			if rfc1123Label.MatchString(name) && len(name) <= 253 {
				c.Reasons = append(c.Reasons, fmt.Sprintf("applied as the AddOn %s in kube-system; k3s re-applies the file whenever it changes", name))
			} else {
				in.diag(diag.Diagnostic{Severity: diag.Error, Code: "component-addon-invalid-name", Pos: diag.Position{File: f.path},
					Message: fmt.Sprintf("k3s names the AddOn for %s %q (the file name up to its first dot), which is not a valid Kubernetes name (lowercase letters, digits and '-', starting and ending with a letter or digit), so creating the AddOn fails and the file is never applied", f.path, name),
					Hint:    fmt.Sprintf("rename the file to %s", suggestName(f.name))})
				c.Reasons = append(c.Reasons, fmt.Sprintf("never applied: k3s names its AddOn %q, which is not a valid Kubernetes name", name))
			}
			applied[name] = append(applied[name], f.path)
		}
		c.Reasons = append(c.Reasons, in.lostReasons(strings.TrimSuffix(f.name, path.Ext(f.name)))...)
		in.rep.Components = append(in.rep.Components, c)
	}
	names := make([]string, 0, len(applied))
	for n, ps := range applied {
		if len(ps) > 1 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		ps := applied[n]
		sort.Strings(ps)
		for _, p := range ps[1:] {
			in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-addon-name-conflict", Pos: diag.Position{File: p},
				Message: fmt.Sprintf("%s and %s are both applied as the AddOn %s (k3s names an AddOn after the file name up to its first dot, in any subfolder), so each apply removes the objects the other one created", ps[0], p, n),
				Hint:    fmt.Sprintf("rename %s so that the part before its first dot is unique", p)})
		}
	}
}

// addonNameOwner returns the packaged component a file belongs to.
func (in *inspector) addonNameOwner(f *manifestFile) string {
	for _, p := range in.pkgs {
		if p.dir != "" && strings.HasPrefix(f.rel, p.dir+"/") {
			return p.name
		}
		for _, rel := range p.files {
			if rel == f.rel {
				return p.name
			}
		}
	}
	return ""
}

// suggestName turns a file name into one whose AddOn name is valid.
func suggestName(fileName string) string {
	name, rest, _ := strings.Cut(fileName, ".")
	s := dnslabel.From(name)
	if s == "" {
		s = "addon"
	}
	if rest != "" {
		return s + "." + rest
	}
	return s
}

// skipFiles reports each .skip file and whether it matches anything.
func (in *inspector) skipFiles() {
	expected := map[string]bool{}
	for _, p := range in.pkgs {
		for _, rel := range p.files {
			expected[path.Base(rel)] = true
		}
	}
	for _, f := range in.files {
		expected[f.name] = true
	}
	for _, f := range in.files {
		if !strings.HasSuffix(f.name, ".skip") {
			continue
		}
		target := strings.TrimSuffix(f.name, ".skip")
		if !expected[target] || target == "" {
			hint := "name the .skip file after the whole manifest file name, extension included (traefik.yaml.skip, not traefik.skip)"
			if m := closestFile(target, expected); m != "" {
				hint = fmt.Sprintf("rename it to %s.skip", m)
			}
			in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-skip-unmatched", Pos: diag.Position{File: f.path},
				Message: fmt.Sprintf("%s skips files named %q, and there is no such file in %s or among k3s's packaged manifests, so it skips nothing", f.path, target, in.rep.ManifestsDir),
				Hint:    hint})
			continue
		}
		msg := fmt.Sprintf("%s: k3s ignores every file named %s in the manifests folder (any subfolder). What it deployed stays in the cluster and is no longer updated or upgraded; a packaged manifest is still rewritten at each start", f.path, target)
		for _, g := range in.files {
			if g.name == target && in.disabledBy(g) != "" {
				msg += fmt.Sprintf("; %s is also disabled, and disable wins: k3s deletes it", g.path)
				break
			}
		}
		if in.disables[strings.TrimSuffix(target, path.Ext(target))] {
			msg += fmt.Sprintf("; %s is also disabled, and disable wins", strings.TrimSuffix(target, path.Ext(target)))
		}
		in.diag(diag.Diagnostic{Severity: diag.Info, Code: "component-skip-file", Pos: diag.Position{File: f.path},
			Message: msg,
			Hint:    fmt.Sprintf("to remove the component from the cluster use disable: %s instead; delete %s to have k3s manage it again", addonName(target), f.path)})
	}
}

// closestFile finds a file name the mistyped skip target probably meant.
func closestFile(target string, names map[string]bool) string {
	var cands []string
	for n := range names {
		if strings.HasSuffix(n, ".skip") {
			continue
		}
		if strings.HasPrefix(n, target+".") || strings.EqualFold(n, target) || addonName(n) == addonName(target) {
			cands = append(cands, n)
		}
	}
	sort.Strings(cands)
	if len(cands) > 0 {
		return cands[0]
	}
	return ""
}

// unknownDisables warns about disable items that match nothing k3s knows.
func (in *inspector) unknownDisables() {
	known := map[string]bool{}
	for _, p := range in.pkgs {
		known[p.name] = true
	}
	for _, f := range in.files {
		if deployable(f.name) {
			known[strings.TrimSuffix(f.name, path.Ext(f.name))] = true
		}
		parts := strings.Split(f.rel, "/")
		for i := 1; i < len(parts); i++ {
			known[strings.Join(parts[:i], "/")] = true
		}
	}
	prof, _ := profile.ByName(in.res.Product)
	// A node may list thousands of unknown items (issue 25's node: 4,000): the default hint
	// is the same sentence for each, and the did-you-mean search goes through the known
	// names sorted once.
	defaultHint := ""
	sugg := newItemSuggester(known)
	for _, d := range in.rep.Disable {
		// Items the product adds itself (RKE2's unselected CNI charts, their CRD charts
		// included, which no RKE2 release ships) are not the user's to fix.
		if known[d.Item] || d.Rule != "" {
			continue
		}
		var pos diag.Position
		if len(d.From) > 0 {
			pos = d.From[0].Pos
		}
		if defaultHint == "" {
			defaultHint = fmt.Sprintf("use a component name (%s) or the name, without extension, of a file or subfolder in %s", in.packagedNames(), in.rep.ManifestsDir)
		}
		hint := defaultHint
		sev := diag.Warning
		if w := prof.WrongName("disable", d.Item); w != nil {
			hint = w.Fix()
			if key, val, ok := strings.Cut(w.Use, ": "); ok {
				if k := in.res.Key(key); k != nil && k.Source != nil && fmt.Sprint(k.Value) == val {
					// The replacement is already in force: the item is only noise.
					hint = fmt.Sprintf("remove %s from disable — %s is already set (%s), which is what turns it off; the item does nothing", d.Item, w.Use, k.Source.Pos)
					sev = diag.Info
				}
			}
		} else if s := sugg.suggest(d.Item); s != "" {
			hint = fmt.Sprintf("write %s", s)
		}
		in.diag(diag.Diagnostic{Severity: sev, Code: "component-disable-unknown", Pos: pos, Key: "disable",
			Message: fmt.Sprintf("disable item %q matches no packaged component and no file or folder in %s, so it disables nothing (k3s matches items exactly: case, spaces inside and extensions count)", d.Item, in.rep.ManifestsDir),
			Hint:    hint})
	}
}

// packagedNames lists the product's disable values: k3s's components, or RKE2's charts.
func (in *inspector) packagedNames() string {
	var names []string
	for _, p := range in.pkgs {
		if p.name != "rolebindings" && p.name != "ccm" {
			names = append(names, p.name)
		}
	}
	return strings.Join(names, ", ")
}

// itemSuggester finds the did-you-mean of unknown disable items over one set of known
// names: the names sorted once, and each item's answer kept (a disable list repeated by
// many drop-ins asks for the same items).
type itemSuggester struct {
	known map[string]bool
	keys  []string // sorted; made on the first search
	memo  map[string]string
}

func newItemSuggester(known map[string]bool) *itemSuggester {
	return &itemSuggester{known: known, memo: map[string]string{}}
}

// suggest is the name the item probably meant, "" when none is near: the item lowercased
// or without its extension when that is known, else the first known name (in sorted order)
// of the smallest edit distance below 3.
func (s *itemSuggester) suggest(item string) string {
	if v, ok := s.memo[item]; ok {
		return v
	}
	v := s.search(item)
	s.memo[item] = v
	return v
}

func (s *itemSuggester) search(item string) string {
	cands := []string{strings.ToLower(item), strings.TrimSuffix(item, path.Ext(item)), strings.ToLower(strings.TrimSuffix(item, path.Ext(item)))}
	for _, c := range cands {
		if s.known[c] && c != item {
			return c
		}
	}
	if s.keys == nil {
		s.keys = make([]string, 0, len(s.known))
		for k := range s.known {
			s.keys = append(s.keys, k)
		}
		sort.Strings(s.keys)
	}
	lower := cands[0]
	best, bestD := "", 3
	for _, k := range s.keys {
		// Only a name nearer than the best so far matters: the search of each stops
		// once it cannot be (its length alone often says so).
		if d := fuzzy.DistanceBelow(lower, k, bestD); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// chartRef is a HelmChart or HelmChartConfig found in a manifest, or known to be packaged.
type chartRef struct {
	namespace, name string
	pos             diag.Position
	// component owning a packaged chart; "" for user files.
	component string
	// state of the file or component that defines it.
	state State
	// nsMissing is set when the object has no metadata.namespace.
	nsMissing bool
}

// HelmObject is a HelmChart or HelmChartConfig in a manifest file, as k3s's deploy
// controller applies it.
type HelmObject struct {
	// Kind is HelmChart or HelmChartConfig.
	Kind string
	// Namespace is metadata.namespace, or "default" when the object has none
	// (NamespaceMissing): k3s applies it there.
	Namespace, Name  string
	NamespaceMissing bool
	// File is the manifest (a node path); Pos the object's metadata.name.
	File string
	Pos  diag.Position
	// Doc is the object's YAML mapping node; Data the whole file.
	Doc  *yaml.Node
	Data []byte
	// State is what k3s does with the file: only an enabled file is applied.
	State State
	// Component is the packaged component whose manifest holds the object, "" for a user
	// file.
	Component string
}

// HelmChartConfigFor returns the HelmChartConfig helm-controller uses for the HelmChart
// namespace/name (pkg/controllers/chart/chart.go: confCache.Get(chart.Namespace,
// chart.Name)): the object of the same name and namespace in an applied file. When several
// files define it, the last in path order: at each start k3s applies every file in sorted
// path order (pkg/deploy/controller.go listFilesIn), so that one is what the cluster has
// (until another of them changes and is applied again). nil when there is none.
func (r *Report) HelmChartConfigFor(namespace, name string) *HelmObject {
	var found *HelmObject
	for i := range r.Helm {
		o := &r.Helm[i]
		if o.Kind == "HelmChartConfig" && o.State == Enabled && o.Namespace == namespace && o.Name == name {
			found = o
		}
	}
	return found
}

// helmKinds are the kinds of the API groups k3s serves itself: a manifest object of one
// of these groups with another kind is never created.
var helmKinds = map[string][]string{
	"helm.cattle.io": {"HelmChart", "HelmChartConfig"},
	"k3s.cattle.io":  {"Addon", "ETCDSnapshotFile"},
}

// helm matches HelmChartConfigs to HelmCharts and checks the Helm controller.
func (in *inspector) helm() {
	for _, p := range in.pkgs {
		st := Enabled
		for _, c := range in.rep.Components {
			if c.Packaged && c.Name == p.name {
				st = c.State
			}
		}
		for _, ch := range p.charts {
			ns, name, _ := strings.Cut(ch, "/")
			in.charts = append(in.charts, chartRef{namespace: ns, name: name, component: p.name, state: st,
				pos: diag.Position{File: path.Join(in.rep.ManifestsDir, p.files[0])}})
		}
	}
	for _, f := range in.files {
		if !deployable(f.name) {
			continue
		}
		if in.owned[f] {
			// Packaged manifests are read for their objects (the values of their
			// HelmCharts); their charts are already known by name.
			owner := in.addonNameOwner(f)
			st := Enabled
			for _, c := range in.rep.Components {
				if c.Packaged && c.Name == owner {
					st = c.State
				}
			}
			if len(in.skips[f.name]) > 0 {
				st = Skipped
			}
			in.readObjects(f, st, owner)
			continue
		}
		st := Enabled
		if in.disabledBy(f) != "" {
			st = Disabled
		} else if len(in.skips[f.name]) > 0 {
			st = Skipped
		}
		in.readObjects(f, st, "")
	}
	for _, cfg := range in.configs {
		if cfg.state != Enabled {
			continue
		}
		var match *chartRef
		for i := range in.charts {
			ch := &in.charts[i]
			if ch.name == cfg.name && ch.namespace == cfg.namespace {
				match = ch
				break
			}
		}
		if match != nil {
			if match.state == Skipped && match.component != "" {
				in.diag(diag.Diagnostic{Severity: diag.Info, Code: "component-helmchartconfig-skipped", Pos: cfg.pos,
					Message: fmt.Sprintf("HelmChartConfig %s/%s customizes %s, whose manifest is skipped (.skip): the HelmChart %s stays in the cluster as last applied, so this HelmChartConfig still takes effect (helm-controller runs an upgrade job when it changes), but k3s no longer updates the chart itself (a new chart version after a k3s upgrade does not arrive)", cfg.namespace, cfg.name, match.component, match.name),
					Hint:    fmt.Sprintf("delete the .skip file to have k3s manage %s again, or use disable: %s to remove it", match.component, match.component)})
			}
			if match.state == Disabled {
				what := "the HelmChart"
				if match.component != "" {
					what = match.component
				}
				in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-helmchartconfig-disabled", Pos: cfg.pos,
					Message: fmt.Sprintf("HelmChartConfig %s/%s customizes %s, which is disabled, so it has no effect", cfg.namespace, cfg.name, what),
					Hint:    fmt.Sprintf("remove the HelmChartConfig, or remove %s from disable on every server", strings.TrimPrefix(what, "the "))})
			}
			continue
		}
		hint := fmt.Sprintf("a HelmChartConfig must have the same metadata.name and metadata.namespace as the HelmChart it customizes (kube-system for %s's packaged charts)", in.res.Product)
		found := false
		for _, ch := range in.charts {
			if ch.name == cfg.name {
				hint = fmt.Sprintf("set metadata.namespace: %s (the HelmChart %s is in %s)", ch.namespace, ch.name, ch.namespace)
				found = true
				break
			}
		}
		if !found {
			if ch := closestChart(cfg, in.charts); ch != nil {
				hint = fmt.Sprintf("did you mean %s/%s? Name the HelmChartConfig %s in namespace %s (it must have the HelmChart's own name and namespace)", ch.namespace, ch.name, ch.name, ch.namespace)
			}
		}
		ns := cfg.namespace
		if cfg.nsMissing {
			ns = "(no namespace)"
		}
		in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-helmchartconfig-unmatched", Pos: cfg.pos,
			Message: fmt.Sprintf("HelmChartConfig %s/%s matches no HelmChart in %s or among %s's packaged charts (%s); unless a HelmChart of that name and namespace is created some other way, it has no effect", ns, cfg.name, in.rep.ManifestsDir, in.res.Product, in.packagedCharts()),
			Hint:    hint})
	}
	if boolKey(in.res, "disable-helm-controller") {
		var affected []string
		for _, ch := range in.charts {
			if ch.state == Enabled {
				affected = append(affected, ch.namespace+"/"+ch.name)
			}
		}
		if len(affected) > 0 {
			var pos diag.Position
			if k := in.res.Key("disable-helm-controller"); k != nil && k.Source != nil {
				pos = k.Source.Pos
			}
			in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-helm-controller-disabled", Pos: pos, Key: "disable-helm-controller",
				Message: fmt.Sprintf("disable-helm-controller is set, so nothing installs the HelmCharts that are applied (%s): they stay as objects with no release", strings.Join(affected, ", ")),
				Hint:    "remove disable-helm-controller, or disable the Helm-based components (disable: traefik) and install them another way"})
		}
	}
}

// readObjects collects the HelmCharts and HelmChartConfigs of one manifest file, reading
// every YAML document in it.
func (in *inspector) readObjects(f *manifestFile, st State, owner string) {
	// Never open a FIFO or device: the read could wait forever.
	if err := rootfs.CheckRegular(in.node, f.path); err != nil {
		return
	}
	fh, err := in.node.Open(f.path)
	if err != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxManifestSize))
	fh.Close()
	if err != nil {
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			if st == Enabled {
				in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-manifest-invalid", Pos: diag.Position{File: f.path, Line: yamlErrLine(err)},
					Message: fmt.Sprintf("%s is not valid YAML (%v); k3s cannot apply it (\"Parse manifest failed\" event on the AddOn)", f.path, err),
					Hint:    "fix the YAML; `kubectl apply --dry-run=client -f FILE` shows the same error"})
			}
			return
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		m := doc.Content[0]
		api, kind := scalar(m, "apiVersion"), scalar(m, "kind")
		group, _, _ := strings.Cut(api, "/")
		if kinds, ok := helmKinds[group]; ok && !slices.Contains(kinds, kind) && st == Enabled {
			in.unknownKind(f, m, api, kind, kinds)
			continue
		}
		if !strings.HasPrefix(api, "helm.cattle.io/") || (kind != "HelmChart" && kind != "HelmChartConfig") {
			continue
		}
		ref := chartRef{state: st, pos: diag.Position{File: f.path, Line: m.Line, Column: m.Column}}
		if md := field(m, "metadata"); md != nil && md.Kind == yaml.MappingNode {
			ref.name = scalar(md, "name")
			ref.namespace = scalar(md, "namespace")
			if n := field(md, "name"); n != nil {
				ref.pos.Line, ref.pos.Column = n.Line, n.Column
			}
		}
		if ref.namespace == "" {
			ref.nsMissing = true
		}
		obj := HelmObject{Kind: kind, Namespace: ref.namespace, Name: ref.name, NamespaceMissing: ref.nsMissing,
			File: f.path, Pos: ref.pos, Doc: m, Data: data, State: st, Component: owner}
		if obj.NamespaceMissing {
			obj.Namespace = "default"
		}
		in.rep.Helm = append(in.rep.Helm, obj)
		if owner != "" {
			continue
		}
		if kind == "HelmChart" {
			if st == Enabled {
				in.packagedName(ref)
			}
			in.charts = append(in.charts, ref)
		} else {
			in.configs = append(in.configs, ref)
		}
	}
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n := 0
	fmt.Sscanf(m[1], "%d", &n)
	return n
}

func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(m *yaml.Node, key string) string {
	if n := field(m, key); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

// unknownKind reports an object of k3s's own API groups with a kind they do not have: the
// API server has no such resource, so k3s's apply of it fails ("no matches for kind") and
// the AddOn reports ApplyManifestFailed; nothing of that object is created.
func (in *inspector) unknownKind(f *manifestFile, m *yaml.Node, api, kind string, kinds []string) {
	pos := diag.Position{File: f.path, Line: m.Line, Column: m.Column}
	if k := field(m, "kind"); k != nil {
		pos.Line, pos.Column = k.Line, k.Column
	}
	hint := fmt.Sprintf("%s has the kinds %s", strings.SplitN(api, "/", 2)[0], strings.Join(kinds, " and "))
	best, bestD := "", 4
	for _, k := range kinds {
		if d := fuzzy.Distance(strings.ToLower(kind), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		hint = fmt.Sprintf("did you mean kind: %s?", best)
	}
	for i := range in.rep.Components {
		c := &in.rep.Components[i]
		if !slices.Contains(c.Files, f.path) {
			continue
		}
		why := fmt.Sprintf("not fully applied: k3s applies the file as the AddOn %s, but its %s object (%s) is never created: %s has no kind %s, so the apply fails (\"no matches for kind\") and k3s retries it", addonName(f.name), kind, pos, api, kind)
		replaced := false
		for j, r := range c.Reasons {
			if strings.HasPrefix(r, "applied as the AddOn ") {
				c.Reasons[j], replaced = why, true
			}
		}
		if !replaced {
			c.Reasons = append(c.Reasons, why)
		}
	}
	in.diag(diag.Diagnostic{Severity: diag.Error, Code: "component-manifest-unknown-kind", Pos: pos,
		Message: fmt.Sprintf("%s defines an object of kind %q in %s, which has no such kind: k3s's apply of it fails (\"no matches for kind %q in version %q\", an ApplyManifestFailed event on the AddOn %s), so the object is never created", f.path, kind, api, kind, api, addonName(f.name)),
		Hint:    hint})
}

// packagedName reports a user HelmChart with the name and namespace of a packaged one:
// both files apply the same object, each apply undoing the other's spec, and k3s rewrites
// its own at every start.
func (in *inspector) packagedName(ref chartRef) {
	for _, ch := range in.charts {
		if ch.component == "" || ch.name != ref.name || ch.namespace != ref.namespace {
			continue
		}
		in.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-helmchart-packaged-name", Pos: ref.pos,
			Message: fmt.Sprintf("%s defines the HelmChart %s/%s, which k3s's own %s manifest defines too: the two AddOns apply the same object in turn, each undoing the other's spec, and k3s writes its own again at every start", ref.pos.File, ref.namespace, ref.name, ch.component),
			Hint:    fmt.Sprintf("customize %s with a HelmChartConfig named %s in namespace %s (valuesContent: …) instead of a HelmChart; or disable: %s and keep your HelmChart under another name", ch.component, ch.name, ch.namespace, ch.component)})
		return
	}
}

// closestChart is the HelmChart whose name is nearest the unmatched HelmChartConfig's
// (traefik-config → traefik), if any is near enough to suggest.
func closestChart(cfg chartRef, charts []chartRef) *chartRef {
	var best *chartRef
	bestD := 0
	for i := range charts {
		ch := &charts[i]
		d := fuzzy.Distance(strings.ToLower(cfg.name), ch.name)
		if strings.HasPrefix(cfg.name, ch.name+"-") || strings.HasSuffix(cfg.name, "-"+ch.name) {
			d = 1
		}
		if d <= 3 && d < len(ch.name) && (best == nil || d < bestD) {
			best, bestD = ch, d
		}
	}
	return best
}

// packagedCharts names the HelmCharts the product stages itself, as a message lists them:
// k3s's traefik pair, or RKE2's bundled charts (rke2Charts), all in kube-system.
func (in *inspector) packagedCharts() string {
	var names []string
	for _, p := range in.pkgs {
		names = append(names, p.charts...)
	}
	if len(names) > 4 {
		// RKE2's list, in its bundling order: the charts every node has come first.
		return fmt.Sprintf("%s, … %d in all in kube-system", strings.Join(names[:3], ", "), len(names))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
