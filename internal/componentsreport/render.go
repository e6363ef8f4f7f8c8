package componentsreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// Text writes the report for people: the disable list with its sources, one block per
// component with its reasons, the --disable-* flags, and the findings.
func Text(w io.Writer, rep *components.Report, red *output.Redactor) {
	if rep.Command != "server" || rep.ManifestsDir == "" {
		if rep.Command != "server" {
			fmt.Fprintf(w, "%s %s: no packaged components (only servers deploy them)\n", rep.Product, rep.Command)
		} else {
			fmt.Fprintf(w, "%s %s: packaged components are not modelled for %s\n", rep.Product, rep.Command, rep.Product)
		}
		writeDiags(w, rep.Diagnostics, red)
		return
	}
	fmt.Fprintf(w, "%s server components\n", rep.Product)
	fmt.Fprintf(w, "manifests: %s\n", rep.ManifestsDir)
	if rep.Refused != "" {
		fmt.Fprintf(w, "\nk3s refuses to start: %s\n  nothing is deployed until it starts; the states below are what k3s does then\n", red.Scrub(rep.Refused))
	}
	items := make([]string, len(rep.Disable))
	for i, d := range rep.Disable {
		items[i] = d.Item
	}
	fmt.Fprintf(w, "\ndisable = [%s]  (each value split on commas and trimmed, as k3s does)\n", strings.Join(items, ", "))
	iw := 0
	for _, d := range rep.Disable {
		iw = max(iw, len(d.Item))
	}
	for _, d := range rep.Disable {
		if d.Rule != "" {
			fmt.Fprintf(w, "  %-*s  %s\n", iw, d.Item, d.Rule)
			continue
		}
		fmt.Fprintf(w, "  %-*s  from %s\n", iw, d.Item, d.Where())
	}
	section := func(title string, packaged bool) {
		var cs []components.Component
		for _, c := range rep.Components {
			if c.Packaged == packaged {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			if !packaged {
				fmt.Fprintf(w, "\n%s: none in %s\n", title, rep.ManifestsDir)
			}
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		nw := 0
		for _, c := range cs {
			nw = max(nw, len(c.Name))
		}
		for _, c := range cs {
			fmt.Fprintf(w, "  %-*s  %s", nw, c.Name, c.State)
			if !packaged && len(c.Files) > 0 {
				fmt.Fprintf(w, "  %s", c.Files[0])
			}
			fmt.Fprintln(w)
			for _, r := range c.Reasons {
				fmt.Fprintf(w, "    - %s\n", red.Scrub(r))
			}
		}
	}
	section("packaged components", true)
	section("user AddOns", false)
	if len(rep.Flags) > 0 {
		fmt.Fprintln(w, "\nother switches (not the same as disable):")
		for _, f := range rep.Flags {
			from := "default"
			if f.Source != nil {
				from = fmt.Sprintf("%s %s", f.Source.Kind, f.Source.Pos)
			}
			fmt.Fprintf(w, "  %s = %t  (%s)\n    %s\n", f.Name, f.Value, from, f.Meaning)
		}
	}
	writeDiags(w, rep.Diagnostics, red)
}

func writeDiags(w io.Writer, ds []diag.Diagnostic, red *output.Redactor) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "\nno findings")
		return
	}
	fmt.Fprintln(w)
	nodereport.Findings(w, ds, red)
}

// componentsDocument is the JSON form of a report: `k3sconf components --json`.
type componentsDocument struct {
	output.Envelope
	Manifests   string              `json:"manifests,omitempty"`
	Disable     []disableJSON       `json:"disable"`
	Flags       []flagJSON          `json:"flags"`
	Components  []componentJSON     `json:"components"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
	Error       string              `json:"error,omitempty"`
}

// componentJSON is one component in the JSON document.
type componentJSON struct {
	Name string `json:"name"`
	// Kind is "packaged" or "addon".
	Kind    string   `json:"kind"`
	State   string   `json:"state"`
	Files   []string `json:"files,omitempty"`
	Reasons []string `json:"reasons"`
}

// disableJSON is one effective disable item with the assignments that contributed it.
type disableJSON struct {
	Item string          `json:"item"`
	From []output.Source `json:"from"`
	// Rule says why the product added the item itself (RKE2's CNI and ingress rules).
	Rule string `json:"rule,omitempty"`
}

// flagJSON is one --disable-* switch.
type flagJSON struct {
	Name    string         `json:"name"`
	Value   bool           `json:"value"`
	Source  *output.Source `json:"source,omitempty"`
	Meaning string         `json:"meaning"`
}

func sourceDoc(a *resolve.Assignment) output.Source {
	return output.Source{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column, Name: a.Name}
}

// JSON builds the `components --json` document of a report (docs/json.md), for encoding/json.
func JSON(rep *components.Report, red *output.Redactor) any {
	d := &componentsDocument{Envelope: output.NewEnvelope(rep.Product, rep.Command, "components"), Manifests: rep.ManifestsDir, Disable: []disableJSON{}, Flags: []flagJSON{}, Components: []componentJSON{},
		Diagnostics: DiagnosticDocs(rep.Diagnostics, red), Error: red.Scrub(rep.Refused)}
	for _, it := range rep.Disable {
		dd := disableJSON{Item: it.Item, From: []output.Source{}, Rule: it.Rule}
		for _, a := range it.From {
			dd.From = append(dd.From, sourceDoc(a))
		}
		d.Disable = append(d.Disable, dd)
	}
	for _, f := range rep.Flags {
		fd := flagJSON{Name: f.Name, Value: f.Value, Meaning: f.Meaning}
		if f.Source != nil {
			s := sourceDoc(f.Source)
			fd.Source = &s
		}
		d.Flags = append(d.Flags, fd)
	}
	for _, c := range rep.Components {
		kind := "addon"
		if c.Packaged {
			kind = "packaged"
		}
		cd := componentJSON{Name: c.Name, Kind: kind, State: string(c.State), Files: c.Files, Reasons: []string{}}
		for _, r := range c.Reasons {
			cd.Reasons = append(cd.Reasons, red.Scrub(r))
		}
		d.Components = append(d.Components, cd)
	}
	return d
}

// DiagnosticDocs renders diagnostics in the JSON shape every document shares (output.Diagnostic).
func DiagnosticDocs(ds []diag.Diagnostic, red *output.Redactor) []output.Diagnostic {
	out := []output.Diagnostic{}
	for _, d := range ds {
		out = append(out, output.Diagnostic{Severity: string(d.Severity), Code: d.Code, File: d.Pos.File, Line: d.Pos.Line,
			Column: d.Pos.Column, Key: red.Key(d.Key), Message: red.Scrub(d.Message), Hint: red.Scrub(d.Hint)})
	}
	return out
}
