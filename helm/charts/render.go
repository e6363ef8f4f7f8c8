package charts

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/termesc"
	"github.com/k3sconf/k3sconf/output"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/report"
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

// Redacted is the report as every renderer sees it (Text and JSON alike): a copy in which
// each value is redacted as data by k3sconf's one redactor (output.Redactor.Data: a map
// value by its key, a list's items by the list's key, env-list items by their name, and
// what a string's content shows: URL and DSN credentials, PEM keys, secret lines of a
// config text, base64 of those) and every text that quotes input (the --set arguments,
// notes, reasons, details, findings) by its word rules, after the redactor has learnt
// every secret value of the report (in force or overridden, from any layer, and the
// value of a spec.set Helm refuses), so text quoting one is redacted too. Text and JSON
// print the same records, so they cannot differ in what they reveal. With a redactor that
// hides nothing it returns rep.
func Redacted(rep *Report, red *output.Redactor) *Report {
	if !red.On() || rep.Result == nil {
		return rep
	}
	for _, a := range rep.Input.Set {
		// A spec.set Helm refuses is in no leaf, but the args and the finding quote it.
		if !a.Int {
			red.LearnData(setKeyName(a.Key), a.Value)
		}
	}
	for _, l := range rep.Result.Leaves {
		red.LearnData(lastKey(l.Path), l.Value)
		for _, a := range l.History {
			red.LearnData(lastKey(a.Path), a.Value)
		}
	}
	red.Done()
	c := *rep
	c.Chart, c.Config = redactObject(rep.Chart, red), redactObject(rep.Config, red)
	c.DefaultsNote = red.Scrub(rep.DefaultsNote)
	c.Notes = make([]string, len(rep.Notes))
	for i, n := range rep.Notes {
		c.Notes[i] = red.Scrub(n)
	}
	c.Diagnostics = make([]diag.Diagnostic, len(rep.Diagnostics))
	for i, d := range rep.Diagnostics {
		d.Key, d.Message, d.Hint = red.Key(d.Key), red.Scrub(d.Message), red.Scrub(d.Hint)
		d.Assumes, d.Rule = red.Scrub(d.Assumes), red.Scrub(d.Rule)
		c.Diagnostics[i] = d
	}
	res := *rep.Result
	res.Args = make([]string, len(rep.Result.Args))
	for i, a := range rep.Result.Args {
		res.Args[i] = red.Scrub(a)
	}
	res.Leaves = make([]*values.Leaf, len(rep.Result.Leaves))
	for i, l := range rep.Result.Leaves {
		cl := *l
		cl.Value = red.Data(lastKey(l.Path), l.Value)
		cl.History = make([]*values.Assignment, len(l.History))
		for j, a := range l.History {
			ca := *a
			ca.Value = red.Data(lastKey(a.Path), a.Value)
			ca.Reason = red.Scrub(a.Reason)
			ca.Source.File, ca.Source.Detail = red.Scrub(a.Source.File), red.Scrub(a.Source.Detail)
			cl.History[j] = &ca
			if a == l.Source {
				cl.Source = &ca
			}
		}
		if cl.Source != nil && cl.Source == l.Source {
			// A source outside the history (not expected): redacted on its own.
			ca := *l.Source
			ca.Value = red.Data(lastKey(ca.Path), ca.Value)
			ca.Reason = red.Scrub(ca.Reason)
			ca.Source.File, ca.Source.Detail = red.Scrub(ca.Source.File), red.Scrub(ca.Source.Detail)
			cl.Source = &ca
		}
		res.Leaves[i] = &cl
	}
	c.Result = &res
	return &c
}

// redactObject is a HelmChart or HelmChartConfig as output shows it.
func redactObject(ob *components.HelmObject, red *output.Redactor) *components.HelmObject {
	if ob == nil {
		return nil
	}
	c := *ob
	c.Name, c.Namespace, c.File = red.Scrub(ob.Name), red.Scrub(ob.Namespace), red.Scrub(ob.File)
	return &c
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
	w := s.File
	if s.Kind == values.ChartDefault {
		if s.Line > 0 {
			return fmt.Sprintf("%s (values.yaml:%d:%d)", s.File, s.Line, s.Column)
		}
		return s.File + " (values.yaml)"
	}
	if s.Line > 0 {
		w = fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
	}
	if s.Kind == values.Set || s.Detail != "" {
		w += "  " + s.Detail
	}
	return w
}

func objectLine(ob *components.HelmObject) string {
	s := fmt.Sprintf("%s %s/%s  (%s", ob.Kind, ob.Namespace, ob.Name, ob.Pos)
	if ob.Component != "" {
		s += ", k3s's packaged " + ob.Component
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
func Text(w io.Writer, rep *Report, red *output.Redactor, all bool) {
	// k3sconf's one control-character escaper (the command's output passes it again, which
	// changes nothing): a key or value from a manifest cannot drive the terminal of a
	// library caller either.
	esc := termesc.NewWriter(w)
	defer esc.Flush()
	w = esc
	// From here on only the redacted records are printed.
	rep = Redacted(rep, red)
	fmt.Fprintln(w, objectLine(rep.Chart))
	if rep.Config != nil {
		fmt.Fprintln(w, objectLine(rep.Config))
	} else {
		fmt.Fprintf(w, "HelmChartConfig: none named %s in %s\n", rep.Name, rep.Namespace)
	}
	if rep.HasDefaults {
		fmt.Fprintf(w, "chart defaults: %s (%s %s)\n", rep.ChartFile, rep.ChartName, rep.ChartVersion)
	} else {
		fmt.Fprintf(w, "chart defaults: not read: %s\n", rep.DefaultsNote)
	}
	fmt.Fprintf(w, "Helm %s: every values file in this order, then every --set, then every --set-string:\n", HelmJobs[rep.Helm].Release)
	args := rep.Result.Args
	for i := 0; i+1 < len(args); i += 2 {
		fmt.Fprintf(w, "  %s %s\n", args[i], args[i+1])
	}
	if len(args) == 0 {
		fmt.Fprintln(w, "  (no values at all)")
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	n := 0
	for _, l := range rep.Result.Leaves {
		if !shown(l, all) {
			continue
		}
		n++
		fmt.Fprintln(w)
		val := formatValue(l.Value)
		if l.Deleted {
			fmt.Fprintf(w, "%s  deleted (not in .Values)\n", l.Path)
		} else if l.Replaced {
			fmt.Fprintf(w, "%s  replaced (no longer a value of its own)\n", l.Path)
		} else {
			fmt.Fprintf(w, "%s = %s\n", l.Path, val)
		}
		if l.Source != nil {
			fmt.Fprintf(w, "  from: %s %s\n", l.Source.Source.Kind, where(l.Source.Source))
			if e := rep.Effect[l.Source.Source.Kind]; e != "" {
				fmt.Fprintf(w, "  takes effect: %s\n", e)
			}
		}
		if len(l.History) > 1 || l.Deleted || l.Replaced {
			fmt.Fprintln(w, "  every assignment, lowest first:")
			for i, a := range l.History {
				fmt.Fprintf(w, "   %d. %-29s %s  %s\n", i+1, a.Source.Kind, where(a.Source), formatValue(a.Value))
				fmt.Fprintf(w, "      %s: %s\n", a.Outcome, a.Reason)
			}
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "\nno values set by the HelmChart or a HelmChartConfig (--all shows the chart's defaults)")
	}
	if len(rep.Diagnostics) > 0 {
		fmt.Fprintln(w)
		report.Findings(w, rep.Diagnostics, redactedAlready)
	}
}

// Document is `k3sconf values --json`.
type Document struct {
	output.Envelope
	Chart           string              `json:"chart"`
	Namespace       string              `json:"namespace"`
	HelmChart       ObjectDoc           `json:"helmChart"`
	HelmChartConfig *ObjectDoc          `json:"helmChartConfig"`
	ChartArchive    *ArchiveDoc         `json:"chartArchive"`
	DefaultsNote    string              `json:"defaultsNote,omitempty"`
	Helm            string              `json:"helm"`
	Args            []string            `json:"args"`
	Notes           []string            `json:"notes"`
	Values          map[string]ValueDoc `json:"values"`
	Diagnostics     []report.Diagnostic `json:"diagnostics"`
}

// ObjectDoc locates a HelmChart or HelmChartConfig.
type ObjectDoc struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	State     string `json:"state"`
	Component string `json:"component,omitempty"`
}

// ArchiveDoc is the chart archive the defaults came from.
type ArchiveDoc struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ValueDoc is one leaf path.
type ValueDoc struct {
	Value       any             `json:"value"`
	Deleted     bool            `json:"deleted,omitempty"`
	Replaced    bool            `json:"replaced,omitempty"`
	Source      *SourceDoc      `json:"source"`
	TakesEffect string          `json:"takesEffect,omitempty"`
	History     []AssignmentDoc `json:"history"`
}

// SourceDoc is where an assignment was written.
type SourceDoc struct {
	Kind   string `json:"kind"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Detail string `json:"detail,omitempty"`
}

// AssignmentDoc is one assignment of a leaf.
type AssignmentDoc struct {
	Value   any       `json:"value"`
	Source  SourceDoc `json:"source"`
	Outcome string    `json:"outcome"`
	Reason  string    `json:"reason"`
}

func objectDoc(ob *components.HelmObject) ObjectDoc {
	return ObjectDoc{Namespace: ob.Namespace, Name: ob.Name, File: ob.File, Line: ob.Pos.Line, Column: ob.Pos.Column, State: string(ob.State), Component: ob.Component}
}

func sourceDoc(s values.Source) SourceDoc {
	return SourceDoc{Kind: string(s.Kind), File: s.File, Line: s.Line, Column: s.Column, Detail: s.Detail}
}

// redactedAlready is the redactor the renderers hand the findings to: they are redacted
// already (Redacted).
var redactedAlready = output.NewTextRedactor(true)

// JSON is the report as the "values" document.
func JSON(rep *Report, env output.Envelope, red *output.Redactor, all bool) *Document {
	// From here on only the redacted records are written.
	rep = Redacted(rep, red)
	d := &Document{Envelope: env, Chart: rep.Name, Namespace: rep.Namespace, HelmChart: objectDoc(rep.Chart),
		Helm: HelmJobs[rep.Helm].Release, Args: []string{}, Notes: []string{}, Values: map[string]ValueDoc{},
		Diagnostics: components.DiagnosticDocs(rep.Diagnostics, redactedAlready)}
	if rep.Config != nil {
		c := objectDoc(rep.Config)
		d.HelmChartConfig = &c
	}
	if rep.HasDefaults {
		d.ChartArchive = &ArchiveDoc{File: rep.ChartFile, Name: rep.ChartName, Version: rep.ChartVersion}
	} else {
		d.DefaultsNote = rep.DefaultsNote
	}
	d.Args = append(d.Args, rep.Result.Args...)
	d.Notes = append(d.Notes, rep.Notes...)
	for _, l := range rep.Result.Leaves {
		if !shown(l, all) {
			continue
		}
		v := ValueDoc{Value: l.Value, Deleted: l.Deleted, Replaced: l.Replaced, History: []AssignmentDoc{}}
		if l.Source != nil {
			s := sourceDoc(l.Source.Source)
			v.Source = &s
			v.TakesEffect = rep.Effect[l.Source.Source.Kind]
		}
		for _, a := range l.History {
			v.History = append(v.History, AssignmentDoc{Value: a.Value, Source: sourceDoc(a.Source), Outcome: string(a.Outcome), Reason: a.Reason})
		}
		d.Values[l.Path] = v
	}
	return d
}
