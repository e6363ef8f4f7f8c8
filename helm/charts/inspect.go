package charts

import (
	"encoding/base64"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/afero"
	"gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/internal/render"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/internal/helmrelease"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/resolve"
)

// Options say which HelmChart to inspect and what else to read.
type Options struct {
	// Node is the server's filesystem; Res its resolved configuration (k3s server).
	Node afero.Fs
	Res  *resolve.Result
	// Name and Namespace name the HelmChart (Namespace "" is kube-system).
	Name, Namespace string
	// Helm names the Helm release of the Helm job image, a key of [HelmJobs]; "" is "4".
	Helm string
	// ChartFile and ChartData are --chart: the chart archive, when it is not on the node.
	ChartFile string
	ChartData []byte
	// ObjectsFile and ObjectsData are --objects: kubectl get helmcharts,helmchartconfigs
	// -A -o json.
	ObjectsFile string
	ObjectsData []byte
	// HelmBinary, when set, is a helm binary to render the chart with (helm template, no
	// network; [render.Render]): a template or schema failure is then reported.
	HelmBinary string
}

// HelmJob is one Helm release of the Helm job image and what models it.
type HelmJob struct {
	// Release names it for people: the Helm version and the klipper-helm images that ship it.
	Release string
	Major   int
	Nulls   values.NullRule
}

// HelmJobs are the Helm releases of the Helm job images (k3s-io/klipper-helm Dockerfile, by
// tag): v3.18.4 in v0.9.8, v3.19.0 to v3.19.4 in v0.9.9 to v0.9.12, v3.19.5 in v0.9.13 and
// v0.9.14, v3.20.1 in v0.9.15, v3.20.2 in v0.9.16 to v0.10.x, v4.1.4 in v0.11.0 to v0.13.3.
// k3s moved to v0.11 in 482e66c6d (2026-06-02). For values they differ in two things: Helm 4
// reads every document of a values file, and the releases treat a null below the top level
// in three ways ([values.NullRule]).
var HelmJobs = map[string]HelmJob{
	"4":      {Release: "v4.1.4 (klipper-helm v0.11.0 and later)", Major: 4},
	"3":      {Release: "v3.20.2 (klipper-helm v0.9.15 to v0.10.x)", Major: 3},
	"3.19.5": {Release: "v3.19.5 (klipper-helm v0.9.13, v0.9.14)", Major: 3, Nulls: values.NullAlways},
	"3.19":   {Release: "v3.19.0 (klipper-helm v0.9.8 to v0.9.12: Helm v3.18.4 to v3.19.4)", Major: 3, Nulls: values.NullIfInDefaults},
}

// Report is the values of one HelmChart.
type Report struct {
	Product         string
	Name, Namespace string
	Helm            string
	// Chart is the HelmChart; Config the HelmChartConfig helm-controller uses, or nil.
	Chart  *components.HelmObject
	Config *components.HelmObject
	// ChartFile is where the defaults came from; DefaultsNote says why there are none.
	ChartFile    string
	ChartName    string
	ChartVersion string
	DefaultsNote string
	Result       *values.Result
	// Effect says, per source kind, when a change takes effect.
	Effect map[values.Kind]string
	// Notes are facts about the chart's state (disabled, skipped, refused).
	Notes       []string
	Diagnostics diag.Diagnostics
	// Incomplete is set when an input could not be read.
	Incomplete bool
	// HasDefaults is set when the chart's values.yaml was read.
	HasDefaults bool
	// Input is what the Helm job gets, and ChartData the chart archive read (nil when the
	// defaults are unknown): with them the job's values can be recomputed by Helm itself.
	Input     values.Input
	ChartData []byte

	// rendered is what helm template said (nil without Options.HelmBinary, or without the
	// chart's archive); the report's text and document show it.
	rendered *render.Result

	// relStatus is what --objects says about the Helm release (its revisions, the job, and
	// whether they have the values above); nil without --objects. The report's text and
	// document show it.
	relStatus *helmrelease.Status

	// objs are every HelmChart and HelmChartConfig known; live those from --objects.
	objs, live []components.HelmObject
	// relObjs are the release Secrets, Jobs and other Secrets of --objects (nil without).
	relObjs *helmrelease.Objects
}

// NotFoundError is returned for a HelmChart that is neither in the manifests nor in
// --objects.
type NotFoundError struct {
	Name, Namespace string
	DidYouMean      string
	Known           []string
	// Note says why a packaged chart is not there.
	Note string
}

func (e *NotFoundError) Error() string {
	s := fmt.Sprintf("no HelmChart %s/%s in the manifests folder or --objects", e.Namespace, e.Name)
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	if e.DidYouMean != "" {
		s += fmt.Sprintf("; did you mean %s?", e.DidYouMean)
	}
	return s
}

// maxChart bounds a chart archive read from the node.
const maxChart = 64 << 20

// Inspect computes the values of the HelmChart o.Namespace/o.Name.
func Inspect(o Options) (*Report, error) {
	if o.Namespace == "" {
		o.Namespace = "kube-system"
	}
	if o.Helm == "" {
		o.Helm = "4"
	}
	job, ok := HelmJobs[o.Helm]
	if !ok {
		return nil, fmt.Errorf("unknown Helm release %q (give 4, 3, 3.19.5 or 3.19)", o.Helm)
	}
	rep := &Report{Product: o.Res.Product, Name: o.Name, Namespace: o.Namespace, Helm: o.Helm}
	comp := components.Inspect(o.Node, o.Res)
	objs := comp.Helm
	if o.ObjectsData != nil {
		rep.relObjs = &helmrelease.Objects{}
		live, err := readObjects(o.ObjectsFile, o.ObjectsData, rep.relObjs)
		if err != nil {
			rep.Incomplete = true
			rep.Diagnostics = append(rep.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "values-objects-invalid", Pos: diag.Position{File: o.ObjectsFile},
				Message: fmt.Sprintf("--objects %s does not parse: %v; the objects after the error are missing", o.ObjectsFile, err),
				Hint:    "give the output of `kubectl get helmcharts,helmchartconfigs -A -o json` unchanged"})
		}
		objs = mergeObjects(objs, live)
		rep.live = live
	}
	rep.objs = objs
	for i := range objs {
		ob := &objs[i]
		if ob.Kind == "HelmChart" && ob.Name == o.Name && ob.Namespace == o.Namespace {
			rep.Chart = ob
		}
	}
	if rep.Chart == nil {
		e := notFound(o, objs)
		for _, c := range comp.Components {
			for _, f := range c.Reasons {
				if c.Packaged && strings.Contains(f, "HelmChart "+o.Namespace+"/"+o.Name+":") {
					e.Note = fmt.Sprintf("%s's packaged %s defines it, and its manifest is not in %s", productName(o.Res.Product), c.Name, comp.ManifestsDir)
				}
			}
			if c.Packaged && c.State == components.Disabled && (c.Name == o.Name || "rke2-"+c.Name == o.Name || c.Name == "rke2-"+o.Name) {
				e.Note = fmt.Sprintf("%s's packaged %s is disabled, so %s does not write its manifest", productName(o.Res.Product), c.Name, productName(o.Res.Product))
			}
		}
		return nil, e
	}
	rep.Config = configFor(objs, o.Namespace, o.Name)
	rep.notes(comp)
	in := values.Input{Major: job.Major, Nulls: job.Nulls}
	refused := rep.layers(rep.Chart, &in, false)
	if rep.Config != nil {
		refused = rep.layers(rep.Config, &in, true) || refused
	}
	for _, l := range in.Layers {
		if l.Text == nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s (%s:%d:%d, %s) is a values file k3sconf does not read: what it sets, if anything, beats the values files before it in the list above and loses to those after it and to --set", l.Secret, l.File, l.Line, l.Column, l.Kind))
		}
	}
	ch := rep.chart(o)
	rep.Input = in
	rep.Result = values.Compute(ch, in)
	rep.subchartNotes()
	if refused {
		rep.Notes = append(rep.Notes, "the API server refuses this HelmChart (see the errors below): what is installed is what was last accepted; the values below are what the HelmChart asks for")
	}
	rep.findings(ch, comp)
	rep.compareRelease()
	rep.render(o)
	rep.Effect = effects(rep)
	sortDiags(rep.Diagnostics)
	return rep, nil
}

// mergeObjects adds the cluster's objects; they replace the files' for the same kind,
// namespace and name.
func mergeObjects(disk, live []components.HelmObject) []components.HelmObject {
	key := func(o components.HelmObject) string { return o.Kind + "/" + o.Namespace + "/" + o.Name }
	seen := map[string]bool{}
	for _, o := range live {
		seen[key(o)] = true
	}
	var out []components.HelmObject
	for _, o := range disk {
		if !seen[key(o)] {
			out = append(out, o)
		}
	}
	return append(out, live...)
}

// configFor is the HelmChartConfig helm-controller reads for the chart
// (confCache.Get(chart.Namespace, chart.Name)); among files, the last one applied. It is
// the same rule as components.Report.HelmChartConfigFor.
func configFor(objs []components.HelmObject, ns, name string) *components.HelmObject {
	var found *components.HelmObject
	for i := range objs {
		o := &objs[i]
		if o.Kind == "HelmChartConfig" && o.State == components.Enabled && o.Namespace == ns && o.Name == name {
			found = o
		}
	}
	return found
}

func notFound(o Options, objs []components.HelmObject) *NotFoundError {
	e := &NotFoundError{Name: o.Name, Namespace: o.Namespace}
	best := 4
	for _, ob := range objs {
		if ob.Kind != "HelmChart" {
			continue
		}
		full := ob.Namespace + "/" + ob.Name
		e.Known = append(e.Known, full)
		d := fuzzy.Distance(o.Name, ob.Name)
		if ob.Namespace != o.Namespace {
			d++
		}
		if d < best {
			best, e.DidYouMean = d, full
		}
	}
	sort.Strings(e.Known)
	return e
}

func (rep *Report) notes(comp *components.Report) {
	c := rep.Chart
	where := "a user manifest"
	prod := productName(rep.Product)
	if c.Component != "" {
		where = prod + "'s packaged " + c.Component + " manifest"
	}
	switch c.State {
	case components.Disabled:
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s is disabled: when %s starts it deletes %s and uninstalls the release; disable takes effect only at %s's next start", where, prod, c.File, prod))
	case components.Skipped:
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s is skipped (.skip): %s no longer applies %s, so the HelmChart stays as last applied and edits to the file do nothing; .skip never removes what is deployed", where, prod, c.File))
	}
	for _, f := range comp.Flags {
		if f.Name == "disable-helm-controller" && f.Value {
			rep.Notes = append(rep.Notes, "disable-helm-controller is set: nothing installs or upgrades this HelmChart")
		}
	}
}

// layers adds the values files and --set arguments of one object, in helm-controller's
// order (chart.go setValuesSecret, valuesSecretAddConfig). It reports whether the API server
// refuses the object.
func (rep *Report) layers(ob *components.HelmObject, in *values.Input, config bool) bool {
	spec := field(ob.Doc, "spec")
	kc, kv, ks := values.HelmChartValuesContent, values.HelmChartValues, values.HelmChartValuesSecret
	if config {
		kc, kv, ks = values.HelmChartConfigValuesContent, values.HelmChartConfigValues, values.HelmChartConfigValuesSecret
	}
	if vc := field(spec, "valuesContent"); vc != nil && vc.Kind == yaml.ScalarNode && vc.Value != "" {
		in.Layers = append(in.Layers, values.Layer{Kind: kc, File: ob.File, Text: []byte(vc.Value),
			Line: vc.Line, Column: vc.Column, Map: contentMap(ob.Data, vc)})
	}
	if v := field(spec, "values"); v != nil {
		// The manifest reaches the API server as JSON (k3s's deploy controller:
		// yaml.ToJSON), and helm-controller writes spec.values back as YAML
		// (extjson.TryToYAML: sigs.k8s.io/yaml JSONToYAML); a null is not mounted.
		if text, err := yaml.Marshal(v); err == nil {
			if j, err := sigsyaml.YAMLToJSON(text); err == nil && string(j) != "null" {
				if y, err := sigsyaml.JSONToYAML(j); err == nil {
					in.Layers = append(in.Layers, values.Layer{Kind: kv, File: ob.File, Text: y, Line: v.Line, Column: v.Column,
						Positions: values.Positions(v)})
				}
			}
		}
	}
	if ss := field(spec, "valuesSecrets"); ss != nil && ss.Kind == yaml.SequenceNode {
		for _, s := range ss.Content {
			name := scalar(s, "name")
			keys := field(s, "keys")
			if keys == nil || keys.Kind != yaml.SequenceNode || len(keys.Content) == 0 || name == "chart-values-"+ob.Name {
				continue
			}
			for _, k := range keys.Content {
				l := values.Layer{Kind: ks, File: ob.File, Line: k.Line, Column: k.Column,
					Secret: fmt.Sprintf("Secret %s key %s", name, k.Value)}
				rep.secretLayer(&l, ob, name, k.Value, scalar(s, "ignoreUpdates") == "true")
				in.Layers = append(in.Layers, l)
			}
		}
	}
	if config {
		// A HelmChartConfig has no spec.set (helm.cattle.io/v1 HelmChartConfigSpec).
		return false
	}
	refused := false
	if set := field(spec, "set"); set != nil && set.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(set.Content); i += 2 {
			k, v := set.Content[i], set.Content[i+1]
			arg, why, hint := setArg(k, v)
			if why != "" {
				refused = true
				rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-set-refused", Pos: diag.Position{File: ob.File, Line: v.Line, Column: v.Column},
					Message: fmt.Sprintf("spec.set %s: %s %s", k.Value, strings.TrimSpace(v.Value), why),
					Hint:    hint})
				continue
			}
			arg.File, arg.Line, arg.Col = ob.File, k.Line, k.Column
			in.Set = append(in.Set, arg)
		}
		sort.SliceStable(in.Set, func(i, j int) bool { return in.Set[i].Key < in.Set[j].Key })
	}
	return refused
}

// setArg types one spec.set value as the API server and helm-controller do: the manifest
// is YAML 1.1 turned into JSON (k3s's deploy controller: sigs.k8s.io/yaml), and the field is
// an IntOrString (x-kubernetes-int-or-string): a string, or an integer that fits int32.
func setArg(k, v *yaml.Node) (values.SetArg, string, string) {
	// The manifest reaches the API server as JSON (sigs.k8s.io/yaml), keys included.
	arg := values.SetArg{Key: values.KeyString(k)}
	const refusedWhy = "the API server refuses the HelmChart (spec.set values must be integers or strings)"
	inContent := fmt.Sprintf("or set %s in valuesContent, where any YAML value works", k.Value)
	text, err := yaml.Marshal(v)
	if err != nil {
		return arg, "cannot be read", inContent
	}
	var x any
	if err := sigsyaml.Unmarshal(text, &x); err != nil {
		return arg, fmt.Sprintf("does not parse: %v", err), inContent
	}
	switch t := x.(type) {
	case string:
		arg.Value = t
		return arg, "", ""
	case float64:
		if t != math.Trunc(t) {
			return arg, "is a number with a fraction: " + refusedWhy, fmt.Sprintf("quote it (%s: \"%s\") to pass the string with --set-string, %s", k.Value, v.Value, inContent)
		}
		if t > math.MaxInt32 || t < math.MinInt32 {
			return arg, "is an integer beyond int32: helm-controller cannot decode it into spec.set's IntOrString (int32)", fmt.Sprintf("quote it (%s: \"%s\") to pass the string with --set-string, %s", k.Value, v.Value, inContent)
		}
		arg.Value, arg.Int = strconv.FormatInt(int64(t), 10), true
		return arg, "", ""
	case bool:
		return arg, fmt.Sprintf("is the YAML boolean %v: %s", t, refusedWhy), fmt.Sprintf("quote it (%s: \"%v\"): helm-controller passes \"true\" and \"false\" with --set, so the chart still gets a boolean", k.Value, t)
	case nil:
		return arg, "is null: " + refusedWhy, fmt.Sprintf("write %s: \"null\" to delete the key (helm-controller passes it with --set), or remove the entry", k.Value)
	}
	return arg, "is a map or a list: " + refusedWhy, "set it in valuesContent, where any YAML value works"
}

// contentMap maps a line and column inside valuesContent to the manifest. A literal block
// scalar (valuesContent: |) starts on the line after its indicator, indented; any other
// style is located at the field.
func contentMap(data []byte, vc *yaml.Node) func(int, int) (int, int) {
	if vc.Style != yaml.LiteralStyle || data == nil {
		return func(int, int) (int, int) { return vc.Line, vc.Column }
	}
	lines := strings.Split(string(data), "\n")
	indent := 0
	for i := vc.Line; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			indent = len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
			break
		}
	}
	return func(line, col int) (int, int) { return vc.Line + line, col + indent }
}

var yamlErrLine = regexp.MustCompile(`line (\d+)`)

// chart loads the chart's defaults: --chart, spec.chartContent, or the archive k3s stages.
func (rep *Report) chart(o Options) *values.Chart {
	spec := field(rep.Chart.Doc, "spec")
	load := func(file string, data []byte) *values.Chart {
		ch, err := values.LoadChart(file, data, HelmJobs[o.Helm].Major)
		if err != nil {
			rep.Incomplete = true
			rep.DefaultsNote = err.Error()
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-chart-unreadable", Pos: diag.Position{File: file},
				Message: fmt.Sprintf("the chart archive cannot be read (%v): the chart's defaults are missing from this report", err),
				Hint:    "give the archive with --chart FILE.tgz (helm pull REPO/CHART --version V)"})
			return nil
		}
		rep.ChartFile, rep.ChartName, rep.ChartVersion, rep.HasDefaults = file, ch.Name, ch.Version, true
		rep.ChartData = data
		return ch
	}
	if o.ChartData != nil {
		return load(o.ChartFile, o.ChartData)
	}
	if cc := scalar(spec, "chartContent"); cc != "" {
		data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cc))
		if err == nil {
			return load(rep.Chart.File+": spec.chartContent", data)
		}
		rep.DefaultsNote = fmt.Sprintf("spec.chartContent is not base64 (%v)", err)
		return nil
	}
	name := scalar(spec, "chart")
	const static = "https://%{KUBERNETES_API}%/static/charts/"
	if strings.HasPrefix(name, static) {
		dataDir := "/var/lib/rancher/" + o.Res.Product
		if k := o.Res.Key("data-dir"); k != nil {
			if s, ok := k.Value.(string); ok && s != "" {
				dataDir = path.Clean(path.Join("/", s))
			}
		}
		// pkg/server/server.go stageFiles: static.Stage(<data-dir>/server/static), served
		// at /static/ (pkg/server/handlers/router.go).
		p := path.Join(dataDir, "server", "static", "charts", strings.TrimPrefix(name, static))
		data, err := rootfs.ReadFile(o.Node, p, maxChart)
		if err != nil {
			rep.DefaultsNote = fmt.Sprintf("%s cannot be read (%v); %s writes it at every start", p, err, productName(o.Res.Product))
			return nil
		}
		return load(p, data)
	}
	repo := scalar(spec, "repo")
	rep.DefaultsNote = fmt.Sprintf("the chart %q is fetched by the Helm job", name)
	if repo != "" {
		rep.DefaultsNote += " from " + repo
	}
	rep.DefaultsNote += "; give it with --chart FILE.tgz (helm pull) to see its defaults"
	return nil
}

func (rep *Report) diag(d diag.Diagnostic) { rep.Diagnostics = append(rep.Diagnostics, d) }

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

// valuesYAML returns the values.yaml of a chart archive, as it is in the archive.
func valuesYAML(archive []byte) ([]byte, error) {
	ch, err := values.LoadChart("chart", archive, 4)
	if err != nil {
		return nil, err
	}
	return ch.Text, nil
}

// subchartNotes says which subcharts Helm renders, where their .Values are, and which
// dependencies it drops.
func (rep *Report) subchartNotes() {
	res := rep.Result
	for _, s := range res.Subcharts {
		rep.Notes = append(rep.Notes, fmt.Sprintf("subchart %s (%s %s, %s) is rendered: its .Values are the values under %s, with the parent's global merged into its global", s.Path, s.Chart.Name, s.Chart.Version, s.Chart.Inner, s.Path))
	}
	for _, d := range res.Disabled {
		rep.Notes = append(rep.Notes, fmt.Sprintf("dependency %s is not rendered: %s; values under %s stay in the parent's .Values and do nothing", d.Path, d.Reason, d.Path))
	}
	for _, w := range res.Warnings {
		rep.Notes = append(rep.Notes, "Helm warns: "+w)
	}
}
