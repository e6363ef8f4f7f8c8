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

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Use is one task, template, handler or role-variable line that uses the variable.
type Use struct {
	Pos  diag.Position
	Role string
	// Kind is "task", "template", "handler" or "defaults"/"vars" (another variable's value).
	Kind string
	// Task is the name of the task around the line (tasks and handlers).
	Task string
	// Tags are the tags T of cluster.yml (TaskTree.Tags) for which ansible-playbook --tags T
	// runs the line: a task that uses it, a template task that renders it, or (a handler)
	// a task that notifies it.
	Tags []string
	// AnyTag is set when the line runs whatever --tags names ("always" at every step).
	AnyTag bool
	// Plays are the plays of cluster.yml that run the line.
	Plays []string
	// Sites are the tasks that run the line, once per play (and path) reaching them.
	Sites []TaskSite
}

// TaskSite is one task that runs a use: the task itself, the template task rendering a
// template, or a handler. Handlers are the handlers it notifies, followed through handlers
// that notify further handlers; NotifiedBy (for a handler site) are the tasks that notify
// it.
type TaskSite struct {
	Task       *TaskNode
	Handlers   []HandlerRun
	NotifiedBy []*TaskNode
}

// HandlerRun is a handler a task notifies. In ansible-core 2.14 a notified handler runs
// whatever --tags and --skip-tags say (its own tags, never included, are not evaluated:
// executor/play_iterator.py keeps every handler of the play, and only tasks are filtered;
// checked with ansible-playbook), at the next flush_handlers or the end of the play, if the
// notifying task reported changed.
type HandlerRun struct {
	Handler *TaskNode
	// By is the notify: entry that reached it: the handler's name, "role : name", or a
	// listen: topic.
	By string
	// From is the task or handler whose notify: names it.
	From *TaskNode
	// Does says what the handler does ("restarts containerd", "runs `…`").
	Does string
}

// Where lists every use of name in the checkout's roles, with the tasks of cluster.yml that
// run each one, their tags as Ansible selects them and the handlers they notify.
func Where(dir, name string) ([]Use, error) {
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return c.Where(c.CompileTasks(), name)
}

// Where is [Where] on a loaded checkout and its compiled tree (compile once for several
// variables).
func (c *Checkout) Where(tt *TaskTree, name string) ([]Use, error) {
	dir := c.Dir
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	var uses []Use
	rolesDir := filepath.Join(dir, "roles")
	err := filepath.WalkDir(rolesDir, func(p string, d os.DirEntry, err error) error {
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
		var spans []taskSpan
		if kind == "task" || kind == "handler" {
			spans = taskSpans(p)
		}
		for _, ln := range lines {
			u := Use{Pos: diag.Position{File: p, Line: ln[0], Column: ln[1]}, Role: role, Kind: kind}
			for _, t := range spans {
				if ln[0] >= t.from && ln[0] <= t.to {
					u.Task = t.name
				}
			}
			if kind == "task" || kind == "template" || kind == "handler" {
				tt.sites(&u)
			}
			uses = append(uses, u)
		}
		return nil
	})
	return uses, err
}

// sites finds the tasks of the tree that run u and fills its tags, plays and handlers.
func (tt *TaskTree) sites(u *Use) {
	for _, pl := range tt.Plays {
		var found []*TaskNode
		switch u.Kind {
		case "task":
			for _, n := range pl.Tasks {
				if n.Pos.File == u.Pos.File && u.Pos.Line >= n.Pos.Line && u.Pos.Line <= n.End {
					found = append(found, n)
				}
			}
		case "handler":
			for _, n := range pl.Handlers {
				if n.Pos.File == u.Pos.File && u.Pos.Line >= n.Pos.Line && u.Pos.Line <= n.End {
					found = append(found, n)
				}
			}
		case "template":
			for _, n := range append(append([]*TaskNode(nil), pl.Tasks...), pl.Handlers...) {
				for _, f := range n.Templates {
					if f == u.Pos.File {
						found = append(found, n)
						break
					}
				}
			}
		}
		for _, n := range found {
			s := TaskSite{Task: n}
			if n.Handler {
				s.NotifiedBy = pl.notifiers(n)
			} else {
				s.Handlers = pl.Notified(n)
			}
			u.Sites = append(u.Sites, s)
			u.Plays = appendUniq(u.Plays, pl.Name)
		}
	}
	for _, s := range u.Sites {
		runners := []*TaskNode{s.Task}
		if s.Task.Handler {
			runners = s.NotifiedBy
		}
		for _, r := range runners {
			if r.Selected([]string{anyTag}, nil) {
				u.AnyTag = true
			}
			for _, tg := range tt.Tags {
				if r.Selected([]string{tg}, nil) {
					u.Tags = appendUniq(u.Tags, tg)
				}
			}
		}
	}
	sort.Strings(u.Tags)
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
