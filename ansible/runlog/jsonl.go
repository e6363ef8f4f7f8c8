package runlog

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
)

// isJSONL: the first line that is not blank is an object with an "_event" field: the jsonl
// callback (ansible.posix 1.5.4 plugins/callback/jsonl.py) writes one such line per event,
// as it happens, so a run cut off keeps every event before the cut.
func isJSONL(data []byte) bool {
	line := firstLine(data)
	return len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(`"_event":`))
}

// jsonlEvent is one line: a play (play start), a task with its results so far (task and
// handler start, runner results) or the stats.
type jsonlEvent struct {
	Event string `json:"_event"`
	Play  *struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	} `json:"play"`
	Task *struct {
		Name     string       `json:"name"`
		ID       string       `json:"id"`
		Path     string       `json:"path"`
		Duration jsonDuration `json:"duration"`
	} `json:"task"`
	Hosts map[string]jsonResult `json:"hosts"`
	Stats map[string]jsonStats  `json:"stats"`
}

// parseJSONL reads the jsonl callback's lines. Several runs appended to one file are split
// at a play start after the stats.
func parseJSONL(source string, data []byte) []*Run {
	var runs []*Run
	var r *Run
	var play *Play
	var tasks map[string]*Task
	var byHost map[*Task]map[string]*Result
	newRun := func() {
		r = &Run{Source: source, Format: "jsonl", Profile: true}
		runs = append(runs, r)
		play, tasks, byHost = nil, map[string]*Task{}, map[*Task]map[string]*Result{}
	}
	newRun()
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ev jsonlEvent
		if err := json.Unmarshal(line, &ev); err != nil || ev.Event == "" {
			r.problem(n, "a line that is no jsonl event (cut off?)")
			continue
		}
		switch {
		case ev.Event == "v2_playbook_on_play_start":
			if r.hasRecap {
				newRun()
			}
			play = &Play{Line: n}
			if ev.Play != nil {
				play.Name = ev.Play.Name
			}
			r.Plays = append(r.Plays, play)
		case ev.Event == "v2_playbook_on_stats":
			r.hasRecap = true
			r.Recap = recapOf(ev.Stats)
		case ev.Task != nil:
			if play == nil {
				r.problem(n, "a task before any play (the log starts mid-run?)")
				play = &Play{Line: n}
				r.Plays = append(r.Plays, play)
			}
			t := tasks[ev.Task.ID]
			if t == nil || (ev.Event == "v2_playbook_on_task_start" || ev.Event == "v2_playbook_on_handler_task_start") && len(t.Results) > 0 {
				// A task id seen again after its results: the same task run again (an
				// included file, a play batch).
				t = &Task{Name: ev.Task.Name, Path: ev.Task.Path, Line: n,
					Handler: ev.Event == "v2_playbook_on_handler_task_start" || strings.Contains(filepath.ToSlash(ev.Task.Path), "/handlers/")}
				tasks[ev.Task.ID] = t
				byHost[t] = map[string]*Result{}
				play.Tasks = append(play.Tasks, t)
			}
			if s := ev.Task.Duration.seconds(); s > t.Seconds {
				t.Seconds = s
			}
			hosts := make([]string, 0, len(ev.Hosts))
			for h := range ev.Hosts {
				hosts = append(hosts, h)
			}
			sort.Strings(hosts)
			for _, h := range hosts {
				res := resultOf(h, ev.Hosts[h])
				res.Line = n
				if old := byHost[t][h]; old != nil {
					*old = *res
					continue
				}
				byHost[t][h] = res
				t.Results = append(t.Results, res)
			}
		}
	}
	for _, r := range runs {
		for _, p := range r.Plays {
			for _, t := range p.Tasks {
				r.Slowest = append(r.Slowest, Timing{Task: t.Name, Seconds: t.Seconds})
			}
		}
		sortSlowest(r.Slowest)
		if !r.hasRecap {
			r.problem(0, "no v2_playbook_on_stats event (no PLAY RECAP: the run was cut off or the log truncated)")
		}
		r.finishJSON()
	}
	return runs
}
