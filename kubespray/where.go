package kubespray

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
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
	// Defines is set on a defaults/vars line that sets the variable itself (a key of the
	// file's top mapping), not another variable whose value mentions it.
	Defines bool
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
	c, err := load(dir, true)
	if err != nil {
		return nil, err
	}
	return c.Where(c.Tasks(), name)
}

// Where is [Where] on a loaded checkout and its compiled tree (compile once for several
// variables).
func (c *Checkout) Where(tt *TaskTree, name string) ([]Use, error) {
	return c.uses(tt, name, nil)
}

// uses is Where with two economies for explain, which reads only a use's position, kind
// and task ([HostRun.Sites]): with keep, only the files keep accepts (by path and kind)
// are searched; with tt nil, the tasks, tags and handlers of each use are not filled.
func (c *Checkout) uses(tt *TaskTree, name string, keep func(path, kind string) bool) ([]Use, error) {
	files, err := c.searchFiles(tt)
	if keep != nil {
		var kept []roleFile
		for _, f := range files {
			if keep(f.path, f.kind) {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	return c.usesIn(tt, files, name), err
}

// usesIn is uses in the files given. It reads the checkout's files only (each read and
// parsed once, safe from several goroutines): with tt nil, explain searches several
// variables at once.
func (c *Checkout) usesIn(tt *TaskTree, files []roleFile, name string) []Use {
	var uses []Use
	for _, f := range files {
		p, role, kind := f.path, f.role, f.kind
		data, rerr := c.read(p)
		if rerr != nil || !bytes.Contains(data, []byte(name)) {
			continue
		}
		lines := matchLines(data, name)
		if len(lines) == 0 {
			continue
		}
		var spans []taskSpan
		var refs map[int]bool
		if kind == "task" || kind == "handler" {
			spans = c.taskSpans(p, data)
			refs = c.useLines(p, name, kind == "handler")
		}
		for _, ln := range lines {
			if refs != nil && !refs[ln[0]] {
				continue // a plain word, a set_fact or vars: key, a comment: no use
			}
			u := Use{Pos: diag.Position{File: p, Line: ln[0], Column: ln[1]}, Role: role, Kind: kind}
			if (kind == "default" || kind == "var") && ln[1] == 1 {
				rest := strings.TrimLeft(lineAt(data, ln[0])[len(name):], " \t")
				u.Defines = strings.HasPrefix(rest, ":")
			}
			for _, t := range spans {
				if ln[0] >= t.from && ln[0] <= t.to {
					u.Task = t.name
				}
			}
			if tt != nil && (kind == "task" || kind == "template" || kind == "handler") {
				tt.sites(&u)
			}
			uses = append(uses, u)
		}
	}
	return uses
}

// sites finds the tasks of the tree that run u and fills its tags, plays and handlers.
func (tt *TaskTree) sites(u *Use) {
	for _, pl := range tt.Plays {
		pl.indexFiles()
		var found []*TaskNode
		switch u.Kind {
		case "task", "handler":
			nodes := pl.byFile[fileKind{u.Pos.File, u.Kind == "handler"}]
			for _, n := range nodes {
				if u.Pos.Line >= n.Pos.Line && u.Pos.Line <= n.End {
					found = append(found, n)
				}
			}
			if len(found) == 0 && u.Kind == "task" {
				// A block's own when: or vars: line: the tasks of the innermost block
				// holding it run it.
				var in *blockSpan
				for i, b := range pl.blocks {
					if b.file == u.Pos.File && b.from <= u.Pos.Line && u.Pos.Line <= b.to && (in == nil || b.from >= in.from) {
						in = &pl.blocks[i]
					}
				}
				for _, n := range nodes {
					if in != nil && in.from <= n.Pos.Line && n.Pos.Line <= in.to {
						found = append(found, n)
					}
				}
			}
		case "template":
			found = pl.byTemplate[u.Pos.File]
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
			if !r.selDone {
				r.selDone = true
				r.anyTag = r.Selected([]string{anyTag}, nil)
				for _, tg := range tt.Tags {
					if r.Selected([]string{tg}, nil) {
						r.selectedBy = append(r.selectedBy, tg)
					}
				}
			}
			u.AnyTag = u.AnyTag || r.anyTag
			u.Tags = appendUniq(u.Tags, r.selectedBy...)
		}
	}
	sort.Strings(u.Tags)
}

// fileKind keys a play's tasks (or handlers) by the file they are written in.
type fileKind struct {
	file    string
	handler bool
}

// indexFiles indexes the play's tasks and handlers by file and the tasks and handlers
// rendering each template, in run order, once per tree (where looks up every use line).
func (pl *TreePlay) indexFiles() {
	if pl.byFile != nil {
		return
	}
	pl.byFile, pl.byTemplate = map[fileKind][]*TaskNode{}, map[string][]*TaskNode{}
	for _, n := range pl.Tasks {
		k := fileKind{n.Pos.File, false}
		pl.byFile[k] = append(pl.byFile[k], n)
	}
	for _, n := range pl.Handlers {
		k := fileKind{n.Pos.File, true}
		pl.byFile[k] = append(pl.byFile[k], n)
	}
	for _, n := range append(append([]*TaskNode(nil), pl.Tasks...), pl.Handlers...) {
		seen := map[string]bool{}
		for _, f := range n.Templates {
			if !seen[f] {
				seen[f] = true
				pl.byTemplate[f] = append(pl.byTemplate[f], n)
			}
		}
	}
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

// searchFiles are the files where searches: those of roles/ (roleFileKinds), then the
// tasks and handlers files of the compiled playbook outside roles/ (playFiles: the
// playbooks' own pre_tasks, tasks, post_tasks and handlers, and the files they import
// or include), in play order.
func (c *Checkout) searchFiles(tt *TaskTree) ([]roleFile, error) {
	files, err := c.roleFileKinds()
	if tt == nil {
		return files, err
	}
	return append(files[:len(files):len(files)], tt.playFiles()...), err
}

// playFiles are the files of the play's own tasks and handlers (role "") outside roles/,
// once per tree.
func (tt *TaskTree) playFiles() []roleFile {
	if tt.ownFiles != nil {
		return tt.ownFiles
	}
	tt.ownFiles = []roleFile{}
	rolesDir := filepath.Join(tt.Dir, "roles") + string(filepath.Separator)
	seen := map[fileKind]bool{}
	for _, pl := range tt.Plays {
		for _, n := range append(pl.Tasks[:len(pl.Tasks):len(pl.Tasks)], pl.Handlers...) {
			f := filepath.Clean(n.Pos.File)
			k := fileKind{f, n.Handler}
			if n.Role != "" || seen[k] || strings.HasPrefix(f, rolesDir) {
				continue
			}
			seen[k] = true
			kind := "task"
			if n.Handler {
				kind = "handler"
			}
			tt.ownFiles = append(tt.ownFiles, roleFile{path: f, kind: kind})
		}
	}
	return tt.ownFiles
}

// roleFiles lists every file under the checkout's roles/ once, in walk order.
func (c *Checkout) roleFiles() ([]string, error) {
	c.scanOnce.Do(c.scanRoles)
	return c.allFiles, nil
}

// roleFile is a file of a role's tasks/, templates/, handlers/, defaults/ or vars/ with
// its role ("container-engine/containerd") and kind ("task", "template", "handler",
// "default", "var").
type roleFile struct {
	path, role, kind string
}

// roleFileKinds is the files under roles/ that where searches, in walk order, with their
// roles and kinds: worked out once per checkout, not once per variable.
func (c *Checkout) roleFileKinds() ([]roleFile, error) {
	if c.kinds != nil {
		return c.kinds, nil
	}
	files, err := c.roleFiles()
	c.kinds = []roleFile{}
	rolesDir := filepath.Join(c.Dir, "roles")
	for _, p := range files {
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
			continue
		}
		c.kinds = append(c.kinds, roleFile{path: p, role: strings.Join(parts[:kindAt], "/"), kind: strings.TrimSuffix(parts[kindAt], "s")})
	}
	return c.kinds, err
}

// lineAt is line n (1-based) of data, without its newline.
func lineAt(data []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return string(data)
}

// matchLines finds the lines where name occurs as a word (not inside a longer name of
// letters, digits and _), with the column of its first such occurrence.
func matchLines(data []byte, name string) [][2]int {
	var out [][2]int
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	line, counted, lineStart := 1, 0, 0
	for off := 0; off < len(data); {
		i := bytes.Index(data[off:], []byte(name))
		if i < 0 {
			break
		}
		i += off
		off = i + 1
		if i > 0 && word(data[i-1]) || i+len(name) < len(data) && word(data[i+len(name)]) {
			continue
		}
		if n := bytes.Count(data[counted:i], []byte{'\n'}); n > 0 {
			line += n
			lineStart = bytes.LastIndexByte(data[:i], '\n') + 1
		}
		counted = i
		if len(out) == 0 || out[len(out)-1][0] != line {
			out = append(out, [2]int{line, i - lineStart + 1})
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

func (c *Checkout) taskSpans(path string, data []byte) []taskSpan {
	root, err := c.node(path)
	if err != nil || root == nil {
		return nil
	}
	nlines := strings.Count(string(data), "\n") + 1
	if isPlaybook(root) {
		// A playbook: the tasks of each play's sections.
		var out []taskSpan
		for _, p := range root.Content {
			for _, k := range playSections {
				if seq := get(p, k); seq != nil {
					out = append(out, spansOf(seq, lastLine(seq), tagsOf(p))...)
				}
			}
		}
		return out
	}
	return spansOf(root, nlines, nil)
}

// playSections are the keys of a play that hold tasks.
var playSections = []string{"pre_tasks", "tasks", "post_tasks", "handlers"}

// isPlaybook: the file is a list of plays (hosts: or import_playbook:), not of tasks.
func isPlaybook(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.SequenceNode {
		return false
	}
	for _, p := range root.Content {
		if get(p, "hosts") != nil || get(p, "import_playbook") != nil || get(p, "ansible.builtin.import_playbook") != nil {
			return true
		}
	}
	return false
}

// spansOf are the task spans of a list of tasks ending at line end.
func spansOf(root *yaml.Node, nlines int, tags0 []string) []taskSpan {
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
	walk(root, nlines, tags0)
	return out
}

// bareKeys are the task keywords whose value is a Jinja expression without braces
// (playbook/conditional.py: when, changed_when, failed_when; until; assert's that;
// debug's var).
var bareKeys = map[string]bool{"when": true, "changed_when": true, "failed_when": true, "until": true, "that": true, "var": true}

// useLines are the lines of a tasks (or playbook) file whose task and block values use
// name: a value that templates it (inside {{ }} or {% %}), or a bare expression naming it
// (bareKeys). A set_fact's or vars: key assigns it, a task's plain name or a comment
// mentions it: no use. A value spans its lines up to the next node of the file. In a
// playbook only the plays' task sections count (play vars are no task's).
func (c *Checkout) useLines(path, name string, handlers bool) map[int]bool {
	root, err := c.node(path)
	if err != nil || root == nil {
		return nil
	}
	var starts []int
	var collect func(n *yaml.Node, depth int)
	collect = func(n *yaml.Node, depth int) {
		if n == nil || depth > 200 {
			return
		}
		starts = append(starts, n.Line)
		for _, ch := range n.Content {
			collect(ch, depth+1)
		}
	}
	collect(root, 0)
	sort.Ints(starts)
	out := map[int]bool{}
	mark := func(n *yaml.Node) {
		// To the line before the next node (a multi-line value), or, the file's last
		// value, as far as its text goes.
		end := n.Line + strings.Count(n.Value, "\n") + 1
		if i := sort.SearchInts(starts, n.Line+1); i < len(starts) {
			end = starts[i] - 1
		}
		for l := n.Line; l <= end; l++ {
			out[l] = true
		}
	}
	var walk func(n *yaml.Node, bare bool, depth int)
	walk = func(n *yaml.Node, bare bool, depth int) {
		if n == nil || depth > 200 {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if bare && len(matchLines([]byte(n.Value), name)) > 0 || inJinja(n.Value, name) {
				mark(n)
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, ch := range n.Content {
				walk(ch, bare, depth+1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i].Value, n.Content[i+1]
				// debug: var=NAME (the k=v form) is a bare expression too.
				kv := v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "var=") && strings.TrimPrefix(strings.TrimPrefix(k, "ansible.builtin."), "ansible.legacy.") == "debug"
				walk(v, bare || kv || bareKeys[k], depth+1)
			}
		case yaml.AliasNode:
			walk(n.Alias, bare, depth+1)
		}
	}
	if isPlaybook(root) {
		// The task sections for a task use, the handlers section for a handler's.
		for _, p := range root.Content {
			for _, k := range playSections {
				if (k == "handlers") == handlers {
					walk(get(p, k), false, 0)
				}
			}
		}
	} else {
		walk(root, false, 0)
	}
	return out
}

var reJinjaBlock = regexp.MustCompile(`(?s)\{\{.*?\}\}|\{%.*?%\}`)

// inJinja: name is a word inside a {{ }} or {% %} of s.
func inJinja(s, name string) bool {
	if !strings.Contains(s, name) {
		return false
	}
	for _, m := range reJinjaBlock.FindAllString(s, -1) {
		if len(matchLines([]byte(m), name)) > 0 {
			return true
		}
	}
	return false
}

var reJinjaExpr = regexp.MustCompile(`\{\{\s*(.*?)\s*\}\}`)
