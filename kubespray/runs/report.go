package runs

import (
	"fmt"
	"io"
	"os"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/ansible/runlog"
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
	Var     *VarReport
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
	NotRun        = "not-run"
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
		ran, failed := false, false
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
			case runlog.Failed, runlog.Unreachable:
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

// Incomplete: a log could not be read.
func (r *Report) Incomplete() bool { return len(r.Unread) > 0 }

// Failed: the last run failed or has no verdict (no PLAY RECAP), or there is no run.
func (r *Report) Failed() bool {
	if len(r.Runs) == 0 {
		return true
	}
	return r.Runs[len(r.Runs)-1].Verdict() != runlog.Succeeded
}
