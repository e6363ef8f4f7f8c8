package runs

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/kubespray"
)

// Use is a task or handler of the checkout that uses the variable, directly or through a
// template it renders, with the handlers it notifies.
type Use struct {
	// Role is the role's path under roles/ ("container-engine/containerd"): the prefix
	// ansible prints in the task banner ("TASK [container-engine/containerd : …]").
	Role    string
	Task    string
	Handler bool
	// Pos is where the task is (for a template, the task that renders it).
	Pos diag.Position
	// Templates are the templates under the role's templates/ that use the variable and that
	// the task renders (its src names them, a Jinja expression in the name matching any
	// text), when the task uses the variable through them.
	Templates []string
	// Notify are the task's notify: entries (handler names or listen topics).
	Notify []string
}

// Handler is a handler of the checkout some use notifies.
type Handler struct {
	Role   string
	Name   string
	Listen []string
	Pos    diag.Position
}

// Uses are the tasks that use a variable and the handlers they notify.
type Uses struct {
	Tasks    []Use
	Handlers []Handler
}

// Finder finds the tasks of the checkout in dir that use the variable name and the
// handlers they notify. [FindUses] is the one built on `kubespray where`; the runs report
// takes any, so a richer where can take its place.
type Finder func(dir, name string) (*Uses, error)

// FindUses is a [Finder] over [kubespray.Where]: the tasks and handlers where says use the
// variable, the tasks of the same role whose template (or src) names a template that uses
// it, each task's notify: read from its file, and the handlers of the checkout's roles
// whose name or listen: matches.
func FindUses(dir, name string) (*Uses, error) {
	ws, err := kubespray.Where(dir, name)
	if err != nil {
		return nil, err
	}
	rolesDir := filepath.Join(dir, "roles")
	out := &Uses{}
	seen := map[string]int{}
	add := func(u Use) {
		if u.Task == "" {
			return // an unnamed task has no name to find in the log
		}
		k := u.Pos.String()
		if i, ok := seen[k]; ok {
			for _, tp := range u.Templates {
				if !contains(out.Tasks[i].Templates, tp) {
					out.Tasks[i].Templates = append(out.Tasks[i].Templates, tp)
				}
			}
			return
		}
		seen[k] = len(out.Tasks)
		out.Tasks = append(out.Tasks, u)
	}
	files := map[string][]taskNode{}
	tasksOf := func(p string) []taskNode {
		if ts, ok := files[p]; ok {
			return ts
		}
		files[p] = readTasks(p)
		return files[p]
	}
	for _, w := range ws {
		switch w.Kind {
		case "task", "handler":
			for _, t := range tasksOf(w.Pos.File) {
				if t.from <= w.Pos.Line && w.Pos.Line <= t.to {
					add(Use{Role: w.Role, Task: t.name, Handler: w.Kind == "handler", Pos: diag.Position{File: w.Pos.File, Line: t.from, Column: t.col}, Notify: t.notify})
				}
			}
		case "template":
			rel, ok := templateRel(rolesDir, w.Role, w.Pos.File)
			if !ok {
				continue
			}
			for _, sub := range []string{"tasks", "handlers"} {
				for _, p := range yamlFiles(filepath.Join(rolesDir, filepath.FromSlash(w.Role), sub)) {
					for _, t := range tasksOf(p) {
						if t.renders(rel) {
							add(Use{Role: w.Role, Task: t.name, Handler: sub == "handlers", Pos: diag.Position{File: p, Line: t.from, Column: t.col}, Templates: []string{rel}, Notify: t.notify})
						}
					}
				}
			}
		}
	}
	topics := map[string]bool{}
	for _, u := range out.Tasks {
		for _, n := range u.Notify {
			topics[n] = true
		}
	}
	if len(topics) > 0 {
		for _, p := range handlerFiles(rolesDir) {
			role := roleOf(rolesDir, p)
			for _, t := range tasksOf(p) {
				match := topics[t.name] || topics[role+" : "+t.name]
				for _, l := range t.listen {
					match = match || topics[l]
				}
				if match {
					out.Handlers = append(out.Handlers, Handler{Role: role, Name: t.name, Listen: t.listen, Pos: diag.Position{File: p, Line: t.from, Column: t.col}})
				}
			}
		}
	}
	return out, nil
}

// Notified are the handlers a notify: entry reaches: by name (bare or "role : name") or by
// listen topic. ansible-core 2.14 plugins/strategy/__init__.py _process_pending_results,
// when a task reports changed: the first handler of the play whose name or role-prefixed
// name is the entry (search_handler_blocks_by_name), and every handler listening to it.
// Here every handler of the checkout that matches counts; the log says which ran.
func (u *Uses) Notified(topic string) []Handler {
	var out []Handler
	for _, h := range u.Handlers {
		match := h.Name == topic || h.Role+" : "+h.Name == topic
		for _, l := range h.Listen {
			match = match || l == topic
		}
		if match {
			out = append(out, h)
		}
	}
	return out
}

type taskNode struct {
	name           string
	from, to, col  int
	notify, listen []string
	scalars        []string
}

// renders: a string of the task names the template rel (a path under templates/), as a
// word ("config.toml.j2" in kubespray's "{{ 'config.toml.j2' if … else 'config-v1.toml.j2' }}"),
// or as a whole src with Jinja expressions standing for any text
// ("kubelet-config.{{ kubeletConfig_api_version }}.yaml.j2"). A src that starts with an
// expression ("{{ item | lower }}.yaml.j2", "{{ item.src }}": a loop's names) is not
// followed: it would match every template with that extension.
func (t taskNode) renders(rel string) bool {
	word := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(rel) + `($|[^A-Za-z0-9_.-])`)
	for _, s := range t.scalars {
		if word.MatchString(s) {
			return true
		}
		if !strings.Contains(s, "{{") {
			continue
		}
		locs := reJinja.FindAllStringIndex(s, -1)
		var pat strings.Builder
		literal, last := 0, 0
		for _, l := range locs {
			pat.WriteString(regexp.QuoteMeta(s[last:l[0]]))
			literal += len(strings.TrimSpace(s[last:l[0]]))
			pat.WriteString(`.*`)
			last = l[1]
		}
		pat.WriteString(regexp.QuoteMeta(s[last:]))
		literal += len(strings.TrimSpace(s[last:]))
		if literal < 4 || len(strings.TrimSpace(s[:locs[0][0]])) < 2 {
			continue
		}
		if re, err := regexp.Compile(`^(.*/)?` + pat.String() + `$`); err == nil && re.MatchString(rel) {
			return true
		}
	}
	return false
}

var reJinja = regexp.MustCompile(`\{\{.*?\}\}`)

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// readTasks lists the tasks of a tasks or handlers file (blocks flattened) with the line
// span each covers, up to the next task.
func readTasks(path string) []taskNode {
	data, err := rootfs.ReadHostFile(path)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var out []taskNode
	var walk func(seq *yaml.Node)
	walk = func(seq *yaml.Node) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		for _, t := range seq.Content {
			if t.Kind != yaml.MappingNode {
				continue
			}
			isBlock := false
			for _, k := range []string{"block", "rescue", "always"} {
				if b := value(t, k); b != nil {
					isBlock = true
					walk(b)
				}
			}
			if isBlock {
				continue
			}
			tn := taskNode{from: t.Line, col: t.Column, notify: strs(value(t, "notify")), listen: strs(value(t, "listen"))}
			if n := value(t, "name"); n != nil && n.Kind == yaml.ScalarNode {
				tn.name = n.Value
			}
			collectScalars(t, &tn.scalars, 0)
			out = append(out, tn)
		}
	}
	walk(doc.Content[0])
	sort.SliceStable(out, func(i, j int) bool { return out[i].from < out[j].from })
	last := strings.Count(string(data), "\n") + 1
	for i := range out {
		out[i].to = last
		if i+1 < len(out) {
			out[i].to = out[i+1].from - 1
		}
	}
	return out
}

func value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func strs(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return []string{n.Value}
	case yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c.Value)
			}
		}
		return out
	}
	return nil
}

func collectScalars(n *yaml.Node, out *[]string, depth int) {
	if n == nil || depth > 50 {
		return
	}
	if n.Kind == yaml.ScalarNode {
		*out = append(*out, n.Value)
	}
	for _, c := range n.Content {
		collectScalars(c, out, depth+1)
	}
}

// templateRel is a template's path under its role's templates/ folder.
func templateRel(rolesDir, role, file string) (string, bool) {
	base := filepath.Join(rolesDir, filepath.FromSlash(role), "templates")
	rel, err := filepath.Rel(base, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func yamlFiles(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// handlerFiles are the YAML files under every role's handlers/ folder.
func handlerFiles(rolesDir string) []string {
	var out []string
	_ = filepath.WalkDir(rolesDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "handlers":
			out = append(out, yamlFiles(p)...)
			return filepath.SkipDir
		case "tasks", "templates", "files", "defaults", "vars", "meta", "molecule", "library":
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// roleOf is the role path of a file under roles/: the folders above handlers/ or tasks/.
func roleOf(rolesDir, file string) string {
	rel, err := filepath.Rel(rolesDir, file)
	if err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range parts {
		if s == "handlers" || s == "tasks" {
			return strings.Join(parts[:i], "/")
		}
	}
	return ""
}
