package kubespray

import (
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/report"
)

// Text renders the explain report as `k3sconf explain` does: the value with its type and
// source, then every assignment in precedence order with what became of it.
func Text(w io.Writer, r *Report) {
	fmt.Fprintf(w, "host %s; groups (merge order): %s", r.Host, strings.Join(r.Groups, ", "))
	if len(r.Added) > 0 {
		fmt.Fprintf(w, " (added at run time by kubespray's dynamic_groups: %s)", strings.Join(r.Added, ", "))
	}
	fmt.Fprintln(w)
	for _, ex := range r.Vars {
		fmt.Fprintln(w)
		if ex.Play != nil {
			fmt.Fprintf(w, "# for play %q (%s)\n", ex.Play.Name, ex.Play.Pos)
		}
		v := ex.Var
		if v == nil {
			fmt.Fprintf(w, "%s is undefined on %s\n", ex.Name, r.Host)
		} else {
			fmt.Fprintf(w, "%s = %s  (%s)\n", ex.Name, ansible.Repr(v.Value), ansible.TypeName(v.Value))
			fmt.Fprintf(w, "  from: %s %s  %s\n", v.Source.Kind, v.Source.Pos, v.Source.Level)
			if len(ex.RefNames) > 0 {
				fmt.Fprintf(w, "  templated (shown as written, not evaluated); it uses:\n")
				for _, rn := range ex.RefNames {
					found := false
					for _, rv := range ex.Refs {
						if rv.Name == rn {
							found = true
							fmt.Fprintf(w, "    %s = %s  (%s)  from: %s %s  %s\n", rn, short(ansible.Repr(rv.Value)), ansible.TypeName(rv.Value), rv.Source.Kind, rv.Source.Pos, rv.Source.Level)
						}
					}
					if !found {
						fmt.Fprintf(w, "    %s: not set by the inventory, -e or the play's roles (a fact, a magic or loop variable, or undefined)\n", rn)
					}
				}
			}
			fmt.Fprintf(w, "\n  every assignment, in precedence order (role defaults, inventory, group_vars, host_vars, play vars, role vars, extra vars):\n")
			width := 0
			for _, a := range v.History {
				if n := len(a.Kind); n > width {
					width = n
				}
			}
			for i, a := range v.History {
				fmt.Fprintf(w, "  %2d. %-*s %s  %s  %s\n", i+1, width, a.Kind, a.Pos, a.Level, ansible.Repr(a.Value))
				reason := a.Reason
				if a == v.Source {
					reason = "the highest-precedence assignment for this host"
				}
				fmt.Fprintf(w, "      %s: %s\n", a.Outcome, reason)
			}
		}
		for _, d := range r.Diagnostics {
			if d.Key == ex.Name {
				printDiag(w, d)
			}
		}
	}
	first := true
	for _, d := range r.Diagnostics {
		if d.Key != "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nfindings about the inventory and checkout:")
			first = false
		}
		printDiag(w, d)
	}
}

func printDiag(w io.Writer, d diag.Diagnostic) {
	fmt.Fprintf(w, "\n  %s[%s]", d.Severity, d.Code)
	if !d.Pos.IsZero() {
		fmt.Fprintf(w, " %s:", d.Pos)
	}
	fmt.Fprintf(w, " %s\n", d.Message)
	if d.Hint != "" {
		fmt.Fprintf(w, "    fix: %s\n", d.Hint)
	}
}

// ExplainDoc is the --json document of `k3sconf kubespray explain`.
type ExplainDoc struct {
	report.Envelope
	Host          string              `json:"host"`
	Groups        []string            `json:"groups"`
	DynamicGroups []string            `json:"dynamicGroups"`
	Keys          map[string]*KeyDoc  `json:"keys"`
	Diagnostics   []report.Diagnostic `json:"diagnostics"`
}

// KeyDoc is one variable, shaped as a key of `show --json` (value, source, history) plus
// its Python type, the play it was resolved for and the variables a template uses.
type KeyDoc struct {
	Value   any                `json:"value"`
	Type    string             `json:"type"`
	Defined bool               `json:"defined"`
	Source  report.Source      `json:"source"`
	History []report.History   `json:"history"`
	Play    *PlayDoc           `json:"play,omitempty"`
	Refs    map[string]*RefDoc `json:"refs,omitempty"`
}

// PlayDoc names a play.
type PlayDoc struct {
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// RefDoc is a variable a template uses, one level down.
type RefDoc struct {
	Value   any            `json:"value"`
	Type    string         `json:"type"`
	Defined bool           `json:"defined"`
	Source  *report.Source `json:"source,omitempty"`
}

func source(a *ansible.Assignment) report.Source {
	return report.Source{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column, Name: a.Level}
}

// JSON builds the explain document.
func JSON(r *Report) *ExplainDoc {
	d := &ExplainDoc{Envelope: report.NewEnvelope("kubespray", "kubespray explain", "kubespray explain"),
		Host: r.Host, Groups: r.Groups, DynamicGroups: r.Added, Keys: map[string]*KeyDoc{}, Diagnostics: []report.Diagnostic{}}
	if d.Groups == nil {
		d.Groups = []string{}
	}
	if d.DynamicGroups == nil {
		d.DynamicGroups = []string{}
	}
	for _, ex := range r.Vars {
		k := &KeyDoc{History: []report.History{}, Source: report.Source{Kind: "undefined"}, Type: "undefined"}
		if ex.Play != nil {
			k.Play = &PlayDoc{Name: ex.Play.Name, File: ex.Play.Pos.File, Line: ex.Play.Pos.Line}
		}
		if v := ex.Var; v != nil {
			k.Defined = true
			k.Value = ansible.ToJSONValue(v.Value)
			k.Type = ansible.TypeName(v.Value)
			k.Source = source(v.Source)
			for _, a := range v.History {
				if a == v.Source {
					continue
				}
				k.History = append(k.History, report.History{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column,
					Name: a.Level, Raw: a.Raw, Value: ansible.Repr(a.Value), Outcome: string(a.Outcome), Reason: a.Reason})
			}
			if len(ex.RefNames) > 0 {
				k.Refs = map[string]*RefDoc{}
				for _, rn := range ex.RefNames {
					rd := &RefDoc{Type: "undefined"}
					for _, rv := range ex.Refs {
						if rv.Name == rn {
							s := source(rv.Source)
							rd = &RefDoc{Value: ansible.ToJSONValue(rv.Value), Type: ansible.TypeName(rv.Value), Defined: true, Source: &s}
						}
					}
					k.Refs[rn] = rd
				}
			}
		}
		d.Keys[ex.Name] = k
	}
	for _, dg := range r.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, report.Diagnostic{Severity: string(dg.Severity), Code: dg.Code, File: dg.Pos.File, Line: dg.Pos.Line,
			Column: dg.Pos.Column, Key: dg.Key, Message: dg.Message, Hint: dg.Hint})
	}
	return d
}

// HasErrors reports whether a finding is an error (exit 1).
func (r *Report) HasErrors() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// short keeps a referenced value to one readable line (--json has it whole).
func short(s string) string {
	if len(s) > 160 {
		return s[:150] + "… (" + fmt.Sprint(len(s)) + " chars; --json has all)"
	}
	return s
}
