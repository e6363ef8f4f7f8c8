package kubespray

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
)

// Options say what to explain.
type Options struct {
	Dir       string   // kubespray checkout
	Inventory []string // -i sources
	Host      string
	Vars      []string
	Extra     []string // -e arguments
	// ShowSecrets keeps the values of secret-named variables (default: REDACTED).
	ShowSecrets bool
	// Play names the play of cluster.yml to resolve at (its use sites only); empty: every
	// play the host runs.
	Play string
	// Facts is the host's setup facts: a file (HOST's), or a folder of HOST.json or HOST
	// files (ansible's jsonfile fact cache); empty: none (runtime.go).
	Facts string
}

// Explained is one variable on the host.
type Explained struct {
	Name string
	// Play is the play of cluster.yml the variable was resolved for.
	Play *Play
	// Var is nil when nothing sets the variable.
	Var *ansible.Var
	// Refs are the variables a templated value uses, each resolved one level down.
	Refs []*ansible.Var
	// Unread is where a value k3sconf did not expand sets the variable (an
	// input-unreadable finding): the variable is not known to be undefined.
	Unread *diag.Position
	// RefNames lists the referenced names (also the undefined ones).
	RefNames []string
	// Sites are the variable's use sites (tasks, templates, handlers) as the host's plays
	// and roles run them, or would run them (Site.Skip says why not).
	Sites []Site
	// Values groups the sites the host runs by value and source (one entry when the value
	// is the same everywhere). Var and Play are the first group's.
	Values []ValueGroup
	// NotUsed: the host runs no use site of the variable (Var is then the value a task at
	// play level of Play would see, with the groups the host has at that play).
	NotUsed bool
	// At is Play as the host runs it (its epoch: the groups joined before it).
	At *PlayRun
	// Before is the value (nil: undefined) at BeforePlay, the first play the host runs,
	// when the host joins groups at run time after it and the value there differs
	// (NotUsed only).
	Before     *ansible.Var
	BeforePlay *PlayRun
	// SetAtRunTime are the set_fact and include_vars tasks that assign the variable in
	// plays the host runs, up to the last play that uses it: above every static source
	// but role params and -e, for every task after them.
	SetAtRunTime []RuntimeSet
}

// Report is the answer of `k3sconf kubespray explain`.
type Report struct {
	Host        string
	Groups      []string
	Added       []string // groups added by dynamic_groups
	Vars        []*Explained
	Diagnostics diag.Diagnostics
	// InputError is set when some input could not be read (exit 3: the report is
	// incomplete).
	InputError bool
	// Invalid is set when an input does not parse: ansible-playbook stops on it too, so the
	// inventory has a problem (exit 1, unless InputError).
	Invalid bool
	// types are the types of values redact hid (a number keeps its type name).
	types map[*ansible.Var]string
	// Run is the host's run of cluster.yml: which plays it runs, with the groups of the
	// moment, and their roles and tasks files.
	Run *HostRun
	// rt is the run followed task by task (set_fact, include_vars: runtime.go).
	rt *runtimeRun
}

// Explain resolves the variables for the host at the places that use them: it compiles
// cluster.yml once ([Checkout.Tasks]) and goes through the host's run of it play by play
// (groups as they are at each play, roles and their dependencies, includes, `when:`
// conditions it can decide), finds each variable's
// use sites (tasks, templates, handlers; [Where]) in that run, and resolves the variable
// at each site with the play and role (and their include parameters) that site runs in.
// [Explained.Values] groups the sites by value and source; Var and Play are the first
// group's. A variable the host uses nowhere is resolved at play level of the first play
// that runs on the host and loads a role defining it, else of the first play that runs on
// the host ([Explained.NotUsed]).
func Explain(o Options) (*Report, error) {
	c, err := load(o.Dir, true)
	if err != nil {
		return nil, err
	}
	inv, err := ansible.LoadInventory(o.Inventory)
	if err != nil {
		return nil, err
	}
	rep := &Report{Host: o.Host}
	rep.Diagnostics = append(rep.Diagnostics, c.Diagnostics...)
	rep.Diagnostics = append(rep.Diagnostics, inv.Diagnostics...)
	// unread are the variables set by a value k3sconf did not expand (ansible.LimitError).
	unread := map[string]diag.Position{}
	note := func(le *ansible.LimitError) {
		for i, n := range le.Names {
			if _, ok := unread[n]; !ok && i < len(le.At) {
				unread[n] = le.At[i]
			}
		}
	}
	for _, d := range inv.Diagnostics {
		switch d.Code {
		case "input-unreadable":
			rep.InputError = true
		case ansible.CodeDirLoop:
			rep.Invalid = true // ansible-playbook does not end on it
		}
	}
	for _, le := range inv.Unexpanded {
		note(le)
	}
	if inv.Hosts[o.Host] == nil {
		return nil, hostNotFound(o.Host, o.Inventory, inv)
	}
	added := addDynamicGroups(inv)[o.Host]
	var extra []ansible.ExtraVars
	for i, e := range o.Extra {
		x, err := ansible.ParseExtraVars(e, i+1)
		var le *ansible.LimitError
		if errors.As(err, &le) {
			rep.Diagnostics = append(rep.Diagnostics, ansible.LimitDiagnostic(le))
			rep.InputError = true
			note(le)
		} else if err != nil {
			return nil, fmt.Errorf("-e %s: %w", e, err)
		}
		extra = append(extra, x)
	}
	// The compiled playbook (once per command), and the host's run of it, play by play,
	// with groups as they are at each: every value below is read from it (one load of the
	// checkout and the inventory).
	facts := rep.loadFacts(o)
	tt := c.Tasks()
	hr, werr := tt.Run(o.Inventory, o.Host, extra, facts)
	if hr == nil {
		return nil, werr
	}
	// The uses of each variable in the files the host's run reaches (mayUse, decided here
	// once), searched on two more goroutines, alternate variables each, while this one
	// follows the run-time pass below: the search reads the checkout's files only (each
	// read once, safe to share).
	files, _ := c.searchFiles(tt)
	var reached []roleFile
	for _, f := range files {
		if hr.mayUse(f.path, f.kind) {
			reached = append(reached, f)
		}
	}
	allUses := make([][]Use, len(o.Vars))
	var searched sync.WaitGroup
	for w := range 2 {
		searched.Go(func() {
			for i := w; i < len(o.Vars); i += 2 {
				allUses[i] = c.usesIn(nil, reached, o.Vars[i])
			}
		})
	}
	rep.Run = hr
	for _, a := range hr.Adds {
		if a.Group == dynamicGroupsAdd {
			rep.Added = added // the checkout runs dynamic_groups on the host
		}
	}
	if o.Play != "" {
		found := false
		for _, pr := range hr.Plays {
			found = found || pr.Play.Name == o.Play
		}
		if !found {
			var names []string
			for _, pr := range hr.Plays {
				names = append(names, fmt.Sprintf("%q", pr.Play.Name))
			}
			return nil, fmt.Errorf("--play %q: no play of cluster.yml has that name (plays: %s)", o.Play, strings.Join(names, ", "))
		}
	}
	var plays []*PlayRun
	for _, pr := range hr.Plays {
		if pr.Runs && (o.Play == "" || pr.Play.Name == o.Play) {
			plays = append(plays, pr)
		}
	}
	rep.Diagnostics = append(rep.Diagnostics, c.uncertainPlays(inv, o.Host)...)
	// The groups of the header and of KS002 are those the host ends up in (after
	// dynamic_groups and group_by); a value is read at its play's own epoch.
	final := hr.Resolve(firstRun(hr.Plays), nil, len(hr.ops))
	// The host's vars files as read there: the groups only grow from play to play, so
	// every file a context of the run reads is one this last one reads.
	werr = errors.Join(hr.errs...)
	if werr != nil || final == nil {
		errs := []error{werr}
		if j, ok := werr.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		seen := map[string]bool{}
		for _, e := range errs {
			if e == nil || seen[e.Error()] {
				continue
			}
			seen[e.Error()] = true
			d := diag.Diagnostic{Severity: diag.Error, Code: "KS000", Message: e.Error(),
				Hint: "fix the file: ansible-playbook stops on it too"}
			var pe *diag.ParseError
			var le *ansible.LimitError
			if errors.As(e, &le) {
				d = ansible.LimitDiagnostic(le)
				rep.InputError = true
				note(le)
			} else if errors.As(e, &pe) {
				d.Pos, d.Message = pe.Pos, pe.Msg
				rep.Invalid = true
			} else {
				rep.InputError = true
			}
			rep.Diagnostics = append(rep.Diagnostics, d)
		}
		if final == nil {
			return rep, nil
		}
	}
	for _, g := range final.Groups {
		rep.Groups = append(rep.Groups, g.Name)
	}
	for _, d := range final.Diagnostics {
		rep.Diagnostics = append(rep.Diagnostics, d)
		switch d.Code {
		case "input-unreadable":
			rep.InputError = true
		case ansible.CodeDirLoop:
			rep.Invalid = true
		}
	}
	rt := hr.newRuntime(tt)
	rep.rt = rt
	rep.Diagnostics = append(rep.Diagnostics, rt.notes...)
	searched.Wait()
	for i, name := range o.Vars {
		ex := &Explained{Name: name}
		if p, ok := unread[name]; ok {
			ex.Unread = &p
		}
		ex.Sites = hr.Sites(allUses[i], name)
		if o.Play != "" {
			var sel []Site
			for _, s := range ex.Sites {
				if s.Play.Play.Name == o.Play {
					sel = append(sel, s)
				}
			}
			ex.Sites = sel
		}
		ex.Sites = rt.dropDefinitions(ex.Sites, name)
		rt.applySites(ex.Sites, name)
		ex.Values = groupSites(ex.Sites)
		ctx := final
		if len(ex.Values) > 0 {
			first := ex.Values[0].Sites[0]
			ex.Var, ex.Play, ex.At = first.Var, first.Play.Play, first.Play
			if first.Vars != nil {
				ctx = first.Vars
			}
		} else {
			// No task of the host uses it: the value a task at play level sees, at the
			// play named and with the groups the host has there (a play before
			// dynamic_groups does not see group_vars/k8s_cluster).
			ex.NotUsed = true
			if pr := notUsedPlay(plays, name, len(hr.ops)); pr != nil {
				ex.Play, ex.At = pr.Play, pr
				if at := hr.Resolve(pr, nil, pr.Epoch); at != nil {
					ctx = at
				}
			}
			ex.Var = rt.atPlay(ctx.Var(name), name, ex.At)
			// A play the host runs before it joins its run-time groups sees another value
			// (or none): say so, with that play.
			if first := firstRun(hr.Plays); first != nil && ex.At != nil && first.Runs && first.Epoch != ex.At.Epoch {
				if v := hr.Resolve(first, nil, first.Epoch); v != nil && siteKey(v.Var(name)) != siteKey(ex.Var) {
					ex.Before, ex.BeforePlay = v.Var(name), first
				}
			}
		}
		last := -1
		for _, s := range ex.Sites {
			if s.Runs() && s.Play.Index > last {
				last = s.Play.Index
			}
		}
		if ex.NotUsed && ex.At != nil {
			last = ex.At.Index
		}
		ex.SetAtRunTime = rt.sets(name, last)
		if ex.Var != nil && ansible.IsTemplated(ex.Var.Value) {
			ex.RefNames = ansible.Refs(ex.Var.Value)
			for _, rn := range ex.RefNames {
				if v := ctx.Var(rn); v != nil {
					ex.Refs = append(ex.Refs, v)
				}
			}
		}
		rep.Vars = append(rep.Vars, ex)
		rep.Diagnostics = append(rep.Diagnostics, c.findings(inv, o, name, ex, final)...)
		if ex.NotUsed && ex.Play != nil {
			rep.Diagnostics = append(rep.Diagnostics, ownRoleValues(ex.Play, ex)...)
		}
	}
	rep.Diagnostics = append(rep.Diagnostics, c.layoutFindings(inv, o)...)
	if !o.ShowSecrets {
		rep.redact()
	}
	sort.SliceStable(rep.Diagnostics, func(i, j int) bool {
		return rep.Diagnostics[i].Severity.Rank() > rep.Diagnostics[j].Severity.Rank()
	})
	return rep, nil
}

// firstRun is the first play the host runs (else the first play).
func firstRun(prs []*PlayRun) *PlayRun {
	for _, pr := range prs {
		if pr.Runs {
			return pr
		}
	}
	if len(prs) > 0 {
		return prs[0]
	}
	return nil
}

// notUsedPlay is the play whose play-level value explain shows for a variable no task of
// the host uses: among the plays the host runs with every group it joins at run time
// (epoch final), the first whose vars, vars_files or roles define it; else the first play
// the host runs that defines it (a play with no roles whose vars: set it, such as
// kubespray's "Check Ansible version" before dynamic_groups); else the first of the late
// plays, else the first it runs.
func notUsedPlay(plays []*PlayRun, name string, final int) *PlayRun {
	var late []*PlayRun
	for _, pr := range plays {
		if pr.Epoch == final {
			late = append(late, pr)
		}
	}
	for _, set := range [][]*PlayRun{late, plays} {
		for _, pr := range set {
			if playDefines(pr, name) {
				return pr
			}
		}
	}
	for _, set := range [][]*PlayRun{late, plays} {
		if len(set) > 0 {
			return set[0]
		}
	}
	return nil
}

// playDefines: the play's vars, vars_files or roles set name.
func playDefines(pr *PlayRun, name string) bool {
	p := pr.Play
	vars := p.Vars
	if pr.tree != nil {
		vars = append(vars[:len(vars):len(vars)], pr.tree.varsFiles...)
	}
	for _, d := range vars {
		if d.Name == name {
			return true
		}
	}
	return rolesDefine(p, name)
}

func rolesDefine(p *Play, name string) bool {
	for _, pr := range p.Roles {
		for _, r := range chain(pr.Role) {
			for _, d := range append(append([]ansible.Def(nil), r.Defaults...), r.Vars...) {
				if d.Name == name {
					return true
				}
			}
		}
	}
	return false
}

func chain(r *ansible.Role) []*ansible.Role {
	out := []*ansible.Role{}
	seen := map[*ansible.Role]bool{}
	var walk func(*ansible.Role)
	walk = func(r *ansible.Role) {
		if seen[r] {
			return
		}
		seen[r] = true
		for _, d := range r.Deps {
			walk(d)
		}
		out = append(out, r)
	}
	walk(r)
	return out
}

var reIndex = regexp.MustCompile(`^(.*)\[(-?\d+)\]$`)

// matchHosts applies an ansible host pattern (inventory/manager.py: ':' or ',' separated,
// '&' intersection, '!' exclusion, group[N] subscripts) to one host (a templated pattern
// matches nothing: it cannot be known without running), and reports whether the answer depends on the order of hosts added to a group
// at run time (a subscript such as kube_control_plane[0] over a group dynamic_groups filled).
func matchHosts(inv *ansible.Inventory, pattern, host string) (match, unsure bool) {
	if strings.Contains(pattern, "{{") {
		return false, false
	}
	h := inv.Hosts[host]
	if h == nil {
		return false, false
	}
	in := func(term string) bool {
		if term == "all" || term == "*" || term == host {
			return true
		}
		if m := reIndex.FindStringSubmatch(term); m != nil {
			g := inv.Groups[m[1]]
			if g == nil {
				return false
			}
			if len(g.RuntimeHosts) > 0 && len(groupHosts(inv, g)) > 1 {
				unsure = true
			}
			hs := groupHosts(inv, g)
			var i int
			fmt.Sscan(m[2], &i)
			if i < 0 {
				i += len(hs)
			}
			return i >= 0 && i < len(hs) && hs[i] == host
		}
		for _, g := range inv.HostGroups(h) {
			if g.Name == term {
				return true
			}
		}
		return false
	}
	terms := regexp.MustCompile(`[:,]`).Split(pattern, -1)
	for _, t := range terms {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
		case strings.HasPrefix(t, "!"):
			if in(t[1:]) {
				return false, unsure
			}
		case strings.HasPrefix(t, "&"):
			if !in(t[1:]) {
				return false, unsure
			}
		default:
			if in(t) {
				match = true
			}
		}
	}
	return match, unsure
}

// uncertainPlays reports plays whose hosts: subscript picks among hosts added at run time.
func (c *Checkout) uncertainPlays(inv *ansible.Inventory, host string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, p := range c.Plays {
		if _, unsure := matchHosts(inv, p.Hosts, host); unsure {
			ds = append(ds, diag.Diagnostic{Severity: diag.Info, Code: "KS009", Pos: p.Pos,
				Message: fmt.Sprintf("play %q runs on %s: which host that is depends on the order ansible processed dynamic_groups' group_by results (the group's members were added at run time), so it can differ between runs", p.Name, p.Hosts),
				Hint:    "list the control-plane hosts under their current group names in the inventory, so the order is the inventory's"})
		}
	}
	return ds
}

// groupHosts is Group.get_hosts(): the group's hosts then its children's, depth first,
// without repeats.
func groupHosts(inv *ansible.Inventory, g *ansible.Group) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(*ansible.Group)
	walk = func(g *ansible.Group) {
		for _, c := range g.Children {
			walk(c)
		}
		for _, h := range g.Hosts {
			if !seen[h.Name] {
				seen[h.Name] = true
				out = append(out, h.Name)
			}
		}
	}
	walk(g)
	return out
}

var boolish = regexp.MustCompile(`^(?i:true|false|yes|no|on|off)$`)

// findings for one explained variable.
func (c *Checkout) findings(inv *ansible.Inventory, o Options, name string, ex *Explained, res *ansible.Context) []diag.Diagnostic {
	var ds []diag.Diagnostic
	v := ex.Var
	if v == nil && ex.Unread == nil && len(ex.SetAtRunTime) == 0 {
		known := c.knownVars()
		if !known[name] {
			d := diag.Diagnostic{Severity: diag.Error, Code: "KS006", Key: name,
				Message: fmt.Sprintf("%s is not defined anywhere: not in the inventory, -e, any role's defaults or vars, or any play's vars in %s", name, o.Dir)}
			if s := suggest(name, known); s != "" {
				d.Hint = "did you mean " + s + "?"
			} else {
				d.Hint = "check the spelling against roles/kubespray_defaults/defaults/main/*.yml"
			}
			ds = append(ds, d)
		}
	}
	if v != nil {
		src := v.Source
		// KS004: a boolean-looking string from an INI file or -e key=value.
		if s, ok := src.Value.(string); ok && boolish.MatchString(s) && (src.Kind == ansible.KindInventory || src.Kind == ansible.KindExtra) && !strings.HasSuffix(src.Pos.File, ".yml") && !strings.HasSuffix(src.Pos.File, ".yaml") {
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "KS004", Key: name, Pos: src.Pos,
				Message: fmt.Sprintf("%s is the string %q, not a boolean: ansible reads INI values with Python's literal_eval (only True/False are booleans) and -e key=value as strings", name, s),
				Hint:    fmt.Sprintf("write %s=%s in the INI file, or set it in group_vars/*.yml as %s: %s (a YAML boolean)", name, pyBool(s), name, strings.ToLower(s))})
		}
		for _, a := range v.History {
			if a == src {
				continue
			}
			userLevel := a.Kind == ansible.KindInventory || a.Kind == ansible.KindGroupVars || a.Kind == ansible.KindHostVars
			// KS005: an inventory value beaten by role vars can never win.
			if userLevel && (src.Kind == ansible.KindRoleVars) {
				ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "KS005", Key: name, Pos: a.Pos,
					Message: fmt.Sprintf("%s set here (%s) can never win: %s sets it in role vars at %s, which beat the inventory", name, a.Level, src.Scope, src.Pos),
					Hint:    fmt.Sprintf("pass it as an extra var: -e %s=… (or -e @file.yml to keep its type)", name)})
			}
			// KS003: playbook-adjacent group_vars/host_vars beating the inventory's.
			if userLevel && strings.HasPrefix(src.Level, "playbook ") && !strings.HasPrefix(a.Level, "playbook ") {
				ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "KS003", Key: name, Pos: src.Pos,
					Message: fmt.Sprintf("%s comes from %s next to the playbook, which shadows the inventory's value at %s", name, src.Pos.File, a.Pos),
					Hint:    "move the file into the inventory's group_vars/ (or host_vars/) and delete it from the kubespray folder"})
			}
		}
	}
	// KS002: set in a group the host is not in.
	member := map[string]bool{}
	for _, g := range res.Groups {
		member[g.Name] = true
	}
	for _, gn := range inv.GroupOrder {
		if member[gn] {
			continue
		}
		g := inv.Groups[gn]
		for _, d := range g.Vars {
			if d.Name == name {
				ds = append(ds, notMember(name, o.Host, gn, d.Pos))
			}
		}
	}
	for _, dir := range c.groupVarsDirs(o) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			gn := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".yml"), ".yaml"), ".json")
			if member[gn] || !inv.HasGroup(gn) && !dynamicGroup(gn) {
				continue
			}
			for _, f := range ansible.FindVarsFiles(dir, gn, []string{"", ".yml", ".yaml", ".json"}) {
				for _, d := range c.varsFile(f) {
					if d.Name == name {
						ds = append(ds, notMember(name, o.Host, gn, d.Pos))
					}
				}
			}
		}
	}
	for i := range ds {
		if ds[i].Code == "KS002" {
			ds[i].Hint = ks002Hint(name, ex, ds[i].Hint)
		}
	}
	// KS007: a commented-out line for the variable in the inventory's group_vars while
	// nothing in the inventory sets it.
	setInInventory := false
	if v != nil {
		for _, a := range v.History {
			if a.Kind == ansible.KindInventory || a.Kind == ansible.KindGroupVars || a.Kind == ansible.KindHostVars {
				setInInventory = true
			}
		}
	}
	if !setInInventory {
		reC := regexp.MustCompile(`^\s*#\s*` + regexp.QuoteMeta(name) + `\s*:(.*)$`)
		for _, f := range inventoryVarsFiles(o) {
			data, err := c.read(f)
			// The pattern needs the name on the line: most files and lines have none.
			if err != nil || !bytes.Contains(data, []byte(name)) {
				continue
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			ln := 0
			for sc.Scan() {
				ln++
				if !bytes.Contains(sc.Bytes(), []byte(name)) {
					continue
				}
				if m := reC.FindStringSubmatch(sc.Text()); m != nil {
					if isSecretName(name) && !o.ShowSecrets {
						m[1] = " " + redacted
					}
					col := strings.Index(sc.Text(), "#") + 1
					ds = append(ds, diag.Diagnostic{Severity: diag.Info, Code: "KS007", Key: name, Pos: diag.Position{File: f, Line: ln, Column: col},
						Message: fmt.Sprintf("%s is commented out here (%s:%s), so the value in force comes from %s", name, name, m[1], sourceName(ex)),
						Hint:    ks007Fix(name, ex)})
				}
			}
		}
	}
	return ds
}

func sourceName(ex *Explained) string {
	v := ex.Var
	if v == nil && ex.NotUsed {
		return "nowhere on this host, which runs no task, template or handler that uses it"
	}
	if v == nil {
		return "nowhere (undefined)"
	}
	return v.Source.Level + " " + v.Source.Pos.String()
}

func pyBool(s string) string {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return "True"
	}
	return "False"
}

func notMember(name, host, group string, pos diag.Position) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Info, Code: "KS002", Key: name, Pos: pos,
		Message: fmt.Sprintf("%s is set for group %s, but host %s is not in %s", name, group, host, group),
		Hint:    fmt.Sprintf("add %s to %s in the inventory, or set the variable in group_vars/all/ (or a group %s is in)", host, group, host)}
}

// layoutFindings are about the inventory's and checkout's layout, not one variable.
func (c *Checkout) layoutFindings(inv *ansible.Inventory, o Options) []diag.Diagnostic {
	var ds []diag.Diagnostic
	// A group_by task with a fixed key makes its group at run time, for whichever hosts
	// run it: its group_vars are read then.
	byKeys := map[string]bool{}
	for _, pl := range c.Tasks().Plays {
		for _, n := range pl.Tasks {
			if k := n.Args["key"]; n.Action == "group_by" && k != "" && !ansible.IsTemplated(k) {
				byKeys[k] = true
			}
		}
	}
	for _, dir := range c.groupVarsDirs(o) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			gn := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".yml"), ".yaml"), ".json")
			if inv.HasGroup(gn) || dynamicGroup(gn) || byKeys[gn] {
				continue
			}
			d := diag.Diagnostic{Severity: diag.Warning, Code: "KS001", Pos: diag.Position{File: filepath.Join(dir, e.Name())},
				Message: fmt.Sprintf("group_vars for group %s, which does not exist in the inventory (nor is created by kubespray's dynamic_groups or a group_by task of the playbook): ansible never reads it", gn)}
			if nw, ok := legacyGroups[gn]; ok {
				d.Message = fmt.Sprintf("group_vars for %s, kubespray's old name of %s: no group is named %s any more, so ansible never reads it", gn, nw, gn)
				d.Hint = fmt.Sprintf("rename it to group_vars/%s", strings.Replace(e.Name(), gn, nw, 1))
			} else if s := suggest(gn, groupSet(inv)); s != "" {
				d.Hint = "did you mean group_vars/" + s + "?"
			} else {
				d.Hint = "add the group to the inventory or delete the file"
			}
			ds = append(ds, d)
		}
	}
	// group_vars/host_vars beside a playbook: read (as "playbook" vars) only beside the
	// file that holds the plays; cluster.yml only imports playbooks/cluster.yml, so a
	// group_vars/ next to it is never read.
	playDirs := map[string]bool{}
	for _, p := range c.Plays {
		playDirs[filepath.Dir(p.Pos.File)] = true
	}
	dirs := []string{o.Dir}
	for d := range playDirs {
		if d != o.Dir {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs[1:])
	for _, d := range dirs {
		for _, sub := range []string{"group_vars", "host_vars"} {
			p := filepath.Join(d, sub)
			fi, err := os.Stat(p)
			if err != nil || !fi.IsDir() {
				continue
			}
			if playDirs[d] {
				ds = append(ds, diag.Diagnostic{Severity: diag.Info, Code: "KS003", Pos: diag.Position{File: p},
					Message: sub + "/ beside the playbook that holds cluster.yml's plays: ansible reads it as playbook " + sub + ", which beats the inventory's " + sub + " of the same group or host",
					Hint:    "keep configuration in the inventory folder (inventory/mycluster/" + sub + "/)"})
			} else {
				ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "KS008", Pos: diag.Position{File: p},
					Message: sub + "/ here is never read: the plays run by cluster.yml are imported from another folder, and ansible-core reads playbook " + sub + " only beside the file holding the play",
					Hint:    "move it into the inventory folder (inventory/mycluster/" + sub + "/), where ansible reads it for every play"})
			}
		}
	}
	return ds
}

// dynamicGroup reports whether kubespray's dynamic_groups creates the group at run time
// (for the hosts that qualify).
func dynamicGroup(name string) bool {
	for _, gm := range groupMappings {
		if gm.group == name {
			return true
		}
	}
	return false
}

func groupSet(inv *ansible.Inventory) map[string]bool {
	m := map[string]bool{}
	for _, g := range inv.GroupOrder {
		m[g] = true
	}
	for _, gm := range groupMappings {
		m[gm.group] = true
	}
	return m
}

// groupVarsDirs are the group_vars folders ansible reads: beside each inventory source and
// beside each file holding plays.
func (c *Checkout) groupVarsDirs(o Options) []string {
	var out []string
	for _, s := range o.Inventory {
		base := s
		if fi, err := os.Stat(s); err != nil || !fi.IsDir() {
			base = filepath.Dir(s)
		}
		out = append(out, filepath.Join(base, "group_vars"))
	}
	seen := map[string]bool{}
	for _, p := range c.Plays {
		d := filepath.Join(filepath.Dir(p.Pos.File), "group_vars")
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func inventoryVarsFiles(o Options) []string {
	var out []string
	for _, s := range o.Inventory {
		base := s
		if fi, err := os.Stat(s); err != nil || !fi.IsDir() {
			base = filepath.Dir(s)
		}
		for _, sub := range []string{"group_vars", "host_vars"} {
			_ = filepath.WalkDir(filepath.Join(base, sub), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					out = append(out, p)
				}
				return nil
			})
		}
	}
	return out
}

// knownVars are all names defined in any role's defaults or vars of the checkout, and in
// the vars: and vars_files of every play of cluster.yml (with or without roles).
func (c *Checkout) knownVars() map[string]bool {
	m := map[string]bool{}
	for _, p := range c.Plays {
		for _, d := range p.Vars {
			m[d.Name] = true
		}
	}
	for _, pl := range c.Tasks().Plays {
		for _, d := range pl.varsFiles {
			m[d.Name] = true
		}
	}
	_ = filepath.WalkDir(filepath.Join(c.Dir, "roles"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		dir := filepath.Base(filepath.Dir(p))
		parent := filepath.Base(filepath.Dir(filepath.Dir(p)))
		if dir == "defaults" || dir == "vars" || parent == "defaults" || parent == "vars" {
			if defs, err := ansible.LoadVarsFile(p); err == nil {
				for _, d := range defs {
					m[d.Name] = true
				}
			}
		}
		return nil
	})
	return m
}

func suggest(name string, known map[string]bool) string {
	best, bd := "", 1<<30
	for k := range known {
		if d := fuzzy.Distance(name, k); d < bd || d == bd && k < best {
			best, bd = k, d
		}
	}
	if best != "" && bd <= 2+len(name)/6 {
		return best
	}
	return ""
}

// HostPlays is the resolution of every play of cluster.yml that runs on the host.
type hostPlays struct {
	Plays   []*Play
	Results []*ansible.Result
	// Uncertain are plays whose hosts: pattern depends on run-time group order (a
	// subscript of a group dynamic_groups filled).
	Uncertain []*Play
}

// ResolvePlays resolves the host's variables for each play of cluster.yml that runs on it,
// in play order, at play level with the groups the host has when the play starts (read
// from the host's run, [TaskTree.Run]).
func resolvePlays(o Options) (*hostPlays, error) {
	c, err := load(o.Dir, true)
	if err != nil {
		return nil, err
	}
	var extra []ansible.ExtraVars
	for i, e := range o.Extra {
		x, err := ansible.ParseExtraVars(e, i+1)
		if err != nil {
			return nil, err
		}
		extra = append(extra, x)
	}
	hr, err := c.Tasks().Run(o.Inventory, o.Host, extra, nil)
	if hr == nil {
		return nil, err
	}
	hp := &hostPlays{}
	for _, pr := range hr.Plays {
		if pr.Unsure != "" {
			hp.Uncertain = append(hp.Uncertain, pr.Play)
		}
		if !pr.Runs {
			continue
		}
		ctx := hr.Resolve(pr, nil, pr.Epoch)
		if ctx == nil {
			return nil, errors.Join(hr.errs...)
		}
		hp.Plays = append(hp.Plays, pr.Play)
		hp.Results = append(hp.Results, ctx.Result())
	}
	return hp, errors.Join(hr.errs...)
}

// ownRoleValues: the value above is what a task at play level sees. A task inside role R
// merges R's own defaults (and vars) once more after every play role's (vars/manager.py
// get_vars: task._role.get_default_vars / get_vars), so when the winner is another role's
// default (or role var) and R sets a different one, R's tasks see R's value.
func ownRoleValues(p *Play, ex *Explained) []diag.Diagnostic {
	if p == nil || ex.Var == nil {
		return nil
	}
	src := ex.Var.Source
	if src.Kind != ansible.KindRoleDefaults && src.Kind != ansible.KindRoleVars {
		return nil
	}
	var ds []diag.Diagnostic
	seen := map[*ansible.Role]bool{}
	for _, pr := range p.Roles {
		for _, r := range chain(pr.Role) {
			if seen[r] || r.Name == src.Scope {
				continue
			}
			seen[r] = true
			defs := r.Defaults
			if src.Kind == ansible.KindRoleVars {
				defs = r.Vars
			}
			var own *ansible.Def
			for i := range defs {
				if defs[i].Name == ex.Name {
					own = &defs[i]
				}
			}
			if own == nil || ansible.PyJSON(own.Value) == ansible.PyJSON(src.Value) {
				continue
			}
			ds = append(ds, diag.Diagnostic{Severity: diag.Info, Code: "KS011", Key: ex.Name, Pos: own.Pos,
				Message: fmt.Sprintf("tasks of role %s see %s = %s from their own role (a role's own defaults and vars are merged last for its tasks), not %s", r.Name, ex.Name, ansible.Repr(own.Value), ansible.Repr(src.Value)),
				Hint:    ownRoleHint(ex.Name, src.Kind == ansible.KindRoleVars)})
		}
	}
	return ds
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

// hostError is a --host the inventory does not have. When k3sconf did not read the
// inventory whole (a host range over ansible.MaxRangeHosts, a value it does not expand), the
// host may be among what it left out: the error wraps those findings (a diag.Diagnostics,
// for errors.As), which the command prints first, with their file:line:column.
type hostError struct {
	msg   string
	diags diag.Diagnostics
}

func (e *hostError) Error() string { return e.msg }

func (e *hostError) Unwrap() error {
	if len(e.diags) == 0 {
		return nil
	}
	return e.diags
}

// maxHostsNamed is how many of the inventory's hosts the message names.
const maxHostsNamed = 20

// hostNotFound is the error for a host the inventory does not have: the hosts it has (the
// first maxHostsNamed), "no host" said as such, and the findings about the inventory that
// may be why (warnings and errors; ansible's ignored *.ini files in a folder are named in
// the message).
func hostNotFound(host string, sources []string, inv *ansible.Inventory) error {
	hosts := "it has no host"
	if n := len(inv.HostOrder); n > maxHostsNamed {
		hosts = "hosts: " + strings.Join(inv.HostOrder[:maxHostsNamed], ", ") + fmt.Sprintf(", … (%d in all)", n)
	} else if n > 0 {
		hosts = "hosts: " + strings.Join(inv.HostOrder, ", ")
	}
	e := &hostError{}
	why := ""
	for _, d := range inv.Diagnostics {
		switch {
		case d.Code == "AN001":
			why += "; " + d.Pos.File + " was " + d.Message
		case d.Severity == diag.Error || d.Severity == diag.Warning:
			e.diags = append(e.diags, d)
		}
	}
	e.msg = fmt.Sprintf("host %q is not in the inventory %s (%s)%s", host, strings.Join(sources, ", "), hosts, why)
	if n := len(e.diags); n > 0 {
		what := "the finding above"
		if n > 1 {
			what = fmt.Sprintf("the %d findings above", n)
		}
		if e.diags.HasErrors() {
			e.msg += fmt.Sprintf("; k3sconf did not read the inventory whole (%s): %q may be among the hosts it left out", what, host)
		} else {
			e.msg += fmt.Sprintf(" (see %s)", what)
		}
	}
	return e
}
