package kubespray

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"gopkg.in/yaml.v3"
)

// Values set while the play runs, and a task's own vars.
//
// ansible-core 2.14 vars/manager.py get_vars gives a task, above its play's and role's
// sources: task.get_vars() (the vars: of its blocks, of the import_tasks/include_tasks/
// import_role/include_role that loaded it, and its own: playbook/task.py, block.py,
// task_include.py; outer first, the task's own last), then the host's include_vars cache
// (_vars_cache, filled by include_vars results: plugins/strategy/__init__.py
// set_host_variable) and its non-persistent fact cache (set_fact and register:
// plugins/action/set_fact.py), then role params and task.get_include_params() (the vars:
// of the include_tasks/include_role above it), then extra vars. The two caches stay for
// the rest of the playbook run on the host, whatever play comes next; a task sees only
// what tasks before it stored. set_fact templates its arguments when it runs, with the
// variables of that task, and turns the strings true/false/yes/no into booleans
// (set_fact.py, jinja2_native off). Read in ansible-core 2.14.18 (Debian 12's
// ansible-core; the ansible/ansible v2.14.18 tag).
//
// k3sconf follows the host's run play by play and task by task (the compiled task list,
// [TaskTree]): each set_fact and include_vars task is decided (its when: and its blocks',
// evaluated with the caches as they are at that task), its value evaluated where the
// evaluator can, and every use site gets the assignments of the tasks before it.

// Set kinds, as the JSON and text name them.
const (
	SetFact     = "set_fact"
	IncludeVars = "include_vars"
)

// ScopeVars are the vars: of a block, an include or import, or a task.
type ScopeVars struct {
	// Of is "block", "task", "import_tasks", "include_tasks", "import_role" or
	// "include_role".
	Of   string
	Pos  diag.Position
	Defs []ansible.Def
}

func withScopeVars(outer []ScopeVars, file, of string, t *yaml.Node) []ScopeVars {
	defs, _ := ansible.PlayVars(file, t)
	if len(defs) == 0 {
		return outer
	}
	return append(outer[:len(outer):len(outer)], ScopeVars{Of: of, Pos: diag.Position{File: file, Line: t.Line, Column: t.Column}, Defs: defs})
}

// level names a scope's vars as the explanation prints them.
func (sv ScopeVars) level() string {
	switch sv.Of {
	case "task":
		return "task vars"
	case "block":
		return "block vars (block at " + sv.Pos.String() + ")"
	}
	return "task vars (vars: of " + sv.Of + " at " + sv.Pos.String() + ")"
}

// RuntimeSet is a task that assigns the variable while the playbook runs.
type RuntimeSet struct {
	Kind string // SetFact or IncludeVars
	// Task is the task (where it is written); Play the play that runs it.
	Task *TaskNode
	Play *PlayRun
	// File is the vars file that sets it (include_vars).
	File string
	Pos  diag.Position
	// Value is the value as written (a set_fact's argument, the vars file's value).
	Value any
	// Evaluated is the value the task stores when Known: a set_fact's argument templated
	// with the variables the task sees (an include_vars value is stored as written and
	// templated where it is used). DependsOn names what a value that is not Known needs:
	// facts, registered results, set_facts that may run.
	Evaluated any
	Known     bool
	DependsOn []string
	// Runs: "yes" (its when: holds, or it has none; for include_vars, the file is the one
	// loaded), "no" (Why says which condition is false, or which file is loaded instead),
	// "unsure" (a condition depends on facts or results of the run: Facts names them; for
	// an include_vars of several files, which one loads may depend on facts too).
	Runs  string
	Why   string
	Facts []string
	// order is the task's place in the host's run; varName the variable it sets.
	order   int
	varName string
	// secret: the value stored copies a secret (a YAML alias copy, or a set_fact value
	// computed from a secret: secretcopy.go); written: the value as written is a YAML
	// alias copy. Output hides them under a secret name.
	secret, written bool
}

// Beats reports whether an assignment set at run time replaces a (static) source: set_fact
// and include_vars are above everything but role params, include params and extra vars.
func beats(src *ansible.Assignment) bool {
	return src == nil || src.Kind != ansible.KindExtra && src.Kind != ansible.KindRoleParams && src.Kind != ansible.KindIncludeParams
}

var reIdentWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// jinjaWords are the words of a condition that are no variable.
var jinjaWords = map[string]bool{"and": true, "or": true, "not": true, "is": true, "in": true, "if": true, "else": true,
	"true": true, "false": true, "True": true, "False": true, "none": true, "None": true, "defined": true, "undefined": true,
	"default": true, "bool": true, "length": true, "int": true, "string": true, "lower": true, "upper": true, "version": true,
	"operator": true, "match": true, "search": true, "regex_search": true, "select": true, "map": true, "list": true, "item": true,
	"succeeded": true, "failed": true, "changed": true, "skipped": true, "d": true, "trim": true, "first": true, "last": true}

// orderPlay spaces plays in a run order (task index within the play below it).
const orderPlay = 1 << 20

// runtimeRun is the host's run followed task by task: every set_fact and include_vars
// task in run order, decided and evaluated, and the place of every task.
type runtimeRun struct {
	hr     *HostRun
	tt     *TaskTree
	events []*RuntimeSet
	order  map[*TaskNode]int
	// clean indexes each play's tasks by cleaned path (nodeOf).
	clean map[int]*cleanIndex
	// notes are include_vars tasks whose file is not read (varsFilesAtRun).
	notes []diag.Diagnostic
}

// cached is a value in a run-time cache: Unknown when the task may run or its value is
// not known before the run.
type cached struct {
	value any
	known bool
	by    *RuntimeSet // nil for a registered result
}

// newRuntime follows the host's run: for each play it runs, each task in order; set_fact
// and include_vars tasks are decided with the caches as they are when the task runs.
func (hr *HostRun) newRuntime(tt *TaskTree) *runtimeRun {
	rt := &runtimeRun{hr: hr, tt: tt, order: map[*TaskNode]int{}}
	facts := map[string]cached{} // set_fact and register:
	incl := map[string]cached{}  // include_vars
	for i, pl := range tt.Plays {
		for j, n := range pl.Tasks {
			rt.order[n] = i*orderPlay + j
		}
		for k, n := range pl.Handlers {
			rt.order[n] = i*orderPlay + len(pl.Tasks) + k
		}
		if i >= len(hr.Plays) || !hr.Plays[i].Runs {
			continue
		}
		pr := hr.Plays[i]
		seen := map[string]bool{}
		for _, n := range pl.Tasks {
			if n.Action != "set_fact" && n.Action != "include_vars" && n.Register == "" {
				continue
			}
			// A task reached twice in a play (a file included twice) counts once.
			if seen[n.Pos.String()] {
				continue
			}
			seen[n.Pos.String()] = true
			fr := rt.fileRun(pr, n)
			lookup := rt.lookupAt(pr, fr, n, facts, incl)
			once := rt.runOnce(pr, n, lookup)
			if once != "" {
				lookup = anotherHost(lookup)
			}
			from := len(rt.events)
			runs, why, unknown := rt.decideSet(pr, fr, n, lookup)
			switch n.Action {
			case "set_fact":
				if items, loopVar, ok := rt.loopOf(n, lookup); ok {
					rt.setFactLoop(pr, fr, n, items, loopVar, lookup, facts)
					break
				}
				rt.setFact(pr, n, runs, why, unknown, lookup, facts)
			case "include_vars":
				rt.includeVars(pr, n, runs, why, unknown, lookup, incl)
			}
			if once != "" {
				onceEvents(rt.events[from:], once)
			}
			if n.Register != "" && fr != nil && fr.Skip == "" {
				// A registered result exists even when the task is skipped by its when:;
				// its content is known only to the run.
				facts[n.Register] = cached{value: ansible.Unknown}
			}
		}
	}
	return rt
}

// runOnce says, for a set_fact or include_vars task with run_once, why what it sets is
// not decided by this host's variables ("" when it is, or the task has no run_once).
// ansible-core 2.14 runs such a task once, on the first host of the play still running
// (plugins/strategy/linear.py: the other hosts skip it), templating its when:, loop and
// value with that host's variables, and gives what it sets to every host of the play
// (plugins/strategy/__init__.py _process_pending_results, get_task_hosts; include_vars
// too). Checked with ansible-playbook 2.14.18 (TestRunOnceSets). Which host is first
// depends on the play's hosts: pattern, its order: and the hosts that failed before, which
// this pass does not follow: unless this host is the play's only host, the answer is left
// open.
func (rt *runtimeRun) runOnce(pr *PlayRun, n *TaskNode, lookup ansible.Lookup) string {
	v := strings.TrimSpace(n.RunOnce)
	decided := true
	if ansible.IsTemplated(v) {
		x, err := ansible.Template(v, lookup)
		if err != nil || x == ansible.Unknown {
			decided = false
		} else {
			v = fmt.Sprint(x)
		}
	}
	if decided && !keywordTrue(v) {
		return "" // false, or no run_once
	}
	if rt.soleHost(pr) {
		return ""
	}
	if !decided {
		return "run_once templated on " + strings.Join(ansible.Refs(n.RunOnce), ", ") + " (not decided): if it holds, the play's first host runs it with its own variables and what it sets is set on every host of the play"
	}
	return "run_once: the play's first host runs it, with its own variables, and what it sets is set on every host of the play (this one too)"
}

// keywordTrue: a task keyword's boolean as written holds (true, yes, on, 1, any case).
func keywordTrue(s string) bool {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// soleHost reports whether the host is the only host its play runs on, as far as the
// inventory and the run's group changes tell (a group group_by makes at run time may get
// other hosts too: then it is not sure).
func (rt *runtimeRun) soleHost(pr *PlayRun) bool {
	pattern := pr.Play.Hosts
	if ansible.IsTemplated(pattern) {
		return false
	}
	for _, op := range rt.hr.ops {
		if !op.dynamic && strings.Contains(pattern, op.group) {
			return false
		}
	}
	inv, err := rt.hr.invAt(pr.Epoch)
	if err != nil {
		return false
	}
	for _, h := range inv.HostOrder {
		if m, unsure := matchHosts(inv, pattern, h); unsure || m && h != rt.hr.Host {
			return false
		}
	}
	return true
}

// anotherHost is the lookup of a task another host may run in this host's place
// (run_once): every variable is that host's, so none is known here.
func anotherHost(ansible.Lookup) ansible.Lookup {
	return func(string) (any, bool) { return ansible.Unknown, true }
}

// onceEvents says why run_once leaves the sets of a task open: they may run (their when:
// is the first host's), and a value templated from variables is the first host's.
func onceEvents(events []*RuntimeSet, once string) {
	for _, e := range events {
		if e.Runs == "no" {
			continue
		}
		e.Facts = nil // the names are the other host's variables, not facts
		if e.Why != "" && e.Runs == "unsure" {
			e.Why = once + "; " + e.Why
		} else {
			e.Why = once
		}
		if !e.Known {
			e.DependsOn = []string{"the variables of the host that runs it"}
		}
	}
}

// fileRun is the run of the task's file in the play (one that runs, when there is one).
func (rt *runtimeRun) fileRun(pr *PlayRun, n *TaskNode) *FileRun {
	var f *FileRun
	for _, fr := range pr.Files {
		if fr.File == n.Pos.File && !fr.Handlers && fr.holds(n.Pos.Line) && (f == nil || f.Skip != "" && fr.Skip == "") {
			f = fr
		}
	}
	return f
}

// lookupAt gives the variables a task sees, in get_vars' order: extra vars, include
// params, role params, the set_fact cache, the include_vars cache, task vars, the static
// sources (with facts at their level), magic variables. A name set at run time whose value
// is not known, a registered result, and (without facts) a fact, are ansible.Unknown.
func (rt *runtimeRun) lookupAt(pr *PlayRun, fr *FileRun, n *TaskNode, facts, incl map[string]cached) ansible.Lookup {
	var ctx *ansible.Context
	var base ansible.Lookup
	if fr != nil {
		e := fr.Epoch
		if n != nil {
			e = fr.epochAt(n.Pos.Line)
		}
		ctx = rt.hr.Resolve(pr, fr.Role, e)
		base = rt.hr.lookup(pr, fr.Role, e, nil)
	} else {
		base = rt.hr.lookup(pr, nil, pr.Epoch, nil)
		ctx = rt.hr.Resolve(pr, nil, pr.Epoch)
	}
	return func(name string) (any, bool) {
		var sv *ansible.Var
		if ctx != nil {
			sv = ctx.Var(name)
		}
		if sv != nil && sv.Source.Kind == ansible.KindExtra {
			return sv.Value, true
		}
		if n != nil {
			if v, ok := scopeValue(n.IncludeParams, name); ok {
				return v, true
			}
		}
		if sv != nil && sv.Source.Kind == ansible.KindRoleParams {
			return sv.Value, true
		}
		for _, cache := range []map[string]cached{facts, incl} {
			if c, ok := cache[name]; ok {
				if !c.known {
					return ansible.Unknown, true
				}
				return c.value, true
			}
		}
		if n != nil {
			if v, ok := scopeValue(n.Vars, name); ok {
				return v, true
			}
		}
		if strings.HasPrefix(name, "ansible_") && (sv == nil || sv.Source.Kind == ansible.KindRoleDefaults || sv.Source.Kind == ansible.KindInventory || sv.Source.Kind == ansible.KindGroupVars || sv.Source.Kind == ansible.KindHostVars) {
			// Facts: above host_vars, below play vars. Without facts they are not known.
			if rt.hr.facts == nil {
				return ansible.Unknown, true
			}
			if v, ok := rt.hr.facts.Lookup(name); ok {
				return v, true
			}
		}
		// A name a set_fact or register: of a later task sets is undefined here: the
		// caches hold what the tasks before this one stored.
		return base(name)
	}
}

// scopeValue is the value the innermost scope sets for name.
func scopeValue(svs []ScopeVars, name string) (any, bool) {
	for i := len(svs) - 1; i >= 0; i-- {
		for j := len(svs[i].Defs) - 1; j >= 0; j-- {
			if svs[i].Defs[j].Name == name {
				return svs[i].Defs[j].Value, true
			}
		}
	}
	return nil, false
}

// decideSet is decide for a set_fact or include_vars task: with delegate_facts, what it
// sets goes to the host delegate_to names (ansible-core 2.14.18 plugins/strategy/
// __init__.py _process_pending_results: get_delegated_hosts when delegate_to and
// delegate_facts are set, else the task's hosts), so it sets this host only when that is
// this host. What another host's run sets here by delegation is not modelled.
func (rt *runtimeRun) decideSet(pr *PlayRun, f *FileRun, n *TaskNode, lookup ansible.Lookup) (runs, why string, unknown []string) {
	runs, why, unknown = rt.decide(pr, f, n, lookup)
	t := n.src
	if runs == "no" || t == nil || get(t, "delegate_to") == nil {
		return runs, why, unknown
	}
	if !keywordTrue(scalar(get(t, "delegate_facts"))) {
		return runs, why, unknown // the facts stay with the host that runs it
	}
	to := scalar(get(t, "delegate_to"))
	v, err := ansible.Template(to, lookup)
	if h, ok := v.(string); err == nil && ok {
		if h == rt.hr.Host {
			return runs, why, unknown
		}
		return "no", "delegate_facts: it sets the facts of " + h + " (delegate_to), not of this host", nil
	}
	if why != "" {
		why += "; "
	}
	return "unsure", why + "delegate_facts: it sets the facts of the host delegate_to names (" + to + "), which may be this one", appendUniq(unknown, "delegate_to")
}

// decide evaluates whether the task runs on the host: its file must run there, and each
// when: (the task's and its blocks') must hold.
func (rt *runtimeRun) decide(pr *PlayRun, f *FileRun, n *TaskNode, lookup ansible.Lookup) (runs, why string, unknown []string) {
	if f == nil {
		return "no", "its tasks file is not run in play " + fmt.Sprintf("%q", pr.Play.Name), nil
	}
	if f.Skip != "" {
		return "no", f.Skip, nil
	}
	runs = "yes"
	if len(f.Unsure) > 0 {
		runs, why = "unsure", strings.Join(f.Unsure, "; ")
	}
	for _, w := range n.When {
		c, cwhy := when(&yaml.Node{Kind: yaml.ScalarNode, Value: w}, lookup)
		switch c {
		case condFalse:
			return "no", cwhy, nil
		case condUnknown:
			runs = "unsure"
			if why != "" {
				why += "; "
			}
			why += "when: " + w
			unknown = appendUniq(unknown, unknownRefs(w, lookup)...)
		}
	}
	return runs, why, unknown
}

// unknownRefs are the names an expression uses whose value is not known before the run.
func unknownRefs(expr string, lookup ansible.Lookup) []string {
	s := expr
	if !ansible.IsTemplated(s) {
		s = "{{ " + s + " }}"
	}
	var out []string
	for _, r := range ansible.Refs(s) {
		v, ok := lookup(r)
		if ok && v == ansible.Unknown || r == "ansible_facts" && !ok {
			out = appendUniq(out, r)
		}
	}
	// ansible_facts['os_family'] names the fact itself.
	for i, x := range out {
		if x == "ansible_facts" {
			if fs := factNames(expr); len(fs) > 0 {
				out = append(append(out[:i:i], fs...), out[i+1:]...)
			}
			break
		}
	}
	return out
}

// setFact records a set_fact task's assignments and stores them in the cache.
func (rt *runtimeRun) setFact(pr *PlayRun, n *TaskNode, runs, why string, unknown []string, lookup ansible.Lookup, facts map[string]cached) {
	defs := setFactDefs(n)
	var stored []*RuntimeSet
	for _, d := range defs {
		if d.Name == "cacheable" {
			continue
		}
		s := &RuntimeSet{Kind: SetFact, Task: n, Play: pr, Pos: d.Pos, Value: d.Value, Runs: runs, Why: why, Facts: unknown, order: rt.order[n], varName: d.Name, secret: d.SecretCopy, written: d.SecretCopy}
		if runs != "no" {
			watched, reads := rt.watchSecrets(lookup, pr, n, facts)
			if v, err := evalValue(d.Value, watched); err == nil {
				s.Evaluated, s.Known = setFactBool(v), true
				s.secret = s.secret || reads.copies(s.Evaluated)
			} else {
				s.DependsOn = valueUnknowns(d.Value, lookup)
			}
		}
		rt.events = append(rt.events, s)
		stored = append(stored, s)
	}
	// All arguments are templated before any is stored: store after evaluating.
	for _, s := range stored {
		if s.Runs == "no" {
			continue
		}
		name := s.name()
		if s.Runs == "yes" && s.Known {
			facts[name] = cached{value: s.Evaluated, known: true, by: s}
		} else {
			facts[name] = cached{value: ansible.Unknown, by: s}
		}
	}
}

// loopOf is a task's loop as the run-time pass can go through it: the items of a loop:
// or with_items: written as a list or templated to one k3sconf can evaluate (with_items
// flattened one level, as the items lookup does), and its loop variable (loop_control's
// loop_var, or item). ok is false when the task has no such loop.
func (rt *runtimeRun) loopOf(n *TaskNode, lookup ansible.Lookup) (items []any, loopVar string, ok bool) {
	t := n.src
	if t == nil {
		return nil, "", false
	}
	ln, with := get(t, "loop"), false
	if ln == nil {
		ln, with = get(t, "with_items"), true
	}
	if ln == nil {
		return nil, "", false
	}
	switch ln.Kind {
	case yaml.SequenceNode:
		if items, ok = loopItems(n.Pos.File, t); !ok {
			return nil, "", false
		}
	case yaml.ScalarNode:
		v, err := ansible.Template(ln.Value, lookup)
		l, isList := v.([]any)
		if err != nil || !isList {
			return nil, "", false
		}
		items = l
	default:
		return nil, "", false
	}
	if with {
		var flat []any
		for _, it := range items {
			if l, isList := it.([]any); isList {
				flat = append(flat, l...)
			} else {
				flat = append(flat, it)
			}
		}
		items = flat
	}
	loopVar = "item"
	if lv := scalar(get(get(t, "loop_control"), "loop_var")); lv != "" {
		loopVar = lv
	}
	return items, loopVar, true
}

// setFactLoop records a set_fact over a loop. ansible-core 2.14.18 runs every item with
// the variables of the task (executor/task_executor.py _run_loop: one set of task vars for
// the loop) and then stores the items' results in order (plugins/strategy/__init__.py
// _process_pending_results: set_nonpersistent_facts per result item): the last item that
// runs gives the value; an item whose when: is false stores nothing. When an item after
// the last sure one may run, the value is not decided.
func (rt *runtimeRun) setFactLoop(pr *PlayRun, fr *FileRun, n *TaskNode, items []any, loopVar string, lookup ansible.Lookup, facts map[string]cached) {
	withItem := func(it any) ansible.Lookup {
		return func(name string) (any, bool) {
			if name == loopVar {
				return it, true
			}
			return lookup(name)
		}
	}
	last, lastRuns, lastWhy := -1, "no", "the loop has no items"
	var unknown []string
	var skipWhy string
	for i := len(items) - 1; i >= 0; i-- {
		runs, why, unk := rt.decideSet(pr, fr, n, withItem(items[i]))
		if runs == "no" {
			if skipWhy == "" {
				skipWhy = why
			}
			continue
		}
		unknown = appendUniq(unknown, unk...)
		if last < 0 {
			last, lastRuns, lastWhy = i, runs, why
		}
		if runs == "yes" {
			break
		}
	}
	if last < 0 {
		if len(items) > 0 {
			lastWhy = skipWhy + " for every item of its loop"
		}
		rt.setFact(pr, n, "no", lastWhy, nil, lookup, facts)
		return
	}
	if lastRuns == "yes" {
		lastWhy = fmt.Sprintf("a loop of %d items: the value of item %d, the last that runs", len(items), last+1)
	}
	// The value is that of the last item that may run; when it is not sure to run, an
	// earlier item's or the value before may hold: the value is then not decided.
	from := len(rt.events)
	rt.setFact(pr, n, lastRuns, lastWhy, unknown, withItem(items[last]), facts)
	if lastRuns != "yes" {
		for _, e := range rt.events[from:] {
			e.Known, e.Evaluated = false, nil
			e.DependsOn = appendUniq(append([]string(nil), unknown...), "which items of its loop run")
		}
	}
}

// setFactBool is set_fact.py's conversion of the strings true/false/yes/no.
func setFactBool(v any) any {
	if s, ok := v.(string); ok {
		switch strings.ToLower(s) {
		case "true", "yes":
			return true
		case "false", "no":
			return false
		}
	}
	return v
}

// name is the variable a set assigns.
func (s *RuntimeSet) name() string { return s.varName }

// setFactDefs are a set_fact task's arguments with their positions (the mapping form), or
// its scalar arguments (the key=value form).
func setFactDefs(n *TaskNode) []ansible.Def {
	if t := n.src; t != nil {
		for i := 0; i+1 < len(t.Content); i += 2 {
			k := strings.TrimPrefix(strings.TrimPrefix(t.Content[i].Value, "ansible.builtin."), "ansible.legacy.")
			if k != "set_fact" || t.Content[i+1].Kind != yaml.MappingNode {
				continue
			}
			defs, _ := ansible.PlayVars(n.Pos.File, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "vars"}, t.Content[i+1]}})
			return defs
		}
	}
	var defs []ansible.Def
	var keys []string
	for k := range n.Args {
		if k != "_raw_params" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		defs = append(defs, ansible.Def{Name: k, Value: n.Args[k], Raw: n.Args[k], Pos: n.Pos})
	}
	return defs
}

// includeVars records an include_vars task's assignments: which of its files loads (with
// facts, the first of its names that exists), and stores them in the cache.
func (rt *runtimeRun) includeVars(pr *PlayRun, n *TaskNode, runs, why string, unknown []string, lookup ansible.Lookup, incl map[string]cached) {
	files := n.VarsFiles
	if len(files) == 0 {
		files = rt.varsFilesAtRun(pr, n, runs, lookup)
		if len(files) == 0 {
			return
		}
	}
	chosen, decided, deps := rt.chooseVarsFile(n, files, lookup)
	if !decided {
		// Say what the name really depends on: a fact, a name set while the play runs,
		// or a value the evaluator cannot compute (a role default built on a filter).
		var facts, other []string
		for _, d := range deps {
			if v, ok := lookup(d); strings.HasPrefix(d, "ansible_") || ok && v == ansible.Unknown || rt.hr.setNames[d] {
				facts = append(facts, d)
			} else if from := runDeps(v, lookup, 0); len(from) > 0 {
				// A value built on results of the run (bootstrap_os's os_release_dict,
				// a block var over the registered os_release).
				facts = append(facts, d+" (from "+strings.Join(from, ", ")+")")
			} else {
				other = append(other, d)
			}
		}
		deps = facts
		if len(other) > 0 {
			if why != "" {
				why += "; "
			}
			why += "which file it loads depends on " + strings.Join(other, ", ") + ", which k3sconf cannot evaluate here"
		}
	}
	for _, f := range files {
		frun, fwhy, funknown := runs, why, unknown
		switch {
		case runs == "no":
		case decided && chosen == "":
			frun, fwhy = "no", "no file its names give exists ("+strings.ReplaceAll(n.varsNames, "\n", ", ")+")"
		case decided && f != chosen:
			frun, fwhy = "no", "the first file found is "+filepath.Base(chosen)
		case !decided:
			frun = "unsure"
			funknown = appendUniq(append([]string(nil), unknown...), deps...)
		}
		for _, d := range rt.hr.c.varsFile(f) {
			s := &RuntimeSet{Kind: IncludeVars, Task: n, Play: pr, File: f, Pos: d.Pos, Value: d.Value, Evaluated: d.Value, Known: true,
				Runs: frun, Why: fwhy, Facts: funknown, order: rt.order[n], varName: d.Name, secret: d.SecretCopy, written: d.SecretCopy}
			rt.events = append(rt.events, s)
			switch frun {
			case "yes":
				incl[d.Name] = cached{value: d.Value, known: true, by: s}
			case "unsure":
				incl[d.Name] = cached{value: ansible.Unknown, by: s}
			}
		}
	}
}

// runDeps are the facts and results of the run a templated value is built on, through
// the variables it names (a few levels down).
func runDeps(v any, lookup ansible.Lookup, depth int) []string {
	x, ok := v.(string)
	if !ok || !ansible.IsTemplated(x) || depth > 3 {
		return nil
	}
	out := unknownRefs(x, lookup)
	for _, r := range ansible.Refs(x) {
		if w, known := lookup(r); known && w != ansible.Unknown {
			out = appendUniq(out, runDeps(w, lookup, depth+1)...)
		}
	}
	return out
}

// chooseVarsFile is the file an include_vars loads: its one file, or the first of its
// with_first_found names that exists (plugins/lookup/first_found.py). decided is false
// when a name cannot be evaluated before the one found; deps then names what it needs.
func (rt *runtimeRun) chooseVarsFile(n *TaskNode, files []string, lookup ansible.Lookup) (chosen string, decided bool, deps []string) {
	names := strings.Split(n.varsNames, "\n")
	if len(files) == 1 && len(names) == 1 && !ansible.IsTemplated(names[0]) {
		return files[0], true, nil
	}
	for _, nm := range names {
		if nm == "" {
			continue
		}
		v, err := ansible.Template(nm, lookup)
		s, ok := v.(string)
		if err != nil || !ok {
			return "", false, appendUniq(factsOfNames(n), unknownRefs(nm, lookup)...)
		}
		for _, f := range files {
			if filepath.Base(f) == filepath.Base(s) {
				return f, true, nil
			}
		}
	}
	return "", true, nil
}

// varsFilesAtRun is the file of an include_vars whose name the compiled tree could not
// find (a name templated from inventory_dir or a variable): the name evaluated with the
// variables of the task and looked up as include_vars does (the role's vars/, then
// beside the tasks file). When it cannot be evaluated, or names no file, and the task
// may run, the answer says the include_vars is not read (KS012), instead of leaving it
// out silently.
func (rt *runtimeRun) varsFilesAtRun(pr *PlayRun, n *TaskNode, runs string, lookup ansible.Lookup) []string {
	names := strings.Split(n.varsNames, "\n")
	if len(names) != 1 || names[0] == "" {
		return nil
	}
	v, err := ansible.Template(names[0], lookup)
	name, ok := v.(string)
	if err == nil && ok {
		cands := []string{name}
		if !filepath.IsAbs(name) {
			cands = nil
			if n.RolePath != "" {
				cands = append(cands, filepath.Join(n.RolePath, "vars", name))
			}
			dir := filepath.Dir(n.Pos.File)
			cands = append(cands, filepath.Join(dir, "vars", name), filepath.Join(dir, name))
		}
		for _, p := range cands {
			if fi, err := rt.hr.c.stat(p); err == nil && !fi.IsDir() {
				return []string{p}
			}
		}
	}
	if runs == "no" {
		return nil
	}
	msg := fmt.Sprintf("include_vars task %q (play %q): file name %s ", n.DisplayName(), pr.Play.Name, names[0])
	if err == nil && ok && name == names[0] {
		msg += "does not exist: not read"
	} else if err == nil && ok {
		msg += "is " + name + ", which does not exist: not read"
	} else {
		var deps []string
		for _, r := range ansible.Refs(names[0]) {
			if _, known := lookup(r); !known || r == "item" {
				deps = appendUniq(deps, r)
			} else if x, _ := lookup(r); x == ansible.Unknown {
				deps = appendUniq(deps, r+" (set while the play runs)")
			} else {
				deps = appendUniq(deps, r)
			}
		}
		msg += "depends on " + strings.Join(orNames(deps), ", ") + ", which k3sconf cannot evaluate: not read; the variables it sets are not known here"
	}
	rt.notes = append(rt.notes, diag.Diagnostic{Severity: diag.Info, Code: "KS012", Pos: n.Pos, Message: msg,
		Hint: "the variables that file sets are not in this answer: a value shown for a use after this task may differ"})
	return nil
}

// evalValue templates a value as ansible templates a task argument: every string in it.
func evalValue(v any, lookup ansible.Lookup) (any, error) {
	switch x := v.(type) {
	case string:
		return ansible.Template(x, lookup)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			e, err := evalValue(x[i], lookup)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case *ansible.Map:
		out := &ansible.Map{}
		for _, it := range x.Items {
			e, err := evalValue(it.Value, lookup)
			if err != nil {
				return nil, err
			}
			out.Set(it.Key, e)
		}
		return out, nil
	}
	return v, nil
}

// valueUnknowns are the names a value needs that are not known before the run.
func valueUnknowns(v any, lookup ansible.Lookup) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if ansible.IsTemplated(x) {
				out = appendUniq(out, unknownRefs(x, lookup)...)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case *ansible.Map:
			for _, it := range x.Items {
				walk(it.Value)
			}
		}
	}
	walk(v)
	return out
}

// sets are the run-time assignments of name in plays up to lastPlay (the last play of
// the host's use sites), in run order.
func (rt *runtimeRun) sets(name string, lastPlay int) []RuntimeSet {
	var out []RuntimeSet
	for _, s := range rt.events {
		if s.name() == name && s.Play.Index <= lastPlay {
			out = append(out, *s)
		}
	}
	return out
}

// nodeOf is the task of a use site in its play: the task whose lines hold a task or
// handler use, the template task that renders a template use.
func (rt *runtimeRun) nodeOf(s Site) *TaskNode {
	if s.Play == nil || s.Play.Index >= len(rt.tt.Plays) {
		return nil
	}
	ix := rt.cleanIndex(s.Play.Index)
	uf := filepath.Clean(s.Use.Pos.File)
	switch s.Use.Kind {
	case "task", "handler":
		// The task of the site's role run: a role imported or included twice in the play
		// has a node per instance, each with the vars: of its import or include.
		var first *TaskNode
		for _, n := range ix.byFile[fileKind{uf, s.Use.Kind == "handler"}] {
			if n.Pos.Line <= s.Use.Pos.Line && s.Use.Pos.Line <= n.End {
				if s.Role == nil || s.Role.inst == nil || n.inst == s.Role.inst {
					return n
				}
				if first == nil {
					first = n
				}
			}
		}
		if first != nil {
			return first
		}
	case "template":
		if ns := ix.byTemplate[uf]; len(ns) > 0 {
			return ns[0]
		}
	}
	return nil
}

// cleanIndex is the play's tasks (handlers) by cleaned file, and its tasks by the cleaned
// templates they render, each in the play's order: nodeOf's search, built once per play
// and command instead of cleaning every task's path for every use site.
type cleanIndex struct {
	byFile     map[fileKind][]*TaskNode
	byTemplate map[string][]*TaskNode
}

func (rt *runtimeRun) cleanIndex(play int) *cleanIndex {
	if rt.clean == nil {
		rt.clean = map[int]*cleanIndex{}
	}
	if ix := rt.clean[play]; ix != nil {
		return ix
	}
	pl := rt.tt.Plays[play]
	ix := &cleanIndex{byFile: map[fileKind][]*TaskNode{}, byTemplate: map[string][]*TaskNode{}}
	clean := map[string]string{}
	cl := func(p string) string {
		c, ok := clean[p]
		if !ok {
			c = filepath.Clean(p)
			clean[p] = c
		}
		return c
	}
	for _, n := range pl.Tasks {
		k := fileKind{cl(n.Pos.File), false}
		ix.byFile[k] = append(ix.byFile[k], n)
		for _, t := range n.Templates {
			t = cl(t)
			if ts := ix.byTemplate[t]; len(ts) == 0 || ts[len(ts)-1] != n {
				ix.byTemplate[t] = append(ts, n)
			}
		}
	}
	for _, n := range pl.Handlers {
		k := fileKind{cl(n.Pos.File), true}
		ix.byFile[k] = append(ix.byFile[k], n)
	}
	rt.clean[play] = ix
	return ix
}

// applySites gives each use site the host runs the variable as its task sees it: its
// task and block vars, the include_vars and set_fact results of tasks before it that run,
// its include params.
func (rt *runtimeRun) applySites(sites []Site, name string) {
	for i := range sites {
		s := &sites[i]
		if !s.Runs() {
			continue
		}
		n := rt.nodeOf(*s)
		at := s.Play.Index*orderPlay - 1 // before the play's tasks when the task is not found
		if n != nil {
			at = rt.order[n]
		}
		adds := rt.adds(name, n, at)
		s.Var = ansible.Overlay(s.Var, name, adds)
	}
}

// atPlay is the variable at play level of pr (no task): the run-time sets of earlier
// plays applied.
func (rt *runtimeRun) atPlay(v *ansible.Var, name string, pr *PlayRun) *ansible.Var {
	if pr == nil {
		return v
	}
	return ansible.Overlay(v, name, rt.adds(name, nil, pr.Index*orderPlay-1))
}

// adds are the assignments of name a task n (nil: at play level) at run order at gets
// beyond its play's and role's: task vars, the include_vars and set_fact of tasks that
// run before it, include params.
func (rt *runtimeRun) adds(name string, n *TaskNode, at int) []*ansible.Assignment {
	var adds []*ansible.Assignment
	if n != nil {
		for _, sv := range n.Vars {
			for _, d := range sv.Defs {
				if d.Name == name {
					adds = append(adds, ansible.NewAssignment(ansible.KindTaskVars, d.Pos, d.Value, sv.level(), sv.Of, d.Raw))
				}
			}
		}
	}
	for _, kind := range []string{IncludeVars, SetFact} {
		for _, s := range rt.events {
			if s.Kind != kind || s.name() != name || s.Runs != "yes" || s.order >= at {
				continue
			}
			k := ansible.KindSetFact
			level := fmt.Sprintf("set_fact (task %q, play %q)", s.Task.DisplayName(), s.Play.Play.Name)
			v := s.Evaluated
			if kind == IncludeVars {
				k = ansible.KindIncludeVars
				level = fmt.Sprintf("include_vars %s (task %q at %s, play %q)", filepath.Base(s.File), s.Task.DisplayName(), s.Task.Pos, s.Play.Play.Name)
			} else if !s.Known {
				v = s.Value
				level += " (value not evaluated: depends on " + strings.Join(orNames(s.DependsOn), ", ") + ")"
			}
			a := ansible.NewAssignment(k, s.Pos, v, level, s.Play.Play.Name, "")
			a.SecretCopy = s.secret
			adds = append(adds, a)
		}
	}
	if n != nil {
		for _, sv := range n.IncludeParams {
			for _, d := range sv.Defs {
				if d.Name == name {
					adds = append(adds, ansible.NewAssignment(ansible.KindIncludeParams, d.Pos, d.Value, "include params (vars: of "+sv.Of+" at "+sv.Pos.String()+")", sv.Of, d.Raw))
				}
			}
		}
	}
	return adds
}

func orNames(xs []string) []string {
	if len(xs) == 0 {
		return []string{"a filter or construct k3sconf does not evaluate"}
	}
	return xs
}

// factsOfNames are the facts a task's templated file names use (ansible_facts['os_family']
// and such).
func factsOfNames(n *TaskNode) []string {
	out := factNames(n.varsNames)
	// Other variables the names are built from (os_release_dict, set by an earlier task).
	for _, e := range reJinjaExpr.FindAllStringSubmatch(n.varsNames, -1) {
		if w := reIdentWord.FindString(e[1]); w != "" && !jinjaWords[w] && w != "ansible_facts" && !strings.HasPrefix(w, "ansible_") {
			out = appendUniq(out, w)
		}
	}
	return out
}

var reFact = regexp.MustCompile(`ansible_facts\[['"]([a-z_]+)['"]\]|ansible_facts\.([a-z_]+)|ansible_([a-z_]+)`)

// factNames are the facts an expression names, as ansible_NAME.
func factNames(expr string) []string {
	var out []string
	for _, m := range reFact.FindAllStringSubmatch(expr, -1) {
		if n := m[1] + m[2] + m[3]; n != "facts" {
			out = appendUniq(out, "ansible_"+n)
		}
	}
	return out
}

// dropDefinitions leaves out the use sites that are a set_fact's own key line for the
// variable (where finds the name there, but the task assigns it; it uses it only when its
// value mentions it).
func (rt *runtimeRun) dropDefinitions(sites []Site, name string) []Site {
	out := sites[:0:0]
	for _, s := range sites {
		def := false
		for _, e := range rt.events {
			if e.Kind == SetFact && e.varName == name && e.Pos.Line == s.Use.Pos.Line && filepath.Clean(e.Pos.File) == filepath.Clean(s.Use.Pos.File) {
				def = !strings.Contains(strings.Join(ansible.Refs(e.Value), " ")+" ", name+" ")
			}
		}
		if !def {
			out = append(out, s)
		}
	}
	return out
}

// siteOrder is a use site's place in the host's run (before its play's tasks when its
// task is not found).
func (rt *runtimeRun) siteOrder(s Site) int {
	if n := rt.nodeOf(s); n != nil {
		return rt.order[n]
	}
	return s.Play.Index*orderPlay - 1
}

// Undecided are the run-time sets of the variable that may change its value at the use
// site: one before it that may run (its when: depends on the run), or one that runs
// before it with a value k3sconf could not evaluate. Without them the site's value is
// decided.
func (r *Report) undecided(ex *Explained, s Site) []RuntimeSet {
	if r.rt == nil || !s.Runs() || s.Var != nil && !beats(s.Var.Source) {
		return nil
	}
	at := r.rt.siteOrder(s)
	var out []RuntimeSet
	for _, e := range ex.SetAtRunTime {
		if e.order >= at || e.Runs == "no" {
			continue
		}
		if e.Runs == "unsure" || !e.Known {
			out = append(out, e)
		}
	}
	return out
}
