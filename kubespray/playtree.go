package kubespray

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
)

// The play/role model: which plays of cluster.yml run on a host, in order, with the
// groups the host is in at each (kubespray's dynamic_groups and any group_by task with a
// fixed key), which roles each play runs (its roles: entries, their meta dependencies,
// roles pulled in by import_role and include_role, with tasks_from, defaults_from and
// vars_from), which tasks files each role runs (import_tasks and include_tasks followed),
// and for each a context to resolve variables in as ansible-core 2.14 does for a task
// there (vars/manager.py get_vars with the task's role and dep chain).
//
// Read in ansible-core 2.14.18: playbook/play.py (_load_roles: the play's roles, then
// what import_role appended while they loaded), playbook/role_include.py (get_block_list:
// a statically imported role, or an include_role with public: true, is appended to the
// play's roles; the dep chain of an included role is its includer's parents and the
// includer), playbook/role/__init__.py (get_default_vars, get_vars, get_role_params,
// compile: a meta dependency's dep chain is its dependent's plus the dependent),
// playbook/helpers.py (load_list_of_tasks: import_* are static, include_* dynamic),
// vars/manager.py (get_vars). Checked with ansible-playbook by the differential test
// (TestDifferentialUseSites).

// RoleRun is one role as a play runs it.
type RoleRun struct {
	Role *ansible.Role
	// Params are the role params of its entry (keys that are not keywords).
	Params []ansible.Def
	// Chain is the dep chain, outermost first: the roles it is a meta dependency of, or
	// the role whose tasks include or import it.
	Chain []*RoleRun
	// Via is "play" (a roles: entry), "dependency", "import_role" or "include_role".
	Via string
	// Pos is the roles: entry, the meta dependency or the include task.
	Pos       diag.Position
	TasksFrom string
	// Skip says why the role does not run on the host (a when: that is false); empty when
	// it runs.
	Skip string
	// Unsure lists conditions on the way to the role that could not be decided.
	Unsure []string
}

// Name is the role's name with its tasks_from.
func (r *RoleRun) Name() string {
	if r.TasksFrom != "" {
		return r.Role.Name + " (tasks_from: " + r.TasksFrom + ")"
	}
	return r.Role.Name
}

// Path describes how the role was reached: "container-engine → include_role containerd".
func (r *RoleRun) Path() string {
	var parts []string
	for _, c := range r.Chain {
		parts = append(parts, c.Role.Name)
	}
	via := ""
	switch r.Via {
	case "dependency":
		via = "dependency "
	case "import_role", "include_role":
		via = r.Via + " "
	}
	parts = append(parts, via+r.Name())
	return strings.Join(parts, " → ")
}

// FileRun is a tasks or handlers file as a play runs it.
type FileRun struct {
	File string
	// Role is nil for the play's own tasks.
	Role     *RoleRun
	Handlers bool
	// Epoch is the inventory state the file's tasks see (groups added at run time before).
	Epoch  int
	Skip   string
	Unsure []string
	// clean are File and the role's path, cleaned (cleanFile, cleanRole).
	clean [2]string
}

// PlayRun is one play of cluster.yml on the host.
type PlayRun struct {
	Play *Play
	// Index is the play's place in cluster.yml (0-based).
	Index int
	// Runs is false for a play whose hosts: pattern does not select the host; its roles
	// are walked without conditions, to tell what the host misses.
	Runs bool
	// Unsure: the host runs the play only if a group_by whose when: could not be decided
	// added it (or the hosts: subscript depends on run-time order, KS009).
	Unsure string
	// Joined names the group added at run time through which the host runs the play.
	Joined string
	// Roles is play.get_roles(): the roles: entries, then the roles import_role (and
	// include_role with public: true) appended.
	Roles []*RoleRun
	Files []*FileRun
	Epoch int
}

// dynamicGroupsAdd is the Group of the GroupAdd kubespray's dynamic_groups role makes.
const dynamicGroupsAdd = "(kubespray's dynamic_groups)"

// GroupAdd is a group the host joins at run time.
type GroupAdd struct {
	Group string
	// Task is the group_by task (or dynamic_groups' role).
	Task diag.Position
	Play string
	// Unsure is the condition that could not be decided ("" when decided true).
	Unsure string
}

// HostRun is what cluster.yml runs on one host.
type HostRun struct {
	Host  string
	Plays []*PlayRun
	Adds  []GroupAdd

	c       *Checkout
	invSrc  []string
	extra   []ansible.ExtraVars
	ops     []groupOp
	invs    map[int]*ansible.Inventory
	results map[resKey]*ansible.Context
	errs    []error
	variant map[string]*ansible.Role
	files   ansible.FileCache
	// runFiles and runRoles are the files and role folders of the plays' file runs
	// (cleaned; built by mayUse).
	runFiles, runRoles map[string]bool
	// facts are the host's setup facts, when given (runtime.go).
	facts *ansible.Facts
}

type groupOp struct {
	dynamic     bool // kubespray's dynamic_groups, for every host
	group, host string
}

type resKey struct {
	epoch int
	play  *PlayRun
	role  *RoleRun
}

// Walk builds the host's run of cluster.yml.
func (c *Checkout) Walk(inventory []string, host string, extra []ansible.ExtraVars) (*HostRun, error) {
	return c.WalkFacts(inventory, host, extra, nil)
}

// WalkFacts is Walk with the host's setup facts (nil: none), which decide the when:
// conditions and templated names that use them.
func (c *Checkout) WalkFacts(inventory []string, host string, extra []ansible.ExtraVars, facts *ansible.Facts) (*HostRun, error) {
	hr := &HostRun{Host: host, c: c, invSrc: inventory, extra: extra, invs: map[int]*ansible.Inventory{},
		results: map[resKey]*ansible.Context{}, variant: map[string]*ansible.Role{}, facts: facts}
	inv, err := hr.invAt(0)
	if err != nil {
		return nil, err
	}
	if inv.Hosts[host] == nil {
		return nil, fmt.Errorf("host %q is not in the inventory", host)
	}
	joinedUnsure := map[string]string{}
	for i, p := range c.Plays {
		epoch := len(hr.ops)
		inv, _ := hr.invAt(epoch)
		match, unsure := matchHosts(inv, p.Hosts, host)
		pr := &PlayRun{Play: p, Index: i, Runs: match, Epoch: epoch}
		if unsure {
			pr.Unsure = "which host " + p.Hosts + " is depends on the order of hosts added at run time (KS009)"
		}
		if match {
			// The group through which the host runs the play, when added at run time.
			for _, g := range inv.HostGroups(inv.Hosts[host]) {
				if g.Runtime && patternNames(p.Hosts)[g.Name] && !inStatic(inv, p.Hosts, host) {
					pr.Joined = g.Name
					if why, ok := joinedUnsure[g.Name]; ok && pr.Unsure == "" {
						pr.Unsure = why
					}
				}
			}
		}
		hr.Plays = append(hr.Plays, pr)
		w := &walk{hr: hr, pr: pr, seen: map[string]bool{}}
		// play.get_roles() first: static structure, no conditions.
		w.static = true
		w.playRoles()
		w.static = false
		w.seen = map[string]bool{}
		w.run()
		for _, a := range w.adds {
			if match && a.Unsure != "" {
				joinedUnsure[a.Group] = a.Unsure
			}
		}
	}
	return hr, errors.Join(hr.errs...)
}

// patternNames are the names a hosts: pattern's terms mention.
func patternNames(pattern string) map[string]bool {
	m := map[string]bool{}
	for _, t := range regexp.MustCompile(`[:,]`).Split(pattern, -1) {
		t = strings.TrimLeft(strings.TrimSpace(t), "!&")
		if i := strings.IndexByte(t, '['); i >= 0 {
			t = t[:i]
		}
		m[t] = true
	}
	return m
}

// inStatic: the pattern selects the host through a group other than run-time ones.
func inStatic(inv *ansible.Inventory, pattern, host string) bool {
	h := inv.Hosts[host]
	names := patternNames(pattern)
	if names["all"] || names["*"] || names[host] {
		return true
	}
	for _, g := range inv.HostGroups(h) {
		if !g.Runtime && names[g.Name] {
			return true
		}
	}
	return false
}

func (hr *HostRun) invAt(epoch int) (*ansible.Inventory, error) {
	if inv := hr.invs[epoch]; inv != nil {
		return inv, nil
	}
	inv, err := ansible.LoadInventory(hr.invSrc)
	if err != nil {
		return nil, err
	}
	for _, op := range hr.ops[:epoch] {
		if op.dynamic {
			DynamicGroups(inv)
		} else {
			inv.AddGroup(op.group, op.host)
		}
	}
	hr.invs[epoch] = inv
	return inv, nil
}

// Resolve gives the host's variables for a task of role rr (nil: at play level) in play
// pr, with the groups of the given epoch (merged one variable at a time, on demand).
func (hr *HostRun) Resolve(pr *PlayRun, rr *RoleRun, epoch int) *ansible.Context {
	k := resKey{epoch, pr, rr}
	if r, ok := hr.results[k]; ok {
		return r
	}
	inv, err := hr.invAt(epoch)
	if err != nil {
		hr.errs = append(hr.errs, err)
		return nil
	}
	ap := &ansible.Play{Name: pr.Play.Name, Pos: pr.Play.Pos, Vars: pr.Play.Vars}
	for _, r := range pr.Roles {
		ap.Roles = append(ap.Roles, r.Role)
	}
	o := ansible.Options{Inventory: inv, Host: hr.Host, PlaybookDir: filepath.Dir(pr.Play.Pos.File), Play: ap, Extra: hr.extra, Files: &hr.files}
	if rr != nil {
		t := &ansible.TaskRole{Role: rr.Role}
		for _, c := range rr.Chain {
			t.Chain = append(t.Chain, c.Role)
			t.Params = append(t.Params, c.Params...)
		}
		t.Params = append(t.Params, rr.Params...)
		o.Task = t
	}
	res, err := ansible.Prepare(o)
	if err != nil {
		hr.errs = append(hr.errs, err)
	}
	hr.results[k] = res
	return res
}

// lookup gives the evaluator the variables of a context, magic variables and locals.
func (hr *HostRun) lookup(pr *PlayRun, rr *RoleRun, epoch int, locals map[string]any) ansible.Lookup {
	res := hr.Resolve(pr, rr, epoch)
	inv, _ := hr.invAt(epoch)
	return func(name string) (any, bool) {
		if v, ok := locals[name]; ok {
			return v, true
		}
		if res != nil {
			if v := res.Var(name); v != nil {
				return v.Value, true
			}
		}
		switch name {
		case "inventory_hostname", "inventory_hostname_short":
			return hr.Host, true
		case "group_names":
			var names []string
			if inv != nil {
				for _, g := range inv.HostGroups(inv.Hosts[hr.Host]) {
					if g.Name != "all" {
						names = append(names, g.Name)
					}
				}
			}
			sort.Strings(names)
			l := []any{}
			for _, n := range names {
				l = append(l, n)
			}
			return l, true
		case "groups":
			m := &ansible.Map{}
			if inv != nil {
				for _, gn := range inv.GroupOrder {
					l := []any{}
					for _, h := range groupHosts(inv, inv.Groups[gn]) {
						l = append(l, h)
					}
					m.Set(gn, l)
				}
			}
			return m, true
		}
		if hr.facts != nil && strings.HasPrefix(name, "ansible_") {
			return hr.facts.Lookup(name)
		}
		return nil, false
	}
}

type cond int

const (
	condTrue cond = iota
	condFalse
	condUnknown
)

// when evaluates a when: value (a string, a list of strings, a boolean).
func when(n *yaml.Node, lookup ansible.Lookup) (cond, string) {
	if n == nil {
		return condTrue, ""
	}
	var exprs []string
	switch n.Kind {
	case yaml.ScalarNode:
		exprs = []string{n.Value}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			exprs = append(exprs, c.Value)
		}
	default:
		return condUnknown, "when: (not a string or list)"
	}
	for _, e := range exprs {
		var v any
		var err error
		if ansible.IsTemplated(e) {
			v, err = ansible.Template(e, lookup)
		} else {
			v, err = ansible.Eval(e, lookup)
		}
		if err != nil {
			return condUnknown, "when: " + e
		}
		if s, ok := v.(string); ok {
			// ansible renders the condition as text and reads it back: "False" is false.
			switch s {
			case "False", "false", "":
				v = false
			}
		}
		if !ansible.Truthy(v) {
			return condFalse, "when: " + e + " is false"
		}
	}
	return condTrue, ""
}

type walk struct {
	hr     *HostRun
	pr     *PlayRun
	static bool
	seen   map[string]bool
	adds   []GroupAdd
	depth  int
	// stack holds the tasks files being walked (an include of a file already on it is a
	// loop ansible would also stop at run time; it is not followed).
	stack map[string]bool
}

// addUnsure appends a condition once.
func addUnsure(list []string, why string) []string {
	for _, x := range list {
		if x == why {
			return list
		}
	}
	return append(append([]string(nil), list...), why)
}

var roleKeywords = map[string]bool{"role": true, "name": true, "tags": true, "when": true, "vars": true, "become": true,
	"become_user": true, "become_method": true, "become_flags": true, "become_exe": true, "delegate_to": true,
	"delegate_facts": true, "environment": true, "no_log": true, "any_errors_fatal": true, "ignore_errors": true,
	"ignore_unreachable": true, "connection": true, "collections": true, "check_mode": true, "diff": true,
	"debugger": true, "module_defaults": true, "run_once": true, "throttle": true, "timeout": true, "port": true,
	"remote_user": true}

// roleEntry reads a roles: or dependencies: entry: name, params, when.
func roleEntry(file string, n *yaml.Node) (name string, params []ansible.Def, whenN *yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		return n.Value, nil, nil
	}
	if r := get(n, "role"); r != nil {
		name = r.Value
	} else if r := get(n, "name"); r != nil {
		name = r.Value
	}
	whenN = get(n, "when")
	pm := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !roleKeywords[n.Content[i].Value] {
			pm.Content = append(pm.Content, n.Content[i], n.Content[i+1])
		}
	}
	if len(pm.Content) > 0 {
		params, _ = ansible.PlayVars(file, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "vars"}, pm}})
	}
	return name, params, whenN
}

// playRoles fills pr.Roles: the roles: entries and, statically, what import_role adds.
func (w *walk) playRoles() {
	p := w.pr.Play
	rs := get(p.node, "roles")
	if rs == nil || rs.Kind != yaml.SequenceNode {
		w.playTasksStatic()
		return
	}
	var top []*RoleRun
	for _, re := range rs.Content {
		name, params, _ := roleEntry(p.Pos.File, re)
		r, err := w.hr.c.role(name, filepath.Dir(p.Pos.File), "")
		if err != nil || r == nil {
			continue
		}
		rr := &RoleRun{Role: r, Params: params, Via: "play", Pos: diag.Position{File: p.Pos.File, Line: re.Line, Column: re.Column}}
		top = append(top, rr)
	}
	w.pr.Roles = append(w.pr.Roles, top...)
	for _, rr := range top {
		w.role(rr)
	}
	w.playTasksStatic()
}

func (w *walk) playTasksStatic() {
	for _, k := range []string{"pre_tasks", "tasks", "post_tasks", "handlers"} {
		if n := get(w.pr.Play.node, k); n != nil {
			w.tasks(w.pr.Play.Pos.File, n, nil, nil, k == "handlers")
		}
	}
}

// run walks the play as the host runs it.
func (w *walk) run() {
	p := w.pr.Play
	if rs := get(p.node, "roles"); rs != nil && rs.Kind == yaml.SequenceNode {
		i := 0
		for _, re := range rs.Content {
			_, _, wn := roleEntry(p.Pos.File, re)
			if i >= len(w.pr.Roles) {
				break
			}
			rr := w.pr.Roles[i]
			i++
			if !w.pr.Runs {
				rr.Skip = "the play does not run on " + w.hr.Host
			} else if c, why := when(wn, w.hr.lookup(w.pr, rr, w.epoch(), nil)); c == condFalse {
				rr.Skip = why
			} else if c == condUnknown {
				rr.Unsure = addUnsure(rr.Unsure, why)
			}
			w.role(rr)
			if rr.Role.Name == "dynamic_groups" && rr.Skip == "" {
				w.hr.ops = append(w.hr.ops, groupOp{dynamic: true})
				w.adds = append(w.adds, GroupAdd{Group: dynamicGroupsAdd, Task: rr.Pos, Play: p.Name})
				w.hr.Adds = append(w.hr.Adds, w.adds[len(w.adds)-1])
			}
		}
	}
	for _, k := range []string{"pre_tasks", "tasks", "post_tasks", "handlers"} {
		if n := get(p.node, k); n != nil {
			skip := ""
			if !w.pr.Runs {
				skip = "the play does not run on " + w.hr.Host
			}
			w.file(p.Pos.File, n, nil, k == "handlers", skip, nil)
		}
	}
}

func (w *walk) epoch() int { return len(w.hr.ops) }

// role walks a role run: its dependencies, its tasks file, its handlers.
func (w *walk) role(rr *RoleRun) {
	if w.depth > 40 {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	// A roles: entry or meta dependency reached again with the same params is the same
	// role object (Role.load's ROLE_CACHE) and runs once per play; import_role and
	// include_role set allow_duplicates (default true) and run each time.
	key := fmt.Sprintf("%s|%s|%s|%v", rr.Role.Path, rr.TasksFrom, ansible.Repr(defsValue(rr.Params)), rr.Skip)
	if (rr.Via == "play" || rr.Via == "dependency") && w.seen[key] {
		return
	}
	w.seen[key] = true
	if rr.Role.Path == "" {
		return
	}
	meta, _ := w.hr.c.node(filepath.Join(rr.Role.Path, "meta", "main.yml"))
	var depNodes []*yaml.Node
	if deps := get(meta, "dependencies"); deps != nil && deps.Kind == yaml.SequenceNode {
		depNodes = deps.Content
	}
	chain := append(append([]*RoleRun(nil), rr.Chain...), rr)
	for i, d := range rr.Role.Deps {
		dr := &RoleRun{Role: d, Chain: chain, Via: "dependency", Skip: rr.Skip, Unsure: rr.Unsure}
		if i < len(depNodes) {
			_, dr.Params, _ = roleEntry(filepath.Join(rr.Role.Path, "meta", "main.yml"), depNodes[i])
			dr.Pos = diag.Position{File: filepath.Join(rr.Role.Path, "meta", "main.yml"), Line: depNodes[i].Line, Column: depNodes[i].Column}
			if !w.static && dr.Skip == "" {
				_, _, wn := roleEntry("", depNodes[i])
				if c, why := when(wn, w.hr.lookup(w.pr, dr, w.epoch(), nil)); c == condFalse {
					dr.Skip = why
				} else if c == condUnknown {
					dr.Unsure = addUnsure(dr.Unsure, why)
				}
			}
		}
		w.role(dr)
	}
	tf := rr.TasksFrom
	if tf == "" {
		tf = "main"
	}
	for _, f := range taskFileCands(filepath.Join(rr.Role.Path, "tasks"), tf) {
		if n, err := w.hr.c.node(f); err == nil && n != nil {
			w.file(f, n, rr, false, rr.Skip, rr.Unsure)
			break
		}
	}
	for _, f := range taskFileCands(filepath.Join(rr.Role.Path, "handlers"), "main") {
		if n, err := w.hr.c.node(f); err == nil && n != nil {
			w.file(f, n, rr, true, rr.Skip, rr.Unsure)
			break
		}
	}
}

func defsValue(ds []ansible.Def) any {
	m := &ansible.Map{}
	for _, d := range ds {
		m.Set(d.Name, d.Value)
	}
	return m
}

// taskFileCands: NAME as given, then with .yml, .yaml, .json (_load_role_yaml).
func taskFileCands(dir, name string) []string {
	var out []string
	if filepath.Ext(name) != "" {
		out = append(out, filepath.Join(dir, name))
	}
	for _, ext := range []string{".yml", ".yaml", ".json", ""} {
		out = append(out, filepath.Join(dir, name+ext))
	}
	return out
}

// file records a tasks file run and walks its tasks.
func (w *walk) file(path string, seq *yaml.Node, rr *RoleRun, handlers bool, skip string, unsure []string) {
	if w.stack == nil {
		w.stack = map[string]bool{}
	}
	if w.stack[path] {
		return
	}
	w.stack[path] = true
	defer delete(w.stack, path)
	if !w.static {
		w.pr.Files = append(w.pr.Files, &FileRun{File: path, Role: rr, Handlers: handlers, Epoch: w.epoch(), Skip: skip, Unsure: unsure})
	}
	w.tasks(path, seq, rr, unsure, handlers, skip)
}

// tasks walks a list of tasks (blocks included) for includes, imports and group_by.
func (w *walk) tasks(path string, seq *yaml.Node, rr *RoleRun, unsure []string, handlers bool, skipArg ...string) {
	skip := ""
	if len(skipArg) > 0 {
		skip = skipArg[0]
	}
	if seq == nil || seq.Kind != yaml.SequenceNode || w.depth > 40 {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	for _, t := range seq.Content {
		if t.Kind != yaml.MappingNode {
			continue
		}
		tskip, tunsure := skip, unsure
		// A block's when applies to its tasks.
		isBlock := false
		for _, k := range []string{"block", "rescue", "always"} {
			if b := get(t, k); b != nil {
				isBlock = true
			}
		}
		if !w.static && tskip == "" {
			if wn := get(t, "when"); wn != nil && (isBlock || isInclude(t)) {
				c, why := when(wn, w.hr.lookup(w.pr, rr, w.epoch(), taskLocals(path, t)))
				switch c {
				case condFalse:
					tskip = why
				case condUnknown:
					tunsure = addUnsure(unsure, why)
				}
			}
		}
		if isBlock {
			for _, k := range []string{"block", "rescue", "always"} {
				if b := get(t, k); b != nil {
					w.tasks(path, b, rr, tunsure, handlers, tskip)
				}
			}
			continue
		}
		for i := 0; i+1 < len(t.Content); i += 2 {
			k := strings.TrimPrefix(t.Content[i].Value, "ansible.builtin.")
			v := t.Content[i+1]
			switch k {
			case "import_tasks", "include_tasks", "include":
				if w.static && k != "import_tasks" {
					continue
				}
				w.includeTasks(path, t, v, rr, handlers, tskip, tunsure)
			case "import_role", "include_role":
				if w.static && k != "import_role" {
					continue
				}
				w.includeRole(path, t, k, v, rr, tskip, tunsure)
			case "group_by":
				if w.static || tskip != "" || !w.pr.Runs {
					continue
				}
				w.groupBy(path, t, v, rr, tunsure)
			}
		}
	}
}

func isInclude(t *yaml.Node) bool {
	for i := 0; i+1 < len(t.Content); i += 2 {
		switch strings.TrimPrefix(t.Content[i].Value, "ansible.builtin.") {
		case "import_tasks", "include_tasks", "include", "import_role", "include_role", "group_by":
			return true
		}
	}
	return false
}

// taskLocals are a task's vars: (task vars, as the include's condition and name see them).
func taskLocals(path string, t *yaml.Node) map[string]any {
	defs, _ := ansible.PlayVars(path, t)
	if len(defs) == 0 {
		return nil
	}
	m := map[string]any{}
	for _, d := range defs {
		m[d.Name] = d.Value
	}
	return m
}

// loopItems returns a task's loop: items when written as a YAML list (nil, false when
// the loop is templated).
func loopItems(path string, t *yaml.Node) ([]any, bool) {
	ln := get(t, "loop")
	if ln == nil {
		ln = get(t, "with_items")
	}
	if ln == nil {
		return nil, true
	}
	if ln.Kind != yaml.SequenceNode {
		return nil, false
	}
	defs, _ := ansible.PlayVars(path, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "vars"},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "loop"}, ln}}}})
	if len(defs) != 1 {
		return nil, false
	}
	l, ok := defs[0].Value.([]any)
	return l, ok
}

func (w *walk) includeTasks(path string, t, v *yaml.Node, rr *RoleRun, handlers bool, skip string, unsure []string) {
	name := v.Value
	if v.Kind == yaml.MappingNode {
		if f := get(v, "file"); f != nil {
			name = f.Value
		}
	}
	if name == "" {
		return
	}
	var names []string
	if ansible.IsTemplated(name) {
		if !w.static {
			if x, err := ansible.Template(name, w.hr.lookup(w.pr, rr, w.epoch(), taskLocals(path, t))); err == nil {
				if s, ok := x.(string); ok {
					names = []string{s}
				}
			}
		}
		if names == nil {
			// Every file its fixed parts match (over-approximation, marked unsure).
			names = globTemplated(filepath.Dir(path), name)
			unsure = addUnsure(unsure, "include of "+name)
		}
	} else {
		names = []string{name}
	}
	for _, n := range names {
		f := w.taskPath(path, rr, n)
		if f == "" {
			continue
		}
		if nd, err := w.hr.c.node(f); err == nil && nd != nil {
			w.file(f, nd, rr, handlers, skip, unsure)
		}
	}
}

// taskPath finds an included tasks file: beside the including file, in the role's
// tasks/ (handlers/ for handlers), beside the playbook.
func (w *walk) taskPath(from string, rr *RoleRun, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	cands := []string{filepath.Join(filepath.Dir(from), name)}
	if rr != nil {
		cands = append(cands, filepath.Join(rr.Role.Path, "tasks", name), filepath.Join(rr.Role.Path, name))
	}
	cands = append(cands, filepath.Join(filepath.Dir(w.pr.Play.Pos.File), name))
	for _, c := range cands {
		if fi, err := w.hr.c.stat(c); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

func globTemplated(dir, name string) []string {
	pat := regexp.QuoteMeta(name)
	pat = regexp.MustCompile(`\\\{\\\{.*?\\\}\\\}`).ReplaceAllString(pat, `[^/]*`)
	re, err := regexp.Compile("^" + pat + "$")
	if err != nil {
		return nil
	}
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() && re.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func (w *walk) includeRole(path string, t *yaml.Node, action string, v *yaml.Node, rr *RoleRun, skip string, unsure []string) {
	if v.Kind != yaml.MappingNode {
		return
	}
	nameN := get(v, "name")
	if nameN == nil {
		nameN = get(v, "role")
	}
	if nameN == nil {
		return
	}
	str := func(k string) string {
		if n := get(v, k); n != nil {
			return filepath.Base(n.Value)
		}
		return ""
	}
	tasksFrom, defaultsFrom, varsFrom := str("tasks_from"), str("defaults_from"), str("vars_from")
	public := false
	if n := get(v, "public"); n != nil && (n.Value == "true" || n.Value == "yes" || n.Value == "True") {
		public = true
	}
	type target struct {
		name   string
		skip   string
		unsure []string
	}
	var targets []target
	locals := taskLocals(path, t)
	if !ansible.IsTemplated(nameN.Value) {
		targets = []target{{nameN.Value, skip, unsure}}
	} else if !w.static {
		items, ok := loopItems(path, t)
		if ok && items == nil && get(t, "loop") == nil && get(t, "with_items") == nil {
			items = []any{nil}
		}
		decided := ok
		for _, it := range items {
			l := map[string]any{}
			for k, x := range locals {
				l[k] = x
			}
			if it != nil {
				l["item"] = it
			}
			lk := w.hr.lookup(w.pr, rr, w.epoch(), l)
			x, err := ansible.Template(nameN.Value, lk)
			s, isStr := x.(string)
			if err != nil || !isStr {
				decided = false
				break
			}
			tg := target{s, skip, unsure}
			if tg.skip == "" && it != nil {
				// The loop's when: is evaluated per item.
				if c, why := when(get(t, "when"), lk); c == condFalse {
					tg.skip = why
				} else if c == condUnknown {
					tg.unsure = addUnsure(unsure, why)
				}
			}
			targets = append(targets, tg)
		}
		if !decided {
			targets = nil
		}
	}
	if targets == nil && ansible.IsTemplated(nameN.Value) {
		if w.static {
			return
		}
		// Every role the templated name can match (where's name pattern: one path part per
		// expression).
		re, _ := namePattern(nameN.Value)
		for _, name := range w.hr.c.roleDirs() {
			if re.MatchString(name) {
				targets = append(targets, target{name, skip, addUnsure(unsure, "include_role name "+nameN.Value)})
			}
		}
	}
	for _, tg := range targets {
		base, err := w.hr.c.role(tg.name, filepath.Dir(w.pr.Play.Pos.File), "")
		if err != nil || base == nil {
			continue
		}
		r := base
		if defaultsFrom != "" || varsFrom != "" {
			key := base.Path + "|" + defaultsFrom + "|" + varsFrom
			if r = w.hr.variant[key]; r == nil {
				r, _ = ansible.LoadRoleFrom(base.Name, base.Path, defaultsFrom, varsFrom)
				r.Deps = base.Deps
				w.hr.variant[key] = r
			}
		}
		var chain []*RoleRun
		if rr != nil {
			chain = append(append([]*RoleRun(nil), rr.Chain...), rr)
		}
		nr := &RoleRun{Role: r, Chain: chain, Via: action, Pos: diag.Position{File: path, Line: t.Line, Column: t.Column},
			TasksFrom: tasksFrom, Skip: tg.skip, Unsure: tg.unsure}
		if w.static && action == "import_role" {
			w.pr.Roles = append(w.pr.Roles, nr)
		} else if !w.static && action == "include_role" && public && tg.skip == "" {
			w.pr.Roles = append(w.pr.Roles, nr)
		}
		if w.static {
			w.role(nr)
			continue
		}
		w.role(nr)
	}
}

func (w *walk) groupBy(path string, t, v *yaml.Node, rr *RoleRun, unsure []string) {
	key := v.Value
	if v.Kind == yaml.MappingNode {
		if k := get(v, "key"); k != nil {
			key = k.Value
		}
	}
	if key == "" || ansible.IsTemplated(key) {
		return // a group named at run time (dynamic_groups is modelled on its own)
	}
	lk := w.hr.lookup(w.pr, rr, w.epoch(), taskLocals(path, t))
	c, why := when(get(t, "when"), lk)
	if c == condFalse {
		return
	}
	a := GroupAdd{Group: key, Task: diag.Position{File: path, Line: t.Line, Column: t.Column}, Play: w.pr.Play.Name}
	if c == condUnknown {
		a.Unsure = why
	} else if len(unsure) > 0 {
		a.Unsure = strings.Join(unsure, "; ")
	}
	w.adds = append(w.adds, a)
	w.hr.Adds = append(w.hr.Adds, a)
	w.hr.ops = append(w.hr.ops, groupOp{group: key, host: w.hr.Host})
}
