package runs

import (
	"fmt"
	"io"
	"os"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Log is one log argument: its name as given and its bytes, or why it could not be read.
type Log struct {
	Name string
	Data []byte
	Err  error
}

// ReadLog reads a log argument through k3sconf's one reader (never a FIFO or device, at
// most rootfs.MaxHostFile bytes); "-" is standard input, read to its end within the same
// limit.
func ReadLog(name string, stdin io.Reader) Log {
	if name != "-" {
		b, err := rootfs.ReadHostFile(name)
		return Log{Name: name, Data: b, Err: err}
	}
	if stdin == nil {
		stdin = os.Stdin
	}
	b, err := io.ReadAll(io.LimitReader(stdin, rootfs.MaxHostFile+1))
	if err == nil && len(b) > rootfs.MaxHostFile {
		err = fmt.Errorf("read -: more than k3sconf's limit of %d bytes", rootfs.MaxHostFile)
	}
	return Log{Name: name, Data: b, Err: err}
}

// Options say what to read.
type Options struct {
	Logs []Log
	// Var, when set, is the variable whose tasks the report follows, in the checkout Dir.
	Var string
	Dir string
	// Find finds the tasks that use Var; nil is [FindUses].
	Find Finder
	// Tags and SkipTags, when set, are the last run's --tags and --skip-tags (the log does
	// not print them): the uses they select are the ones the run could reach
	// ([kubespray.SelectedSites]), and a host with no result of any use is said to be
	// outside the selection.
	Tags, SkipTags []string
	// Inventory, when given, names the hosts that should be in the runs: a host of the
	// inventory with no result in the last run is said to be missing (--limit, or
	// unreachable before its first task).
	Inventory []string
}

// Report is what the logs say.
type Report struct {
	// Runs in the order given (a log with several runs gives them in its order).
	Runs []*runlog.Run
	// Unread are the logs that could not be read: the report is incomplete (exit 3).
	Unread []Unread
	// Last is the last run's changes per host, against the runs before it.
	Last []runlog.HostChanges
	// Missing are the inventory's hosts the last run has no result or recap line for.
	Missing []string
	// Findings are the inventory's errors and warnings (a host range over
	// ansible.MaxRangeHosts, at its file:line:column): with an error, k3sconf did not read
	// the inventory whole, and Missing may lack hosts (exit 3).
	Findings []diag.Diagnostic
	Var      *VarReport
}

// Unread is a log that could not be read.
type Unread struct {
	Log   string `json:"log"`
	Error string `json:"error"`
}

// VarReport answers "did my change to Var take effect?" for the last run.
type VarReport struct {
	Name string
	Uses *Uses
	// Tags and SkipTags are [Options.Tags] and [Options.SkipTags]; Selected holds, per use of
	// Uses.Tasks, whether they select it (every use when neither is set).
	Tags, SkipTags []string
	Selected       []bool
	Hosts          []VarHost
}

// VarHost is the answer for one host.
type VarHost struct {
	Host string
	// Verdict: applied (a task that uses the variable changed and the handlers it
	// notifies ran), handler-not-run (changed, but a notified handler did not run),
	// unchanged (the tasks ran and changed nothing), failed (one failed), not-run (none of
	// them has a result for the host).
	Verdict string
	// EveryRun: every task that changed changes in every earlier run too, so the change
	// is no sign of the edit.
	EveryRun bool
	Tasks    []TaskOutcome
	Handlers []HandlerOutcome
	// Owed: an earlier run changed a task that uses the variable and failed before the
	// handlers it notifies ran, and no run since ran them (the task, unchanged since,
	// notifies nothing any more): the daemon still has the old value. Set with the
	// verdict handler-not-run.
	Owed *Owed
}

// Owed is a change whose handlers never ran, in an earlier run.
type Owed struct {
	// Run is the index in Report.Runs of the run that changed it.
	Run int
	// Tasks are the uses that changed there; Handlers those of their handlers that did not
	// run.
	Tasks    []Use
	Handlers []Handler
	// FailedAt is the task at which the host failed in that run ("" when it has none: the
	// run was cut off), with its status (failed or unreachable).
	FailedAt     string
	FailedStatus runlog.Status
}

// TaskOutcome is what a task that uses the variable did on the host in the last run.
type TaskOutcome struct {
	Use    Use
	Status runlog.Status // "" when the run has no result of it for the host
	// Selected: the run's tags (Options.Tags, SkipTags) select it; true when none are given.
	Selected bool
	EveryRun bool
	Line     int
}

// HandlerOutcome is what a handler notified by a changed task did.
type HandlerOutcome struct {
	Handler Handler
	Status  runlog.Status
	Line    int
}

// Verdicts of VarHost.
const (
	Applied       = "applied"
	HandlerNotRun = "handler-not-run"
	Unchanged     = "unchanged"
	UseFailed     = "failed"
	// UseUnreachable: a task that uses the variable found the host unreachable (the
	// connection failed, not the task).
	UseUnreachable = "unreachable"
	NotRun         = "not-run"
	// NotSelected: none of the tasks has a result and the run's --tags/--skip-tags (given
	// to runs) select none of them.
	NotSelected = "not-selected"
	// NotInRun: a host of the inventory the last run has nothing for.
	NotInRun = "not-in-run"
)

// Build reads the logs and answers.
func Build(o Options) (*Report, error) {
	r := &Report{}
	for _, l := range o.Logs {
		if l.Err != nil {
			r.Unread = append(r.Unread, Unread{Log: l.Name, Error: l.Err.Error()})
			continue
		}
		r.Runs = append(r.Runs, runlog.Parse(l.Name, l.Data)...)
	}
	r.Last = runlog.Compare(r.Runs)
	if len(o.Inventory) > 0 {
		inv, err := ansible.LoadInventory(o.Inventory)
		if err != nil {
			return r, err
		}
		for _, d := range inv.Diagnostics {
			if d.Severity == diag.Error || d.Severity == diag.Warning {
				r.Findings = append(r.Findings, d)
			}
		}
		if len(r.Runs) > 0 {
			in := map[string]bool{}
			for _, h := range r.Runs[len(r.Runs)-1].Hosts() {
				in[h] = true
			}
			for _, h := range inv.HostOrder {
				if !in[h] {
					r.Missing = append(r.Missing, h)
				}
			}
		}
	}
	if o.Var != "" {
		find := o.Find
		if find == nil {
			find = FindUses
		}
		uses, err := find(o.Dir, o.Var)
		if err != nil {
			return r, err
		}
		r.Var = &VarReport{Name: o.Var, Uses: uses, Tags: o.Tags, SkipTags: o.SkipTags}
		for _, u := range uses.Tasks {
			r.Var.Selected = append(r.Var.Selected, (len(o.Tags) == 0 && len(o.SkipTags) == 0) || u.Selected(o.Tags, o.SkipTags))
		}
		if len(r.Runs) > 0 {
			r.Var.Hosts = varHosts(r.Runs[len(r.Runs)-1], uses, r.Var.Selected, r.Last)
			owedSince(r.Runs, uses, r.Var.Hosts)
			for _, h := range r.Missing {
				r.Var.Hosts = append(r.Var.Hosts, VarHost{Host: h, Verdict: NotInRun})
			}
		}
	}
	return r, nil
}

// matches: the log's task is the use's: printed as its display name ("role : task", the
// bare name of a play's own task, an include_role's name), in a play that runs it.
func matches(e runlog.Event, display string, plays []string) bool {
	if e.Task.Name != display {
		return false
	}
	if len(plays) == 0 || e.Play == nil {
		return true
	}
	for _, p := range plays {
		if p == "" || p == e.Play.Name {
			return true
		}
	}
	return false
}

// handlerNeed is a handler a changed use notifies, in the plays of that use.
type handlerNeed struct {
	h     Handler
	plays []string
}

func varHosts(last *runlog.Run, uses *Uses, selected []bool, changes []runlog.HostChanges) []VarHost {
	every := map[string]map[string]bool{}
	for _, hc := range changes {
		every[hc.Host] = map[string]bool{}
		for _, c := range hc.EveryRun {
			every[hc.Host][c.Play+"\x00"+c.Task] = true
		}
	}
	var out []VarHost
	for _, h := range last.Hosts() {
		vh := VarHost{Host: h}
		events := last.Events(h)
		ran, failed, unreachable := false, false, false
		needed := map[string]handlerNeed{}
		var neededOrder []string
		changedAll, changedAny := true, false
		anySelected := false
		for i, u := range uses.Tasks {
			to := TaskOutcome{Use: u, Selected: selected[i]}
			anySelected = anySelected || to.Selected
			for _, e := range events {
				if !matches(e, u.Display, u.Plays) {
					continue
				}
				st := e.Result.Status()
				if to.Status == "" || st == runlog.Changed {
					to.Status, to.Line = st, e.Result.Line
					to.EveryRun = every[h][e.Key()]
				}
			}
			switch to.Status {
			case "":
			case runlog.Unreachable:
				ran, unreachable = true, true
			case runlog.Failed:
				ran, failed = true, true
			case runlog.Changed:
				ran, changedAny = true, true
				changedAll = changedAll && to.EveryRun
				for _, hd := range u.Handlers {
					k := hd.Pos.String() + "\x00" + hd.Display
					if _, ok := needed[k]; !ok {
						needed[k] = handlerNeed{hd, u.Plays}
						neededOrder = append(neededOrder, k)
					}
				}
			default:
				ran = true
			}
			vh.Tasks = append(vh.Tasks, to)
		}
		allRan := true
		changedHandlers := map[string]bool{}
		for _, k := range neededOrder {
			hd := needed[k]
			ho := HandlerOutcome{Handler: hd.h}
			for _, e := range events {
				if matches(e, hd.h.Display, hd.plays) && (e.Task.Handler || last.Format == "json") {
					if ho.Status == "" || e.Result.Status() == runlog.Changed {
						ho.Status, ho.Line = e.Result.Status(), e.Result.Line
					}
				}
			}
			if ho.Status == runlog.Changed {
				changedHandlers[hd.h.Display] = true
			}
			// A handler notified by a handler is notified only when that one changed
			// (ansible-core 2.14: a handler's notify is processed from its changed result,
			// as a task's); with no result and no change above it, it was never due.
			if hd.h.FromHandler && ho.Status == "" && !changedHandlers[hd.h.From] {
				continue
			}
			if ho.Status != runlog.Changed && ho.Status != runlog.OK {
				allRan = false
			}
			vh.Handlers = append(vh.Handlers, ho)
		}
		switch {
		case !ran && !anySelected && len(uses.Tasks) > 0:
			vh.Verdict = NotSelected
		case !ran:
			vh.Verdict = NotRun
		case failed:
			vh.Verdict = UseFailed
		case unreachable:
			vh.Verdict = UseUnreachable
		case !changedAny:
			vh.Verdict = Unchanged
		case !allRan:
			vh.Verdict = HandlerNotRun
		default:
			vh.Verdict = Applied
		}
		vh.EveryRun = changedAny && changedAll
		out = append(out, vh)
	}
	return out
}

// owedSince finds, for each host of the last run whose uses did not change there (or did
// not run), a change of an earlier run whose handlers did not run and that no later run
// made up for: a run that changed a use and failed before its handlers ran leaves the file
// new and the daemon old, and the next run finds the file as it should be and notifies
// nothing (ansible-core 2.14 runs a handler only when a task notifying it reports changed,
// or on a failed host with --force-handlers in a play without any_errors_fatal). A later run clears it when a handler of the
// change ran on the host.
func owedSince(runs []*runlog.Run, uses *Uses, hosts []VarHost) {
	if len(runs) < 2 {
		return
	}
	all := make([]bool, len(uses.Tasks))
	for i := range all {
		all[i] = true
	}
	owed := map[string]*Owed{}
	ranHandler := func(run *runlog.Run, host string, o *Owed) bool {
		for _, e := range run.Events(host) {
			for _, h := range o.Handlers {
				if e.Task.Name == h.Display && (e.Task.Handler || run.Format == "json") {
					if st := e.Result.Status(); st == runlog.Changed || st == runlog.OK {
						return true
					}
				}
			}
		}
		return false
	}
	for k, run := range runs {
		for h, o := range owed {
			if ranHandler(run, h, o) {
				delete(owed, h)
			}
		}
		if k == len(runs)-1 {
			break
		}
		for _, vh := range varHosts(run, uses, all, nil) {
			// Only a run that stopped on the host (failed, unreachable, cut off) loses a
			// notified handler. In a run that went on, a handler with no result was skipped
			// by its own when:, which display_skipped_hosts = no prints nothing for
			// (ansible-core 2.14.18, checked: no banner, the recap counts it skipped).
			if vh.Verdict != HandlerNotRun || !stopped(run, vh.Host) {
				continue
			}
			o := &Owed{Run: k}
			for _, t := range vh.Tasks {
				if t.Status == runlog.Changed {
					o.Tasks = append(o.Tasks, t.Use)
				}
			}
			for _, ho := range vh.Handlers {
				if ho.Status != runlog.Changed && ho.Status != runlog.OK {
					o.Handlers = append(o.Handlers, ho.Handler)
				}
			}
			// The failure that stopped the host is its last (an ignored or rescued one
			// comes before it).
			for _, e := range run.Events(vh.Host) {
				if st := e.Result.Status(); st == runlog.Failed || st == runlog.Unreachable {
					o.FailedAt, o.FailedStatus = e.Task.Name, st
				}
			}
			owed[vh.Host] = o
		}
	}
	for i := range hosts {
		vh := &hosts[i]
		o := owed[vh.Host]
		if o == nil {
			continue
		}
		switch vh.Verdict {
		case Unchanged, NotRun, NotSelected:
			vh.Owed, vh.Verdict = o, HandlerNotRun
		}
	}
}

// Incomplete: a log could not be read, or the inventory was not read whole.
func (r *Report) Incomplete() bool {
	return len(r.Unread) > 0 || diag.Diagnostics(r.Findings).HasErrors()
}

// Failed: the last run failed or has no verdict (no PLAY RECAP), or there is no run.
func (r *Report) Failed() bool {
	if len(r.Runs) == 0 {
		return true
	}
	return r.Runs[len(r.Runs)-1].Verdict() != runlog.Succeeded
}

// stopped: the run stopped on host before its end: the recap counts a failure or an
// unreachable for it, it has no recap line, or the run has none (cut off).
func stopped(run *runlog.Run, host string) bool {
	if run.Verdict() == runlog.Incomplete {
		return true
	}
	for _, rc := range run.Recap {
		if rc.Host == host {
			return rc.Failed > 0 || rc.Unreachable > 0
		}
	}
	return true
}
