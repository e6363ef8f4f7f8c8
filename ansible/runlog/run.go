package runlog

import (
	"fmt"
	"sort"
)

// Run is one ansible-playbook run read from a log.
type Run struct {
	// Source names the log (the file argument; "-" for standard input), with "#N" when the
	// file held several runs.
	Source string
	// Format is "text" (default callback), "json" (json callback) or "jsonl" (jsonl callback).
	Format string
	// Profile is set when the log has profile_tasks output (text) or task durations (json).
	Profile bool
	Plays   []*Play
	// Recap is the PLAY RECAP, one line per host in the order printed (sorted by host).
	Recap []Recap
	// hasRecap is false for a run that was cut off (no PLAY RECAP): it has no verdict.
	hasRecap bool
	// recapCut: the recap has a line that does not read, or lacks a host that has results
	// (every host with a result has a recap line): it may have been cut off, so it is no
	// verdict either.
	recapCut bool
	// Slowest are the tasks of profile_tasks' summary (text) or the task durations (json),
	// slowest first.
	Slowest []Timing
	// Errors are ansible-playbook's own "ERROR!" lines (a playbook that does not parse, a
	// missing inventory), first line only.
	Errors []Note
	// Problems are what the parser could not make sense of: a result before any task, a
	// recap line cut off, a JSON document that ends early.
	Problems []Note
}

// Note is a message tied to a line of the log.
type Note struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Play is one PLAY banner and its tasks.
type Play struct {
	Name  string
	Line  int
	Tasks []*Task
}

// Task is one TASK or RUNNING HANDLER banner (the name as printed, "role : name" for a role's
// task) and its results per host.
type Task struct {
	Name string
	// Handler: printed as RUNNING HANDLER (text); from the json callback, which does not
	// say, a task whose path is in a role's handlers/ folder.
	Handler bool
	Line    int
	// Path is file:line of the task (json callback only).
	Path    string
	Results []*Result
	// Seconds is the task's duration (json callback only; profile_tasks gives Slowest).
	Seconds float64
}

// Status is what a task did on a host.
type Status string

// The statuses, worst first as Result.Status ranks them.
const (
	Unreachable Status = "unreachable"
	Failed      Status = "failed"
	// Ignored is a failure followed by "...ignoring" (ignore_errors, ignore_unreachable).
	Ignored Status = "ignored"
	// Rescued is a failure the host ran on after (a block's rescue), or, from the json
	// callback, a failure the host ran on after for either reason.
	Rescued Status = "rescued"
	// IgnoredOrRescued is a json-callback failure the host ran on, on a host whose stats
	// count both ignored and rescued failures.
	IgnoredOrRescued Status = "ignored-or-rescued"
	Changed          Status = "changed"
	OK               Status = "ok"
	Skipped          Status = "skipped"
)

// Result is what one task did on one host.
type Result struct {
	Host string
	// Delegated is the host the task ran on for Host ("h1 -> localhost").
	Delegated   string
	Line        int
	changed     bool
	failed      bool
	unreachable bool
	skipped     bool
	// ignored: "...ignoring" followed the failure.
	ignored bool
	// continued: the host has results after this failure in the same run (rescued, or
	// ignored when the log cannot say which).
	continued bool
	// items is the number of loop items seen (0 for a task without a loop).
	items int
	// ran: an ok or changed line was seen (a loop's skipped items do not make it skipped).
	ran bool
	// unsure: a json-callback failure the host ran on, ignored or rescued.
	unsure bool
	// include: an include_role result (json callbacks), which the stats do not count.
	include bool
}

// Status is the result in one word.
func (r *Result) Status() Status {
	switch {
	case r.unreachable && !r.ignored && !r.continued:
		return Unreachable
	case r.failed || r.unreachable:
		if r.ignored {
			return Ignored
		}
		if r.unsure {
			return IgnoredOrRescued
		}
		if r.continued {
			return Rescued
		}
		return Failed
	case r.changed:
		return Changed
	case r.skipped:
		return Skipped
	}
	return OK
}

// Recap is one host's line of the PLAY RECAP.
type Recap struct {
	Host        string `json:"host"`
	OK          int    `json:"ok"`
	Changed     int    `json:"changed"`
	Unreachable int    `json:"unreachable"`
	Failed      int    `json:"failed"`
	Skipped     int    `json:"skipped"`
	Rescued     int    `json:"rescued"`
	Ignored     int    `json:"ignored"`
	Line        int    `json:"line"`
}

// Timing is one task's time.
type Timing struct {
	Task    string  `json:"task"`
	Seconds float64 `json:"seconds"`
}

// Verdict is the run's outcome as the recap says it.
type Verdict string

// Verdicts.
const (
	// Succeeded: a recap with failed=0 and unreachable=0 on every host.
	Succeeded Verdict = "ok"
	// FailedRun: some host has failed= or unreachable= above zero.
	FailedRun Verdict = "failed"
	// Incomplete: no PLAY RECAP (interrupted, or the log was cut off).
	Incomplete Verdict = "incomplete"
)

// Verdict is the run's outcome: the PLAY RECAP's.
func (r *Run) Verdict() Verdict {
	if !r.hasRecap || r.recapCut {
		return Incomplete
	}
	for _, h := range r.Recap {
		if h.Failed > 0 || h.Unreachable > 0 {
			return FailedRun
		}
	}
	return Succeeded
}

// FailedHosts are the hosts the recap counts failed or unreachable on.
func (r *Run) FailedHosts() []string {
	var out []string
	for _, h := range r.Recap {
		if h.Failed > 0 || h.Unreachable > 0 {
			out = append(out, h.Host)
		}
	}
	return out
}

// Hosts are every host of the run: the recap's, then any seen only in results.
func (r *Run) Hosts() []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range r.Recap {
		if !seen[h.Host] {
			seen[h.Host] = true
			out = append(out, h.Host)
		}
	}
	var more []string
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				if !seen[res.Host] {
					seen[res.Host] = true
					more = append(more, res.Host)
				}
			}
		}
	}
	sort.Strings(more)
	return append(out, more...)
}

// Event is one task's result on one host, with the play and task it belongs to.
type Event struct {
	Play   *Play
	Task   *Task
	Result *Result
}

// Key identifies a task across runs: the play's name and the task's name as printed (not
// whether it is a handler: the json callback does not say). Tasks printed twice under the same name in a play (an included
// file run twice) share a key.
func (e Event) Key() string { return e.Play.Name + "\x00" + e.Task.Name }

// Events lists the results of one host in log order.
func (r *Run) Events(host string) []Event {
	var out []Event
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				if res.Host == host {
					out = append(out, Event{p, t, res})
				}
			}
		}
	}
	return out
}

// reconcileLast: a host's failure that nothing follows is its last result; if the recap
// counts no failure and no unreachable for the host, that failure was ignored or rescued
// all the same (an ignored failure of the json callbacks, which print no "...ignoring"; a
// rescue whose tasks printed nothing). Found by TestDifferentialGenerated.
func (r *Run) reconcileLast() {
	if !r.hasRecap || r.recapCut {
		return
	}
	clean := map[string]bool{}
	for _, rc := range r.Recap {
		clean[rc.Host] = rc.Failed == 0 && rc.Unreachable == 0
	}
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				if (res.failed || res.unreachable) && !res.ignored && !res.continued && clean[res.Host] {
					res.continued = true
				}
			}
		}
	}
}

// checkRecap sets recapCut when a host with results has no recap line.
func (r *Run) checkRecap() {
	if !r.hasRecap {
		return
	}
	in := map[string]bool{}
	for _, h := range r.Recap {
		in[h.Host] = true
	}
	counted := map[string]bool{}
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				if !res.include {
					counted[res.Host] = true
				}
			}
		}
	}
	for _, h := range r.Hosts() {
		// A host whose only results are include_role's has no stats line: ansible counts
		// none (its json document says "stats": {} when that is every host).
		if !in[h] && counted[h] {
			r.recapCut = true
			r.problem(0, "the PLAY RECAP has no line for %s, which has results (cut off?)", h)
			return
		}
	}
	if r.Format != "text" {
		return
	}
	// The recap counts each failed task once per host (failed=, unreachable=); fewer fatal
	// lines in the log mean some went elsewhere: display_failed_stderr sends them to
	// standard error, which "> file" does not keep.
	for _, rc := range r.Recap {
		seen := 0
		for _, e := range r.Events(rc.Host) {
			if st := e.Result.Status(); st == Failed || st == Unreachable {
				seen++
			}
		}
		if seen < rc.Failed+rc.Unreachable {
			r.problem(rc.Line, "the PLAY RECAP counts %d failed or unreachable on %s, the log shows %d: with display_failed_stderr the fatal lines go to standard error (capture it too: 2>&1)", rc.Failed+rc.Unreachable, rc.Host, seen)
		}
	}
}

// markContinued sets continued on every failure after which its host still has results.
func (r *Run) markContinued() {
	last := map[string]*Result{}
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			if t.Handler {
				continue // --force-handlers runs handlers on failed hosts: no evidence
			}
			for _, res := range t.Results {
				if prev := last[res.Host]; prev != nil && (prev.failed || prev.unreachable) && !prev.ignored {
					prev.continued = true
				}
				last[res.Host] = res
			}
		}
	}
}

func (r *Run) problem(line int, format string, args ...any) {
	if len(r.Problems) < maxNotes {
		r.Problems = append(r.Problems, Note{Line: line, Message: fmt.Sprintf(format, args...)})
	}
}

// maxNotes bounds the problems and errors kept per run (a log of garbage has one per line).
const maxNotes = 20
