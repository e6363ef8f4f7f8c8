package kubesprayreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/kubespray"
)

// writeRuntimeSets lists the set_fact and include_vars tasks that assign the variable.
func writeRuntimeSets(w io.Writer, r *kubespray.Report, ex *kubespray.Explained, v *ansible.Var) {
	if len(ex.SetAtRunTime) == 0 {
		return
	}
	fmt.Fprintf(w, "\n  set while the playbook runs (ansible-core 2.14: include_vars, then set_fact, above role vars, task vars and the inventory, below role params, include params and -e; they last for the rest of the run on the host, for the tasks after them):\n")
	for _, s := range ex.SetAtRunTime {
		what := s.Kind + " " + s.Task.Pos.String()
		if s.Kind == kubespray.IncludeVars {
			what += " loading " + s.File
		}
		val := ansible.Repr(s.Value)
		if s.Kind == kubespray.SetFact && s.Known && ansible.IsTemplated(s.Value) {
			val += " = " + ansible.Repr(s.Evaluated)
		}
		fmt.Fprintf(w, "    %s in play %q: %s\n", what, s.Play.Play.Name, val)
		switch s.Runs {
		case "yes":
			if strings.HasPrefix(s.Why, "run_once") {
				// Another host may run it in this one's place: say so (other yes answers
				// keep their reason for --json).
				fmt.Fprintf(w, "      sets it on this host (%s)", s.Why)
				break
			}
			fmt.Fprintf(w, "      runs on this host")
		case "no":
			fmt.Fprintf(w, "      does not run on this host: %s", s.Why)
		case "unsure":
			if len(s.Facts) == 0 && s.Why != "" {
				// Not a fact or result: say what it depends on (Why).
				fmt.Fprintf(w, "      may run: %s", s.Why)
				break
			}
			fmt.Fprintf(w, "      may run: depends on facts or results of the run")
			if len(s.Facts) > 0 {
				fmt.Fprintf(w, " (%s)", strings.Join(s.Facts, ", "))
			}
			if s.Why != "" {
				fmt.Fprintf(w, "; %s", s.Why)
			}
		}
		if s.Runs != "no" && s.Kind == kubespray.SetFact && !s.Known {
			fmt.Fprintf(w, "; its value depends on facts: %s", strings.Join(orNames(s.DependsOn), ", "))
		}
		if s.Runs != "no" {
			before, after := 0, 0
			for _, st := range ex.Sites {
				if !st.Runs() {
					continue
				}
				if r.SiteAfter(st, s) {
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
		if s.Runs != "no" && v != nil && !s.Beats(v.Source) {
			fmt.Fprintf(w, "; %s beats it", v.Source.Level)
		}
		fmt.Fprintln(w)
	}
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
func runtimeDocs(ex *kubespray.Explained) []runtimeSetDoc {
	out := []runtimeSetDoc{}
	for _, s := range ex.SetAtRunTime {
		d := runtimeSetDoc{Kind: s.Kind, File: s.Pos.File, Line: s.Pos.Line, Column: s.Pos.Column,
			Task:  taskDoc{Name: s.Task.DisplayName(), File: s.Task.Pos.File, Line: s.Task.Pos.Line},
			Play:  playDoc{Name: s.Play.Play.Name, File: s.Play.Play.Pos.File, Line: s.Play.Play.Pos.Line},
			Value: ansible.ToJSONValue(s.Value), Known: s.Known, DependsOn: s.DependsOn, Runs: s.Runs, Why: s.Why, Facts: s.Facts}
		if s.Kind == kubespray.IncludeVars {
			d.VarsFile = s.File
		}
		if s.Known {
			d.Evaluated = ansible.ToJSONValue(s.Evaluated)
		}
		out = append(out, d)
	}
	return out
}

// orNames are the facts a value depends on, or what stands for them when none is named (the
// words kubespray uses in the assignment's level).
func orNames(xs []string) []string {
	if len(xs) == 0 {
		return []string{"a filter or construct k3sconf does not evaluate"}
	}
	return xs
}
