package runlog

// Change is a task that changed on a host in the last run, with what it did on that host in
// each earlier run.
type Change struct {
	Play    string
	Task    string
	Handler bool
	// Line is where the task's change is in the last run's log.
	Line int
	// Before is the task's status on the host in each earlier run, in the order given; ""
	// where the run has no result of it for the host (not run, skipped and hidden, or cut
	// off).
	Before []Status
	// EveryRun: the task changed on the host in every earlier run (and there is one): a
	// change that happens whatever you edit. A run with no result of the task for the host
	// counts as one where it did not change (a handler not notified, a task skipped while
	// display_skipped_hosts is off, or not selected by --tags), so such a change is new.
	EveryRun bool
}

// HostChanges splits the last run's changes on one host.
type HostChanges struct {
	Host string
	// EveryRun are the changes that happened in the earlier runs too.
	EveryRun []Change
	// New are the changes the earlier runs did not make: yours, if you edited something
	// between the runs.
	New []Change
}

// Changes lists, per host, the tasks that changed in the run (one entry per task key, in
// log order).
func (r *Run) Changes(host string) []Event {
	seen := map[string]bool{}
	var out []Event
	for _, e := range r.Events(host) {
		if e.Result.Status() == Changed && !seen[e.Key()] {
			seen[e.Key()] = true
			out = append(out, e)
		}
	}
	return out
}

// statusOf is the task's status on the host in the run: changed if any of its results (a
// task printed twice under one name) changed, else the first result's; "" for none.
func (r *Run) statusOf(host, key string) Status {
	var st Status
	for _, e := range r.Events(host) {
		if e.Key() != key {
			continue
		}
		s := e.Result.Status()
		if s == Changed {
			return Changed
		}
		if st == "" {
			st = s
		}
	}
	return st
}

// Compare splits the last run's changes per host into those every earlier run made too and
// the new ones. Hosts come in the last run's recap order. With one run, every change is
// "new": there is nothing to compare with.
func Compare(runs []*Run) []HostChanges {
	if len(runs) == 0 {
		return nil
	}
	last, earlier := runs[len(runs)-1], runs[:len(runs)-1]
	idx := make([]map[string]map[string]Status, len(earlier)) // run -> host -> key -> status
	for i, r := range earlier {
		idx[i] = statusIndex(r)
	}
	var out []HostChanges
	for _, h := range last.Hosts() {
		hc := HostChanges{Host: h}
		for _, e := range last.Changes(h) {
			c := Change{Play: e.Play.Name, Task: e.Task.Name, Handler: e.Task.Handler, Line: e.Result.Line}
			every := len(earlier) > 0
			for i := range earlier {
				st := idx[i][h][e.Key()]
				c.Before = append(c.Before, st)
				every = every && st == Changed
			}
			c.EveryRun = every
			if c.EveryRun {
				hc.EveryRun = append(hc.EveryRun, c)
			} else {
				hc.New = append(hc.New, c)
			}
		}
		out = append(out, hc)
	}
	return out
}

func statusIndex(r *Run) map[string]map[string]Status {
	out := map[string]map[string]Status{}
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				m := out[res.Host]
				if m == nil {
					m = map[string]Status{}
					out[res.Host] = m
				}
				k := Event{Play: p, Task: t}.Key()
				if s := res.Status(); m[k] == "" || s == Changed {
					m[k] = s
				}
			}
		}
	}
	return out
}
