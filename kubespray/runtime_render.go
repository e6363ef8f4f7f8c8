package kubespray

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
)

// loadFacts reads the host's facts (Options.Facts). A file that cannot be read or parsed
// is a finding (the report goes on without facts: exit 3 when unreadable, 1 when it does
// not parse).
func (r *Report) loadFacts(o Options) *ansible.Facts {
	if o.Facts == "" {
		return nil
	}
	f, err := ansible.LoadFacts(o.Facts, o.Host)
	if err == nil && f == nil {
		r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "KS013", Pos: diag.Position{File: o.Facts},
			Message: fmt.Sprintf("no facts for %s in %s (no %s.json or %s there): conditions and file names on facts are listed per case, as without --facts", o.Host, o.Facts, o.Host, o.Host),
			Hint:    fmt.Sprintf("save them with: ansible -i INVENTORY %s -m setup > %s/%s.json", o.Host, o.Facts, o.Host)})
		return nil
	}
	if err != nil {
		var fe *ansible.FactsError
		d := diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: diag.Position{File: o.Facts},
			Message: "--facts: " + err.Error() + " (the report is made without facts)"}
		if !errors.As(err, &fe) {
			r.InputError = true
		} else {
			d.Code = "KS013"
			d.Hint = "give the output of `ansible -m setup HOST`, an ansible_facts dump, or a file of ansible's jsonfile fact cache"
			r.Invalid = true
		}
		r.Diagnostics = append(r.Diagnostics, d)
		return nil
	}
	return f
}

// sourceReason is the reason given to the value in force: the highest-precedence
// assignment, or (when a task of the run sets the variable and is not applied here) the
// highest before the run.
func sourceReason(a *ansible.Assignment, pending []RuntimeSet) string {
	switch {
	case a.Kind == ansible.KindSetFact || a.Kind == ansible.KindIncludeVars:
		return "set while the playbook runs, by a task before this use; the highest-precedence assignment here"
	case len(pending) == 0:
		return "the highest-precedence assignment for this host"
	}
	for _, s := range pending {
		if s.Runs == "yes" {
			return "the highest-precedence assignment before the run; a task below sets it while the play runs, which beats it"
		}
	}
	return "the highest-precedence assignment before the run; a task below may set it while the play runs, which would beat it"
}

// pendingSets are the run-time assignments that run (or may) and would beat v's source but
// are not in its history (not applied where v holds: after the use, or not sure to run).
func (ex *Explained) pendingSets(v *ansible.Var) []RuntimeSet {
	var out []RuntimeSet
	for _, s := range ex.SetAtRunTime {
		if s.Runs == "no" || v != nil && !beats(v.Source) {
			continue
		}
		applied := false
		if v != nil {
			for _, a := range v.History {
				applied = applied || a.Pos == s.Pos && (a.Kind == ansible.KindSetFact || a.Kind == ansible.KindIncludeVars)
			}
		}
		if !applied {
			out = append(out, s)
		}
	}
	return out
}

// writeRuntimeSets lists the set_fact and include_vars tasks that assign the variable.
func writeRuntimeSets(w io.Writer, r *Report, ex *Explained, v *ansible.Var) {
	if len(ex.SetAtRunTime) == 0 {
		return
	}
	fmt.Fprintf(w, "\n  set while the playbook runs (ansible-core 2.14: include_vars, then set_fact, above role vars, task vars and the inventory, below role params, include params and -e; they last for the rest of the run on the host, for the tasks after them):\n")
	for _, s := range ex.SetAtRunTime {
		what := s.Kind + " " + s.Task.Pos.String()
		if s.Kind == IncludeVars {
			what += " loading " + s.File
		}
		val := ansible.Repr(s.Value)
		if s.Kind == SetFact && s.Known && ansible.IsTemplated(s.Value) {
			val += " = " + ansible.Repr(s.Evaluated)
		}
		fmt.Fprintf(w, "    %s in play %q: %s\n", what, s.Play.Play.Name, val)
		switch s.Runs {
		case "yes":
			fmt.Fprintf(w, "      runs on this host")
		case "no":
			fmt.Fprintf(w, "      does not run on this host: %s", s.Why)
		default:
			fmt.Fprintf(w, "      may run: depends on facts or results of the run")
			if len(s.Facts) > 0 {
				fmt.Fprintf(w, " (%s)", strings.Join(s.Facts, ", "))
			}
			if s.Why != "" {
				fmt.Fprintf(w, "; %s", s.Why)
			}
		}
		if s.Runs != "no" && s.Kind == SetFact && !s.Known {
			fmt.Fprintf(w, "; its value depends on facts: %s", strings.Join(orNames(s.DependsOn), ", "))
		}
		if s.Runs != "no" {
			before, after := 0, 0
			for _, st := range ex.Sites {
				if !st.Runs() {
					continue
				}
				if r.siteAfter(st, s) {
					after++
				} else {
					before++
				}
			}
			if after == 0 && before > 0 {
				fmt.Fprintf(w, "; after every use on this host, so no use sees it")
			} else if before > 0 {
				fmt.Fprintf(w, "; %d of the %d uses on this host run before it and do not see it", before, before+after)
			}
		}
		if s.Runs != "no" && v != nil && !beats(v.Source) {
			fmt.Fprintf(w, "; %s beats it", v.Source.Level)
		}
		fmt.Fprintln(w)
	}
}

// siteAfter reports whether a use site runs after the set's task (and so sees it, when
// the set runs).
func (r *Report) siteAfter(st Site, s RuntimeSet) bool {
	if r.rt != nil {
		return r.rt.siteOrder(st) > s.order
	}
	return st.Play.Index > s.Play.Index
}

// RuntimeSetDoc is one set_fact or include_vars task that assigns the variable (--json).
type runtimeSetDoc struct {
	Kind string `json:"kind"`
	// File, Line, Column: where the value is written (the set_fact argument, the vars
	// file's key); Task the task with its position.
	File   string  `json:"file"`
	Line   int     `json:"line"`
	Column int     `json:"column"`
	Task   taskDoc `json:"task"`
	Play   playDoc `json:"play"`
	// VarsFile is the file include_vars loads it from.
	VarsFile string `json:"varsFile,omitempty"`
	// Value is as written; Evaluated the value the task stores (known true).
	Value     any      `json:"value"`
	Known     bool     `json:"known"`
	Evaluated any      `json:"evaluated,omitempty"`
	DependsOn []string `json:"dependsOn,omitempty"`
	// Runs is "yes", "no" or "unsure"; Why says why not or why unsure; Facts names what
	// an unsure condition needs.
	Runs  string   `json:"runs"`
	Why   string   `json:"why,omitempty"`
	Facts []string `json:"facts,omitempty"`
}

// TaskDoc names a task.
type taskDoc struct {
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// runtimeDocs are the run-time sets of a variable for --json (never nil).
func runtimeDocs(ex *Explained) []runtimeSetDoc {
	out := []runtimeSetDoc{}
	for _, s := range ex.SetAtRunTime {
		d := runtimeSetDoc{Kind: s.Kind, File: s.Pos.File, Line: s.Pos.Line, Column: s.Pos.Column,
			Task:  taskDoc{Name: s.Task.DisplayName(), File: s.Task.Pos.File, Line: s.Task.Pos.Line},
			Play:  playDoc{Name: s.Play.Play.Name, File: s.Play.Play.Pos.File, Line: s.Play.Play.Pos.Line},
			Value: ansible.ToJSONValue(s.Value), Known: s.Known, DependsOn: s.DependsOn, Runs: s.Runs, Why: s.Why, Facts: s.Facts}
		if s.Kind == IncludeVars {
			d.VarsFile = s.File
		}
		if s.Known {
			d.Evaluated = ansible.ToJSONValue(s.Evaluated)
		}
		out = append(out, d)
	}
	return out
}

// learnRuntime teaches the redactor the secret strings the run-time sets of ex assign.
func learnRuntime(red *output.Redactor, ex *Explained) {
	for _, s := range ex.SetAtRunTime {
		walkSecrets(s.writtenName(ex.Name), s.Value, func(name, x string) { red.AddSecret(name, x) })
		walkSecrets(s.nameFor(ex.Name), s.Evaluated, func(name, x string) { red.AddSecret(name, x) })
	}
}

// redactRuntime redacts the run-time sets of ex by the one rule (redactNamed) and scrubs
// their texts.
func redactRuntime(red *output.Redactor, ex *Explained) {
	for i := range ex.SetAtRunTime {
		s := &ex.SetAtRunTime[i]
		s.Value = redactNamed(red, s.writtenName(ex.Name), s.Value)
		s.Evaluated = redactNamed(red, s.nameFor(ex.Name), s.Evaluated)
		s.Why = red.Scrub(s.Why)
	}
}
