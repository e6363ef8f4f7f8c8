package livereport

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// statusDocument is the JSON form of a live.Status (`k3sconf status --json`).
type statusDocument struct {
	output.Envelope
	Unit string `json:"unit,omitempty"`
	// Pending is true when a daemon-reload or restart is needed, a key differs, or nothing
	// is known about the running process; `k3sconf status` then exits 1.
	Pending         bool                `json:"pending"`
	Process         *processJSON        `json:"process"`
	Systemd         *systemdJSON        `json:"systemd,omitempty"`
	Stale           []live.Stale        `json:"stale"`
	DaemonReload    bool                `json:"daemonReload"`
	DaemonReloadWhy string              `json:"daemonReloadWhy,omitempty"`
	Argv            *argvJSON           `json:"argv,omitempty"`
	Annotation      *annotationJSON     `json:"annotation,omitempty"`
	Drift           []driftJSON         `json:"drift"`
	NotCompared     []string            `json:"notCompared,omitempty"`
	MayChange       []live.KeyInFile    `json:"mayChange"`
	Diagnostics     []output.Diagnostic `json:"diagnostics"`
}

// processJSON describes the running process. Argv is absent when k3s hid it.
type processJSON struct {
	PID        int        `json:"pid"`
	Command    string     `json:"command"`
	Started    *time.Time `json:"started,omitempty"`
	StartFrom  string     `json:"startedFrom,omitempty"`
	Argv       []string   `json:"argv,omitempty"`
	Title      string     `json:"title,omitempty"`
	ArgvHidden bool       `json:"argvHidden"`
	// Environ is "read", "unreadable", "hidden" or "missing"; its values are never output.
	Environ string `json:"environ"`
	Others  []int  `json:"otherPids,omitempty"`
}

// systemdJSON is the unit as systemd has it loaded.
type systemdJSON struct {
	ActiveState      string     `json:"activeState"`
	LoadState        string     `json:"loadState"`
	NeedDaemonReload bool       `json:"needDaemonReload"`
	MainPID          int        `json:"mainPid"`
	ActiveEnter      *time.Time `json:"activeEnter,omitempty"`
	ExecStart        [][]string `json:"execStart,omitempty"`
}

// argvJSON compares the running command line with the unit's now.
type argvJSON struct {
	Running     []string `json:"running"`
	UnitNow     []string `json:"unitNow"`
	OnlyRunning []string `json:"onlyRunning"`
	OnlyUnitNow []string `json:"onlyUnitNow"`
}

// annotationJSON is the node object's record of the last start.
type annotationJSON struct {
	Node      string   `json:"node"`
	Args      []string `json:"args"`
	EnvNames  []string `json:"envNames"`
	OnlyNode  []string `json:"onlyAnnotation"`
	OnlyToday []string `json:"onlyToday"`
}

// driftJSON is a Drift with its values redacted.
type driftJSON struct {
	Key         string `json:"key"`
	Running     any    `json:"running"`
	RunningFrom string `json:"runningFrom"`
	Today       any    `json:"today"`
	TodayFrom   string `json:"todayFrom"`
	Via         string `json:"via"`
	Note        string `json:"note,omitempty"`
}

// renderer redacts with every resolution's secrets: today's, the process's and the
// annotation's, so a secret that only the running process has is hidden too.
type renderer struct {
	s                  *live.Status
	today, proc, annot *output.Redactor
	// all is the three in one (output.Merge): text and argv words are redacted knowing
	// every secret at once.
	all *output.Redactor
}

func newRenderer(s *live.Status, red *output.Redactor, show bool) *renderer {
	r := &renderer{s: s, today: red}
	if s.FromProcess != nil {
		r.proc = report.NewRedactor(s.FromProcess, show)
	}
	if s.FromAnnotation != nil {
		r.annot = report.NewRedactor(s.FromAnnotation, show)
	}
	r.all = output.Merge(show, r.today, r.proc, r.annot)
	return r
}

func (r *renderer) scrub(v string) string { return r.all.Scrub(v) }

// words redacts an argv by the one word rule (output.Redactor.Argv) of every resolution;
// the words k3s itself omitted stay as k3s wrote them.
func (r *renderer) words(ws []string) []string {
	out := r.all.Argv(ws)
	for i, w := range ws {
		if w == live.OmittedValue {
			out[i] = w
		}
	}
	return out
}

func (r *renderer) value(via, key string, v any) any {
	res, red := r.s.Today, r.today
	switch via {
	case "process":
		res, red = r.s.FromProcess, r.proc
	case "annotation":
		res, red = r.s.FromAnnotation, r.annot
	}
	if res != nil {
		if k := res.Key(key); k != nil {
			return redactAny(k, v, red, r)
		}
	}
	return v
}

func redactAny(k *resolve.Key, v any, red *output.Redactor, r *renderer) any {
	switch x := v.(type) {
	case string:
		if k.Flag.Secret {
			x = red.Value(k.Name(), x)
		}
		return r.scrub(x)
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			if k.Flag.Secret {
				s = red.Value(k.Name(), s)
			}
			out[i] = r.scrub(s)
		}
		return out
	}
	return v
}

// JSON builds the `status --json` document (docs/json.md), for encoding/json; red is today's redactor (report.NewRedactor(today, show)).
func JSON(s *live.Status, red *output.Redactor, showSecrets bool) any {
	r := newRenderer(s, red, showSecrets)
	d := &statusDocument{Envelope: output.NewEnvelope(s.Product, s.Command, "status"), Unit: s.Unit, Pending: s.Pending(),
		Stale: append([]live.Stale{}, s.Stale...), DaemonReload: s.DaemonReload, DaemonReloadWhy: s.DaemonReloadWhy,
		Drift: []driftJSON{}, NotCompared: s.NotCompared, MayChange: append([]live.KeyInFile{}, s.MayChange...),
		Diagnostics: []output.Diagnostic{}}
	if p := s.Process; p != nil {
		pd := &processJSON{PID: p.PID, Command: p.Command, StartFrom: s.StartFrom, Title: p.Title, ArgvHidden: p.Hidden,
			Environ: p.EnvironState, Others: s.OtherPIDs}
		if !s.Start.IsZero() {
			t := s.Start
			pd.Started = &t
		}
		if !p.Hidden {
			pd.Argv = r.words(p.Argv)
		}
		d.Process = pd
	}
	if st := s.Systemd; st != nil {
		sd := &systemdJSON{ActiveState: st.ActiveState, LoadState: st.LoadState, NeedDaemonReload: st.NeedDaemonReload, MainPID: st.MainPID}
		if !st.ActiveEnter.IsZero() {
			t := st.ActiveEnter
			sd.ActiveEnter = &t
		}
		for _, a := range st.ExecStart {
			sd.ExecStart = append(sd.ExecStart, r.words(a))
		}
		d.Systemd = sd
	}
	if s.RunningArgs != nil {
		d.Argv = &argvJSON{Running: r.words(s.RunningArgs), UnitNow: r.words(s.UnitArgs),
			OnlyRunning: r.words(s.ArgsOnlyRunning), OnlyUnitNow: r.words(s.ArgsOnlyUnit)}
	}
	if a := s.Annotations; a != nil {
		ad := &annotationJSON{Node: a.Node, Args: r.words(a.Args), EnvNames: []string{},
			OnlyNode: r.words(s.AnnotationOnly), OnlyToday: r.words(s.TodayOnly)}
		for n := range a.Env {
			ad.EnvNames = append(ad.EnvNames, n)
		}
		sortStrings(ad.EnvNames)
		d.Annotation = ad
	}
	for _, dr := range s.Drift {
		d.Drift = append(d.Drift, driftJSON{Key: dr.Key, Running: r.value(dr.Via, dr.Key, dr.Running), RunningFrom: dr.RunningFrom,
			Today: r.value("today", dr.Key, dr.Today), TodayFrom: dr.TodayFrom, Via: dr.Via, Note: dr.Note})
	}
	for _, dg := range s.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, output.Diagnostic{Severity: string(dg.Severity), Code: dg.Code, File: dg.Pos.File,
			Line: dg.Pos.Line, Column: dg.Pos.Column, Key: r.scrub(dg.Key), Message: r.scrub(dg.Message), Hint: r.scrub(dg.Hint)})
	}
	return d
}

// Text prints the one-screen status.
func Text(w io.Writer, s *live.Status, red *output.Redactor, showSecrets bool) {
	r := newRenderer(s, red, showSecrets)
	unit := s.UnitName()
	switch p := s.Process; {
	case p != nil:
		since := "at an unknown time"
		if !s.Start.IsZero() {
			since = "since " + fmtTime(s.Start) + " (" + s.StartFrom + ")"
		}
		fmt.Fprintf(w, "%s %s running, pid %d, %s\n", s.Product, p.Command, p.PID, since)
		if p.Hidden {
			fmt.Fprintf(w, "  command line: hidden by the process title %q", p.Title)
			if s.FromAnnotation == nil {
				fmt.Fprint(w, "; pass --node-json to compare values")
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintf(w, "  command line: %s\n", strings.Join(shellWords(r.words(p.Argv)), " "))
		}
	case s.ProcMissing:
		fmt.Fprintf(w, "%s: no /proc under the node root; the running process cannot be read\n", s.Product)
	default:
		fmt.Fprintf(w, "%s %s: not running\n", s.Product, s.Command)
	}
	if st := s.Systemd; st != nil {
		fmt.Fprintf(w, "  systemd: %s %s/%s, main pid %d, NeedDaemonReload=%s\n", unit, st.LoadState, st.ActiveState, st.MainPID, yesNo(st.NeedDaemonReload))
	}
	if a := s.Annotations; a != nil {
		fmt.Fprintf(w, "  node %s: %d node-args words, %d node-env variables recorded at the last start\n", a.Node, len(a.Args), len(a.Env))
	}

	if s.DaemonReload {
		fmt.Fprintf(w, "\ndaemon-reload pending: %s\n", s.DaemonReloadWhy)
	}
	if len(s.Stale) > 0 {
		fmt.Fprintf(w, "\nchanged after %s started: restart needed\n", s.Product)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, st := range s.Stale {
			what := "restart"
			if st.Action == "daemon-reload" {
				what = "systemctl daemon-reload first, then restart"
			}
			if st.Why != "" {
				what = st.Why + "; " + what
			}
			fmt.Fprintf(tw, "  %s\t%s\tmodified %s\t%s\n", st.Role, st.Path, fmtTime(st.Modified), what)
		}
		tw.Flush()
	}
	if len(s.Drift) > 0 {
		fmt.Fprintln(w, "\nrunning values that differ from the files now:")
		for _, d := range s.Drift {
			fmt.Fprintf(w, "  %s\n", d.Key)
			fmt.Fprintf(w, "    running: %s  (%s)\n", report.FormatValue(r.value(d.Via, d.Key, d.Running)), d.RunningFrom)
			fmt.Fprintf(w, "    files:   %s  (%s)\n", report.FormatValue(r.value("today", d.Key, d.Today)), d.TodayFrom)
			if d.Note != "" {
				fmt.Fprintf(w, "    note: %s\n", d.Note)
			}
		}
	}
	if len(s.MayChange) > 0 {
		fmt.Fprintln(w, "\nset in changed files (the running value may differ):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, m := range s.MayChange {
			fmt.Fprintf(tw, "  %s\t%s\n", m.Key, m.Pos)
		}
		tw.Flush()
	}
	if len(s.NotCompared) > 0 {
		fmt.Fprintf(w, "\nnot compared (k3s redacts them in the annotation): %s\n", strings.Join(s.NotCompared, ", "))
	}
	if len(s.ArgsOnlyRunning)+len(s.ArgsOnlyUnit) > 0 {
		fmt.Fprintf(w, "\ncommand line: running has %s; %s now gives %s\n",
			listOrNone(r.words(s.ArgsOnlyRunning)), unit, listOrNone(r.words(s.ArgsOnlyUnit)))
	}
	if len(s.AnnotationOnly)+len(s.TodayOnly) > 0 {
		fmt.Fprintf(w, "\nnode-args: recorded %s; the files now give %s\n", listOrNone(r.words(s.AnnotationOnly)), listOrNone(r.words(s.TodayOnly)))
	}
	var info []string
	for _, d := range s.Diagnostics {
		switch d.Code {
		case "live-restart-needed", "live-daemon-reload-needed", "live-value-differs", "live-argv-hidden", "live-argv-differs":
			continue // already on the screen
		}
		info = append(info, fmt.Sprintf("%s[%s] %s", d.Severity, d.Code, r.scrub(d.Message)))
		if d.Hint != "" {
			info = append(info, "  fix: "+r.scrub(d.Hint))
		}
	}
	if len(info) > 0 {
		fmt.Fprintln(w)
		for _, l := range info {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
	switch {
	case s.DaemonReload:
		fmt.Fprintf(w, "to apply: systemctl daemon-reload && systemctl restart %s\n", unit)
	case len(s.Stale) > 0 || len(s.Drift) > 0:
		fmt.Fprintf(w, "to apply: systemctl restart %s\n", unit)
	case s.Process == nil && !s.ProcMissing && s.FromAnnotation == nil:
		fmt.Fprintf(w, "not running: starting %s applies the files\n", unit)
	case s.Pending():
		fmt.Fprintln(w, "cannot tell whether the files are in effect")
	default:
		fmt.Fprintln(w, "in effect: nothing changed since the start")
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func listOrNone(ws []string) string {
	if len(ws) == 0 {
		return "nothing else"
	}
	return strings.Join(shellWords(ws), " ")
}

func shellWords(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`!*?[]{}();&|<>#~") {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return out
}

func sortStrings(xs []string) { sort.Strings(xs) }

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
