package ansible

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/provenance"
)

// Kinds of input an Ansible assignment comes from (the "kind" of a source in JSON).
const (
	KindRoleDefaults provenance.Kind = "role-defaults"
	KindInventory    provenance.Kind = "inventory"
	KindGroupVars    provenance.Kind = "group_vars"
	KindHostVars     provenance.Kind = "host_vars"
	KindPlayVars     provenance.Kind = "play-vars"
	KindRoleVars     provenance.Kind = "role-vars"
	KindRoleParams   provenance.Kind = "role-params"
	KindExtra        provenance.Kind = "extra"
	// Sources of a task's own scope and of the run (see [Overlay]).
	KindTaskVars      provenance.Kind = "task-vars"
	KindIncludeVars   provenance.Kind = "include_vars"
	KindSetFact       provenance.Kind = "set_fact"
	KindIncludeParams provenance.Kind = "include-params"
)

// Assignment is one place that sets a variable for the host, with what became of it: a
// [provenance.Assignment] (Kind, Pos, Value, Outcome — provenance.Applied for the value in
// force, provenance.Overridden otherwise — and Reason) with Ansible's precedence level.
type Assignment struct {
	provenance.Assignment[any]
	// Level names the precedence level as ansible's documentation does, with its scope:
	// "role defaults (download)", "inventory group vars [kube_node]",
	// "inventory group_vars/all", "playbook host_vars/node1", "extra vars (-e)".
	Level string
	// Scope is the group, host or role the assignment is attached to.
	Scope string
	Raw   string
	// SecretCopy: the value copies a secret by YAML alias ([Entry]); output hides it as a
	// secret's, whatever it spells.
	SecretCopy bool
	rank       int
}

// Var is one variable with its value in force and every assignment in precedence order
// (lowest first; the last is the Source): a [provenance.Entry].
type Var = provenance.Entry[Assignment]

// Role is a role of the play with its defaults and vars as loaded from its folder.
type Role struct {
	Name string
	Path string
	// Deps are the role's meta dependencies, in order.
	Deps     []*Role
	Defaults []Def
	Vars     []Def
	// DefaultsFiles and VarsFiles are the files read.
	DefaultsFiles, VarsFiles []string
}

// LoadRole reads a role's defaults/ and vars/ as playbook/role/__init__.py
// _load_role_yaml does: main.yml, main.yaml, main.json or main (a file, or a folder whose
// files are read recursively in sorted order and combined).
func LoadRole(name, path string) (*Role, error) {
	return LoadRoleFrom(name, path, "", "")
}

// LoadRoleFrom is LoadRole with include_role/import_role's defaults_from and vars_from:
// the file (its base name, as role_include.py keeps it) read instead of main.
func LoadRoleFrom(name, path, defaultsFrom, varsFrom string) (*Role, error) {
	r := &Role{Name: name, Path: path}
	var err error
	if r.Defaults, r.DefaultsFiles, err = loadRoleDir(filepath.Join(path, "defaults"), defaultsFrom); err != nil {
		return r, err
	}
	r.Vars, r.VarsFiles, err = loadRoleDir(filepath.Join(path, "vars"), varsFrom)
	return r, err
}

func loadRoleDir(dir, from string) ([]Def, []string, error) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, nil, nil
	}
	main := "main"
	if from != "" {
		// _load_role_yaml: the name as given, or with an extension added.
		main = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(filepath.Base(from), ".yml"), ".yaml"), ".json")
	}
	files := FindVarsFiles(dir, main, []string{".yml", ".yaml", ".json", ""})
	var defs []Def
	for _, f := range files {
		ds, err := LoadVarsFile(f)
		defs = append(defs, ds...)
		if err != nil {
			return defs, files, err
		}
	}
	return defs, files, nil
}

// FindVarsFiles is DataLoader.find_vars_files: the first of NAME+ext that exists; a
// folder contributes its files (recursively, sorted, hidden and backup files skipped,
// only files without extension or with one of exts).
func FindVarsFiles(dir, name string, exts []string) []string {
	files, _ := findVarsFiles(dir, name, exts)
	return files
}

// findVarsFiles is FindVarsFiles with the findings of the walk: links that loop back to a
// folder being read (see dirWalk).
func findVarsFiles(dir, name string, exts []string) ([]string, []diag.Diagnostic) {
	for _, ext := range exts {
		p := filepath.Join(dir, name+ext)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			var w dirWalk
			var ds []diag.Diagnostic
			return w.varsFiles(p, fi, exts, &ds), ds
		}
		return []string{p}, nil
	}
	return nil, nil
}

func (w *dirWalk) varsFiles(dir string, dfi os.FileInfo, exts []string, ds *[]diag.Diagnostic) []string {
	if ok, d := w.enter(dir, dfi); !ok {
		if d != nil {
			*ds = append(*ds, *d)
		}
		return nil
	}
	defer w.leave(dfi)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".") || strings.HasSuffix(n, "~") {
			continue
		}
		p := filepath.Join(dir, n)
		ext := filepath.Ext(n)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() && ext == "" {
			out = append(out, w.varsFiles(p, fi, exts, ds)...)
		} else if fi.Mode().IsRegular() && (ext == "" || slices.Contains(exts, ext)) {
			out = append(out, p)
		}
	}
	return out
}

// LoadVarsFile reads one vars file. Ansible's from_yaml tries JSON first, so a JSON file
// keeps JSON's types (1e3 is a float there, a string in YAML 1.1).
func LoadVarsFile(path string) ([]Def, error) {
	data, err := rootfs.ReadHostFile(path)
	if err != nil {
		return nil, err
	}
	return varsFileDefs(path, data)
}

func varsFileDefs(path string, data []byte) ([]Def, error) {
	es, err := LoadVarsYAML(path, data)
	var limit *LimitError
	if err != nil && !errors.As(err, &limit) {
		return nil, err
	}
	if isJSON(data) {
		var raw any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&raw) == nil {
			if m, ok := raw.(map[string]any); ok {
				for i := range es {
					if v, ok := m[es[i].Name]; ok {
						es[i].Value = fromJSON(v, &es[i])
					}
				}
			}
		}
	}
	out := make([]Def, len(es))
	for i, e := range es {
		out[i] = Def(e)
	}
	if limit != nil {
		// The other variables of the file are read; the report says which one is not.
		return out, limit
	}
	return out, nil
}

func isJSON(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

// fromJSON keeps the YAML-built structure (for dict order) but types numbers as JSON
// does. Only numbers differ between the two loaders for valid JSON.
func fromJSON(j any, e *Entry) any {
	var conv func(j any, y any) any
	conv = func(j any, y any) any {
		switch x := j.(type) {
		case json.Number:
			if n, err := x.Int64(); err == nil && !strings.ContainsAny(x.String(), ".eE") {
				return n
			}
			if !strings.ContainsAny(x.String(), ".eE") {
				return yamlInt(x.String())
			}
			f, _ := x.Float64()
			return f
		case []any:
			ys, _ := y.([]any)
			out := make([]any, len(x))
			for i := range x {
				var yi any
				if i < len(ys) {
					yi = ys[i]
				}
				out[i] = conv(x[i], yi)
			}
			return out
		case map[string]any:
			ym, ok := y.(*Map)
			if !ok {
				return y
			}
			out := &Map{}
			for _, it := range ym.Items {
				out.Set(it.Key, conv(x[pyStr(it.Key)], it.Value))
			}
			return out
		}
		return y
	}
	return conv(j, e.Value)
}

// Play is the play the variables are resolved for.
type Play struct {
	Name  string
	Pos   diag.Position
	Roles []*Role
	// Vars are the play's vars: (and those of the import_playbook that brought it in).
	Vars []Def
}

// Options say what to resolve.
type Options struct {
	Inventory *Inventory
	Host      string
	// PlaybookDir is the folder of the top playbook (group_vars/host_vars beside it are
	// read, PLAYBOOK_VARS_ROOT=top). Empty: none.
	PlaybookDir string
	Play        *Play
	// Extra are the extra vars (-e), in order.
	Extra []ExtraVars
	// Task is the role of the task the variables are resolved for; nil: a task at play
	// level.
	Task *TaskRole
	// Files, when set, keeps the group_vars/host_vars files read, for callers resolving
	// the same host many times (one context per task file); nil: read every time.
	Files *FileCache
}

// FileCache keeps vars files as read (by path) across Resolve calls, and which files a
// group_vars/host_vars name finds (the folders do not change while a command runs: a
// kubespray explain prepares a context per play and role, each of which looked for the
// same files again).
type FileCache struct {
	m       map[string]cachedVars
	found   map[[3]string]foundFiles
	invDirs map[string][]string
}

// inventoryDirs is [inventoryDirs], remembered.
func (c *FileCache) inventoryDirs(srcs []string) []string {
	if c == nil {
		return inventoryDirs(srcs)
	}
	k := strings.Join(srcs, "\x00")
	if d, ok := c.invDirs[k]; ok {
		return d
	}
	if c.invDirs == nil {
		c.invDirs = map[string][]string{}
	}
	d := inventoryDirs(srcs)
	c.invDirs[k] = d
	return d
}

type foundFiles struct {
	files []string
	diags []diag.Diagnostic
}

// varsFilesFor is [varsFilesFor], remembered.
func (c *FileCache) varsFilesFor(base, sub, name string) ([]string, []diag.Diagnostic) {
	if c == nil {
		return varsFilesFor(base, sub, name)
	}
	k := [3]string{base, sub, name}
	if f, ok := c.found[k]; ok {
		return f.files, f.diags
	}
	if c.found == nil {
		c.found = map[[3]string]foundFiles{}
	}
	files, ds := varsFilesFor(base, sub, name)
	c.found[k] = foundFiles{files, ds}
	return files, ds
}

type cachedVars struct {
	defs []Def
	err  error
}

func (c *FileCache) load(path string) ([]Def, error) {
	if c == nil {
		return LoadVarsFile(path)
	}
	if x, ok := c.m[path]; ok {
		return x.defs, x.err
	}
	if c.m == nil {
		c.m = map[string]cachedVars{}
	}
	defs, err := LoadVarsFile(path)
	c.m[path] = cachedVars{defs, err}
	return defs, err
}

// TaskRole is task._role with task.get_dep_chain() (vars/manager.py get_vars with a
// task): its defaults are merged again after the play roles' defaults, its vars after
// the play roles' vars, and its role params after those.
type TaskRole struct {
	Role *Role
	// Chain is the dep chain: the roles above the task's role (the roles it is a meta
	// dependency of, the role whose tasks include_role/import_role it), outermost first.
	Chain []*Role
	// Params are role params (keys of a role entry that are not keywords) of the chain's
	// roles then of the role itself, in the order Role.get_role_params merges them.
	Params []Def
}

// Result is the resolution of every variable for one host.
type Result struct {
	Host *Host
	// Groups are the host's groups in merge order (all first).
	Groups []*Group
	Vars   map[string]*Var
	// VarsFiles are the group_vars/host_vars files read, in merge order.
	VarsFiles []VarsFile
	// Diagnostics are findings about the folders walked (links that loop).
	Diagnostics diag.Diagnostics
}

// VarsFile is one group_vars/host_vars file ansible reads for the host.
type VarsFile struct {
	Path  string
	Kind  provenance.Kind
	Level string
	Scope string
	Defs  []Def
}

// Resolve merges every variable source for the host in ansible-core 2.14's order
// (vars/manager.py get_vars, for a task at play level: no task role, no include params).
func Resolve(o Options) (*Result, error) {
	ctx, err := Prepare(o)
	if ctx == nil {
		return nil, err
	}
	return ctx.Result(), err
}

// layer is one source of assignments, in precedence order (lowest first).
type layer struct {
	kind         provenance.Kind
	level, scope string
	defs         []Def
}

// Context is the host's variables for one task, merged on demand: [Context.Var] merges
// one variable's assignments, [Context.Result] all of them. Both follow the same layers
// (the order of [Resolve]), so a value looked up one at a time is the one Resolve gives.
type Context struct {
	Host *Host
	// Groups are the host's groups in merge order (all first).
	Groups []*Group
	// VarsFiles are the group_vars/host_vars files read, in merge order.
	VarsFiles []VarsFile
	// Diagnostics are findings about the folders walked (links that loop).
	Diagnostics []diag.Diagnostic
	layers      []layer
	// task: the role layers of a task's role are in (some role files merge twice).
	task bool
	memo map[string]*Var
}

// Prepare gathers the host's variable sources for a task as Resolve merges them, without
// merging (a caller that needs a few variables of many contexts looks them up with
// [Context.Var]).
func Prepare(o Options) (*Context, error) {
	inv := o.Inventory
	h := inv.Hosts[o.Host]
	if h == nil {
		return nil, fmt.Errorf("host %q is not in the inventory", o.Host)
	}
	ctx := &Context{Host: h, task: o.Task != nil}
	add := func(kind provenance.Kind, level, scope string, defs []Def) {
		if len(defs) > 0 {
			ctx.layers = append(ctx.layers, layer{kind, level, scope, defs})
		}
	}
	var errs []error
	if o.Play != nil {
		for _, r := range roleChain(o.Play.Roles) {
			add(KindRoleDefaults, "role defaults ("+r.Name+")", r.Name, r.Defaults)
		}
	}
	if t := o.Task; t != nil {
		// Role.get_default_vars(dep_chain): every dependency's defaults (each its own
		// dependencies first), then each chain role's own defaults, then the role's.
		seq := allDepDefaults(t.Role, 0)
		seq = append(seq, t.Chain...)
		seq = append(seq, t.Role)
		for _, r := range lastPlace(seq) {
			add(KindRoleDefaults, "role defaults ("+r.Name+", for the tasks of "+t.Role.Name+")", r.Name, r.Defaults)
		}
	}
	all := inv.Groups["all"]
	var groups []*Group
	for _, g := range inv.HostGroups(h) {
		if g.Name != "all" {
			groups = append(groups, g)
		}
	}
	groups = SortGroups(groups)
	ctx.Groups = append([]*Group{all}, groups...)
	// VARIABLE_PRECEDENCE: all_inventory, groups_inventory, all_plugins_inventory,
	// all_plugins_play, groups_plugins_inventory, groups_plugins_play.
	add(KindInventory, "inventory group vars [all]", "all", all.Vars)
	for _, g := range groups {
		add(KindInventory, "inventory group vars ["+g.Name+"]", g.Name, g.Vars)
	}
	invDirs := o.Files.inventoryDirs(inv.Sources)
	vf := func(dirs []string, sub, where string, names []string) {
		for _, dir := range dirs {
			for _, n := range names {
				files, ds := o.Files.varsFilesFor(dir, sub, n)
				ctx.Diagnostics = append(ctx.Diagnostics, ds...)
				for _, f := range files {
					defs, err := o.Files.load(f)
					if err != nil {
						errs = append(errs, err)
						if len(defs) == 0 {
							continue
						}
					}
					kind := KindGroupVars
					if sub == "host_vars" {
						kind = KindHostVars
					}
					level := where + " " + sub + "/" + n
					ctx.VarsFiles = append(ctx.VarsFiles, VarsFile{Path: f, Kind: kind, Level: level, Scope: n, Defs: defs})
					add(kind, level, n, defs)
				}
			}
		}
	}
	var pbDirs []string
	if o.PlaybookDir != "" {
		pbDirs = []string{o.PlaybookDir}
	}
	gnames := make([]string, len(groups))
	for i, g := range groups {
		gnames[i] = g.Name
	}
	vf(invDirs, "group_vars", "inventory", []string{"all"})
	vf(pbDirs, "group_vars", "playbook", []string{"all"})
	vf(invDirs, "group_vars", "inventory", gnames)
	vf(pbDirs, "group_vars", "playbook", gnames)
	add(KindInventory, "inventory host vars ["+h.Name+"]", h.Name, h.Vars)
	if !strings.HasPrefix(h.Name, string(os.PathSeparator)) {
		vf(invDirs, "host_vars", "inventory", []string{h.Name})
		vf(pbDirs, "host_vars", "playbook", []string{h.Name})
	}
	if o.Play != nil {
		add(KindPlayVars, "play vars", o.Play.Name, o.Play.Vars)
		for _, r := range roleChain(o.Play.Roles) {
			add(KindRoleVars, "role vars ("+r.Name+")", r.Name, r.Vars)
		}
	}
	if t := o.Task; t != nil {
		// Role.get_vars(dep_chain, include_params=False): the chain's role vars, then every
		// dependency's (its own dependencies first), then the role's.
		seq := append([]*Role(nil), t.Chain...)
		seq = append(seq, allDepDefaults(t.Role, 0)...)
		seq = append(seq, t.Role)
		for _, r := range lastPlace(seq) {
			add(KindRoleVars, "role vars ("+r.Name+", for the tasks of "+t.Role.Name+")", r.Name, r.Vars)
		}
		// include_vars and set_fact would come here (not modelled), then role params.
		add(KindRoleParams, "role params ("+t.Role.Name+")", t.Role.Name, t.Params)
	}
	for _, x := range o.Extra {
		add(KindExtra, "extra vars (-e)", "-e", x.Defs)
	}
	return ctx, errors.Join(errs...)
}

// Var is one variable as the context merges it; nil when no source sets it.
func (c *Context) Var(name string) *Var {
	if v, ok := c.memo[name]; ok {
		return v
	}
	var v *Var
	rank := 0
	for _, l := range c.layers {
		for _, d := range l.defs {
			rank++
			if d.Name != name {
				continue
			}
			if v == nil {
				v = &Var{Name: name}
			}
			v.History = append(v.History, &Assignment{Assignment: provenance.Assignment[any]{Source: provenance.Source{Kind: l.kind, Pos: d.Pos}, Value: d.Value}, Level: l.level, Scope: l.scope, Raw: d.Raw, SecretCopy: d.SecretCopy, rank: rank})
		}
	}
	if v != nil {
		c.settle(v)
	}
	if c.memo == nil {
		c.memo = map[string]*Var{}
	}
	c.memo[name] = v
	return v
}

// Result merges every variable.
func (c *Context) Result() *Result {
	res := &Result{Host: c.Host, Groups: c.Groups, VarsFiles: c.VarsFiles, Diagnostics: c.Diagnostics, Vars: map[string]*Var{}}
	rank := 0
	for _, l := range c.layers {
		for _, d := range l.defs {
			rank++
			v := res.Vars[d.Name]
			if v == nil {
				v = &Var{Name: d.Name}
				res.Vars[d.Name] = v
			}
			v.History = append(v.History, &Assignment{Assignment: provenance.Assignment[any]{Source: provenance.Source{Kind: l.kind, Pos: d.Pos}, Value: d.Value}, Level: l.level, Scope: l.scope, Raw: d.Raw, SecretCopy: d.SecretCopy, rank: rank})
		}
	}
	for _, v := range res.Vars {
		c.settle(v)
	}
	return res
}

// settle picks the value in force and says why every other assignment lost.
func (c *Context) settle(v *Var) { settle(v, c.task) }

func settle(v *Var, task bool) {
	if task {
		// The task's role layer merges some role files a second time: only the later
		// merge of the same assignment counts, so the earlier one is not listed.
		last := map[string]int{}
		for i, a := range v.History {
			last[a.Pos.String()] = i
		}
		var h []*Assignment
		for i, a := range v.History {
			if last[a.Pos.String()] == i {
				h = append(h, a)
			}
		}
		v.History = h
	}
	n := len(v.History)
	v.Source = v.History[n-1]
	v.Value = v.Source.Value
	v.Source.Outcome = provenance.Applied
	for i, a := range v.History[:n-1] {
		a.Outcome = provenance.Overridden
		next := v.History[i+1]
		a.Reason = "replaced by " + next.Level + " at " + next.Pos.String()
		if next.Kind == a.Kind && next.Level == a.Level && next.Pos.File == a.Pos.File {
			a.Reason = "set again later in the same file, at line " + fmt.Sprint(next.Pos.Line)
		}
	}
}

// roleChain is the order play.get_roles() and Role.get_default_vars/get_vars merge roles:
// for each role of the play, its dependencies (recursively, each before its dependent)
// and then the role. A role met again is merged again at its later place; since merging
// replaces, only its last place matters, so earlier repeats are dropped.
func roleChain(roles []*Role) []*Role {
	var seq []*Role
	var walk func(r *Role, depth int)
	walk = func(r *Role, depth int) {
		if depth > 50 {
			return
		}
		for _, d := range r.Deps {
			walk(d, depth+1)
		}
		seq = append(seq, r)
	}
	for _, r := range roles {
		walk(r, 0)
	}
	last := map[*Role]int{}
	for i, r := range seq {
		last[r] = i
	}
	var out []*Role
	for i, r := range seq {
		if last[r] == i {
			out = append(out, r)
		}
	}
	return out
}

// allDepDefaults is the order Role.get_default_vars walks a role's dependencies:
// get_all_dependencies (each dependency after its own dependencies), each merged with its
// own dependencies first again.
func allDepDefaults(r *Role, depth int) []*Role {
	var out []*Role
	if depth > 50 {
		return nil
	}
	for _, d := range r.Deps {
		out = append(out, allDepDefaults(d, depth+1)...)
		out = append(out, d)
	}
	return out
}

// lastPlace keeps each role at its last place in seq (merging replaces, so an earlier
// merge of the same role changes nothing).
func lastPlace(seq []*Role) []*Role {
	last := map[*Role]int{}
	for i, r := range seq {
		last[r] = i
	}
	var out []*Role
	for i, r := range seq {
		if last[r] == i {
			out = append(out, r)
		}
	}
	return out
}

// inventoryDirs is get_vars_from_inventory_sources: a folder source is its own base, a
// file source its folder.
func inventoryDirs(srcs []string) []string {
	var out []string
	for _, s := range srcs {
		if fi, err := os.Stat(s); err == nil && fi.IsDir() {
			out = append(out, s)
		} else {
			out = append(out, filepath.Dir(s))
		}
	}
	return out
}

func varsFilesFor(base, sub, name string) ([]string, []diag.Diagnostic) {
	opath := filepath.Join(base, sub)
	if r, err := filepath.EvalSymlinks(opath); err == nil {
		opath = r
	}
	fi, err := os.Stat(opath)
	if err != nil {
		return nil, nil
	}
	if !fi.IsDir() {
		return nil, nil
	}
	return findVarsFiles(opath, name, []string{"", ".yml", ".yaml", ".json"})
}

// ExtraVars is one -e argument and what it sets.
type ExtraVars struct {
	Arg  string
	Defs []Def
}

// ParseExtraVars is utils/vars.py load_extra_vars for one -e argument: "@file" loads a
// YAML/JSON file, text starting with '{' or '[' is YAML/JSON, anything else is parse_kv
// key=value words (always strings).
func ParseExtraVars(arg string, n int) (ExtraVars, error) {
	x := ExtraVars{Arg: arg}
	if arg == "" {
		return x, nil
	}
	switch {
	case strings.HasPrefix(arg, "@"):
		// Named on the command line: the one reader of file arguments.
		data, err := rootfs.ReadArg(arg[1:], false)
		if err != nil {
			return x, err
		}
		defs, err := varsFileDefs(arg[1:], data)
		x.Defs = defs
		if err != nil {
			return x, err
		}
	case arg[0] == '/' || arg[0] == '.':
		return x, fmt.Errorf("please prepend extra_vars filename '%s' with '@'", arg)
	case arg[0] == '[' || arg[0] == '{':
		label := fmt.Sprintf("-e #%d", n)
		es, err := LoadVarsYAML(label, []byte(arg))
		if err != nil {
			return x, fmt.Errorf("invalid extra vars data supplied. '%s' could not be made into a dictionary", arg)
		}
		for _, e := range es {
			d := Def(e)
			d.Pos = diag.Position{File: label, Line: e.Pos.Line, Column: e.Pos.Column}
			x.Defs = append(x.Defs, d)
		}
		if isJSON([]byte(arg)) {
			var raw map[string]any
			dec := json.NewDecoder(strings.NewReader(arg))
			dec.UseNumber()
			if dec.Decode(&raw) == nil {
				for i := range x.Defs {
					e := Entry(x.Defs[i])
					x.Defs[i].Value = fromJSON(raw[x.Defs[i].Name], &e)
				}
			}
		}
	default:
		words, offs := splitArgs(arg)
		for i, w := range words {
			k, v, ok := strings.Cut(w, "=")
			if !ok || strings.HasSuffix(k, "\\") {
				continue
			}
			x.Defs = append(x.Defs, Def{Name: strings.TrimSpace(k), Value: unquote(strings.TrimSpace(v)), Raw: v,
				Pos: diag.Position{File: fmt.Sprintf("-e #%d", n), Line: 1, Column: offs[i] + 1}})
		}
	}
	return x, nil
}

// splitArgs splits on whitespace outside quotes (parsing/splitter.py split_args for
// k=v text without Jinja blocks).
func splitArgs(s string) ([]string, []int) {
	var words []string
	var offs []int
	var q byte
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || q == 0 && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			if start >= 0 {
				words = append(words, s[start:i])
				offs = append(offs, start)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		c := s[i]
		if (c == '"' || c == '\'') && (i == 0 || s[i-1] != '\\') {
			if q == 0 {
				q = c
			} else if q == c {
				q = 0
			}
		}
	}
	return words, offs
}

// unquote is parsing/quoting.py unquote: one pair of matching outer quotes removed.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && (len(s) < 3 || s[len(s)-2] != '\\') {
		return s[1 : len(s)-1]
	}
	return s
}
