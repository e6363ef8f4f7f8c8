package runlog

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Parse reads one log: the default callback's text (with or without profile_tasks, as
// printed or as log_path writes it) or the json callback's document. A text log holding
// several runs gives several runs, named source#1, source#2, …; anything else gives one.
// Parse never fails: what it cannot read is in each run's Problems.
func Parse(source string, data []byte) []*Run {
	data = stripANSI(data)
	if isJSONL(data) {
		runs := parseJSONL(source, data)
		if len(runs) > 1 {
			for i, r := range runs {
				r.Source = source + "#" + strconv.Itoa(i+1)
			}
		}
		return runs
	}
	if isJSON(data) {
		return []*Run{parseJSON(source, data)}
	}
	runs := parseText(source, data)
	if len(runs) == 1 && len(runs[0].Plays) == 0 && !runs[0].hasRecap {
		// Warnings (2>&1) before the json callback's document.
		if i := jsonStart(data); i >= 0 {
			r := parseJSON(source, data[i:])
			for k := range r.Problems {
				if r.Problems[k].Line > 0 {
					r.Problems[k].Line += bytes.Count(data[:i], []byte("\n"))
				}
			}
			return []*Run{r}
		}
		if len(runs[0].Errors) == 0 && len(runs[0].Problems) == 0 {
			runs[0].problem(0, "no ansible-playbook output in the log (no PLAY banner, no PLAY RECAP)")
		}
	}
	if len(runs) > 1 {
		for i, r := range runs {
			r.Source = source + "#" + strconv.Itoa(i+1)
		}
	}
	return runs
}

var (
	// ECMA-48 control sequences (CSI … final byte), OSC strings, and other two-byte escapes.
	reCSI = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]")
	reOSC = regexp.MustCompile("\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?")
	reEsc = regexp.MustCompile("\x1b[@-Z\\\\-_]?")
)

// stripANSI removes terminal escape sequences: ansible colours whole lines and the recap's
// counters when ANSIBLE_FORCE_COLOR is set or it writes to a terminal.
func stripANSI(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	b = reCSI.ReplaceAll(b, nil)
	b = reOSC.ReplaceAll(b, nil)
	return reEsc.ReplaceAll(b, nil)
}

var (
	// log_path lines: "2026-12-01 21:13:58,123 p=1234 u=root n=ansible | TASK [x] ***".
	reLogPrefix = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ p=\d+ u=[^ ]* n=[^ ]* \| `)
	// display.banner: the message, a space, at least three stars (utils/display.py banner).
	reBanner  = regexp.MustCompile(`^(PLAY RECAP|PLAY|TASK|RUNNING HANDLER|CLEANUP TASK|NO MORE HOSTS LEFT|PLAYBOOK:|DRY RUN)( .*?)? \*{3,}\s*$`)
	reBracket = regexp.MustCompile(`^\[(.*)\](?: \[CHECK MODE\])?$`)
	// ok: [h1], changed: [h1 -> localhost] => (item=x), skipping: [h1] => …
	reResult = regexp.MustCompile(`^(ok|changed|skipping): \[([^\]]*)\](?:$| => (\(item=)?| )`)
	reFatal  = regexp.MustCompile(`^fatal: \[([^\]]*)\]: (FAILED|UNREACHABLE)!`)
	reItemKO = regexp.MustCompile(`^failed: \[([^\]]*)\] \(item=`)
	reRecap  = regexp.MustCompile(`^(\S+)\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)(?:\s+skipped=(\d+))?(?:\s+rescued=(\d+))?(?:\s+ignored=(\d+))?\s*$`)
	// profile_tasks: "Tuesday 01 December 2026  21:13:31 +0000 (0:00:00.021)       0:00:00.021 ***"
	reTiming = regexp.MustCompile(`^\S+ \d\d \S+ \d{4}\s+\d\d:\d\d:\d\d [+-]\d{4} \(\d+:\d\d:\d\d\.\d+\)\s+\d+:\d\d:\d\d\.\d+ \*+\s*$`)
	// profile_tasks' summary: the name, dashes to the column, the seconds: "r1 : x ---- 1.33s";
	// a name as wide as the terminal leaves no dashes.
	reSlow = regexp.MustCompile(`^(.*?)(?: -+ |  )(\d+\.\d\d)s$`)
)

type textParser struct {
	source string
	runs   []*Run
	run    *Run
	play   *Play
	task   *Task
	byHost map[string]*Result
	// lastFailed is the failure "...ignoring" refers to.
	lastFailed *Result
	inRecap    bool
	inSummary  bool
}

func parseText(source string, data []byte) []*Run {
	p := &textParser{source: source}
	p.newRun()
	n := 0
	for len(data) > 0 {
		n++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimRight(line, "\r")
		if m := reLogPrefix.Find(line); m != nil {
			line = line[len(m):]
		}
		p.line(n, string(line))
	}
	// A trailing run with nothing in it (the blank lines after a recap) is no run.
	if len(p.runs) > 1 {
		if last := p.runs[len(p.runs)-1]; len(last.Plays) == 0 && !last.hasRecap && len(last.Errors) == 0 {
			p.runs = p.runs[:len(p.runs)-1]
		}
	}
	for _, r := range p.runs {
		r.markContinued()
		r.checkRecap()
		r.reconcileLast()
	}
	return p.runs
}

func (p *textParser) newRun() {
	p.run = &Run{Source: p.source, Format: "text"}
	p.runs = append(p.runs, p.run)
	p.play, p.task, p.byHost, p.lastFailed = nil, nil, nil, nil
	p.inRecap, p.inSummary = false, false
}

func (p *textParser) line(n int, s string) {
	if s == "" || s[0] == ' ' || s[0] == '\t' {
		return // result dumps and task output are indented; never events
	}
	if m := reBanner.FindStringSubmatch(s); m != nil {
		p.banner(n, m[1], strings.TrimPrefix(m[2], " "))
		return
	}
	if p.inSummary {
		if m := reSlow.FindStringSubmatch(s); m != nil {
			sec, _ := strconv.ParseFloat(m[2], 64)
			p.run.Slowest = append(p.run.Slowest, Timing{Task: m[1], Seconds: sec})
		}
		return
	}
	switch {
	case reTiming.MatchString(s):
		p.run.Profile = true
		return
	case strings.HasPrefix(s, "====") && strings.Trim(strings.TrimSpace(s), "=") == "":
		if p.run.hasRecap {
			p.inRecap, p.inSummary = false, true
		}
		return
	case strings.HasPrefix(s, "ERROR! "):
		if len(p.run.Errors) < maxNotes {
			p.run.Errors = append(p.run.Errors, Note{Line: n, Message: clip(s, 200)})
		}
		return
	case s == "...ignoring":
		if p.lastFailed != nil {
			p.lastFailed.ignored = true
			p.lastFailed = nil
		} else {
			p.run.problem(n, "\"...ignoring\" after no failure")
		}
		return
	}
	if p.inRecap {
		if m := reRecap.FindStringSubmatch(s); m != nil {
			rc := Recap{Host: m[1], Line: n}
			for i, f := range []*int{&rc.OK, &rc.Changed, &rc.Unreachable, &rc.Failed, &rc.Skipped, &rc.Rescued, &rc.Ignored} {
				*f, _ = strconv.Atoi(m[i+2])
			}
			p.run.Recap = append(p.run.Recap, rc)
		} else if strings.Contains(s, ": ok=") || strings.HasSuffix(strings.TrimSpace(s), " :") {
			p.run.problem(n, "a PLAY RECAP line that does not read (cut off?)")
			p.run.recapCut = true
		}
		return
	}
	if m := reResult.FindStringSubmatch(s); m != nil {
		r := p.result(n, m[2])
		if r == nil {
			return
		}
		if m[3] != "" {
			r.items++
		}
		switch m[1] {
		case "changed":
			r.changed, r.skipped, r.ran = true, false, true
		case "ok":
			r.skipped, r.ran = false, true
		case "skipping":
			if !r.ran && !r.failed {
				r.skipped = true
			}
		}
		return
	}
	if m := reFatal.FindStringSubmatch(s); m != nil {
		if r := p.result(n, m[1]); r != nil {
			r.skipped = false
			if m[2] == "UNREACHABLE" {
				r.unreachable = true
			} else {
				r.failed = true
			}
			p.lastFailed = r
		}
		return
	}
	if m := reItemKO.FindStringSubmatch(s); m != nil {
		if r := p.result(n, m[1]); r != nil {
			r.items++
			r.failed, r.skipped = true, false
			p.lastFailed = r
		}
		return
	}
	for _, pre := range []string{"ok: [", "changed: [", "skipping: [", "fatal: [", "failed: ["} {
		if strings.HasPrefix(s, pre) {
			p.run.problem(n, "a result line that does not read (cut off?)")
			return
		}
	}
}

func (p *textParser) banner(n int, kind, rest string) {
	name := ""
	if m := reBracket.FindStringSubmatch(rest); m != nil {
		name = m[1]
	}
	switch kind {
	case "PLAY RECAP":
		p.task, p.byHost, p.lastFailed = nil, nil, nil
		if p.run.hasRecap {
			p.newRun() // a second recap with no PLAY between: two runs' ends
		}
		p.run.hasRecap, p.inRecap, p.inSummary = true, true, false
	case "PLAY", "PLAYBOOK:":
		if p.run.hasRecap {
			p.newRun()
		}
		p.inRecap, p.inSummary = false, false
		if kind == "PLAY" {
			p.play = &Play{Name: name, Line: n}
			p.run.Plays = append(p.run.Plays, p.play)
			p.task, p.byHost, p.lastFailed = nil, nil, nil
		}
	case "TASK", "RUNNING HANDLER", "CLEANUP TASK":
		if p.run.hasRecap {
			p.run.problem(n, "a task banner after the PLAY RECAP")
			return
		}
		if p.play == nil {
			p.run.problem(n, "a task banner before any PLAY banner (the log starts mid-run?)")
			p.play = &Play{Line: n}
			p.run.Plays = append(p.run.Plays, p.play)
		}
		p.task = &Task{Name: name, Handler: kind == "RUNNING HANDLER", Line: n}
		p.play.Tasks = append(p.play.Tasks, p.task)
		p.byHost, p.lastFailed = map[string]*Result{}, nil
	}
}

// result is the current task's result for the host label (creating it).
func (p *textParser) result(n int, label string) *Result {
	if p.task == nil {
		p.run.problem(n, "a result before any task banner (the log starts mid-task?)")
		return nil
	}
	host, deleg, _ := strings.Cut(label, " -> ")
	if r := p.byHost[host]; r != nil {
		return r
	}
	r := &Result{Host: host, Delegated: deleg, Line: n}
	p.byHost[host] = r
	p.task.Results = append(p.task.Results, r)
	return r
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// sortSlowest orders timings slowest first, by name for equal times.
func sortSlowest(ts []Timing) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Seconds != ts[j].Seconds {
			return ts[i].Seconds > ts[j].Seconds
		}
		return ts[i].Task < ts[j].Task
	})
}
