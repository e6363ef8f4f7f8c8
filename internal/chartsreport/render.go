package chartsreport

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/internal/componentsreport"
	"github.com/k3sconf/k3sconf/internal/termesc"
	"github.com/k3sconf/k3sconf/output"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/internal/helmrelease"
	"github.com/k3sconf/k3sconf/internal/nodereport"
)

// shown reports whether a leaf is printed: every leaf a user layer touched, and with all
// the defaults nobody overrode too.
func shown(l *values.Leaf, all bool) bool {
	if all {
		return true
	}
	for _, a := range l.History {
		if a.Source.Kind != values.ChartDefault {
			return true
		}
	}
	return false
}

// lastKey is the nearest key of a dotted leaf path (its last key).
func lastKey(p string) string {
	ks := values.SplitPath(p)
	if len(ks) == 0 {
		return ""
	}
	return ks[len(ks)-1]
}

// redactValue is a value found at the leaf path p as output shows it, redacted as data by
// k3sconf's one redactor (output.Redactor.Data, docs/secrets.md): a map value by its key at
// any depth, a list's items by the list's key, each on its own, an env-list item by its
// name, and every string by what it holds (URL and DSN credentials, PEM keys, secret lines
// of a config text, base64 of those, --flag VALUE items). Text and JSON print the same
// redacted value: the text formats it, and never scrubs the formatted form again.
func redactValue(p string, v any, red *output.Redactor) any {
	return red.Data(lastKey(p), v)
}

// minLearnedDigits: a number password is learned when it has this many digits; a shorter
// one (a PIN, a placeholder 1234) would also match line numbers and counts in sentences,
// and is only hidden as a value.
const minLearnedDigits = 6

func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// learnSecrets teaches the redactor every secret string of the report's values (by the
// nearest key, as redactValue hides them: shown or not, in force or overridden, from any
// layer), so text that quotes one (a --set argument, a finding's message, a reason) is
// redacted wherever it quotes it, blanks and all, as kubespray's learnVar does for Ansible
// variables. A number under a secret name is learned when it has at least
// minLearnedDigits digits.
func learnSecrets(rep *charts.Report, red *output.Redactor) {
	if !red.On() || rep.Result == nil {
		return
	}
	// LearnData teaches what Data hides: whole values by their names, and the parts the
	// content rules hide (a DSN's password, a PEM body, a secret line of a config text).
	walk := func(name string, v any) { red.LearnData(name, v) }
	defer red.Done()
	// A spec.set Helm refuses is in no leaf, but the args and the finding quote it.
	for _, a := range rep.Input.Set {
		if !a.Int {
			walk(setKeyName(a.Key), a.Value)
		}
	}
	for _, l := range rep.Result.Leaves {
		name := l.Name
		if l.Source != nil {
			name = nameOf(l.Source)
		}
		walk(lastKey(name), l.Value)
		for _, a := range l.History {
			walk(lastKey(nameOf(a)), a.Value)
			if secretKind(a.Source.Kind) {
				learnAll(red, lastKey(a.Path), a.Value)
			}
		}
	}
	// What the cluster's release has: its values by the same name rule, and whatever it
	// has at a path a Secret's values file sets.
	if st := rep.ReleaseStatus(); st != nil {
		for _, r := range []*helmrelease.Release{st.Compared, st.LatestRelease} {
			if r != nil {
				walk("", r.Config)
			}
		}
		secret := secretPaths(rep)
		for _, d := range st.Diffs {
			if secret[d.Path] && d.HasRelease {
				learnAll(red, lastKey(d.Path), d.Release)
			}
		}
	}
}

// learnAll teaches the redactor every string and number under v (a value from a Secret);
// learnSecrets calls Done.
func learnAll(red *output.Redactor, name string, v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			learnAll(red, k, x)
		}
	case []any:
		for _, x := range t {
			learnAll(red, name, x)
		}
	case string:
		red.Learn(name, t)
	case float64, int64, int:
		if s := fmt.Sprint(t); digits(s) >= minLearnedDigits {
			red.Learn(name, s)
		}
	}
}

// secretPaths are the leaf paths a Secret's values file (valuesSecrets) gives a value.
func secretPaths(rep *charts.Report) map[string]bool {
	out := map[string]bool{}
	for _, l := range rep.Result.Leaves {
		for _, a := range l.History {
			if secretKind(a.Source.Kind) {
				out[l.Name] = true
			}
		}
	}
	return out
}

// assignmentValue is an assignment's value as output: a Secret's values are hidden whole.
func assignmentValue(a *values.Assignment, red *output.Redactor) any {
	if red.On() && secretKind(a.Source.Kind) {
		return output.Redacted
	}
	return redactValue(nameOf(a), a.Value, red)
}

// nameOf is the path an assignment's value is redacted under: its own, or, for a copy of a
// secret by YAML alias (values.Assignment.SecretCopy), a secret name, so the copy is
// hidden whatever it spells.
func nameOf(a *values.Assignment) string {
	if a.SecretCopy {
		return "secret"
	}
	return a.Path
}

// leafValue is a leaf's value as output.
func leafValue(l *values.Leaf, red *output.Redactor) any {
	if l.Source != nil {
		return assignmentValue(l.Source, red)
	}
	return redactValue(l.Name, l.Value, red)
}

// releaseShow renders a value the release has at a path: hidden whole where a Secret's
// values file sets the path now, else by the name rule.
func releaseShow(rep *charts.Report, red *output.Redactor) func(string, any) any {
	secret := secretPaths(rep)
	return func(p string, v any) any {
		if red.On() && secret[p] {
			return output.Redacted
		}
		return redactValue(p, v, red)
	}
}

// setKeyName is the nearest key of a --set key: its last key without a list index
// ("hosts[0]" is under hosts).
func setKeyName(k string) string {
	k = lastKey(k)
	for strings.HasSuffix(k, "]") {
		i := strings.LastIndexByte(k, '[')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return k
}

func formatValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func where(s values.Source) string {
	w := s.Pos.File
	if s.Kind == values.ChartDefault {
		vf := "values.yaml"
		if s.Detail != "" {
			vf = s.Detail
		}
		if s.Pos.Line > 0 {
			return fmt.Sprintf("%s (%s:%d:%d)", s.Pos.File, vf, s.Pos.Line, s.Pos.Column)
		}
		return s.Pos.File + " (" + vf + ")"
	}
	if s.Pos.Line > 0 {
		w = fmt.Sprintf("%s:%d:%d", s.Pos.File, s.Pos.Line, s.Pos.Column)
	}
	if s.Kind == values.Set || s.Detail != "" {
		w += "  " + s.Detail
	}
	return w
}

func objectLine(ob *components.HelmObject, product string) string {
	s := fmt.Sprintf("%s %s/%s  (%s", ob.Kind, ob.Namespace, ob.Name, ob.Pos)
	if ob.Component != "" {
		s += ", " + productName(product) + "'s packaged " + ob.Component
	}
	if ob.NamespaceMissing {
		s += ", no metadata.namespace: default"
	}
	if ob.State != components.Enabled {
		s += ", " + string(ob.State)
	}
	return s + ")"
}

// Text prints the report in explain's layout.
func Text(w io.Writer, rep *charts.Report, red *output.Redactor, all bool) {
	// k3sconf's one control-character escaper (the command's output passes it again, which
	// changes nothing): a key or value from a manifest cannot drive the terminal of a
	// library caller either.
	esc := termesc.NewWriter(w)
	defer esc.Flush()
	w = esc
	learnSecrets(rep, red)
	fmt.Fprintln(w, red.Scrub(objectLine(rep.Chart, rep.Product)))
	if rep.Config != nil {
		fmt.Fprintln(w, red.Scrub(objectLine(rep.Config, rep.Product)))
	} else {
		fmt.Fprintf(w, "HelmChartConfig: none named %s in %s\n", rep.Name, rep.Namespace)
	}
	if rep.HasDefaults {
		fmt.Fprintf(w, "chart defaults: %s (%s %s)\n", rep.ChartFile, rep.ChartName, rep.ChartVersion)
	} else {
		fmt.Fprintf(w, "chart defaults: not read: %s\n", red.Scrub(rep.DefaultsNote))
	}
	fmt.Fprintf(w, "Helm %s: every values file in this order, then every --set, then every --set-string:\n", charts.HelmJobs[rep.Helm].Release)
	args := rep.Result.Args
	for i := 0; i+1 < len(args); i += 2 {
		fmt.Fprintf(w, "  %s %s\n", args[i], red.Scrub(args[i+1]))
	}
	if len(args) == 0 {
		fmt.Fprintln(w, "  (no values at all)")
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", red.Scrub(n))
	}
	show := releaseShow(rep, red)
	if rep.ReleaseStatus() != nil {
		for _, l := range rep.ReleaseStatus().Lines(func(p string, v any) string { return formatValue(show(p, v)) }, red.Scrub) {
			fmt.Fprintln(w, l)
		}
	}
	n := 0
	for _, l := range rep.Result.Leaves {
		if !shown(l, all) {
			continue
		}
		n++
		fmt.Fprintln(w)
		val := formatValue(leafValue(l, red))
		if l.Deleted {
			fmt.Fprintf(w, "%s  deleted (not in .Values)\n", l.Name)
		} else if l.Replaced {
			fmt.Fprintf(w, "%s  replaced (no longer a value of its own)\n", l.Name)
		} else {
			fmt.Fprintf(w, "%s = %s\n", l.Name, val)
		}
		if l.Source != nil {
			fmt.Fprintf(w, "  from: %s %s\n", l.Source.Kind, red.Scrub(where(l.Source.From())))
			if l.Via != "" {
				fmt.Fprintf(w, "  via: %s\n", red.Scrub(l.Via))
			}
			if e := rep.Effect[l.Source.Kind]; e != "" {
				fmt.Fprintf(w, "  takes effect: %s\n", e)
			}
		}
		if rep.ReleaseStatus() != nil {
			if n := rep.ReleaseStatus().Note(l.Name, shown(l, false), func(v any) string { return formatValue(show(l.Name, v)) }); n != "" {
				fmt.Fprintf(w, "  release: %s\n", red.Scrub(n))
			}
		}
		if len(l.History) > 1 || l.Deleted || l.Replaced {
			fmt.Fprintln(w, "  every assignment, lowest first:")
			for i, a := range l.History {
				fmt.Fprintf(w, "   %d. %-29s %s  %s\n", i+1, a.Source.Kind, red.Scrub(where(a.From())), formatValue(assignmentValue(a, red)))
				fmt.Fprintf(w, "      %s: %s\n", a.Outcome, red.Scrub(a.Reason))
			}
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "\nno values set by the HelmChart or a HelmChartConfig (--all shows the chart's defaults)")
	}
	if len(rep.Diagnostics) > 0 {
		fmt.Fprintln(w)
		nodereport.Findings(w, rep.Diagnostics, red)
	}
}

// valuesDocument is `k3sconf values --json`.
type valuesDocument struct {
	output.Envelope
	Chart           string               `json:"chart"`
	Namespace       string               `json:"namespace"`
	HelmChart       objectJSON           `json:"helmChart"`
	HelmChartConfig *objectJSON          `json:"helmChartConfig"`
	ChartArchive    *archiveJSON         `json:"chartArchive"`
	DefaultsNote    string               `json:"defaultsNote,omitempty"`
	Helm            string               `json:"helm"`
	Args            []string             `json:"args"`
	Notes           []string             `json:"notes"`
	Values          map[string]valueJSON `json:"values"`
	// Release is what --objects says about the Helm release (absent without --objects).
	Release     *helmrelease.Doc    `json:"release,omitempty"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
}

// objectJSON locates a HelmChart or HelmChartConfig.
type objectJSON struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	State     string `json:"state"`
	Component string `json:"component,omitempty"`
}

// archiveJSON is the chart archive the defaults came from.
type archiveJSON struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

// valueJSON is one leaf path.
type valueJSON struct {
	Value       any         `json:"value"`
	Deleted     bool        `json:"deleted,omitempty"`
	Replaced    bool        `json:"replaced,omitempty"`
	Source      *sourceJSON `json:"source"`
	Via         string      `json:"via,omitempty"`
	TakesEffect string      `json:"takesEffect,omitempty"`
	// Release says whether the release has the value (with --objects).
	Release string           `json:"release,omitempty"`
	History []assignmentJSON `json:"history"`
}

// sourceJSON is where an assignment was written.
type sourceJSON struct {
	Kind   string `json:"kind"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Detail string `json:"detail,omitempty"`
}

// assignmentJSON is one assignment of a leaf.
type assignmentJSON struct {
	Value   any        `json:"value"`
	Source  sourceJSON `json:"source"`
	Outcome string     `json:"outcome"`
	Reason  string     `json:"reason"`
}

func objectDoc(ob *components.HelmObject) objectJSON {
	return objectJSON{Namespace: ob.Namespace, Name: ob.Name, File: ob.File, Line: ob.Pos.Line, Column: ob.Pos.Column, State: string(ob.State), Component: ob.Component}
}

func sourceDoc(s values.Source, red *output.Redactor) sourceJSON {
	return sourceJSON{Kind: string(s.Kind), File: s.Pos.File, Line: s.Pos.Line, Column: s.Pos.Column, Detail: red.Scrub(s.Detail)}
}

// JSON is the report as the `values --json` document (docs/json.md), for encoding/json.
func JSON(rep *charts.Report, env output.Envelope, red *output.Redactor, all bool) any {
	learnSecrets(rep, red)
	d := &valuesDocument{Envelope: env, Chart: rep.Name, Namespace: rep.Namespace, HelmChart: objectDoc(rep.Chart),
		Helm: charts.HelmJobs[rep.Helm].Release, Args: []string{}, Notes: []string{}, Values: map[string]valueJSON{},
		Diagnostics: componentsreport.DiagnosticDocs(rep.Diagnostics, red)}
	if rep.Config != nil {
		c := objectDoc(rep.Config)
		d.HelmChartConfig = &c
	}
	if rep.HasDefaults {
		d.ChartArchive = &archiveJSON{File: rep.ChartFile, Name: rep.ChartName, Version: rep.ChartVersion}
	} else {
		d.DefaultsNote = red.Scrub(rep.DefaultsNote)
	}
	for _, a := range rep.Result.Args {
		d.Args = append(d.Args, red.Scrub(a))
	}
	for _, n := range rep.Notes {
		d.Notes = append(d.Notes, red.Scrub(n))
	}
	show := releaseShow(rep, red)
	for _, l := range rep.Result.Leaves {
		if !shown(l, all) {
			continue
		}
		v := valueJSON{Value: leafValue(l, red), Deleted: l.Deleted, Replaced: l.Replaced, Via: red.Scrub(l.Via), History: []assignmentJSON{}}
		if l.Source != nil {
			s := sourceDoc(l.Source.From(), red)
			v.Source = &s
			v.TakesEffect = rep.Effect[l.Source.Kind]
		}
		for _, a := range l.History {
			v.History = append(v.History, assignmentJSON{Value: assignmentValue(a, red), Source: sourceDoc(a.From(), red), Outcome: string(a.Outcome), Reason: red.Scrub(a.Reason)})
		}
		if rep.ReleaseStatus() != nil {
			v.Release = red.Scrub(rep.ReleaseStatus().Note(l.Name, shown(l, false), func(x any) string { return formatValue(show(l.Name, x)) }))
		}
		d.Values[l.Name] = v
	}
	if rep.ReleaseStatus() != nil {
		d.Release = rep.ReleaseStatus().Doc(show, red.Scrub)
	}
	return d
}

// secretKind reports whether a source is a Secret's values file: every value from there is
// a secret, whatever its key.
func secretKind(k values.Kind) bool {
	return k == values.HelmChartValuesSecret || k == values.HelmChartConfigValuesSecret
}

// productName is the distribution as people write it.
func productName(p string) string {
	if p == "rke2" {
		return "RKE2"
	}
	return "k3s"
}
