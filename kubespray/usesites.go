package kubespray

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
)

// Site is one use of a variable (a task, template or handler line that `where` finds) as
// one play and role run it on the host, with the value a task there gets.
type Site struct {
	Use  Use
	Play *PlayRun
	// Role is the role run whose task uses the variable (nil: a play's own task).
	Role *RoleRun
	// Var is the variable as resolved there (nil: undefined there).
	Var *ansible.Var
	// Vars are the host's variables there.
	Vars *ansible.Context
	// Skip says why the host does not run it ("" when it does).
	Skip string
	// Unsure lists the conditions on the way that could not be decided.
	Unsure []string
	// seq is the file run's place in its play (for play order).
	seq int
}

// Runs reports whether the host runs the site.
func (s Site) Runs() bool { return s.Skip == "" && s.Play.Runs }

// Sites maps the uses of name to the plays and role runs of the host that run them. A
// task or handler line counts where its file runs; a template line where a tasks file of
// its role that names the template runs (every tasks file of the role when none names it).
func (hr *HostRun) Sites(uses []Use, name string) []Site {
	var out []Site
	mention := map[[2]string]bool{}
	mentions := func(file, tmpl string) bool {
		k := [2]string{file, tmpl}
		if v, ok := mention[k]; ok {
			return v
		}
		data, err := hr.c.read(file)
		v := err == nil && strings.Contains(string(data), tmpl)
		mention[k] = v
		return v
	}
	for _, u := range uses {
		if u.Kind != "task" && u.Kind != "handler" && u.Kind != "template" {
			continue
		}
		uf := filepath.Clean(u.Pos.File)
		var roleDir, tmpl string
		if u.Kind == "template" {
			i := strings.LastIndex(uf, string(filepath.Separator)+"templates"+string(filepath.Separator))
			if i < 0 {
				continue
			}
			roleDir, tmpl = uf[:i], uf[i+len("/templates/"):]
		}
		match := func(f *FileRun, strict bool) bool {
			switch u.Kind {
			case "task":
				return !f.Handlers && f.cleanFile() == uf && f.holds(u.Pos.Line)
			case "handler":
				return f.Handlers && f.cleanFile() == uf && f.holds(u.Pos.Line)
			}
			if f.Role == nil || f.Handlers || f.cleanRole() != roleDir {
				return false
			}
			return !strict || mentions(f.File, tmpl)
		}
		strict := false
		if u.Kind == "template" {
			for _, pr := range hr.Plays {
				for _, f := range pr.Files {
					if match(f, true) {
						strict = true
					}
				}
			}
		}
		for _, pr := range hr.Plays {
			type key struct{ r *RoleRun }
			at := map[key]int{}
			for seq, f := range pr.Files {
				if !match(f, strict) {
					continue
				}
				s := Site{Use: u, Play: pr, Role: f.Role, Skip: f.Skip, Unsure: f.Unsure, seq: seq}
				if s.Skip == "" && u.Kind != "template" {
					s.Skip = f.blockSkipped(u.Pos.Line)
				}
				if !pr.Runs {
					s.Skip = "the play does not run on " + hr.Host + " (hosts: " + pr.Play.Hosts + ")"
				}
				if i, ok := at[key{f.Role}]; ok {
					if !out[i].Runs() && s.Runs() {
						out[i].Skip, out[i].Unsure = "", s.Unsure
					}
					continue
				}
				if s.Runs() {
					s.Vars = hr.Resolve(pr, f.Role, f.siteEpoch(u))
					if s.Vars != nil {
						s.Var = s.Vars.Var(name)
					}
				}
				at[key{f.Role}] = len(out)
				out = append(out, s)
			}
		}
	}
	// In the order the host runs them: play by play, file run by file run.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Play.Index != out[j].Play.Index {
			return out[i].Play.Index < out[j].Play.Index
		}
		return out[i].seq < out[j].seq
	})
	// A site that became runnable after its first record still needs its value.
	for i := range out {
		if out[i].Runs() && out[i].Vars == nil {
			// The file run of the use (a play's own task: the section holding its line).
			u := out[i].Use
			for _, f := range out[i].Play.Files {
				if f.Role == out[i].Role && (u.Kind == "template" || f.cleanFile() == filepath.Clean(u.Pos.File) && f.holds(u.Pos.Line)) {
					out[i].Vars = hr.Resolve(out[i].Play, f.Role, f.siteEpoch(out[i].Use))
					break
				}
			}
			if out[i].Vars != nil {
				out[i].Var = out[i].Vars.Var(name)
			}
		}
	}
	return out
}

// ValueGroup is the use sites that get the same value (and type).
type ValueGroup struct {
	// Var is the first site's.
	Var   *ansible.Var
	Sites []Site
	// Sources are the distinct assignments the value comes from at these sites (more
	// than one when roles set the same value, e.g. a role's own default and
	// kubespray_defaults').
	Sources []*ansible.Assignment
}

func siteKey(v *ansible.Var) string {
	if v == nil {
		return "undefined"
	}
	return ansible.PyJSON(v.Value) + "|" + ansible.TypeName(v.Value)
}

// GroupSites groups the sites the host runs by value, type and source, in first-use order.
func groupSites(sites []Site) []ValueGroup {
	var out []ValueGroup
	idx := map[string]int{}
	for _, s := range sites {
		if !s.Runs() {
			continue
		}
		k := siteKey(s.Var)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, ValueGroup{Var: s.Var})
		}
		g := &out[i]
		g.Sites = append(g.Sites, s)
		if s.Var != nil {
			found := false
			for _, a := range g.Sources {
				found = found || a.Pos == s.Var.Source.Pos && a.Level == s.Var.Source.Level
			}
			if !found {
				g.Sources = append(g.Sources, s.Var.Source)
			}
		}
	}
	return out
}

// mayUse says whether a use in the file at path (of the kind where gives it: "task",
// "handler", "template", "default", "var") can be one of the host's sites: a tasks or
// handlers file the host's run of some play reaches, or a template of a role some play runs — the
// uses Sites keeps. explain searches only those files.
func (hr *HostRun) mayUse(path, kind string) bool {
	if hr.runFiles == nil {
		hr.runFiles, hr.runRoles = map[string]bool{}, map[string]bool{}
		for _, pr := range hr.Plays {
			for _, f := range pr.Files {
				hr.runFiles[f.cleanFile()] = true
				if f.Role != nil {
					hr.runRoles[f.cleanRole()] = true
				}
			}
		}
	}
	k := [2]string{path, kind}
	if v, ok := hr.mayUseMemo[k]; ok {
		return v
	}
	v := false
	p := filepath.Clean(path)
	switch kind {
	case "task", "handler":
		v = hr.runFiles[p]
	case "template":
		i := strings.LastIndex(p, string(filepath.Separator)+"templates"+string(filepath.Separator))
		v = i >= 0 && hr.runRoles[p[:i]]
	}
	if hr.mayUseMemo == nil {
		hr.mayUseMemo = map[[2]string]bool{}
	}
	hr.mayUseMemo[k] = v
	return v
}

// cleanFile is the file run's path, cleaned once (Sites compares it with every use line).
func (f *FileRun) cleanFile() string {
	if f.clean[0] == "" {
		f.clean[0] = filepath.Clean(f.File)
	}
	return f.clean[0]
}

// cleanRole is the path of the file run's role, cleaned once.
func (f *FileRun) cleanRole() string {
	if f.clean[1] == "" {
		f.clean[1] = filepath.Clean(f.Role.Role.Path)
	}
	return f.clean[1]
}
