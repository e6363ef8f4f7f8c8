package kubespray

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Use is one task or template line that uses the variable.
type Use struct {
	Pos  diag.Position
	Role string
	// Kind is "task", "template", "handler" or "defaults"/"vars" (another variable's value).
	Kind string
	// Task is the name of the task around the line (tasks and handlers).
	Task string
	// Tags are the tags under which the line runs: the task's and its blocks', plus each
	// play's and role entry's tags (union over the plays that load the role).
	Tags []string
	// Plays are the plays of cluster.yml that load the role (directly or as a dependency).
	Plays []string
}

// Where lists every use of name in the checkout's roles.
func Where(dir, name string) ([]Use, error) {
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	// role name -> plays and tags from play + role entry.
	type ctx struct {
		plays []string
		tags  []string
	}
	roleCtx := map[string]*ctx{}
	for _, p := range c.Plays {
		for _, pr := range p.Roles {
			// A meta dependency's tasks carry the tags of the entry that pulled it in, its
			// own entry's tags included.
			var walk func(r *ansible.Role, tags []string, depth int)
			walk = func(r *ansible.Role, tags []string, depth int) {
				if depth > 30 {
					return
				}
				x := roleCtx[r.Name]
				if x == nil {
					x = &ctx{}
					roleCtx[r.Name] = x
				}
				x.plays = appendUniq(x.plays, p.Name)
				x.tags = appendUniq(x.tags, tags...)
				for _, d := range r.Deps {
					walk(d, appendUniq(append([]string(nil), tags...), c.depTags[[2]*ansible.Role{r, d}]...), depth+1)
				}
			}
			walk(pr.Role, append(append([]string(nil), p.Tags...), pr.Tags...), 0)
		}
	}
	// Roles pulled in by import_role/include_role tasks run in their includer's plays.
	// import_role is static: the including task's tags (and its blocks') are inherited.
	// include_role is dynamic: its own tags apply only to the include task itself, so the
	// included tasks get the includer's play and role tags plus apply: tags (ansible-core
	// 2.14 TaskInclude/IncludeRole build_parent_block).
	allRoles := roleDirs(filepath.Join(dir, "roles"))
	for changed, rounds := true, 0; changed && rounds < 10; rounds++ {
		changed = false
		for role, x := range roleCtx {
			for _, inc := range roleIncludes(filepath.Join(dir, "roles", filepath.FromSlash(role), "tasks")) {
				for _, ex := range expandInclude(allRoles, inc) {
					child := roleCtx[ex.role]
					if child == nil {
						child = &ctx{}
						roleCtx[ex.role] = child
					}
					before := len(child.plays) + len(child.tags)
					child.plays = appendUniq(child.plays, x.plays...)
					child.tags = appendUniq(child.tags, x.tags...)
					child.tags = appendUniq(child.tags, ex.tags...)
					if len(child.plays)+len(child.tags) != before {
						changed = true
					}
				}
			}
		}
	}
	var uses []Use
	rolesDir := filepath.Join(dir, "roles")
	err = filepath.WalkDir(rolesDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(rolesDir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		// The role is the path up to the tasks/templates/handlers/defaults/vars folder.
		kindAt := -1
		for i, s := range parts {
			if s == "tasks" || s == "templates" || s == "handlers" || s == "defaults" || s == "vars" {
				kindAt = i
				break
			}
		}
		if kindAt < 1 {
			return nil
		}
		role := strings.Join(parts[:kindAt], "/")
		kind := strings.TrimSuffix(parts[kindAt], "s")
		lines := matchLines(p, name, re)
		if len(lines) == 0 {
			return nil
		}
		var tasks []taskSpan
		if kind == "task" || kind == "handler" {
			tasks = taskSpans(p)
		}
		x := roleCtx[role]
		for _, ln := range lines {
			u := Use{Pos: diag.Position{File: p, Line: ln[0], Column: ln[1]}, Role: role, Kind: kind}
			if x != nil && (kind == "task" || kind == "template" || kind == "handler") {
				u.Plays = x.plays
				u.Tags = append(u.Tags, x.tags...)
			}
			for _, t := range tasks {
				if ln[0] >= t.from && ln[0] <= t.to {
					u.Task = t.name
					u.Tags = appendUniq(u.Tags, t.tags...)
				}
			}
			sort.Strings(u.Tags)
			uses = append(uses, u)
		}
		return nil
	})
	return uses, err
}

func appendUniq(xs []string, more ...string) []string {
	for _, m := range more {
		found := false
		for _, x := range xs {
			if x == m {
				found = true
			}
		}
		if !found {
			xs = append(xs, m)
		}
	}
	return xs
}

func matchLines(path, name string, re *regexp.Regexp) [][2]int {
	data, err := rootfs.ReadHostFile(path)
	if err != nil {
		return nil
	}
	var out [][2]int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	ln := 0
	for sc.Scan() {
		ln++
		if loc := re.FindStringIndex(sc.Text()); loc != nil {
			col := loc[0] + strings.Index(sc.Text()[loc[0]:], name) + 1
			out = append(out, [2]int{ln, col})
		}
	}
	return out
}

// taskSpan is a task (or block) of a tasks file with its line range and tags, inherited
// from enclosing blocks.
type taskSpan struct {
	name     string
	from, to int
	tags     []string
}

func taskSpans(path string) []taskSpan {
	data, err := rootfs.ReadHostFile(path)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	nlines := strings.Count(string(data), "\n") + 1
	var out []taskSpan
	var walk func(seq *yaml.Node, end int, inherited []string)
	walk = func(seq *yaml.Node, end int, inherited []string) {
		if seq.Kind != yaml.SequenceNode {
			return
		}
		for i, t := range seq.Content {
			to := end
			if i+1 < len(seq.Content) {
				to = seq.Content[i+1].Line - 1
			}
			tags := appendUniq(append([]string(nil), inherited...), tagsOf(t)...)
			name := ""
			if n := get(t, "name"); n != nil {
				name = n.Value
			}
			isBlock := false
			for _, k := range []string{"block", "rescue", "always"} {
				if b := get(t, k); b != nil {
					isBlock = true
					walk(b, to, tags)
				}
			}
			if !isBlock {
				out = append(out, taskSpan{name: name, from: t.Line, to: to, tags: tags})
			}
		}
	}
	walk(doc.Content[0], nlines, nil)
	return out
}

var _ = ansible.Def{}

type roleInclude struct {
	role string
	tags []string
}

// roleIncludes finds import_role/include_role tasks in a role's tasks folder.
func roleIncludes(tasksDir string) []roleInclude {
	var out []roleInclude
	_ = filepath.WalkDir(tasksDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := rootfs.ReadHostFile(p)
		if err != nil {
			return nil
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			return nil
		}
		var walk func(seq *yaml.Node, inherited []string)
		walk = func(seq *yaml.Node, inherited []string) {
			if seq.Kind != yaml.SequenceNode {
				return
			}
			for _, t := range seq.Content {
				tags := appendUniq(append([]string(nil), inherited...), tagsOf(t)...)
				for _, k := range []string{"block", "rescue", "always"} {
					if b := get(t, k); b != nil {
						walk(b, tags)
					}
				}
				for _, k := range []string{"import_role", "ansible.builtin.import_role", "include_role", "ansible.builtin.include_role"} {
					n := get(t, k)
					if n == nil {
						continue
					}
					name := get(n, "name")
					if name == nil {
						continue
					}
					inc := roleInclude{role: name.Value}
					if strings.HasSuffix(k, "import_role") {
						inc.tags = tags
					} else if ap := get(n, "apply"); ap != nil {
						inc.tags = append(inherited[:len(inherited):len(inherited)], tagsOf(ap)...)
					} else {
						inc.tags = inherited
					}
					out = append(out, inc)
				}
			}
		}
		walk(doc.Content[0], nil)
		return nil
	})
	return out
}

// roleDirs lists the roles under dir by their names ("container-engine/containerd"): folders
// holding tasks/, defaults/, vars/ or meta/.
func roleDirs(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == dir {
			return nil
		}
		for _, sub := range []string{"tasks", "defaults", "vars", "meta"} {
			if fi, err := os.Stat(filepath.Join(p, sub)); err == nil && fi.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
		switch d.Name() {
		case "tasks", "defaults", "vars", "meta", "templates", "files", "handlers", "molecule":
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

var reJinjaExpr = regexp.MustCompile(`\{\{\s*(.*?)\s*\}\}`)

// expandInclude resolves an include_role/import_role name. A templated name
// ("container-engine/{{ item.role }}") may be any role its fixed parts match: each is
// listed (an over-approximation, since the value is known only at run time), and a
// templated tag written with the same expression becomes the matched part.
func expandInclude(roles []string, inc roleInclude) []roleInclude {
	if !strings.Contains(inc.role, "{{") {
		return []roleInclude{inc}
	}
	locs := reJinjaExpr.FindAllStringSubmatchIndex(inc.role, -1)
	var pat strings.Builder
	var exprs []string
	last := 0
	for _, l := range locs {
		pat.WriteString(regexp.QuoteMeta(inc.role[last:l[0]]))
		pat.WriteString(`([^/]+)`)
		exprs = append(exprs, inc.role[l[2]:l[3]])
		last = l[1]
	}
	pat.WriteString(regexp.QuoteMeta(inc.role[last:]))
	re, err := regexp.Compile("^" + pat.String() + "$")
	if err != nil {
		return nil
	}
	var out []roleInclude
	for _, r := range roles {
		m := re.FindStringSubmatch(r)
		if m == nil {
			continue
		}
		var tags []string
		for _, tg := range inc.tags {
			if !strings.Contains(tg, "{{") {
				tags = append(tags, tg)
				continue
			}
			if tm := reJinjaExpr.FindStringSubmatch(tg); tm != nil {
				for i, e := range exprs {
					if e == tm[1] && strings.TrimSpace(reJinjaExpr.ReplaceAllString(tg, "")) == "" {
						tags = append(tags, m[i+1])
					}
				}
			}
		}
		out = append(out, roleInclude{role: r, tags: tags})
	}
	return out
}
