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

// A host's run of the compiled playbook ([TaskTree], one per checkout): which plays of
// cluster.yml run on the host, in order, with the groups the host is in at each
// (kubespray's dynamic_groups and any group_by task with a fixed key), which of the
// compiled role runs (roles: entries, their meta dependencies, import_role and
// include_role targets) and tasks files run there, with `when:` and templated include
// and role names evaluated for the host, and for each a context to resolve variables in
// as ansible-core 2.14 does for a task there (vars/manager.py get_vars with the task's
// role and dep chain). Nothing here reads the playbook again: the pass goes over the
// structure [Checkout.Tasks] built (tasktree.go).
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
	// inst is the compiled role instance whose tasks this run runs (nodeOf: a role
	// imported or included twice in a play is two instances, each with the vars: of
	// its own import or include).
	inst *roleInst
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
	// bumps are the places in the file after which the host is in more groups: a group_by
	// task of the file, or an include or import whose tasks hold one (line, new epoch).
	bumps [][2]int
	// lines bound a play section's run to its lines of the playbook file (zero: the
	// whole file).
	lines [2]int
	// skipped are the blocks of the file whose when: is false on the host (their tasks'
	// lines, and the reason): ansible skips every task of such a block.
	skipped []blockSkip
}

type blockSkip struct {
	lines [2]int
	why   string
}

// blockSkipped says why a task of the file at line is not run because of a block's
// when: ("" when no such block holds it).
func (f *FileRun) blockSkipped(line int) string {
	for _, b := range f.skipped {
		if b.lines[0] <= line && line <= b.lines[1] {
			return b.why
		}
	}
	return ""
}

// holds: line is one of the file run's (a play's pre_tasks and post_tasks share their
// playbook file, each its own lines).
func (f *FileRun) holds(line int) bool {
	return f.lines[0] == 0 || f.lines[0] <= line && line <= f.lines[1]
}

// siteEpoch is the inventory state of a use in the file run: a task's or handler's, at its
// line; a template's, the file's at its start.
func (f *FileRun) siteEpoch(u Use) int {
	if u.Kind == "template" {
		return f.Epoch
	}
	return f.epochAt(u.Pos.Line)
}

// epochAt is the inventory state a task of the file at line sees: Epoch, or the epoch
// after the last group_by (or include holding one) written above it in the file.
func (f *FileRun) epochAt(line int) int {
	e := f.Epoch
	for _, b := range f.bumps {
		if b[0] < line {
			e = b[1]
		}
	}
	return e
}

// PlayRun is one play of cluster.yml on the host.
type PlayRun struct {
	Play *Play
	// Index is the play's place in cluster.yml (0-based).
	Index int
	// Runs is false for a play whose hosts: pattern does not select the host; its roles
	// are gone through without conditions, to tell what the host misses.
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
	// tree is the compiled play.
	tree *TreePlay
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
	files   ansible.FileCache
	// runFiles and runRoles are the files and role folders of the plays' file runs
	// (cleaned; built by mayUse).
	runFiles, runRoles map[string]bool
	// mayUseMemo is mayUse's answer by path and kind (asked once per variable).
	mayUseMemo map[[2]string]bool
	// facts are the host's setup facts, when given (runtime.go).
	facts *ansible.Facts
	// setNames are the names a set_fact, include_vars or register: task the pass has gone
	// past may have set (they last for the rest of the run): a condition or templated
	// name the pass evaluates with one of them is not decided by the static value.
	setNames map[string]bool
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

// Run is the host's run of the compiled playbook: play by play, the plays the host
// runs with the groups it has at each, and the role runs and tasks files of each, with
// `when:` and templated names evaluated for the host (facts: its setup facts, nil when
// none; they decide the conditions and names that use them).
func (tt *TaskTree) Run(inventory []string, host string, extra []ansible.ExtraVars, facts *ansible.Facts) (*HostRun, error) {
	hr := &HostRun{Host: host, c: tt.c, invSrc: inventory, extra: extra, invs: map[int]*ansible.Inventory{},
		results: map[resKey]*ansible.Context{}, facts: facts, setNames: map[string]bool{}}
	inv, err := hr.invAt(0)
	if err != nil {
		return nil, err
	}
	if inv.Hosts[host] == nil {
		return nil, fmt.Errorf("host %q is not in the inventory", host)
	}
	joinedUnsure := map[string]string{}
	for i, pl := range tt.Plays {
		p := pl.src
		if p == nil {
			continue
		}
		epoch := len(hr.ops)
		inv, _ := hr.invAt(epoch)
		match, unsure := matchHosts(inv, p.Hosts, host)
		pr := &PlayRun{Play: p, Index: i, Runs: match, Epoch: epoch, tree: pl}
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
		v := &hostPass{hr: hr, pr: pr, seen: map[string]bool{}, stack: map[string]bool{}}
		v.play(pl)
		for _, a := range v.adds {
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
			addDynamicGroups(inv)
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
	if pr.tree != nil && len(pr.tree.varsFiles) > 0 {
		// vars_files: after the play's vars, before its roles' vars (shown as play vars).
		ap.Vars = append(pr.Play.Vars[:len(pr.Play.Vars):len(pr.Play.Vars)], pr.tree.varsFiles...)
	}
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
		case "role_path", "role_name":
			// vars/manager.py _get_magic_variables (role_path absolute) and
			// playbook/role/__init__.py get_vars.
			if rr == nil || rr.Role == nil {
				return nil, false
			}
			if name == "role_name" {
				return rr.Role.Name, true
			}
			p, _ := filepath.Abs(rr.Role.Path)
			return p, true
		case "playbook_dir":
			// The folder of the playbook holding the play (the loader's basedir, an
			// imported playbook's own folder: executor/playbook_executor.py).
			p, _ := filepath.Abs(filepath.Dir(pr.Play.Pos.File))
			return p, true
		case "inventory_dir", "inventory_file":
			// Set on each host by the inventory source that holds it
			// (inventory/data.py add_host): known when one source is given.
			if len(hr.invSrc) != 1 {
				return nil, false
			}
			src, _ := filepath.Abs(hr.invSrc[0])
			fi, err := os.Stat(src)
			if err != nil {
				return nil, false
			}
			if fi.IsDir() {
				if name == "inventory_file" {
					return nil, false // the file of the folder that holds the host
				}
				return src, true
			}
			if name == "inventory_dir" {
				return filepath.Dir(src), true
			}
			return src, true
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

// addUnsure appends a condition once.
func addUnsure(list []string, why string) []string {
	for _, x := range list {
		if x == why {
			return list
		}
	}
	return append(append([]string(nil), list...), why)
}

// hostPass is the host's run of one compiled play.
type hostPass struct {
	hr    *HostRun
	pr    *PlayRun
	seen  map[string]bool
	adds  []GroupAdd
	depth int
	// stack holds the tasks files being gone through (an include of a file already on it
	// is a loop ansible would also stop at run time; it is not followed).
	stack map[string]bool
	// cur is the file run being gone through.
	cur *FileRun
}

func (v *hostPass) epoch() int { return len(v.hr.ops) }

// lookup is the variables the pass evaluates a condition or templated name with at this
// point of the host's run: the static ones (HostRun.lookup), except a name an earlier
// set_fact, include_vars or register: may have set, which is not known (the run-time
// pass, runtime.go, evaluates those task by task; the structure of the run does not wait
// for it). A loop's item stays known.
func (v *hostPass) lookup(rr *RoleRun, locals map[string]any) ansible.Lookup {
	base := v.hr.lookup(v.pr, rr, v.epoch(), locals)
	if len(v.hr.setNames) == 0 {
		return base
	}
	return func(name string) (any, bool) {
		if name != "item" && v.hr.setNames[name] {
			return ansible.Unknown, true
		}
		return base(name)
	}
}

// sets records the names a set_fact, include_vars or register: task sets.
func (v *hostPass) sets(n *TaskNode) {
	if n.Register != "" {
		v.hr.setNames[n.Register] = true
	}
	switch n.Action {
	case "set_fact":
		for _, d := range setFactDefs(n) {
			if d.Name != "cacheable" {
				v.hr.setNames[d.Name] = true
			}
		}
	case "include_vars":
		for _, f := range n.VarsFiles {
			for _, d := range v.hr.c.varsFile(f) {
				v.hr.setNames[d.Name] = true
			}
		}
	}
}

// play runs the compiled play on the host in the order ansible-core 2.14.18's
// playbook/play.py compile() builds it: pre_tasks (then a flush_handlers), the roles:
// entries (each after its meta dependencies: _compile_roles), tasks (a flush),
// post_tasks (a flush); the handlers file last. So a group_by or set_fact in pre_tasks
// is seen by the roles, and one in a role is not seen by pre_tasks.
func (v *hostPass) play(pl *TreePlay) {
	hr, pr := v.hr, v.pr
	for _, st := range pl.getRoles {
		pr.Roles = append(pr.Roles, &RoleRun{Role: st.role, Params: st.params, Via: st.via, Pos: st.pos, TasksFrom: st.tasksFrom, inst: st.inst})
	}
	section := func(fs *fileStep) {
		if fs == nil {
			return
		}
		skip := ""
		if !pr.Runs {
			skip = "the play does not run on " + hr.Host
		}
		v.file(fs, nil, skip, nil)
	}
	section(pl.sections[0]) // pre_tasks
	for i, st := range pl.roleEntries {
		rr := pr.Roles[i]
		if !pr.Runs {
			rr.Skip = "the play does not run on " + hr.Host
		} else if st.when != nil {
			if c, why := when(st.when, v.lookup(rr, nil)); c == condFalse {
				rr.Skip = why
			} else if c == condUnknown {
				rr.Unsure = addUnsure(rr.Unsure, why)
			}
		}
		v.role(rr, st)
		if rr.Role.Name == "dynamic_groups" && rr.Skip == "" {
			hr.ops = append(hr.ops, groupOp{dynamic: true})
			v.adds = append(v.adds, GroupAdd{Group: dynamicGroupsAdd, Task: rr.Pos, Play: pr.Play.Name})
			hr.Adds = append(hr.Adds, v.adds[len(v.adds)-1])
		}
	}
	for _, fs := range pl.sections[1:] { // tasks, post_tasks, handlers
		section(fs)
	}
}

// role runs a role: its dependencies, its tasks file, its handlers. A roles: entry or
// meta dependency reached again with the same params is the same role object
// (Role.load's ROLE_CACHE) and runs once per play; import_role and include_role set
// allow_duplicates (default true) and run each time.
func (v *hostPass) role(rr *RoleRun, st *roleStep) {
	if v.depth > 40 {
		return
	}
	v.depth++
	defer func() { v.depth-- }()
	key := rr.Role.Path + "|" + rr.TasksFrom + "|" + st.paramsKey + "|" + rr.Skip
	if (rr.Via == "play" || rr.Via == "dependency") && v.seen[key] {
		return
	}
	v.seen[key] = true
	if rr.Role.Path == "" {
		return
	}
	chain := append(append([]*RoleRun(nil), rr.Chain...), rr)
	for _, ds := range st.deps {
		dr := &RoleRun{Role: ds.role, Params: ds.params, Pos: ds.pos, Chain: chain, Via: "dependency", Skip: rr.Skip, Unsure: rr.Unsure, inst: ds.inst}
		if dr.Skip == "" && ds.when != nil {
			if c, why := when(ds.when, v.lookup(dr, nil)); c == condFalse {
				dr.Skip = why
			} else if c == condUnknown {
				dr.Unsure = addUnsure(dr.Unsure, why)
			}
		}
		v.role(dr, ds)
	}
	if st.tasks != nil {
		v.file(st.tasks, rr, rr.Skip, rr.Unsure)
	}
	if st.handlers != nil {
		v.file(st.handlers, rr, rr.Skip, rr.Unsure)
	}
}

// file records a tasks file run and goes through its blocks, includes and group_by.
func (v *hostPass) file(fs *fileStep, rr *RoleRun, skip string, unsure []string) {
	if v.stack[fs.path] {
		return
	}
	v.stack[fs.path] = true
	defer delete(v.stack, fs.path)
	fr := &FileRun{File: fs.path, Role: rr, Handlers: fs.handlers, Epoch: v.epoch(), Skip: skip, Unsure: unsure, lines: fs.lines}
	v.pr.Files = append(v.pr.Files, fr)
	outer := v.cur
	v.cur = fr
	v.items(fs.items, rr, unsure, skip)
	v.cur = outer
}

// items goes through a file's (or block's) blocks, includes, imports and group_by tasks:
// a when: that is false skips what is below, one that cannot be decided marks it unsure.
func (v *hostPass) items(list []*taskStep, rr *RoleRun, unsure []string, skip string) {
	if v.depth > 40 {
		return
	}
	v.depth++
	defer func() { v.depth-- }()
	for _, st := range list {
		tskip, tunsure := skip, unsure
		if tskip == "" && st.when != nil {
			switch c, why := when(st.when, v.lookup(rr, st.locals)); c {
			case condFalse:
				tskip = why
			case condUnknown:
				tunsure = addUnsure(unsure, why)
			}
		}
		before := v.epoch()
		switch st.kind {
		case "block":
			if skip == "" && tskip != "" && v.cur != nil && st.body[0] > 0 {
				// Its when: is false: its plain tasks, which are no steps, need the lines.
				v.cur.skipped = append(v.cur.skipped, blockSkip{st.body, tskip})
			}
			v.items(st.children, rr, tunsure, tskip)
		case "import_tasks", "include_tasks":
			v.includeTasks(st, rr, tskip, tunsure)
		case "import_role", "include_role":
			v.includeRole(st, rr, tskip, tunsure)
		case "group_by":
			if tskip == "" && v.pr.Runs {
				v.groupBy(st, rr, tunsure)
			}
		case "sets":
			if tskip == "" && v.pr.Runs {
				v.sets(st.node)
			}
		}
		// The tasks below it in this file see the groups it added (a block's own
		// group_by tasks record themselves).
		if st.kind != "block" && v.epoch() != before && v.cur != nil {
			v.cur.bumps = append(v.cur.bumps, [2]int{st.pos.Line, v.epoch()})
		}
	}
}

// includeTasks runs the file an include names on the host: a templated name evaluated
// with the host's variables (the compiled file it names), else every file the compiled
// include can name, marked unsure.
func (v *hostPass) includeTasks(st *taskStep, rr *RoleRun, skip string, unsure []string) {
	if st.name == "" {
		return
	}
	files := st.files
	if ansible.IsTemplated(st.name) {
		files = nil
		decided := false
		if x, err := ansible.Template(st.name, v.lookup(rr, st.locals)); err == nil {
			if s, ok := x.(string); ok {
				decided = true
				for _, f := range st.files {
					if f.rel == s || filepath.Clean(f.rel) == filepath.Clean(s) {
						files = []includedFile{f}
						break
					}
				}
			}
		}
		if !decided {
			files = st.files
			unsure = addUnsure(unsure, "include of "+st.name)
		}
	}
	for _, f := range files {
		v.file(f.fs, rr, skip, unsure)
	}
}

// includeRole runs the roles an include_role or import_role names on the host: a
// templated name evaluated with the host's variables for each item of a loop written as
// a list (the loop's when: per item), else every role the compiled include can name,
// marked unsure.
func (v *hostPass) includeRole(st *taskStep, rr *RoleRun, skip string, unsure []string) {
	if st.name == "" {
		return
	}
	type target struct {
		st     *roleStep
		skip   string
		unsure []string
	}
	var targets []target
	if !ansible.IsTemplated(st.name) {
		for _, r := range st.roles {
			targets = append(targets, target{r, skip, unsure})
		}
	} else {
		items := st.items
		if st.loopOK && items == nil && !st.hasLoop {
			items = []any{nil}
		}
		decided := st.loopOK
		n := 0
		for _, it := range items {
			l := map[string]any{}
			for k, x := range st.locals {
				l[k] = x
			}
			if it != nil {
				l["item"] = it
			}
			lk := v.lookup(rr, l)
			x, err := ansible.Template(st.name, lk)
			s, isStr := x.(string)
			if err != nil || !isStr {
				decided = false
				break
			}
			n++
			tg := target{nil, skip, unsure}
			if tg.skip == "" && it != nil {
				// The loop's when: is evaluated per item.
				if c, why := when(st.when, lk); c == condFalse {
					tg.skip = why
				} else if c == condUnknown {
					tg.unsure = addUnsure(unsure, why)
				}
			}
			path := v.hr.c.rolePath(filepath.FromSlash(s), filepath.Dir(v.pr.Play.Pos.File), "")
			for _, r := range st.roles {
				if path != "" && r.basePath == path {
					tg.st = r
					break
				}
			}
			if tg.st != nil {
				targets = append(targets, tg)
			}
		}
		if !decided || n == 0 {
			// Every role the templated name can be.
			targets = nil
			for _, r := range st.roles {
				targets = append(targets, target{r, skip, addUnsure(unsure, "include_role name "+st.name)})
			}
		}
	}
	for _, tg := range targets {
		var chain []*RoleRun
		if rr != nil {
			chain = append(append([]*RoleRun(nil), rr.Chain...), rr)
		}
		nr := &RoleRun{Role: tg.st.role, Chain: chain, Via: st.kind, Pos: st.pos, TasksFrom: tg.st.tasksFrom, Skip: tg.skip, Unsure: tg.unsure, inst: tg.st.inst}
		if st.kind == "include_role" && st.public && tg.skip == "" {
			v.pr.Roles = append(v.pr.Roles, nr)
		}
		v.role(nr, tg.st)
	}
}

// groupBy adds the host to a group_by task's group (a fixed key) when its when: holds or
// cannot be decided (then unsure).
func (v *hostPass) groupBy(st *taskStep, rr *RoleRun, unsure []string) {
	key := st.name
	if key == "" || ansible.IsTemplated(key) {
		return // a group named at run time (dynamic_groups is modelled on its own)
	}
	c, why := when(st.when, v.lookup(rr, st.locals))
	if c == condFalse {
		return
	}
	a := GroupAdd{Group: key, Task: st.pos, Play: v.pr.Play.Name}
	if c == condUnknown {
		a.Unsure = why
	} else if len(unsure) > 0 {
		a.Unsure = strings.Join(unsure, "; ")
	}
	v.adds = append(v.adds, a)
	v.hr.Adds = append(v.hr.Adds, a)
	v.hr.ops = append(v.hr.ops, groupOp{group: key, host: v.hr.Host})
}
