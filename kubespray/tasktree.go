package kubespray

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
)

// TaskTree is cluster.yml compiled the way ansible-core 2.14 builds its plays' task lists:
// every play's pre_tasks, roles (meta dependencies first), tasks and post_tasks, with
// import_tasks/import_role followed statically and include_tasks/include_role followed as
// if they ran (every file or role a templated name can match), each task carrying the tags
// Ansible evaluates for it, and each play's handlers.
//
// Read in ansible-core 2.14.18 (Debian 12's ansible-core): playbook/helpers.py
// load_list_of_tasks (an import's tags are added to every imported block),
// playbook/task.py and block.py _get_parent_attribute (tags extend up the parent chain, a
// dynamic include is skipped: its own tags do not reach the included tasks, its parents'
// do), playbook/task_include.py and role_include.py build_parent_block and get_block_list
// (apply: becomes a block above the included tasks; an included role's handlers join the
// play), playbook/block.py filter_tagged_tasks (every task and include task is filtered,
// and the tasks of an include again when it runs: plugins/strategy/linear.py),
// playbook/taggable.py evaluate_tags, plugins/strategy/__init__.py (notify by name,
// "role : name" or listen topic; the last handler loaded with a name wins).
type TaskTree struct {
	Dir   string
	c     *Checkout
	Plays []*TreePlay
	// Tags is every tag some task, block, include, role or play carries, sorted: what
	// ansible-playbook --list-tags would list with the dynamic includes expanded.
	Tags []string
	// Diagnostics are includes and roles that could not be followed.
	Diagnostics diag.Diagnostics
	// ownFiles are the files of the plays' own tasks outside roles/ (playFiles).
	ownFiles []roleFile
}

// TreePlay is one play with its compiled tasks and handlers.
type TreePlay struct {
	Name  string
	Pos   diag.Position
	Hosts string
	// Tasks are the play's tasks in run order, include tasks included (they are filtered by
	// tags too).
	Tasks []*TaskNode
	// Handlers are the play's handlers in load order (role handlers, the play's own, then
	// those of imported and included roles).
	Handlers []*TaskNode
	// notifierIdx are the tasks whose notifications reach each handler (built on first use).
	notifierIdx map[*TaskNode][]*TaskNode
	// byFile and byTemplate index Tasks and Handlers for where (built on first use).
	byFile     map[fileKind][]*TaskNode
	byTemplate map[string][]*TaskNode
	// src is the play as loaded ([Checkout.Plays]: its vars and roles).
	src *Play
	// The play's structure, as a host's run evaluates it (hostrun.go): its roles:
	// entries; its pre_tasks, tasks, post_tasks and handlers (nil when absent); and
	// play.get_roles(): the entries, then the roles import_role adds statically.
	roleEntries []*roleStep
	sections    [4]*fileStep
	getRoles    []*roleStep
	// varsFiles are the play's vars_files as loaded (playVarsFiles).
	varsFiles []ansible.Def
	// blocks are the blocks of the play's tasks (file, first and last line): a use in a
	// block's own when: or vars: is run by the block's tasks.
	blocks []blockSpan
}

type blockSpan struct {
	file     string
	from, to int
}

// roleStep is one place the compiled play runs a role: a roles: entry, a meta
// dependency, or an import_role/include_role target (one per role a templated name can
// be). A host's run ([TaskTree.Run]) makes a [RoleRun] of it where it runs.
type roleStep struct {
	role *ansible.Role
	// basePath is the role's folder (an include_role target is found by it).
	basePath  string
	params    []ansible.Def
	paramsKey string
	when      *yaml.Node
	via       string
	pos       diag.Position
	tasksFrom string
	deps      []*roleStep
	// tasks and handlers are its tasks/<from> and handlers/<from> files (nil: none).
	tasks, handlers *fileStep
	// inst is the role instance its compiled tasks belong to (TaskNode.inst).
	inst *roleInst
}

func newRoleStep(r *ansible.Role, via string, pos diag.Position, params []ansible.Def, when *yaml.Node) *roleStep {
	st := &roleStep{role: r, via: via, pos: pos, params: params, when: when, paramsKey: ansible.Repr(defsValue(params))}
	if r != nil {
		st.basePath = r.Path
	}
	return st
}

// fileStep is a tasks or handlers file as the compiled play reaches it, with the tasks
// of it that shape a host's run: blocks, imports, includes and group_by.
type fileStep struct {
	path     string
	handlers bool
	items    []*taskStep
	// lines are the first and last line of a play's pre_tasks, tasks, post_tasks or
	// handlers section (the sections of a play share their playbook file); zero for a
	// whole tasks file.
	lines [2]int
}

// taskStep is a block, import, include or group_by task of a fileStep.
type taskStep struct {
	// kind is "block", "import_tasks", "include_tasks", "import_role", "include_role",
	// "group_by" or "sets".
	kind string
	pos  diag.Position
	when *yaml.Node
	// locals are the task's vars: (its condition and templated name see them).
	locals   map[string]any
	children []*taskStep
	// name is the include's file or role name, or group_by's key, as written.
	name string
	// files are the files an include or import of tasks can name (rel: the name that
	// finds each); roles the roles an include_role/import_role can name.
	files []includedFile
	roles []*roleStep
	// items are an include_role's loop: items written as a list (loopOK false: a
	// templated loop); hasLoop says there is a loop.
	items                   []any
	loopOK, hasLoop, public bool
	// node is the task of a "sets" step: a set_fact, include_vars or register: task,
	// whose names the host's pass takes as set by the run from there on.
	node *TaskNode
	// body are the first and last lines of a block's tasks (its block:, rescue: and
	// always: lists), which its when: skips; the block's own when: and vars: lines are
	// outside when written after them.
	body [2]int
}

type includedFile struct {
	rel string
	fs  *fileStep
}

// TaskNode is one task (or handler) as one play reaches it. The same task of a file
// reached twice (two plays, or a file included twice) is two nodes.
type TaskNode struct {
	Pos diag.Position
	// End is the last line of the task in its file.
	End  int
	Name string
	// Role is the role the task runs as (the name written in the play, dependency or
	// include_role), "" for a play's own tasks. Ansible prints "Role : Name".
	Role   string
	Action string
	// Tags are the task's tags with those it inherits (blocks, imports, apply:, role
	// entries, meta dependency entries, play, import_playbook), sorted.
	Tags []string
	// Gates are the tags of each dynamic include (include_tasks, include_role) the task is
	// reached through, outermost first: each include must be selected for its tasks to
	// load.
	Gates [][]string
	// Include is set on an include_tasks/include_role task; IncludedRole is the role an
	// include_role names, as written.
	Include      bool
	IncludedRole string
	Handler      bool
	// Rescue is set on a task of a block's rescue: (it runs only when a task of the block
	// fails).
	Rescue bool
	// InAlways is set on a task of a block's always: section.
	InAlways bool
	// RawAction is the module as written (ansible.builtin.debug or debug).
	RawAction string
	Notify    []string
	Listen    []string
	// Templates are the template files a template task renders (every one its src can
	// name); Dest is its dest as written.
	Templates []string
	Dest      string
	// DestDefault is Dest with each {{ var }} that a role default sets to plain text
	// substituted (the task's role, its dependencies, kubespray_defaults); "" if some part
	// is not known that way. The inventory may set another value (explain says).
	DestDefault string
	// Args are the module's arguments as written (scalar values only), for describing a
	// handler.
	Args map[string]string
	// Choices are the values templated include and role names take on the path to the
	// task (the task loads only when they hold).
	Choices []Choice
	// When are the task's when: conditions with those of its enclosing blocks, as written.
	When []string
	// RolePath is the folder of the task's role ("" for a play's own task).
	RolePath string
	// Register is the task's register: name.
	Register string
	// RunOnce is the run_once: in force for the task as written ("" when none): its own,
	// else its nearest block's, static import's or the play's (ansible-core 2.14
	// _get_parent_attribute; a dynamic include's own keyword is skipped, as for tags).
	RunOnce string
	// VarsFiles are the files an include_vars task can load: the file it names, or, for a
	// name templated from facts (kubespray's OS-specific vars, with_first_found), every
	// file of the role's vars/ folder its names can match.
	VarsFiles []string
	// varsNames are the file names of an include_vars as written (one a line).
	varsNames string
	play      *TreePlay
	inst      *roleInst
	// selectedBy are the tags T of the tree for which --tags T runs the task (built on
	// first use by where); anyTag: it runs whatever --tags names.
	selectedBy []string
	anyTag     bool
	selDone    bool
	// Vars are the vars: of the blocks, imports and includes around the task and its own,
	// outermost first (runtime.go: task vars); IncludeParams the vars: of the
	// include_tasks/include_role tasks above it (include params).
	Vars          []ScopeVars
	IncludeParams []ScopeVars
	// src is the task as written.
	src *yaml.Node
}

// Play is the play that reaches the node.
func (t *TaskNode) Play() *TreePlay { return t.play }

// DisplayName is the task's name as ansible-playbook's default callback prints it in
// "TASK [...]": "role : name" (task.py get_name; an unnamed task has its module for name),
// but an include_role/import_role task is its name alone, or "include_role : ROLE"
// (role_include.py get_name).
func (t *TaskNode) DisplayName() string {
	if t.Include && strings.HasSuffix(t.Action, "_role") {
		if t.Name != "" {
			return t.Name
		}
		return t.RawAction + " : " + t.IncludedRole
	}
	name := t.Name
	if name == "" {
		name = t.RawAction
	}
	if t.Role != "" {
		return t.Role + " : " + name
	}
	return name
}

// Selected reports whether ansible-playbook --tags only --skip-tags skip runs the task:
// every include above it and the task itself pass taggable.py evaluate_tags. An empty
// only is ansible's default, "all".
func (t *TaskNode) Selected(only, skip []string) bool {
	if len(only) == 0 {
		only = []string{"all"}
	}
	return t.tagSelected(only, skip) && !t.inst.shadowed(only, skip, 0)
}

func (t *TaskNode) tagSelected(only, skip []string) bool {
	for _, g := range t.Gates {
		if !evaluateTags(g, only, skip) {
			return false
		}
	}
	return evaluateTags(t.Tags, only, skip)
}

// roleInst is one place a play runs a role. Ansible keeps one Role object per role name
// and parameters (tags, when, vars, role params, from_include) in a play
// (playbook/role/__init__.py Role.load, ROLE_CACHE); once an instance had a task run and
// reached its implicit role_complete task (tagged always, with the role's tags), later
// instances of the same object are skipped ("role has already run",
// plugins/strategy/linear.py), unless meta/main.yml allows duplicates. Roles brought by
// include_role/import_role allow duplicates (role_include.py allow_duplicates defaults to
// true).
type roleInst struct {
	nodes    []*TaskNode
	earlier  []*roleInst
	eorTags  []string
	gates    [][]string
	choices  []Choice
	allowDup bool
}

// shadowed: an earlier instance of the same role object ran under this selection.
func (ri *roleInst) shadowed(only, skip []string, depth int) bool {
	if ri == nil || ri.allowDup || depth > 20 {
		return false
	}
	for _, e := range ri.earlier {
		if compatible(e.choices, ri.choices) && e.ran(only, skip, depth+1) {
			return true
		}
	}
	return false
}

// compatible: no expression takes two values (paths through different choices of a
// templated name never both load: kubespray's Container Manager includes one of cri-o,
// cri-dockerd, containerd).
func compatible(a, b []Choice) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Expr == y.Expr && x.Value != y.Value {
				return false
			}
		}
	}
	return true
}

// ran: some task of the instance ran and its role_complete task ran too.
func (ri *roleInst) ran(only, skip []string, depth int) bool {
	if ri.shadowed(only, skip, depth) {
		return false
	}
	for _, g := range ri.gates {
		if !evaluateTags(g, only, skip) {
			return false
		}
	}
	if !evaluateTags(ri.eorTags, only, skip) {
		return false
	}
	for _, n := range ri.nodes {
		if !n.Handler && n.tagSelected(only, skip) {
			return true
		}
	}
	return false
}

// EvaluateTags is ansible-core 2.14 playbook/taggable.py Taggable.evaluate_tags for a task
// whose effective tags are tags (untagged tasks carry the implicit "untagged").
func evaluateTags(tags, only, skip []string) bool {
	set := map[string]bool{}
	for _, t := range tags {
		set[t] = true
	}
	if len(set) == 0 {
		set["untagged"] = true
	}
	// tags != self.untagged compares sets: a task tagged only "untagged" counts as untagged.
	untagged := len(set) == 1 && set["untagged"]
	in := func(xs []string) bool {
		for _, x := range xs {
			if set[x] {
				return true
			}
		}
		return false
	}
	has := func(xs []string, s string) bool {
		for _, x := range xs {
			if x == s {
				return true
			}
		}
		return false
	}
	run := true
	if len(only) > 0 {
		switch {
		case set["always"]:
		case has(only, "all") && !set["never"]:
		case in(only):
		case has(only, "tagged") && !untagged && !set["never"]:
		default:
			run = false
		}
	}
	if run && len(skip) > 0 {
		switch {
		case has(skip, "all"):
			if !set["always"] || has(skip, "always") {
				run = false
			}
		case in(skip):
			run = false
		case has(skip, "tagged") && !untagged:
			run = false
		}
	}
	return run
}

// StaticTags are the tags ansible-playbook --list-tags prints (TASK TAGS): those of the
// tasks and include tasks known before anything runs, i.e. not below a dynamic include.
func (tt *TaskTree) staticTags() []string {
	var out []string
	for _, pl := range tt.Plays {
		for _, n := range pl.Tasks {
			// cli/playbook.py lists the tasks of each block's block: only, not rescue:
			// or always:.
			if len(n.Gates) == 0 && !n.Rescue && !n.InAlways {
				out = appendUniq(out, n.Tags...)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Tasks is the checkout's cluster.yml compiled, once per checkout.
func (c *Checkout) Tasks() *TaskTree {
	if c.tree == nil {
		c.tree = c.compileTasks()
	}
	return c.tree
}

// CompileTasks compiles the checkout's cluster.yml.
func (c *Checkout) compileTasks() *TaskTree {
	tt := &TaskTree{Dir: c.Dir, c: c}
	b := &treeBuilder{c: c, tt: tt, tags: map[string]bool{}, seenDiag: map[string]bool{}, variant: map[string]*ansible.Role{}}
	b.playbook(c.Playbook, nil, 0)
	for t := range b.tags {
		tt.Tags = append(tt.Tags, t)
	}
	sort.Strings(tt.Tags)
	return tt
}

type treeBuilder struct {
	// insts are the role instances of the play being compiled, by role object key.
	insts    map[string][]*roleInst
	c        *Checkout
	tt       *TaskTree
	tags     map[string]bool
	seenDiag map[string]bool
	// variant are the roles loaded with defaults_from/vars_from, by folder and files.
	variant map[string]*ansible.Role
	// staticSeen are the role runs of the play reached statically (play.get_roles():
	// one run per role, tasks_from and params); imports the roles import_role adds
	// there, by the part of the play that reaches them (roles:, pre_tasks, tasks,
	// post_tasks, handlers), section the part being compiled.
	staticSeen map[string]bool
	imports    [5][]*roleStep
	section    int
}

// scope is what a task inherits where it is loaded.
type scope struct {
	play     *TreePlay
	playDir  string
	role     string // role name, "" for play tasks
	rolePath string
	tags     []string
	gates    [][]string
	dir      string // folder of the file being read (relative includes)
	file     string // the file being read
	handlers bool
	depth    int
	vars     map[string]*yaml.Node // vars: of enclosing includes (templated names)
	loop     *yaml.Node
	choices  []Choice
	rescue   bool
	always   bool
	inst     *roleInst
	// whens are the when: conditions of the enclosing blocks (as written).
	whens []string
	// runOnce is the run_once: of the nearest enclosing block, import or play.
	runOnce string
	// tvars and iparams are the vars: of the enclosing blocks and includes (runtime.go).
	tvars, iparams []ScopeVars
	// items is the list the structure of the tasks read goes to; nostatic is set below a
	// role run play.get_roles() does not walk again (the same role, tasks_from and
	// params reached twice).
	items    *[]*taskStep
	nostatic bool
}

// ownRunOnce is the run_once: a task, block or import writes, else the one it inherits.
func ownRunOnce(t *yaml.Node, inherited string) string {
	if v := get(t, "run_once"); v != nil {
		return v.Value
	}
	return inherited
}

// addStep appends a task's structure to the list being compiled.
func (sc scope) addStep(st *taskStep) {
	if sc.items != nil {
		*sc.items = append(*sc.items, st)
	}
}

// static: play.get_roles() reaches this part of the play (no dynamic include above it).
func (sc scope) static() bool { return len(sc.gates) == 0 && !sc.nostatic }

func (b *treeBuilder) note(pos diag.Position, msg string) {
	key := pos.String() + msg
	if b.seenDiag[key] {
		return
	}
	b.seenDiag[key] = true
	b.tt.Diagnostics = append(b.tt.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "KS012", Pos: pos, Message: msg})
}

func (b *treeBuilder) addTags(ts []string) {
	for _, t := range ts {
		if !strings.Contains(t, "{{") {
			b.tags[t] = true
		}
	}
}

func (b *treeBuilder) playbook(path string, inherit []string, depth int) {
	if depth > 20 {
		return
	}
	root, err := b.c.node(path)
	if err != nil || root == nil || root.Kind != yaml.SequenceNode {
		return
	}
	dir := filepath.Dir(path)
	for _, p := range root.Content {
		tags := union(inherit, tagsOf(p))
		imp := get(p, "import_playbook")
		if imp == nil {
			imp = get(p, "ansible.builtin.import_playbook")
		}
		if imp != nil {
			b.playbook(filepath.Join(dir, imp.Value), tags, depth+1)
			continue
		}
		b.addTags(tags)
		pl := &TreePlay{Pos: diag.Position{File: path, Line: p.Line, Column: p.Column}}
		if n := get(p, "name"); n != nil {
			pl.Name = n.Value
		}
		if h := get(p, "hosts"); h != nil {
			pl.Hosts = h.Value
		}
		if i := len(b.tt.Plays); i < len(b.c.Plays) {
			pl.src = b.c.Plays[i]
		}
		pl.varsFiles = b.playVarsFiles(dir, get(p, "vars_files"))
		sc := scope{play: pl, playDir: dir, tags: tags, dir: dir, file: path, runOnce: ownRunOnce(p, "")}
		b.insts = map[string][]*roleInst{}
		b.staticSeen, b.imports = map[string]bool{}, [5][]*roleStep{}
		section := func(k int, seq *yaml.Node, sc scope) {
			fs := &fileStep{path: path, handlers: sc.handlers, lines: [2]int{seq.Line, lastLine(seq)}}
			sc.items = &fs.items
			b.section = k + 1
			b.tasks(seq, sc)
			pl.sections[k] = fs
		}
		// Play.compile: pre_tasks, roles, tasks, post_tasks; handlers: the roles', then
		// the play's own (playbook/play.py compile_roles_handlers, _load_handlers).
		if s := get(p, "pre_tasks"); s != nil {
			section(0, s, sc)
		}
		var roleHandlers []*TaskNode
		if rs := get(p, "roles"); rs != nil && rs.Kind == yaml.SequenceNode {
			b.section = 0
			for _, re := range rs.Content {
				name, params, whenN := roleEntry(path, re)
				var rtags []string
				if re.Kind == yaml.MappingNode {
					rtags = tagsOf(re)
				}
				epos := diag.Position{File: path, Line: re.Line, Column: re.Column}
				r, err := b.c.role(name, dir, "")
				r = withEntryVars(r, path, re)
				st := newRoleStep(r, "play", epos, params, whenN)
				st.paramsKey += entryVarsKey(re)
				if err == nil && r != nil {
					pl.roleEntries = append(pl.roleEntries, st)
				}
				before := len(pl.Handlers)
				b.role(st, name, "", sc, union(tags, rtags), "", "", pl.Pos, roleKey(re))
				roleHandlers = append(roleHandlers, pl.Handlers[before:]...)
				pl.Handlers = pl.Handlers[:before]
			}
		}
		if s := get(p, "tasks"); s != nil {
			section(1, s, sc)
		}
		if s := get(p, "post_tasks"); s != nil {
			section(2, s, sc)
		}
		own := pl.Handlers
		pl.Handlers = nil
		if s := get(p, "handlers"); s != nil {
			hs := sc
			hs.handlers = true
			section(3, s, hs)
		}
		pl.Handlers = append(append(roleHandlers, pl.Handlers...), own...)
		// The imports join play.get_roles() as the play loads its parts: roles: (their
		// tasks' imports), then the task lists in base.py load_data's order (priority,
		// then as play.py declares them): handlers, pre_tasks, post_tasks, tasks. The
		// last one listed wins a variable they share.
		pl.getRoles = append([]*roleStep(nil), pl.roleEntries...)
		for _, k := range []int{0, 4, 1, 3, 2} {
			pl.getRoles = append(pl.getRoles, b.imports[k]...)
		}
		b.tt.Plays = append(b.tt.Plays, pl)
	}
}

// role compiles a role for a play into st: its meta dependencies first (each with the
// tags of its dependency entry), then tasks/<from>, and adds handlers/<hfrom> to the play.
func (b *treeBuilder) role(st *roleStep, name, parentPath string, sc scope, tags []string, from, hfrom string, pos diag.Position, key string) {
	if sc.depth > 30 {
		return
	}
	path := b.c.rolePath(filepath.FromSlash(name), sc.playDir, parentPath)
	if path == "" {
		b.note(pos, "role "+name+" not found: its tasks are not followed")
		return
	}
	r, _ := b.c.role(name, sc.playDir, parentPath)
	b.addTags(tags)
	if sc.static() && st.role != nil {
		// play.get_roles() walks a role run once per role, tasks_from and params.
		k := st.role.Path + "|" + st.tasksFrom + "|" + st.paramsKey
		if b.staticSeen[k] && (st.via == "play" || st.via == "dependency") {
			sc.nostatic = true
		}
		b.staticSeen[k] = true
	}
	metaFile := filepath.Join(path, "meta", "main.yml")
	meta, _ := b.c.node(metaFile)
	if r != nil {
		var entries []*yaml.Node
		if deps := get(meta, "dependencies"); deps != nil && deps.Kind == yaml.SequenceNode {
			entries = deps.Content
		}
		deps := r.Deps
		if st.role != nil {
			deps = st.role.Deps
		}
		for i, d := range deps {
			dkey := "\x00"
			ds := newRoleStep(d, "dependency", diag.Position{}, nil, nil)
			if i < len(entries) {
				dkey = roleKey(entries[i])
				_, params, whenN := roleEntry(metaFile, entries[i])
				ds = newRoleStep(withEntryVars(d, metaFile, entries[i]), "dependency", diag.Position{File: metaFile, Line: entries[i].Line, Column: entries[i].Column}, params, whenN)
				ds.paramsKey += entryVarsKey(entries[i])
			}
			st.deps = append(st.deps, ds)
			b.role(ds, d.Name, filepath.Dir(path), scope{play: sc.play, playDir: sc.playDir, gates: sc.gates, depth: sc.depth + 1, choices: sc.choices, tvars: sc.tvars, iparams: sc.iparams, nostatic: sc.nostatic, runOnce: sc.runOnce},
				union(tags, b.c.depTags[[2]*ansible.Role{r, d}]), "", "", pos, dkey)
		}
		// A dependency loaded with its entry's vars: is the one whose vars the role's
		// get_vars combines (the dependencies', then its own).
		if st.role != nil && len(st.deps) == len(deps) {
			var nd []*ansible.Role
			for i, ds := range st.deps {
				if ds.role != deps[i] && nd == nil {
					nd = append([]*ansible.Role(nil), deps...)
				}
				if nd != nil {
					nd[i] = ds.role
				}
			}
			if nd != nil {
				cp := *st.role
				cp.Deps = nd
				st.role = &cp
			}
		}
	}
	inst := &roleInst{eorTags: union(tags, []string{"always"}), gates: sc.gates, choices: sc.choices}
	if key == "" {
		inst.allowDup = true
	} else {
		key = path + "\x00" + key
		inst.allowDup = scalar(get(meta, "allow_duplicates")) == "true" || scalar(get(meta, "allow_duplicates")) == "yes"
		inst.earlier = b.insts[key]
		b.insts[key] = append(b.insts[key], inst)
	}
	st.inst = inst
	rs := scope{play: sc.play, playDir: sc.playDir, role: name, rolePath: path, tags: tags, gates: sc.gates, depth: sc.depth + 1, choices: sc.choices, inst: inst, tvars: sc.tvars, iparams: sc.iparams, nostatic: sc.nostatic, runOnce: sc.runOnce}
	if from == "" {
		from = "main"
	}
	b.argSpecTask(path, from, rs, pos)
	if f := b.c.roleFile(filepath.Join(path, "tasks"), from); f != "" {
		rs.dir = filepath.Dir(f)
		st.tasks = b.file(f, rs)
	}
	if hfrom == "" {
		hfrom = "main"
	}
	if f := b.c.roleFile(filepath.Join(path, "handlers"), hfrom); f != "" {
		hs := rs
		hs.handlers = true
		hs.dir = filepath.Dir(f)
		st.handlers = b.file(f, hs)
	}
}

var (
	reTemplateLookup = regexp.MustCompile(`lookup\(\s*['"](?:ansible\.builtin\.)?template['"]\s*,\s*(?:['"]([^'"]+)['"]|(item)\s*\))`)
	reIdent          = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	reQuotedJ2       = regexp.MustCompile(`['"]([^'"]+\.j2)['"]`)
)

// loopNames are the file names a loop can give item: the items of a list written in the
// task, or of the role variable (vars/ or defaults/) the loop expression names, following
// the list variables and quoted .j2 names its templated items mention (every one of them,
// whatever their conditions say).
func (b *treeBuilder) loopNames(loop *yaml.Node, rolePath string) []string {
	if loop == nil {
		return nil
	}
	if loop.Kind == yaml.SequenceNode {
		var out []string
		for _, c := range loop.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c.Value)
			}
		}
		return out
	}
	r := b.c.roles[rolePath]
	if r == nil {
		return nil
	}
	lookup := func(name string) (any, bool) {
		for _, defs := range [][]ansible.Def{r.Vars, r.Defaults} {
			for i := len(defs) - 1; i >= 0; i-- {
				if defs[i].Name == name {
					return defs[i].Value, true
				}
			}
		}
		return nil, false
	}
	var out []string
	seen := map[string]bool{}
	var walk func(expr string, depth int)
	walk = func(expr string, depth int) {
		if depth > 10 {
			return
		}
		for _, q := range reQuotedJ2.FindAllStringSubmatch(expr, -1) {
			out = appendUniq(out, q[1])
		}
		for _, id := range reIdent.FindAllString(reQuoted.ReplaceAllString(expr, ""), -1) {
			v, ok := lookup(id)
			if !ok || seen[id] {
				continue
			}
			seen[id] = true
			items, isList := v.([]any)
			if !isList {
				continue
			}
			for _, it := range items {
				if s, isStr := it.(string); isStr {
					if strings.Contains(s, "{{") {
						walk(s, depth+1)
					} else {
						out = appendUniq(out, s)
					}
				}
			}
		}
	}
	if m := reJinjaExpr.FindStringSubmatch(loop.Value); m != nil {
		walk(m[1], 0)
	}
	return out
}

// templateLookups finds lookup('template', 'NAME') in a task's values.
func templateLookups(n *yaml.Node, depth int) []string {
	if n == nil || depth > 30 {
		return nil
	}
	var out []string
	// The pattern's literal "lookup(" first: most values have none.
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "lookup(") {
		for _, m := range reTemplateLookup.FindAllStringSubmatch(n.Value, -1) {
			out = append(out, m[1]+m[2])
		}
	}
	for _, c := range n.Content {
		out = append(out, templateLookups(c, depth+1)...)
	}
	return out
}

// withDefaults substitutes {{ var }} in s with plain-text role defaults.
func (b *treeBuilder) withDefaults(s, rolePath string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var roles []*ansible.Role
	var walk func(r *ansible.Role, depth int)
	walk = func(r *ansible.Role, depth int) {
		if r == nil || depth > 20 {
			return
		}
		roles = append(roles, r)
		for _, d := range r.Deps {
			walk(d, depth+1)
		}
	}
	walk(b.c.roles[rolePath], 0)
	walk(b.c.roles[filepath.Join(b.c.Dir, "roles", "kubespray_defaults")], 0)
	ok := true
	out := reJinjaExpr.ReplaceAllStringFunc(s, func(m string) string {
		name := strings.TrimSpace(reJinjaExpr.FindStringSubmatch(m)[1])
		for _, r := range roles {
			for i := len(r.Defaults) - 1; i >= 0; i-- {
				if d := r.Defaults[i]; d.Name == name {
					if v, isStr := d.Value.(string); isStr && !strings.Contains(v, "{{") {
						return v
					}
					ok = false
					return m
				}
			}
		}
		ok = false
		return m
	})
	if !ok {
		return ""
	}
	return out
}

// argSpecTask adds the task ansible-core 2.14 puts first in a role whose
// meta/argument_specs.yml (or meta/main.yml argument_specs:) has the entry point: named
// "Validating arguments against arg spec 'ENTRY' - SHORT_DESCRIPTION", tagged always
// (playbook/role/__init__.py _prepend_validation_task, _create_validation_task).
func (b *treeBuilder) argSpecTask(path, entry string, rs scope, pos diag.Position) {
	var specs *yaml.Node
	file := ""
	for _, f := range []string{"argument_specs.yml", "argument_specs.yaml"} {
		p := filepath.Join(path, "meta", f)
		if n, err := b.c.node(p); err == nil && n != nil {
			specs, file = get(n, "argument_specs"), p
			break
		}
	}
	if specs == nil {
		p := filepath.Join(path, "meta", "main.yml")
		if n, err := b.c.node(p); err == nil && n != nil {
			specs, file = get(n, "argument_specs"), p
		}
	}
	if specs == nil || specs.Kind != yaml.MappingNode {
		return
	}
	for j := 0; j+1 < len(specs.Content); j += 2 {
		if specs.Content[j].Value != entry {
			continue
		}
		k, spec := specs.Content[j], specs.Content[j+1]
		name := "Validating arguments against arg spec '" + entry + "'"
		if d := get(spec, "short_description"); d != nil {
			name += " - " + d.Value
		}
		rs.file = file
		b.addNode(rs, &TaskNode{Pos: diag.Position{File: file, Line: k.Line, Column: k.Column}, End: lastLine(spec), Name: name, Role: rs.role,
			Action: "validate_argument_spec", RawAction: "ansible.builtin.validate_argument_spec", Tags: union(rs.tags, []string{"always"}), Gates: rs.gates, Args: map[string]string{}})
		b.addTags([]string{"always"})
		return
	}
}

// roleKey is what makes a play's or meta dependency's role entry the same Role object as
// another: its parameters, tags, when and vars as written (the name aside; the path is
// added by the caller).
func roleKey(entry *yaml.Node) string {
	if entry == nil || entry.Kind != yaml.MappingNode {
		return "{}"
	}
	var parts []string
	for j := 0; j+1 < len(entry.Content); j += 2 {
		k := entry.Content[j].Value
		if k == "role" || k == "name" {
			continue
		}
		v, _ := yaml.Marshal(entry.Content[j+1])
		parts = append(parts, k+"="+string(v))
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ",") + "}"
}

// roleFile is playbook/role/__init__.py _load_role_yaml's search for tasks/NAME: NAME,
// NAME.yml, NAME.yaml, NAME.json.
func (c *Checkout) roleFile(dir, name string) string {
	for _, ext := range []string{".yml", ".yaml", ".json", ""} {
		p := filepath.Join(dir, name+ext)
		if fi, err := c.stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

func (b *treeBuilder) file(path string, sc scope) *fileStep {
	if sc.depth > 40 {
		return nil
	}
	n, err := b.c.node(path)
	if err != nil || n == nil {
		if err != nil {
			b.note(diag.Position{File: path}, "cannot read: "+err.Error())
		}
		return nil
	}
	fs := &fileStep{path: path, handlers: sc.handlers}
	sc.dir, sc.file, sc.items = filepath.Dir(path), path, &fs.items
	b.tasks(n, sc)
	return fs
}

var includeActions = map[string]string{
	"import_tasks": "import_tasks", "ansible.builtin.import_tasks": "import_tasks", "ansible.legacy.import_tasks": "import_tasks",
	"include_tasks": "include_tasks", "ansible.builtin.include_tasks": "include_tasks", "ansible.legacy.include_tasks": "include_tasks",
	"import_role": "import_role", "ansible.builtin.import_role": "import_role", "ansible.legacy.import_role": "import_role",
	"include_role": "include_role", "ansible.builtin.include_role": "include_role", "ansible.legacy.include_role": "include_role",
}

// taskKeywords are the keys of a task that are not its module (playbook/task.py and
// base.py field attributes, plus loop forms).
var taskKeywords = map[string]bool{"name": true, "tags": true, "when": true, "notify": true, "listen": true, "register": true,
	"vars": true, "loop": true, "loop_control": true, "become": true, "become_user": true, "become_method": true, "become_flags": true,
	"ignore_errors": true, "ignore_unreachable": true, "changed_when": true, "failed_when": true, "until": true, "retries": true,
	"delay": true, "delegate_to": true, "delegate_facts": true, "run_once": true, "no_log": true, "environment": true,
	"args": true, "check_mode": true, "diff": true, "any_errors_fatal": true, "throttle": true, "timeout": true, "async": true,
	"poll": true, "connection": true, "module_defaults": true, "collections": true, "debugger": true, "local_action": true,
	"action": true, "port": true, "remote_user": true}

func (b *treeBuilder) tasks(seq *yaml.Node, sc scope) {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return
	}
	for i, t := range seq.Content {
		if t.Kind != yaml.MappingNode {
			continue
		}
		end := lastLine(t)
		if i+1 < len(seq.Content) && seq.Content[i+1].Line-1 > end {
			// Comments and blank lines up to the next task belong to this one.
			end = seq.Content[i+1].Line - 1
		}
		tags := union(sc.tags, tagsOf(t))
		if !sc.handlers {
			// A handler's tags select nothing (handlers are not filtered by tags).
			b.addTags(tagsOf(t))
		}
		if get(t, "block") != nil {
			inner := sc
			inner.tags = tags
			inner.whens = append(sc.whens[:len(sc.whens):len(sc.whens)], list(get(t, "when"))...)
			inner.runOnce = ownRunOnce(t, sc.runOnce)
			inner.tvars = withScopeVars(sc.tvars, sc.file, "block", t)
			if !sc.handlers {
				sc.play.blocks = append(sc.play.blocks, blockSpan{sc.file, t.Line, lastLine(t)})
			}
			st := &taskStep{kind: "block", pos: diag.Position{File: sc.file, Line: t.Line, Column: t.Column}, when: get(t, "when"), locals: taskLocals(sc.file, t)}
			for _, k := range []string{"block", "rescue", "always"} {
				if l := get(t, k); l != nil && len(l.Content) > 0 {
					if st.body[0] == 0 || l.Content[0].Line < st.body[0] {
						st.body[0] = l.Content[0].Line
					}
					st.body[1] = max(st.body[1], lastLine(l))
				}
			}
			sc.addStep(st)
			inner.items = &st.children
			for _, k := range []string{"block", "rescue", "always"} {
				inner.rescue = sc.rescue || k == "rescue"
				inner.always = sc.always || k == "always"
				b.tasks(get(t, k), inner)
			}
			continue
		}
		action, args := "", (*yaml.Node)(nil)
		kind := ""
		for j := 0; j+1 < len(t.Content); j += 2 {
			k := t.Content[j].Value
			if ik, ok := includeActions[k]; ok {
				kind, action, args = ik, k, t.Content[j+1]
				break
			}
			if !taskKeywords[k] && !strings.HasPrefix(k, "with_") && action == "" {
				action, args = k, t.Content[j+1]
			}
		}
		for _, k := range []string{"action", "local_action"} {
			if a := get(t, k); a != nil && action == "" && a.Kind == yaml.ScalarNode {
				action = strings.Fields(a.Value + " x")[0]
			} else if a != nil && action == "" && a.Kind == yaml.MappingNode {
				action = scalar(get(a, "module"))
			}
		}
		pos := diag.Position{File: sc.file, Line: t.Line, Column: t.Column}
		vars := sc.vars
		if v := get(t, "vars"); v != nil && v.Kind == yaml.MappingNode {
			vars = map[string]*yaml.Node{}
			for k, x := range sc.vars {
				vars[k] = x
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				vars[v.Content[j].Value] = v.Content[j+1]
			}
		}
		loop := get(t, "loop")
		if loop == nil {
			loop = get(t, "with_items")
		}
		switch kind {
		case "import_tasks", "include_tasks":
			file := args.Value
			var apply []string
			if args.Kind == yaml.MappingNode {
				file = ""
				if f := get(args, "file"); f != nil {
					file = f.Value
				} else if f := get(args, "_raw_params"); f != nil {
					file = f.Value
				}
				if ap := get(args, "apply"); ap != nil {
					apply = tagsOf(ap)
				}
			}
			inner := sc
			inner.vars, inner.loop = vars, loop
			inner.tvars = withScopeVars(sc.tvars, sc.file, kind, t)
			if kind == "include_tasks" {
				inner.iparams = withScopeVars(sc.iparams, sc.file, kind, t)
			}
			if kind == "import_tasks" {
				inner.tags = tags
				inner.runOnce = ownRunOnce(t, sc.runOnce)
			} else {
				b.addNode(sc, &TaskNode{Pos: pos, End: end, Name: scalar(get(t, "name")), Role: sc.role, Action: "include_tasks", RawAction: action, Tags: tags, Gates: sc.gates, Include: true})
				inner.tags = union(sc.tags, substituteTags(apply, sc.choices))
				b.addTags(apply)
				inner.gates = append(sc.gates[:len(sc.gates):len(sc.gates)], tags)
			}
			files := b.resolveTaskFile(sc, file, vars, loop)
			if len(files) == 0 && file != "" {
				b.note(pos, kind+" "+file+": no such file found (its tasks are not followed)")
			}
			st := &taskStep{kind: kind, pos: pos, when: get(t, "when"), locals: taskLocals(sc.file, t), name: file}
			sc.addStep(st)
			inner.depth++
			for _, f := range files {
				fs := inner
				fs.choices = append(sc.choices[:len(sc.choices):len(sc.choices)], f.choices...)
				if c := b.file(f.path, fs); c != nil {
					st.files = append(st.files, includedFile{rel: f.rel, fs: c})
				}
			}
		case "import_role", "include_role":
			if args.Kind == yaml.ScalarNode {
				// The k=v form: include_role: name=foo tasks_from=bar.
				m := &yaml.Node{Kind: yaml.MappingNode}
				for _, f := range strings.Fields(args.Value) {
					if k, v, ok := strings.Cut(f, "="); ok {
						m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Value: strings.Trim(v, `'"`)})
					}
				}
				args = m
			}
			if args.Kind != yaml.MappingNode {
				continue
			}
			name := scalar(get(args, "name"))
			if get(args, "name") == nil {
				// role_include.py: name, or its alias role.
				name = scalar(get(args, "role"))
			}
			from, hfrom := scalar(get(args, "tasks_from")), scalar(get(args, "handlers_from"))
			var apply []string
			if ap := get(args, "apply"); ap != nil {
				apply = tagsOf(ap)
			}
			inner := sc
			inner.vars, inner.loop = vars, loop
			inner.tvars = withScopeVars(sc.tvars, sc.file, kind, t)
			if kind == "include_role" {
				inner.iparams = withScopeVars(sc.iparams, sc.file, kind, t)
			}
			rtags := tags
			if kind == "import_role" {
				// An import's apply: is an error in ansible; its tags are the task's.
				apply = nil
				inner.runOnce = ownRunOnce(t, sc.runOnce)
			}
			if kind == "include_role" {
				b.addNode(sc, &TaskNode{Pos: pos, End: end, Name: scalar(get(t, "name")), Role: sc.role, Action: "include_role", RawAction: action, IncludedRole: name, Tags: tags, Gates: sc.gates, Include: true})
				inner.gates = append(sc.gates[:len(sc.gates):len(sc.gates)], tags)
				rtags = sc.tags
			}
			st := &taskStep{kind: kind, pos: pos, when: get(t, "when"), locals: taskLocals(sc.file, t), name: name}
			st.items, st.loopOK = loopItems(sc.file, t)
			st.hasLoop = get(t, "loop") != nil || get(t, "with_items") != nil
			if n := get(args, "public"); n != nil && (n.Value == "true" || n.Value == "yes" || n.Value == "True") {
				st.public = true
			}
			sc.addStep(st)
			inner.depth++
			for _, ex := range b.expandRole(name, apply, vars, loop) {
				rs := inner
				rs.choices = append(sc.choices[:len(sc.choices):len(sc.choices)], ex.choices...)
				b.addTags(ex.tags)
				rst := b.includedRole(ex.role, sc.playDir, args)
				rst.via, rst.pos = kind, pos
				// The task's vars: are the role's vars too (role_include.py
				// get_block_list: ri.vars.update(self.vars)): an import's role is in
				// play.get_roles(), so every task of the play sees them as role vars.
				rst.role = withEntryVars(rst.role, sc.file, t)
				rst.paramsKey += entryVarsKey(t)
				if rst.role != nil {
					st.roles = append(st.roles, rst)
					if kind == "import_role" && sc.static() && !ansible.IsTemplated(name) {
						b.imports[b.section] = append(b.imports[b.section], rst)
					}
				}
				b.role(rst, ex.role, sc.rolePath, rs, union(rtags, ex.tags), from, hfrom, pos, "")
			}
		default:
			n := &TaskNode{Pos: pos, End: end, Name: scalar(get(t, "name")), Role: sc.role, Action: strings.TrimPrefix(strings.TrimPrefix(action, "ansible.builtin."), "ansible.legacy."), RawAction: action,
				Tags: tags, Gates: sc.gates, Handler: sc.handlers, Notify: list(get(t, "notify")), Listen: list(get(t, "listen")), Args: map[string]string{},
				When: append(sc.whens[:len(sc.whens):len(sc.whens)], list(get(t, "when"))...), RolePath: sc.rolePath, Register: scalar(get(t, "register")), RunOnce: ownRunOnce(t, sc.runOnce),
				Vars: withScopeVars(sc.tvars, sc.file, "task", t), IncludeParams: sc.iparams}
			n.src = t
			if n.Action == "include_vars" {
				n.VarsFiles, n.varsNames = b.includeVarsFiles(sc, args, t)
			}
			if n.Action == "group_by" && args != nil {
				key := args.Value
				if args.Kind == yaml.MappingNode {
					key = scalar(get(args, "key"))
				}
				sc.addStep(&taskStep{kind: "group_by", pos: pos, when: get(t, "when"), locals: taskLocals(sc.file, t), name: key})
			}
			if args != nil {
				if args.Kind == yaml.MappingNode {
					for j := 0; j+1 < len(args.Content); j += 2 {
						if args.Content[j+1].Kind == yaml.ScalarNode {
							n.Args[args.Content[j].Value] = args.Content[j+1].Value
						}
					}
				} else if args.Kind == yaml.ScalarNode {
					n.Args["_raw_params"] = args.Value
				}
			}
			if n.Action == "template" {
				n.Dest = n.Args["dest"]
				n.DestDefault = b.withDefaults(n.Dest, sc.rolePath)
				n.Templates = b.resolveTemplates(sc, n.Args["src"], loop)
			}
			// lookup('template', 'x.j2') renders x.j2 where the task evaluates it;
			// lookup('template', item) each template the loop can name.
			for _, src := range templateLookups(t, 0) {
				if src == "item" {
					for _, name := range b.loopNames(loop, sc.rolePath) {
						n.Templates = union(n.Templates, b.resolveTemplates(sc, name, nil))
					}
					continue
				}
				n.Templates = union(n.Templates, b.resolveTemplates(sc, src, loop))
			}
			if !sc.handlers && (n.Action == "set_fact" || n.Action == "include_vars" || n.Register != "") {
				sc.addStep(&taskStep{kind: "sets", pos: pos, when: get(t, "when"), locals: taskLocals(sc.file, t), node: n})
			}
			b.addNode(sc, n)
		}
	}
}

// includedRole is the role an include_role/import_role of name runs: found from the
// play's folder, loaded again with its defaults_from and vars_from files when given
// (role_include.py). Its role is nil when the role does not load.
func (b *treeBuilder) includedRole(name, playDir string, args *yaml.Node) *roleStep {
	st := &roleStep{paramsKey: ansible.Repr(defsValue(nil))}
	str := func(k string) string {
		if n := get(args, k); n != nil {
			return filepath.Base(n.Value)
		}
		return ""
	}
	st.tasksFrom = str("tasks_from")
	base, err := b.c.role(name, playDir, "")
	if err != nil || base == nil {
		return st
	}
	r := base
	if df, vf := str("defaults_from"), str("vars_from"); df != "" || vf != "" {
		key := base.Path + "|" + df + "|" + vf
		if r = b.variant[key]; r == nil {
			r, _ = ansible.LoadRoleFrom(base.Name, base.Path, df, vf)
			r.Deps = base.Deps
			b.variant[key] = r
		}
	}
	st.role, st.basePath = r, base.Path
	return st
}

// includeVarsFiles are the files an include_vars task can load (plugins/action/include_vars.py
// looks a relative name up in the role's vars/ folder, then beside the tasks file): its
// file name, or each name of a with_first_found/loop list; a templated name matches every
// file of those folders its fixed parts match.
func (b *treeBuilder) includeVarsFiles(sc scope, args, t *yaml.Node) ([]string, string) {
	var names []string
	switch {
	case args == nil:
	case args.Kind == yaml.ScalarNode:
		names = append(names, args.Value)
	case args.Kind == yaml.MappingNode:
		for _, k := range []string{"file", "_raw_params", "name"} {
			if f := get(args, k); f != nil && f.Kind == yaml.ScalarNode {
				names = append(names, f.Value)
				break
			}
		}
	}
	if len(names) == 1 && strings.Contains(names[0], "item") {
		names = nil
		ff := get(t, "with_first_found")
		if ff == nil {
			ff = get(t, "loop")
		}
		var walk func(n *yaml.Node, depth int)
		walk = func(n *yaml.Node, depth int) {
			if n == nil || depth > 5 {
				return
			}
			switch n.Kind {
			case yaml.ScalarNode:
				names = append(names, n.Value)
			case yaml.SequenceNode:
				for _, c := range n.Content {
					walk(c, depth+1)
				}
			case yaml.MappingNode:
				walk(get(n, "files"), depth+1)
			}
		}
		walk(ff, 0)
	}
	// The magic variables known where the task is written: role_path (the role's
	// folder) and playbook_dir (the folder of the playbook holding the play: ansible-core
	// 2.14.18 vars/manager.py _get_magic_variables takes the loader's basedir, which
	// executor/playbook_executor.py sets to an imported playbook's folder). A name built
	// on them is a path as it is.
	for i, n := range names {
		if x := substituteMagic(n, sc.rolePath, sc.playDir); x != n {
			names[i] = x
			if !ansible.IsTemplated(x) && !filepath.IsAbs(x) {
				names[i] = "./" + filepath.ToSlash(x)
			}
		}
	}
	var bases []string
	if sc.rolePath != "" {
		bases = append(bases, filepath.Join(sc.rolePath, "vars"))
	}
	bases = append(bases, filepath.Join(sc.dir, "vars"), sc.dir)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "./") {
			// role_path or playbook_dir substituted: the file itself.
			if fi, err := b.c.stat(filepath.FromSlash(n)); err == nil && !fi.IsDir() {
				out = union(out, []string{filepath.Clean(filepath.FromSlash(n))})
			}
			continue
		}
		for _, base := range bases {
			var found []string
			if !strings.Contains(n, "{{") {
				p := n
				if !filepath.IsAbs(p) {
					p = filepath.Join(base, n)
				}
				if fi, err := b.c.stat(p); err == nil && !fi.IsDir() {
					found = []string{p}
				}
			} else {
				pat := b.c.namePattern(n)
				for _, rel := range b.c.filesUnder(base) {
					// A templated name never stands for main.yml, the role's own vars.
					if !strings.Contains(rel, "/") && pat.match(rel) != nil && !strings.HasPrefix(rel, "main.") {
						found = append(found, filepath.Join(base, rel))
					}
				}
			}
			if len(found) > 0 {
				out = union(out, found)
				break
			}
		}
	}
	return out, strings.Join(names, "\n")
}

var reMagicPath = regexp.MustCompile(`\{\{\s*(role_path|playbook_dir)\s*\}\}`)

// substituteMagic replaces {{ role_path }} and {{ playbook_dir }} in an include_vars
// name with the folders they stand for ("" for role_path outside a role: left as is).
func substituteMagic(name, rolePath, playDir string) string {
	return reMagicPath.ReplaceAllStringFunc(name, func(m string) string {
		switch reMagicPath.FindStringSubmatch(m)[1] {
		case "role_path":
			if rolePath != "" {
				return filepath.ToSlash(rolePath)
			}
		case "playbook_dir":
			if playDir != "" {
				return filepath.ToSlash(playDir)
			}
		}
		return m
	})
}

func (b *treeBuilder) addNode(sc scope, n *TaskNode) {
	n.play = sc.play
	n.Choices = sc.choices
	n.inst = sc.inst
	if sc.inst != nil && !sc.handlers {
		sc.inst.nodes = append(sc.inst.nodes, n)
	}
	n.Rescue = sc.rescue
	n.InAlways = sc.always
	if n.RawAction == "" {
		n.RawAction = n.Action
	}
	if sc.handlers {
		n.Handler = true
		sc.play.Handlers = append(sc.play.Handlers, n)
		return
	}
	sc.play.Tasks = append(sc.play.Tasks, n)
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func list(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind == yaml.ScalarNode {
			out = append(out, c.Value)
		}
	}
	return out
}

func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		if x := lastLine(c); x > l {
			l = x
		}
	}
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "\n") && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		l += strings.Count(strings.TrimRight(n.Value, "\n"), "\n") + 1
	}
	return l
}

func union(a []string, more ...[]string) []string {
	out := append([]string(nil), a...)
	for _, m := range more {
		out = appendUniq(out, m...)
	}
	sort.Strings(out)
	return out
}

var roleKeywords = map[string]bool{"role": true, "name": true, "tags": true, "when": true, "vars": true, "become": true,
	"become_user": true, "become_method": true, "become_flags": true, "become_exe": true, "delegate_to": true,
	"delegate_facts": true, "environment": true, "no_log": true, "any_errors_fatal": true, "ignore_errors": true,
	"ignore_unreachable": true, "connection": true, "collections": true, "check_mode": true, "diff": true,
	"debugger": true, "module_defaults": true, "run_once": true, "throttle": true, "timeout": true, "port": true,
	"remote_user": true}

// playVarsFiles are the variables a play's vars_files load, in order, as ansible-core
// 2.14.18 vars/manager.py get_vars reads them (after the play's vars, before its roles'
// vars): each entry a file, or a list of which the first file found is read; a name is
// found in the playbook's folder's vars/, then in the folder itself
// (path_dwim_relative_stack). A templated name is not read (not modelled: it may depend on
// facts or host variables).
func (b *treeBuilder) playVarsFiles(dir string, n *yaml.Node) []ansible.Def {
	if n == nil {
		return nil
	}
	entries := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		entries = n.Content
	}
	var out []ansible.Def
	for _, e := range entries {
		names := []*yaml.Node{e}
		if e.Kind == yaml.SequenceNode {
			names = e.Content
		}
		for _, nm := range names {
			if nm.Kind != yaml.ScalarNode || ansible.IsTemplated(nm.Value) {
				break
			}
			found := ""
			for _, p := range []string{filepath.Join(dir, "vars", nm.Value), filepath.Join(dir, nm.Value)} {
				if filepath.IsAbs(nm.Value) {
					p = nm.Value
				}
				if fi, err := b.c.stat(p); err == nil && !fi.IsDir() {
					found = p
					break
				}
			}
			if found != "" {
				out = append(out, b.c.varsFile(found)...)
				break
			}
		}
	}
	return out
}

// withEntryVars is the role as a roles: or dependencies: entry with vars: loads it: the
// entry's vars join the role's vars, before vars/main.yml (which beats them). Read in
// ansible-core 2.14.18 playbook/role/__init__.py: Role.load copies the RoleInclude's
// fields (vars among them) to the role, and get_vars combines the parents' vars, the
// dependencies', self.vars, then self._role_vars; vars/manager.py get_vars adds every
// role of play.get_roles() that way (private_role_vars off), so the play's other tasks see
// them too. A different vars: makes another role object (Role.load's hash of the params).
func withEntryVars(r *ansible.Role, file string, entry *yaml.Node) *ansible.Role {
	if r == nil || entry == nil || entry.Kind != yaml.MappingNode {
		return r
	}
	defs, _ := ansible.PlayVars(file, entry)
	if len(defs) == 0 {
		return r
	}
	cp := *r
	cp.Vars = append(defs[:len(defs):len(defs)], r.Vars...)
	return &cp
}

// entryVarsKey tells entries with different vars: apart (another role object each).
func entryVarsKey(entry *yaml.Node) string {
	v := get(entry, "vars")
	if v == nil {
		return ""
	}
	b, _ := yaml.Marshal(v)
	return "|vars=" + string(b)
}

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

func defsValue(ds []ansible.Def) any {
	m := &ansible.Map{}
	for _, d := range ds {
		m.Set(d.Name, d.Value)
	}
	return m
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
