package kubesprayreport

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/output"
)

// AnswerLine is the answer in one line: "`--tags containerd`: rewrites … (template …) and
// restarts containerd (handler …)".
func AnswerLine(a kubespray.TagAnswer) string {
	var parts []string
	for i, n := range a.Rewrites {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("and %d more template tasks", len(a.Rewrites)-i))
			break
		}
		var ts []string
		for _, f := range n.Templates {
			ts = append(ts, filepath.Base(f))
		}
		tmpl := ""
		if len(ts) > 0 {
			tmpl = "template " + strings.Join(ts, " or ") + ", "
		}
		parts = append(parts, fmt.Sprintf("rewrites %s (%stask %q%s)", printable(destShown(n)), printable(tmpl), n.DisplayName(), onlyWhen(n)))
	}
	for i, n := range a.Tasks {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("and %d more tasks", len(a.Tasks)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("runs %q (%s%s)", n.DisplayName(), n.Action, onlyWhen(n)))
	}
	s := "`--tags " + a.Tag + "`: " + strings.Join(parts, ", ")
	if a.Tag == "" {
		s = "any `--tags` (tagged always): " + strings.Join(parts, ", ")
	}
	if len(a.Handlers) == 0 {
		if len(a.Rewrites)+len(a.Tasks) > 0 {
			return s + "; notifies no handler: nothing is restarted or reloaded"
		}
		return s
	}
	var hs []string
	for _, h := range a.Handlers {
		hs = append(hs, fmt.Sprintf("%s (handler %q)", printable(h.Does), h.Handler.DisplayName()))
	}
	if len(parts) == 0 {
		return s + strings.Join(hs, ", ")
	}
	return s + " and " + strings.Join(hs, ", ")
}

// printable escapes control characters (a newline in a command, an escape sequence in a
// file name) so text output stays one line per item and cannot drive the terminal.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// onlyWhen names the choices of templated include names the task needs.
func onlyWhen(n *kubespray.TaskNode) string {
	var cs []string
	for _, c := range n.Choices {
		cs = append(cs, printable(c.Expr+" is "+c.Value))
	}
	if len(cs) == 0 {
		return ""
	}
	return "; only when " + strings.Join(cs, " and ")
}

// WhereText renders where: each use with the tasks that run it, their tags, choices and
// handlers; then, per tag, what a --tags run does.
func WhereText(w io.Writer, name string, uses []kubespray.Use) {
	name = printable(name)
	if len(uses) == 0 {
		fmt.Fprintf(w, "%s: used by no task or template of the checkout\n", printable(name))
		return
	}
	all := []string{}
	for _, u := range uses {
		role := printable(u.Role)
		if role == "" {
			role = "(play)" // a play's own task, written in a playbook
		}
		fmt.Fprintf(w, "%s  %s %s", printable(u.Pos.String()), role, u.Kind)
		if u.Task != "" {
			fmt.Fprintf(w, " %q", u.Task)
		}
		switch {
		case u.Defines && u.Kind == "default":
			fmt.Fprintf(w, "  (sets it: a role default, the lowest precedence; no tags)\n")
			continue
		case u.Defines:
			fmt.Fprintf(w, "  (sets it: role vars, which beat the inventory; no tags)\n")
			continue
		case u.Kind == "default" || u.Kind == "var":
			fmt.Fprintf(w, "  (in the value of another variable; no tags)\n")
			continue
		case len(u.Sites) == 0 && u.Kind == "template":
			fmt.Fprintf(w, "  (no task cluster.yml runs renders this template: no template task's src:, no lookup('template') names it)\n")
			continue
		case len(u.Sites) == 0:
			fmt.Fprintf(w, "  (not run by cluster.yml: no play reaches this task)\n")
			continue
		case u.AnyTag:
			fmt.Fprintf(w, "  tags: every --tags (always)")
		case len(u.Tags) > 0:
			fmt.Fprintf(w, "  tags: %s", strings.Join(u.Tags, ","))
		default:
			fmt.Fprintf(w, "  tags: (none: runs only without --tags)")
		}
		fmt.Fprintln(w)
		for _, s := range u.Sites {
			n := s.Task
			what := "run by"
			switch {
			case u.Kind == "template":
				what = "rendered by"
			case n.Handler:
				what = "handler"
			}
			fmt.Fprintf(w, "    %s %q (%s) in play %q", what, n.DisplayName(), printable(n.Pos.String()), n.Play().Name)
			if n.Dest != "" {
				fmt.Fprintf(w, ", dest %s", printable(destShown(n)))
			}
			fmt.Fprintln(w)
			if n.Handler {
				fmt.Fprintf(w, "      runs when a task below notifies it and reports changed, whatever --tags/--skip-tags say (its own tags are not evaluated)\n")
			} else {
				fmt.Fprintf(w, "      selected by: %s\n", printable(selection(n)))
			}
			if n.Rescue {
				fmt.Fprintf(w, "      in a rescue: section: runs only when a task of its block fails\n")
			}
			if runOnce(n) {
				fmt.Fprintf(w, "      run_once: %s: only the play's first host runs it, with that host's values (what a set_fact or include_vars sets goes to every host of the play)\n", printable(runOnceDoc(n)))
			}
			if len(n.Choices) > 0 {
				var cs []string
				for _, c := range n.Choices {
					cs = append(cs, printable(c.Expr+" = "+c.Value))
				}
				fmt.Fprintf(w, "      only when: %s\n", strings.Join(cs, "; "))
			}
			for _, h := range s.Handlers {
				fmt.Fprintf(w, "      notifies %q -> handler %q (%s): %s\n", h.By, h.Handler.DisplayName(), printable(h.Handler.Pos.String()), printable(h.Does))
			}
			if !n.Handler && len(s.Handlers) == 0 {
				fmt.Fprintf(w, "      notifies no handler\n")
			}
			for _, by := range s.NotifiedBy {
				fmt.Fprintf(w, "      notified by %q (%s)\n", by.DisplayName(), printable(by.Pos.String()))
			}
		}
		all = appendUniq(all, u.Tags...)
	}
	sort.Strings(all)
	anyUse := false
	for _, u := range uses {
		anyUse = anyUse || u.AnyTag
	}
	if anyUse {
		var only []string
		for _, tg := range all {
			for _, u := range uses {
				if !u.AnyTag && slices.Contains(u.Tags, tg) {
					only = append(only, tg)
					break
				}
			}
		}
		fmt.Fprintf(w, "\n--tags that reach a use of %s: every tag (a use runs under always); other uses: %s\n", name, strings.Join(only, ","))
	} else {
		// A use no tag selects runs only without --tags or with --tags all or untagged
		// (ansible-core 2.14 Taggable.evaluate_tags); say so rather than print no tag.
		// A use no single tag reaches is run either by untagged tasks (no tags, no tagged
		// include on the way) or only by tags named together (include [a] then task [b]).
		unreached, untagged := false, true
		for _, u := range uses {
			if len(u.Sites) == 0 || len(u.Tags) > 0 {
				continue
			}
			unreached = true
			for _, s := range u.Sites {
				runners := []*kubespray.TaskNode{s.Task}
				if s.Task.Handler {
					runners = s.NotifiedBy
				}
				for _, r := range runners {
					untagged = untagged && len(r.Tags) == 0 && len(r.Gates) == 0
				}
			}
		}
		why := "its tasks are untagged: they run without --tags, or with --tags all or untagged"
		if !untagged {
			why = "no one tag selects both an include and the task after it: see selected by above; untagged tasks run without --tags, or with --tags all or untagged"
		}
		switch {
		case len(all) == 0 && unreached:
			fmt.Fprintf(w, "\n--tags that reach a use of %s: none of cluster.yml's tags alone (%s)\n", name, why)
		case len(all) == 0:
			fmt.Fprintf(w, "\n--tags that reach a use of %s: none (no task of cluster.yml runs a use)\n", name)
		case unreached:
			fmt.Fprintf(w, "\n--tags that reach a use of %s: %s; other uses: no tag alone (%s)\n", name, strings.Join(all, ","), why)
		default:
			fmt.Fprintf(w, "\n--tags that reach a use of %s: %s\n", name, strings.Join(all, ","))
		}
	}
	ans := kubespray.Answers(uses)
	if len(ans) > 0 {
		fmt.Fprintf(w, "\nwhat a run with one --tags does (notified handlers run whatever --tags/--skip-tags say, when the task reports changed; ansible-core 2.14):\n")
		for _, a := range ans {
			fmt.Fprintf(w, "  %s\n", AnswerLine(a))
		}
	}
}

// selection says which --tags run a task: its tags, and those of each dynamic include
// that must run first.
func selection(n *kubespray.TaskNode) string {
	var parts []string
	for _, g := range n.Gates {
		parts = append(parts, "include ["+strings.Join(g, ",")+"]")
	}
	t := "task [" + strings.Join(n.Tags, ",") + "]"
	if len(n.Tags) == 0 {
		t = "task (untagged: only runs without --tags, or with --tags all/untagged)"
	}
	parts = append(parts, t)
	return strings.Join(parts, " then ")
}

// runOnce: the task has a run_once: that may hold (true, or templated).
func runOnce(n *kubespray.TaskNode) bool {
	switch strings.ToLower(strings.TrimSpace(n.RunOnce)) {
	case "", "false", "no", "off", "0":
		return false
	}
	return true
}

// runOnceDoc is the run_once: when it may hold: a literal as written, a templated one as
// the variables it uses (the expression itself is not quoted: it may compare with a
// secret the redactor of where, which reads no inventory, does not know).
func runOnceDoc(n *kubespray.TaskNode) string {
	switch {
	case !runOnce(n):
		return ""
	case ansible.IsTemplated(n.RunOnce):
		return "templated on " + strings.Join(ansible.Refs(n.RunOnce), ", ")
	}
	return n.RunOnce
}

// WhereDoc is the --json document of `k3sconf kubespray where`.
type whereDoc struct {
	output.Envelope
	Variable string      `json:"variable"`
	Uses     []useDoc    `json:"uses"`
	Tags     []string    `json:"tags"`
	Answers  []answerDoc `json:"answers"`
}

// UseDoc is one use in JSON.
type useDoc struct {
	File   string    `json:"file"`
	Line   int       `json:"line"`
	Column int       `json:"column"`
	Role   string    `json:"role"`
	Kind   string    `json:"kind"`
	Task   string    `json:"task,omitempty"`
	Tags   []string  `json:"tags"`
	AnyTag bool      `json:"anyTag"`
	Plays  []string  `json:"plays"`
	Sites  []siteDoc `json:"sites"`
}

// SiteDoc is a task that runs a use.
type siteDoc struct {
	Play       string       `json:"play"`
	Task       string       `json:"task"`
	File       string       `json:"file"`
	Line       int          `json:"line"`
	Column     int          `json:"column"`
	Action     string       `json:"action"`
	Handler    bool         `json:"handler"`
	Rescue     bool         `json:"rescue"`
	RunOnce    string       `json:"runOnce,omitempty"`
	Tags       []string     `json:"tags"`
	Gates      [][]string   `json:"gates"`
	Choices    []choiceDoc  `json:"choices"`
	Dest       string       `json:"dest,omitempty"`
	Templates  []string     `json:"templates,omitempty"`
	Handlers   []handlerDoc `json:"handlers"`
	NotifiedBy []taskRef    `json:"notifiedBy,omitempty"`
}

// ChoiceDoc is a Choice.
type choiceDoc struct {
	Expr  string `json:"expr"`
	Value string `json:"value"`
}

// HandlerDoc is a notified handler.
type handlerDoc struct {
	Name   string  `json:"name"`
	File   string  `json:"file"`
	Line   int     `json:"line"`
	Action string  `json:"action"`
	By     string  `json:"by,omitempty"`
	From   taskRef `json:"from"`
	Does   string  `json:"does"`
	// RunsUnderTags is always true in ansible-core 2.14: handlers are not filtered by tags.
	RunsUnderTags bool `json:"runsUnderTags"`
}

// TaskRef names a task.
type taskRef struct {
	Task string `json:"task"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// AnswerDoc is a kubespray.TagAnswer.
type answerDoc struct {
	Tag      string       `json:"tag"`
	Text     string       `json:"text"`
	Rewrites []taskRef    `json:"rewrites"`
	Tasks    []taskRef    `json:"tasks"`
	Handlers []handlerDoc `json:"handlers"`
}

func ref(n *kubespray.TaskNode) taskRef {
	return taskRef{Task: n.DisplayName(), File: n.Pos.File, Line: n.Pos.Line}
}

func docOfHandler(h kubespray.HandlerRun) handlerDoc {
	d := handlerDoc{Name: h.Handler.DisplayName(), File: h.Handler.Pos.File, Line: h.Handler.Pos.Line, Action: h.Handler.Action,
		By: h.By, Does: h.Does, RunsUnderTags: true}
	if h.From != nil {
		d.From = ref(h.From)
	}
	return d
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// WhereJSON builds the --json document of `k3sconf kubespray where`, for encoding/json
// (docs/schema/kubespray-where.schema.json describes it).
func WhereJSON(name string, uses []kubespray.Use) any { return whereJSON(name, uses) }

func whereJSON(name string, uses []kubespray.Use) *whereDoc {
	d := &whereDoc{Envelope: output.NewEnvelope("kubespray", "kubespray where", "kubespray where"), Variable: name, Uses: []useDoc{}, Tags: []string{}, Answers: []answerDoc{}}
	for _, u := range uses {
		ud := useDoc{File: u.Pos.File, Line: u.Pos.Line, Column: u.Pos.Column, Role: u.Role, Kind: u.Kind, Task: u.Task,
			Tags: nonNil(u.Tags), AnyTag: u.AnyTag, Plays: nonNil(u.Plays), Sites: []siteDoc{}}
		for _, s := range u.Sites {
			n := s.Task
			sd := siteDoc{Play: n.Play().Name, Task: n.DisplayName(), File: n.Pos.File, Line: n.Pos.Line, Column: n.Pos.Column, Action: n.Action,
				Handler: n.Handler, Rescue: n.Rescue, RunOnce: runOnceDoc(n), Tags: nonNil(n.Tags), Gates: [][]string{}, Choices: []choiceDoc{}, Dest: n.Dest, Templates: n.Templates, Handlers: []handlerDoc{}}
			for _, g := range n.Gates {
				sd.Gates = append(sd.Gates, nonNil(g))
			}
			for _, c := range n.Choices {
				sd.Choices = append(sd.Choices, choiceDoc(c))
			}
			for _, h := range s.Handlers {
				sd.Handlers = append(sd.Handlers, docOfHandler(h))
			}
			for _, by := range s.NotifiedBy {
				sd.NotifiedBy = append(sd.NotifiedBy, ref(by))
			}
			ud.Sites = append(ud.Sites, sd)
		}
		d.Uses = append(d.Uses, ud)
		d.Tags = appendUniq(d.Tags, u.Tags...)
	}
	sort.Strings(d.Tags)
	for _, a := range kubespray.Answers(uses) {
		ad := answerDoc{Tag: a.Tag, Text: AnswerLine(a), Rewrites: []taskRef{}, Tasks: []taskRef{}, Handlers: []handlerDoc{}}
		for _, n := range a.Rewrites {
			ad.Rewrites = append(ad.Rewrites, ref(n))
		}
		for _, n := range a.Tasks {
			ad.Tasks = append(ad.Tasks, ref(n))
		}
		for _, h := range a.Handlers {
			ad.Handlers = append(ad.Handlers, docOfHandler(h))
		}
		d.Answers = append(d.Answers, ad)
	}
	return d
}

// destShown is a task's dest as written, with its value from role defaults when known.
func destShown(n *kubespray.TaskNode) string {
	if n.DestDefault == "" || n.DestDefault == n.Dest {
		return n.Dest
	}
	return n.DestDefault + " (" + n.Dest + " with role defaults)"
}

// appendUniq appends the strings of more that xs does not hold yet.
func appendUniq(xs []string, more ...string) []string {
	for _, m := range more {
		if !slices.Contains(xs, m) {
			xs = append(xs, m)
		}
	}
	return xs
}
