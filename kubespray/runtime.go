package kubespray

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"gopkg.in/yaml.v3"
)

// Values set while the play runs: set_fact and include_vars tasks of the compiled playbook
// that assign the variable, in plays the host runs. ansible-core 2.14 vars/manager.py
// get_vars merges, above role vars and task vars, the include_vars cache (set_host_variable
// from plugins/strategy/__init__.py for an include_vars result) and then the
// non-persistent fact cache (set_fact), below role params, include params and extra vars;
// both stay for the rest of the playbook run on that host, whatever play comes next
// (plugins/action/set_fact.py, plugins/action/include_vars.py).

// Set kinds, as the JSON and text name them.
const (
	SetFact     = "set_fact"
	IncludeVars = "include_vars"
)

// RuntimeSet is a task that assigns the variable while the playbook runs.
type RuntimeSet struct {
	Kind string // SetFact or IncludeVars
	// Task is the task (where it is written); Play the play that runs it.
	Task *TaskNode
	Play *PlayRun
	// File is the vars file that sets it (include_vars), with the value there (Value is
	// the raw text for set_fact: it is shown as written, not evaluated).
	File  string
	Pos   diag.Position
	Value any
	// Runs: "yes" (its when: holds, or it has none), "no" (Why says which condition is
	// false or that its file does not run), "unsure" (a condition depends on facts or
	// results of the run: Facts names them). For an include_vars of several files, which
	// one loads depends on facts too (Facts names the OS facts).
	Runs  string
	Why   string
	Facts []string
}

// Beats reports whether an assignment set at run time replaces a (static) source: set_fact
// and include_vars are above everything but role params, include params and extra vars.
func Beats(src *ansible.Assignment) bool {
	return src == nil || src.Kind != ansible.KindExtra && src.Kind != ansible.KindRoleParams
}

var reIdentWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// jinjaWords are the words of a condition that are no variable.
var jinjaWords = map[string]bool{"and": true, "or": true, "not": true, "is": true, "in": true, "if": true, "else": true,
	"true": true, "false": true, "True": true, "False": true, "none": true, "None": true, "defined": true, "undefined": true,
	"default": true, "bool": true, "length": true, "int": true, "string": true, "lower": true, "upper": true, "version": true,
	"operator": true, "match": true, "search": true, "regex_search": true, "select": true, "map": true, "list": true, "item": true,
	"succeeded": true, "failed": true, "changed": true, "skipped": true, "d": true, "trim": true, "first": true, "last": true}

// unknownNames are the variables a condition uses that the context does not set: facts
// (ansible_*), registered results, set_facts.
func unknownNames(expr string, lookup ansible.Lookup) []string {
	var out []string
	stripped := reQuoted.ReplaceAllString(expr, "")
	for _, w := range reIdentWord.FindAllString(stripped, -1) {
		if jinjaWords[w] {
			continue
		}
		// A word after a dot or '[' is an attribute, not a variable.
		i := strings.Index(stripped, w)
		if i > 0 && (stripped[i-1] == '.' || stripped[i-1] == '|') {
			continue
		}
		if _, ok := lookup(w); !ok {
			out = appendUniq(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// runtimeSets finds the set_fact and include_vars tasks of plays the host runs (up to and
// including the last play of the host's use sites) that assign name, and decides their
// when: where the evaluator can.
func (hr *HostRun) runtimeSets(tt *TaskTree, name string, lastPlay int) []RuntimeSet {
	var out []RuntimeSet
	seen := map[string]bool{}
	for i, pl := range tt.Plays {
		if i >= len(hr.Plays) || i > lastPlay {
			break
		}
		pr := hr.Plays[i]
		if !pr.Runs {
			continue
		}
		for _, n := range pl.Tasks {
			var sets []RuntimeSet
			switch n.Action {
			case "set_fact":
				if v, ok := n.Args[name]; ok {
					sets = append(sets, RuntimeSet{Kind: SetFact, Task: n, Play: pr, Pos: n.Pos, Value: v})
				}
			case "include_vars":
				for _, f := range n.VarsFiles {
					defs := hr.c.varsFile(f)
					for _, d := range defs {
						if d.Name == name {
							sets = append(sets, RuntimeSet{Kind: IncludeVars, Task: n, Play: pr, File: f, Pos: d.Pos, Value: d.Value})
						}
					}
				}
			}
			if len(sets) == 0 {
				continue
			}
			runs, why, facts := hr.decide(tt, pr, n)
			if len(n.VarsFiles) > 1 {
				// Which of the files loads is chosen by the task's templated names: facts.
				if runs == "yes" {
					runs = "unsure"
				}
				for _, f := range factsOfNames(n) {
					facts = appendUniq(facts, f)
				}
			}
			for _, s := range sets {
				// A task reached twice in a play (a file included twice) sets it once.
				k := fmt.Sprint(i, s.Pos, s.Task.Pos)
				if seen[k] {
					continue
				}
				seen[k] = true
				s.Runs, s.Why, s.Facts = runs, why, facts
				out = append(out, s)
			}
		}
	}
	return out
}

// factsOfNames are the facts a task's templated file names use (ansible_facts['os_family']
// and such).
func factsOfNames(n *TaskNode) []string {
	var out []string
	for _, m := range reFact.FindAllStringSubmatch(n.varsNames, -1) {
		out = appendUniq(out, "ansible_"+m[1]+m[2])
	}
	// Other variables the names are built from (os_release_dict, set by an earlier task).
	for _, e := range reJinjaExpr.FindAllStringSubmatch(n.varsNames, -1) {
		if w := reIdentWord.FindString(e[1]); w != "" && !jinjaWords[w] && w != "ansible_facts" && !strings.HasPrefix(w, "ansible_") {
			out = appendUniq(out, w)
		}
	}
	return out
}

var reFact = regexp.MustCompile(`ansible_facts\[['"]([a-z_]+)['"]\]|ansible_([a-z_]+)`)

// decide evaluates whether the task runs on the host: its file must run there, and each
// when: (the task's and its blocks') must hold.
func (hr *HostRun) decide(tt *TaskTree, pr *PlayRun, n *TaskNode) (runs, why string, facts []string) {
	var f *FileRun
	for _, fr := range pr.Files {
		if fr.File == n.Pos.File && !fr.Handlers && (f == nil || f.Skip != "" && fr.Skip == "") {
			f = fr
		}
	}
	if f == nil {
		return "no", "its tasks file is not run in play " + fmt.Sprintf("%q", pr.Play.Name), nil
	}
	if f.Skip != "" {
		return "no", f.Skip, nil
	}
	lookup := hr.lookup(pr, f.Role, f.Epoch, nil)
	runs = "yes"
	if len(f.Unsure) > 0 {
		runs, why = "unsure", strings.Join(f.Unsure, "; ")
	}
	for _, w := range n.When {
		c, cwhy := when(&yaml.Node{Kind: yaml.ScalarNode, Value: w}, lookup)
		unknown := unknownNames(w, lookup)
		if c == condFalse {
			// A condition on a registered result, a set_fact or a fact is not known before
			// the run: never taken as false.
			for _, x := range unknown {
				if strings.HasPrefix(x, "ansible_") || tt.runtimeNames()[x] {
					c = condUnknown
				}
			}
		}
		switch c {
		case condFalse:
			return "no", cwhy, nil
		case condUnknown:
			runs = "unsure"
			if why != "" {
				why += "; "
			}
			why += "when: " + w
			for _, x := range unknown {
				facts = appendUniq(facts, x)
			}
		}
	}
	return runs, why, facts
}

// runtimeNames are the names the playbook sets while it runs: register: results and
// set_fact keys (built once per tree).
func (tt *TaskTree) runtimeNames() map[string]bool {
	if tt.setNames == nil {
		tt.setNames = map[string]bool{}
		for _, pl := range tt.Plays {
			for _, n := range append(append([]*TaskNode(nil), pl.Tasks...), pl.Handlers...) {
				if n.Register != "" {
					tt.setNames[n.Register] = true
				}
				if n.Action == "set_fact" {
					for k := range n.Args {
						tt.setNames[k] = true
					}
				}
			}
		}
	}
	return tt.setNames
}
