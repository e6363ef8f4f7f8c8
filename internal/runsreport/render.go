package runsreport

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/termesc"
	"github.com/k3sconf/k3sconf/kubespray/runs"
	"github.com/k3sconf/k3sconf/output"
)

// safe escapes what a log carries (task, play and host names) with k3sconf's one
// control-character escaper, so a report read by a library caller is as safe as the CLI's.
func safe(s string) string { return termesc.String(s) }

func where(src string, line int) string {
	if line <= 0 {
		return safe(src)
	}
	return safe(src) + ":" + strconv.Itoa(line)
}

// runSource names run i of the report by its log ("" when there is no such run).
func runSource(r *runs.Report, i int) string {
	if r == nil || i < 0 || i >= len(r.Runs) {
		return ""
	}
	return r.Runs[i].Source
}

// source is the log of a run without the #N of a split log, for file:line.
func source(r *runlog.Run) string {
	if i := strings.LastIndexByte(r.Source, '#'); i > 0 {
		if _, err := strconv.Atoi(r.Source[i+1:]); err == nil {
			return r.Source[:i]
		}
	}
	return r.Source
}

func taskLabel(play, task string, handler bool) string {
	s := safe(task)
	if handler {
		s = "handler " + s
	}
	if play != "" {
		s = safe(play) + " / " + s
	}
	return s
}

// Text writes the report.
func Text(w io.Writer, r *runs.Report) {
	for _, u := range r.Unread {
		fmt.Fprintf(w, "error: %s: %s (the report is incomplete)\n", safe(u.Log), safe(u.Error))
	}
	// The inventory's findings (-i): a host range over k3sconf's bound leaves hosts out of
	// the "not in the last run" list.
	for _, d := range r.Findings {
		fmt.Fprintf(w, "%s[%s]", d.Severity, d.Code)
		if !d.Pos.IsZero() {
			fmt.Fprintf(w, " %s:", safe(d.Pos.String()))
		}
		fmt.Fprintf(w, " %s\n", safe(d.Message))
		if d.Hint != "" {
			fmt.Fprintf(w, "  fix: %s\n", safe(d.Hint))
		}
	}
	if len(r.Runs) == 0 {
		fmt.Fprintln(w, "no run to read")
		return
	}
	for i, run := range r.Runs {
		if i > 0 || len(r.Unread) > 0 {
			fmt.Fprintln(w)
		}
		writeRun(w, i+1, run)
	}
	writeLast(w, r)
	if r.Var != nil {
		writeVar(w, r)
	}
}

func verdictText(run *runlog.Run) string {
	switch run.Verdict() {
	case runlog.Succeeded:
		return "ok (PLAY RECAP: failed=0, unreachable=0 on every host)"
	case runlog.FailedRun:
		// The recap counts a lost connection apart from a failed task (unreachable=,
		// failed=): say which, so that nobody looks for a template error on a host that
		// was never reached.
		var failed, unreachable []string
		for _, h := range run.Recap {
			if h.Failed > 0 {
				failed = append(failed, safe(h.Host))
			} else if h.Unreachable > 0 {
				unreachable = append(unreachable, safe(h.Host))
			}
		}
		var parts []string
		if len(failed) > 0 {
			parts = append(parts, "failed on "+strings.Join(failed, ", "))
		}
		if len(unreachable) > 0 {
			parts = append(parts, "unreachable: "+strings.Join(unreachable, ", ")+" (the connection failed, not a task)")
		}
		return strings.Join(parts, "; ") + " (PLAY RECAP)"
	}
	return "incomplete: no PLAY RECAP (interrupted, or the log is cut off): no verdict"
}

func writeRun(w io.Writer, n int, run *runlog.Run) {
	kind := run.Format
	if run.Format == "text" && run.Profile {
		kind += ", profile_tasks"
	}
	fmt.Fprintf(w, "run %d: %s (%s): %s\n", n, safe(run.Source), kind, verdictText(run))
	for _, e := range run.Errors {
		fmt.Fprintf(w, "  ansible-playbook: %s  (%s)\n", safe(e.Message), where(source(run), e.Line))
	}
	for _, p := range run.Problems {
		fmt.Fprintf(w, "  warning: %s: %s\n", where(source(run), p.Line), safe(p.Message))
	}
	if len(run.Recap) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  host\tok\tchanged\tunreachable\tfailed\tskipped\trescued\tignored")
		for _, h := range run.Recap {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", safe(h.Host), h.OK, h.Changed, h.Unreachable, h.Failed, h.Skipped, h.Rescued, h.Ignored)
		}
		_ = tw.Flush()
	}
	for _, sec := range []struct {
		title string
		want  []runlog.Status
	}{
		{"failed (the verdict)", []runlog.Status{runlog.Failed, runlog.Unreachable}},
		{"ignored failures (...ignoring: not the verdict)", []runlog.Status{runlog.Ignored}},
		{"rescued failures (the host ran on: a block's rescue; not the verdict)", []runlog.Status{runlog.Rescued}},
		{"failures the host ran on (ignored or rescued: the json callbacks do not say which; not the verdict)", []runlog.Status{runlog.IgnoredOrRescued}},
	} {
		lines := failureLines(run, sec.want)
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s:\n", sec.title)
		for _, l := range lines {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if len(run.Slowest) > 0 {
		from := "profile_tasks"
		if run.Format != "text" {
			from = run.Format + " task durations"
		}
		fmt.Fprintf(w, "  slowest tasks (%s):\n", from)
		for i, s := range run.Slowest {
			if i == 5 {
				break
			}
			fmt.Fprintf(w, "    %7.2fs  %s\n", s.Seconds, safe(s.Task))
		}
	}
	var counts []string
	for _, h := range run.Hosts() {
		counts = append(counts, fmt.Sprintf("%s %d", safe(h), len(run.Changes(h))))
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, "  tasks changed: %s\n", strings.Join(counts, ", "))
	}
}

// failureLines lists the run's results with one of the statuses, one line per task with
// the hosts it had that status on.
func failureLines(run *runlog.Run, want []runlog.Status) []string {
	var out []string
	for _, p := range run.Plays {
		for _, t := range p.Tasks {
			var hosts []string
			line := 0
			for _, res := range t.Results {
				st := res.Status()
				for _, w := range want {
					if st == w {
						h := safe(res.Host)
						if st == runlog.Unreachable {
							h += " (unreachable)"
						}
						hosts = append(hosts, h)
						if line == 0 {
							line = res.Line
						}
					}
				}
			}
			if len(hosts) > 0 {
				sort.Strings(hosts)
				loc := ""
				if line > 0 {
					loc = "  (" + where(source(run), line) + ")"
				}
				out = append(out, strings.Join(hosts, ", ")+"  "+taskLabel(p.Name, t.Name, t.Handler)+loc)
			}
		}
	}
	return out
}

func beforeText(c runlog.Change) string {
	var parts []string
	for _, s := range c.Before {
		if s == "" {
			s = "no result"
		}
		parts = append(parts, string(s))
	}
	return strings.Join(parts, ", ")
}

func writeLast(w io.Writer, r *runs.Report) {
	last := r.Runs[len(r.Runs)-1]
	n := len(r.Runs)
	fmt.Fprintln(w)
	if n == 1 {
		fmt.Fprintf(w, "changes of the run: one run, nothing to compare with (give the logs of the earlier runs first: a re-run's changes are the ones that happen every run)\n")
	} else {
		fmt.Fprintf(w, "changes of the last run (run %d: %s) against run", n, safe(last.Source))
		if n > 2 {
			fmt.Fprint(w, "s")
		}
		for i := 1; i < n; i++ {
			sep := " "
			if i > 1 {
				sep = ", "
			}
			fmt.Fprintf(w, "%s%d", sep, i)
		}
		fmt.Fprintln(w, ", per host:")
	}
	groups, order := map[string][]string{}, []string{}
	for _, hc := range r.Last {
		var b strings.Builder
		if len(hc.EveryRun)+len(hc.New) == 0 {
			b.WriteString("    nothing changed\n")
		}
		if len(hc.EveryRun) > 0 {
			fmt.Fprintf(&b, "    changes every run (%d):\n", len(hc.EveryRun))
			for _, c := range hc.EveryRun {
				fmt.Fprintf(&b, "      %s\n", taskLabel(c.Play, c.Task, c.Handler))
			}
		}
		if len(hc.New) > 0 {
			title := "new in this run"
			if n == 1 {
				title = "changed"
			}
			fmt.Fprintf(&b, "    %s (%d):\n", title, len(hc.New))
			for _, c := range hc.New {
				fmt.Fprintf(&b, "      %s", taskLabel(c.Play, c.Task, c.Handler))
				if n > 1 {
					fmt.Fprintf(&b, "  (before: %s)", beforeText(c))
				}
				b.WriteString("\n")
			}
		}
		k := b.String()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], safe(hc.Host))
	}
	for _, k := range order {
		fmt.Fprintf(w, "  %s:\n%s", strings.Join(groups[k], ", "), k)
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, "  not in the last run (in the inventory, no result: no play targets it, --limit, or unreachable before its first task): %s\n", safe(strings.Join(r.Missing, ", ")))
	}
	if diag.Diagnostics(r.Findings).HasErrors() {
		fmt.Fprintln(w, "  the inventory was not read whole (the findings at the top): the hosts k3sconf left out of it are not compared with the run")
	}
}

func writeVar(w io.Writer, r *runs.Report) {
	v := r.Var
	fmt.Fprintf(w, "\n%s: the tasks of the checkout that use it (k3sconf kubespray where %s):\n", safe(v.Name), safe(v.Name))
	if len(v.Uses.Tasks) == 0 {
		fmt.Fprintf(w, "  none: no task, handler or template of the checkout's roles names it\n")
	}
	tagged := len(v.Tags) > 0 || len(v.SkipTags) > 0
	for i, u := range v.Uses.Tasks {
		fmt.Fprintf(w, "  %s  (%s", useLabel(u), where(u.Pos.File, u.Pos.Line))
		if tagged && !v.Selected[i] {
			fmt.Fprintf(w, "; not selected by %s", safe(tagText(v.Tags, v.SkipTags)))
		}
		if len(u.Templates) > 0 {
			fmt.Fprintf(w, "; renders %s", safe(strings.Join(u.Templates, ", ")))
		}
		if len(u.Notify) > 0 {
			fmt.Fprintf(w, "; notifies %s", safe(strings.Join(u.Notify, ", ")))
		}
		fmt.Fprintln(w, ")")
	}
	if len(v.Uses.Handlers) > 0 {
		fmt.Fprintf(w, "  the handlers they notify:\n")
	}
	for _, h := range v.Uses.Handlers {
		fmt.Fprintf(w, "    %s", safe(h.Display))
		if len(h.Listen) > 0 {
			fmt.Fprintf(w, " (listen: %s)", safe(strings.Join(h.Listen, ", ")))
		}
		fmt.Fprintf(w, "  (%s", where(h.Pos.File, h.Pos.Line))
		if h.Does != "" {
			fmt.Fprintf(w, "; %s", safe(h.Does))
		}
		fmt.Fprintln(w, ")")
	}
	if len(r.Runs) == 0 {
		return
	}
	fmt.Fprintf(w, "did the last run (run %d", len(r.Runs))
	if tagged {
		fmt.Fprintf(w, ", %s", safe(tagText(v.Tags, v.SkipTags)))
	}
	fmt.Fprintf(w, ") apply a change to %s?\n", safe(v.Name))
	if last := r.Runs[len(r.Runs)-1]; last.Verdict() == runlog.Incomplete {
		fmt.Fprintf(w, "  (the last run has no verdict: it was interrupted or its log is cut off, so tasks and handlers after the cut are missing)\n")
	}
	groups, order := map[string][]string{}, []string{}
	for _, vh := range v.Hosts {
		k := VarLine(r, vh)
		if vh.Verdict == runs.NotSelected {
			k = safe("not selected: " + tagText(v.Tags, v.SkipTags) + " runs none of the tasks that use it (k3sconf kubespray where " + v.Name + " names the tags that do)")
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], safe(vh.Host))
	}
	for _, k := range order {
		fmt.Fprintf(w, "  %s: %s\n", strings.Join(groups[k], ", "), k)
	}
}

// tagText is the run's tag selection as given.
func tagText(tags, skip []string) string {
	var parts []string
	if len(tags) > 0 {
		parts = append(parts, "--tags "+strings.Join(tags, ","))
	}
	if len(skip) > 0 {
		parts = append(parts, "--skip-tags "+strings.Join(skip, ","))
	}
	return strings.Join(parts, " ")
}

func useLabel(u runs.Use) string {
	s := safe(u.Display)
	if u.Handler {
		s = "handler " + s
	}
	return s
}

// shortName is a use's name without its role, as the verdict line gives it (the module for
// an unnamed task, as ansible prints it).
func shortName(u runs.Use) string {
	if u.Task != "" {
		return u.Task
	}
	return strings.TrimPrefix(u.Display, u.Role+" : ")
}

// VarLine is one host's answer about the variable, in one line (the text groups hosts with
// the same line); r is the report it is from (the runs an earlier change is named by).
func VarLine(r *runs.Report, vh runs.VarHost) string {
	var changed, ok, failed, unreachable []string
	for _, t := range vh.Tasks {
		l := strconv.Quote(shortName(t.Use))
		switch t.Status {
		case runlog.Changed:
			if t.EveryRun {
				l += " (changes every run)"
			} else {
				l += " (new in this run)"
			}
			changed = append(changed, l)
		case runlog.Failed:
			failed = append(failed, l)
		case runlog.Unreachable:
			unreachable = append(unreachable, l)
		case "":
		default:
			ok = append(ok, l+" "+string(t.Status))
		}
	}
	var hs []string
	for _, h := range vh.Handlers {
		st := string(h.Status)
		if st == "" {
			st = "did not run"
		} else {
			st = "ran (" + st + ")"
		}
		hs = append(hs, fmt.Sprintf("handler %q %s", h.Handler.Name, st))
	}
	var s string
	switch vh.Verdict {
	case runs.Applied:
		s = "applied: " + strings.Join(changed, ", ") + " changed"
		if len(hs) > 0 {
			s += "; " + strings.Join(hs, ", ")
		} else {
			s += "; it notifies no handler"
		}
		if vh.EveryRun {
			s += "; but it changes in every run, so this is no sign of your edit"
		}
	case runs.HandlerNotRun:
		if o := vh.Owed; o != nil {
			s = owedLine(runSource(r, o.Run), o)
			break
		}
		s = "changed but not picked up: " + strings.Join(changed, ", ") + " changed; " + strings.Join(hs, ", ") + notRunAdvice(r, vh)
	case runs.UseFailed:
		s = "failed: " + strings.Join(failed, ", ") + " failed"
		if len(unreachable) > 0 {
			s += "; unreachable at " + strings.Join(unreachable, ", ")
		}
	case runs.UseUnreachable:
		s = "unreachable: the host could not be reached at " + strings.Join(unreachable, ", ") + " (the connection failed, not the task: is the host up, is ssh reachable?); nothing was applied there"
	case runs.Unchanged:
		s = "not changed: " + strings.Join(ok, ", ") + ": the value the tasks write is what the host already had (did your edit reach this host? k3sconf kubespray explain " + varName(r) + " --host HOST)"
	case runs.NotInRun:
		s = "not in the last run: the inventory has the host, the run has no result for it (no play targets it, --limit, or unreachable before its first task)"
	case runs.NotRun:
		s = "not run: no task that uses it has a result for this host (not selected by --tags, the host not in the play, or skipped and hidden by display_skipped_hosts = no)"
	}
	return safe(s)
}

// owedLine says which earlier run changed the file and never ran its handlers, and what
// to do about it. Each part was checked with ansible-playbook 2.14.18 runs
// (kubespray/runs/lost_test.go, forcehandlers_test.go): a re-run finds the file as the task
// writes it and notifies nothing, touching the file first included (template and copy
// compare contents, not times), --force-handlers on that re-run too; a later change that
// notifies runs the handler; --force-handlers (or force_handlers in ansible.cfg) on the
// failing run runs the handler on the failed host, as ansible-core 2.14's Play.compile puts
// a flush_handlers in an always: after each section (playbook/play.py), but not in a play
// with any_errors_fatal, which ends at the failure (plugins/strategy/linear.py), kubespray's
// "{{ any_errors_fatal | default(true) }}" included whatever -e says (the strategy reads
// it untemplated). A host lost to unreachable gets no handler either way.
func owedLine(src string, o *runs.Owed) string {
	var ts, hs []string
	for _, t := range o.Tasks {
		ts = append(ts, strconv.Quote(shortName(t)))
	}
	for _, h := range o.Handlers {
		hs = append(hs, strconv.Quote(h.Name))
	}
	todo, daemon := byHandText(o.Handlers)
	why := "the run was cut off"
	if o.FailedAt != "" {
		why = fmt.Sprintf("run %d %s at %q", o.Run+1, map[runlog.Status]string{runlog.Failed: "failed", runlog.Unreachable: "lost the host"}[o.FailedStatus], o.FailedAt)
	}
	handler := "its handler"
	if len(hs) > 1 {
		handler = "its handlers"
	}
	s := fmt.Sprintf("changed in run %d (%s): %s changed; %s %s never ran (%s); unchanged since, so no later run notified it, and a re-run that writes the same contents will not (touching the file does not help: ansible compares contents, not times): ",
		o.Run+1, src, strings.Join(ts, ", "), handler, strings.Join(hs, ", "), why)
	if daemon {
		s += "the daemon still runs the old configuration. "
	} else {
		s += "what the handler does has not happened since. "
	}
	s += "Do it by hand on the host: " + todo + fmt.Sprintf(" (runs cannot see that, and says this while run %d is among its logs)", o.Run+1)
	if o.FailedAt != "" && o.FailedStatus == runlog.Failed {
		s += forceHandlersNote
	}
	return s
}

// varName is the report's variable ("VAR" without one).
func varName(r *runs.Report) string {
	if r == nil || r.Var == nil || r.Var.Name == "" {
		return "VAR"
	}
	return r.Var.Name
}

// forceHandlersNote is what --force-handlers does for a failed run (checked in
// kubespray/runs/forcehandlers_test.go).
const forceHandlersNote = ". In a play without any_errors_fatal, --force-handlers (or force_handlers = True in ansible.cfg) runs the handlers of a changed task when a later task fails; kubespray's plays set any_errors_fatal, and ansible-core 2.14 then ends the play at the failure before any handler runs, --force-handlers or not"

// byHandText says what to do by hand for handlers that did not run: each one's command
// when it says it plainly (runs.Handler.ByHand), else the handler and what it does;
// daemon: one of them restarts or reloads a service.
func byHandText(hs []runs.Handler) (string, bool) {
	var todo []string
	daemon := false
	for _, h := range hs {
		if strings.HasPrefix(h.Does, "restarts ") || strings.HasPrefix(h.Does, "reloads ") || strings.Contains(h.Does, " and restarts ") {
			daemon = true
		}
		if h.ByHand != "" {
			todo = appendOnce(todo, fmt.Sprintf("`%s` (what %q does)", h.ByHand, h.Name))
			continue
		}
		what := "what " + strconv.Quote(h.Name) + " does (" + where(h.Pos.File, h.Pos.Line)
		if h.Does != "" {
			what += ": " + h.Does
		}
		todo = appendOnce(todo, what+")")
	}
	return strings.Join(todo, "; then "), daemon
}

// notRunAdvice follows the last run's "handler … did not run" on host vh.Host: where the
// run stopped on the host (failed, unreachable, cut off), a re-run will not notify the
// handler either, so it says what to do by hand; where the run went on, the handler's
// missing result is no loss ansible-playbook shows (a handler skipped by its own when:
// prints nothing with display_skipped_hosts = no, ansible-core 2.14.18).
func notRunAdvice(r *runs.Report, vh runs.VarHost) string {
	if r == nil || len(r.Runs) == 0 {
		return ""
	}
	last := r.Runs[len(r.Runs)-1]
	var missing []runs.Handler
	for _, h := range vh.Handlers {
		if h.Status != runlog.Changed && h.Status != runlog.OK {
			missing = append(missing, h.Handler)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	stoppedAt, st, stopped := "", runlog.Status(""), last.Verdict() == runlog.Incomplete
	found := false
	for _, rc := range last.Recap {
		if rc.Host == vh.Host {
			found = true
			stopped = stopped || rc.Failed > 0 || rc.Unreachable > 0
		}
	}
	if !found {
		stopped = true
	}
	for _, e := range last.Events(vh.Host) {
		if s := e.Result.Status(); s == runlog.Failed || s == runlog.Unreachable {
			stoppedAt, st = e.Task.Name, s
		}
	}
	if !stopped {
		return " (no result for it, though the run went on on this host: a handler skipped by its own when: prints nothing with display_skipped_hosts = no)"
	}
	todo, _ := byHandText(missing)
	it := "it"
	if len(missing) > 1 {
		it = "them"
	}
	s := "; a re-run that writes the same contents will not notify " + it + " (touching the file does not help: ansible compares contents, not times): do it by hand on the host: " + todo
	if stoppedAt != "" && st == runlog.Failed {
		s += forceHandlersNote
	}
	return s
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// A --json document.

// Doc is the --json document of `k3sconf kubespray runs`.
type runsDoc struct {
	output.Envelope
	// Verdict is the last run's: ok, failed, incomplete ("" with no run).
	Verdict string        `json:"verdict"`
	Runs    []runDoc      `json:"runs"`
	Unread  []runs.Unread `json:"unread"`
	Last    []hostDoc     `json:"last"`
	Missing []string      `json:"missing"`
	// Findings are the inventory's errors and warnings (-i).
	Findings []output.Diagnostic `json:"findings"`
	Variable *variableDoc        `json:"variable,omitempty"`
}

// RunDoc is one run.
type runDoc struct {
	Source      string          `json:"source"`
	Format      string          `json:"format"`
	Profile     bool            `json:"profile"`
	Verdict     string          `json:"verdict"`
	FailedHosts []string        `json:"failedHosts"`
	Recap       []runlog.Recap  `json:"recap"`
	Failures    []failureDoc    `json:"failures"`
	Slowest     []runlog.Timing `json:"slowest"`
	Changed     []hostTasksDoc  `json:"changed"`
	Errors      []runlog.Note   `json:"errors"`
	Problems    []runlog.Note   `json:"problems"`
}

// FailureDoc is a failed result: failed and unreachable are the verdict's; ignored,
// rescued and ignored-or-rescued are not.
type failureDoc struct {
	Host    string `json:"host"`
	Play    string `json:"play"`
	Task    string `json:"task"`
	Handler bool   `json:"handler"`
	Status  string `json:"status"`
	Line    int    `json:"line"`
}

// HostTasksDoc lists a host's changed tasks.
type hostTasksDoc struct {
	Host  string    `json:"host"`
	Tasks []taskDoc `json:"tasks"`
}

// TaskDoc names a task.
type taskDoc struct {
	Play    string `json:"play"`
	Task    string `json:"task"`
	Handler bool   `json:"handler"`
	Line    int    `json:"line"`
}

// HostDoc is the last run's changes on a host.
type hostDoc struct {
	Host     string      `json:"host"`
	EveryRun []changeDoc `json:"everyRun"`
	New      []changeDoc `json:"new"`
}

// ChangeDoc is one change of the last run with the task's status in each earlier run.
type changeDoc struct {
	Play    string   `json:"play"`
	Task    string   `json:"task"`
	Handler bool     `json:"handler"`
	Line    int      `json:"line"`
	Before  []string `json:"before"`
}

// VariableDoc is the --var answer.
type variableDoc struct {
	Name     string       `json:"name"`
	Tags     []string     `json:"tags"`
	SkipTags []string     `json:"skipTags"`
	Uses     []useDoc     `json:"uses"`
	Handlers []handlerDoc `json:"handlers"`
	Hosts    []varHostDoc `json:"hosts"`
}

// UseDoc is a task that uses the variable.
type useDoc struct {
	Role      string   `json:"role"`
	Task      string   `json:"task"`
	Handler   bool     `json:"handler"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Templates []string `json:"templates"`
	Notify    []string `json:"notify"`
	// Selected: the run's --tags/--skip-tags (as given to runs) select it; true without them.
	Selected bool `json:"selected"`
}

// HandlerDoc is a handler a use notifies.
type handlerDoc struct {
	Role   string   `json:"role"`
	Name   string   `json:"name"`
	Listen []string `json:"listen"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	// Does and ByHand are runs.Handler's: what it does, and the command that does it by
	// hand when the handler says it plainly.
	Does   string `json:"does,omitempty"`
	ByHand string `json:"byHand,omitempty"`
}

// VarHostDoc is the answer for a host.
type varHostDoc struct {
	Host     string       `json:"host"`
	Verdict  string       `json:"verdict"`
	EveryRun bool         `json:"everyRun"`
	Tasks    []outcomeDoc `json:"tasks"`
	Handlers []outcomeDoc `json:"handlers"`
	Owed     *owedDoc     `json:"owed,omitempty"`
}

// OwedDoc is an earlier run's change whose handlers never ran (VarHost.Owed).
type owedDoc struct {
	Run          int      `json:"run"`
	Source       string   `json:"source"`
	Tasks        []string `json:"tasks"`
	Handlers     []string `json:"handlers"`
	FailedAt     string   `json:"failedAt"`
	FailedStatus string   `json:"failedStatus"`
}

// OutcomeDoc is what a task or handler did on the host ("" status: no result).
type outcomeDoc struct {
	Role     string `json:"role"`
	Task     string `json:"task"`
	Status   string `json:"status"`
	EveryRun bool   `json:"everyRun,omitempty"`
	Line     int    `json:"line"`
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func changeDocs(cs []runlog.Change) []changeDoc {
	out := []changeDoc{}
	for _, c := range cs {
		d := changeDoc{Play: c.Play, Task: c.Task, Handler: c.Handler, Line: c.Line, Before: []string{}}
		for _, b := range c.Before {
			d.Before = append(d.Before, string(b))
		}
		out = append(out, d)
	}
	return out
}

// JSON builds the --json document of `k3sconf kubespray runs`, for encoding/json
// (docs/schema/kubespray-runs.schema.json describes it).
func JSON(r *runs.Report) any { return runsJSON(r) }

func runsJSON(r *runs.Report) *runsDoc {
	d := &runsDoc{Envelope: output.NewEnvelope("kubespray", "kubespray runs", "kubespray runs"), Runs: []runDoc{}, Unread: nonNil(r.Unread), Last: []hostDoc{}, Missing: nonNil(r.Missing), Findings: []output.Diagnostic{}}
	for _, f := range r.Findings {
		d.Findings = append(d.Findings, output.Diagnostic{Severity: string(f.Severity), Code: f.Code, File: f.Pos.File, Line: f.Pos.Line,
			Column: f.Pos.Column, Key: f.Key, Message: f.Message, Hint: f.Hint})
	}
	if len(r.Runs) > 0 {
		d.Verdict = string(r.Runs[len(r.Runs)-1].Verdict())
	}
	for _, run := range r.Runs {
		rd := runDoc{Source: run.Source, Format: run.Format, Profile: run.Profile, Verdict: string(run.Verdict()),
			FailedHosts: nonNil(run.FailedHosts()), Recap: nonNil(run.Recap), Failures: []failureDoc{}, Slowest: nonNil(run.Slowest),
			Changed: []hostTasksDoc{}, Errors: nonNil(run.Errors), Problems: nonNil(run.Problems)}
		for _, p := range run.Plays {
			for _, t := range p.Tasks {
				for _, res := range t.Results {
					switch st := res.Status(); st {
					case runlog.Failed, runlog.Unreachable, runlog.Ignored, runlog.Rescued, runlog.IgnoredOrRescued:
						rd.Failures = append(rd.Failures, failureDoc{Host: res.Host, Play: p.Name, Task: t.Name, Handler: t.Handler, Status: string(st), Line: res.Line})
					}
				}
			}
		}
		for _, h := range run.Hosts() {
			ht := hostTasksDoc{Host: h, Tasks: []taskDoc{}}
			for _, e := range run.Changes(h) {
				ht.Tasks = append(ht.Tasks, taskDoc{Play: e.Play.Name, Task: e.Task.Name, Handler: e.Task.Handler, Line: e.Result.Line})
			}
			rd.Changed = append(rd.Changed, ht)
		}
		d.Runs = append(d.Runs, rd)
	}
	for _, hc := range r.Last {
		d.Last = append(d.Last, hostDoc{Host: hc.Host, EveryRun: changeDocs(hc.EveryRun), New: changeDocs(hc.New)})
	}
	if v := r.Var; v != nil {
		vd := &variableDoc{Name: v.Name, Tags: nonNil(v.Tags), SkipTags: nonNil(v.SkipTags), Uses: []useDoc{}, Handlers: []handlerDoc{}, Hosts: []varHostDoc{}}
		for i, u := range v.Uses.Tasks {
			vd.Uses = append(vd.Uses, useDoc{Role: u.Role, Task: u.Task, Handler: u.Handler, File: u.Pos.File, Line: u.Pos.Line, Templates: nonNil(u.Templates), Notify: nonNil(u.Notify), Selected: v.Selected[i]})
		}
		for _, h := range v.Uses.Handlers {
			vd.Handlers = append(vd.Handlers, handlerDoc{Role: h.Role, Name: h.Name, Listen: nonNil(h.Listen), File: h.Pos.File, Line: h.Pos.Line, Does: h.Does, ByHand: h.ByHand})
		}
		for _, vh := range v.Hosts {
			hd := varHostDoc{Host: vh.Host, Verdict: vh.Verdict, EveryRun: vh.EveryRun, Tasks: []outcomeDoc{}, Handlers: []outcomeDoc{}}
			for _, t := range vh.Tasks {
				hd.Tasks = append(hd.Tasks, outcomeDoc{Role: t.Use.Role, Task: t.Use.Task, Status: string(t.Status), EveryRun: t.EveryRun, Line: t.Line})
			}
			for _, h := range vh.Handlers {
				hd.Handlers = append(hd.Handlers, outcomeDoc{Role: h.Handler.Role, Task: h.Handler.Name, Status: string(h.Status), Line: h.Line})
			}
			if o := vh.Owed; o != nil {
				od := &owedDoc{Run: o.Run + 1, Source: runSource(r, o.Run), Tasks: []string{}, Handlers: []string{}, FailedAt: o.FailedAt, FailedStatus: string(o.FailedStatus)}
				for _, t := range o.Tasks {
					od.Tasks = append(od.Tasks, t.Task)
				}
				for _, h := range o.Handlers {
					od.Handlers = append(od.Handlers, h.Name)
				}
				hd.Owed = od
			}
			vd.Hosts = append(vd.Hosts, hd)
		}
		d.Variable = vd
	}
	return d
}
