package runlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// isJSON: the first line that is not blank starts a JSON object (the json callback prints
// one document; warnings go to standard error, but a log of 2>&1 may start with them, so
// only a first line that opens an object counts).
func isJSON(data []byte) bool {
	line := firstLine(data)
	return len(line) > 0 && line[0] == '{'
}

// firstLine is the first line of data that is not blank, trimmed (nil when there is none).
func firstLine(data []byte) []byte {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line
		}
	}
	return nil
}

// jsonStart is the offset of a line that opens the json callback's document ("{" alone,
// as json_indent prints it, or a compact document), or -1.
func jsonStart(data []byte) int {
	off := 0
	for off < len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		line := bytes.TrimRight(data[off:off+end], "\r \t")
		if bytes.Equal(line, []byte("{")) || bytes.HasPrefix(line, []byte(`{"custom_stats"`)) {
			return off
		}
		off += end + 1
	}
	return -1
}

// The json callback's document (ansible.posix 1.5.4 plugins/callback/json.py): plays with
// their tasks, each task's result per host (the module's return values plus changed,
// failed, skipped, unreachable), and the stats the recap prints.
type jsonDoc struct {
	Plays []struct {
		Play struct {
			Name string `json:"name"`
			Path string `json:"path"`
		} `json:"play"`
		Tasks []struct {
			Task struct {
				Name     string       `json:"name"`
				Path     string       `json:"path"`
				Duration jsonDuration `json:"duration"`
			} `json:"task"`
			Hosts map[string]jsonResult `json:"hosts"`
		} `json:"tasks"`
	} `json:"plays"`
	Stats map[string]jsonStats `json:"stats"`
}

// jsonStats is a host's line of the recap.
type jsonStats struct {
	OK          int `json:"ok"`
	Changed     int `json:"changed"`
	Unreachable int `json:"unreachable"`
	Failures    int `json:"failures"`
	Skipped     int `json:"skipped"`
	Rescued     int `json:"rescued"`
	Ignored     int `json:"ignored"`
}

// recapOf is the recap of the stats, by host name.
func recapOf(stats map[string]jsonStats) []Recap {
	hosts := make([]string, 0, len(stats))
	for h := range stats {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	out := []Recap{}
	for _, h := range hosts {
		s := stats[h]
		out = append(out, Recap{Host: h, OK: s.OK, Changed: s.Changed, Unreachable: s.Unreachable, Failed: s.Failures,
			Skipped: s.Skipped, Rescued: s.Rescued, Ignored: s.Ignored})
	}
	return out
}

// resultOf is what a json result says: a loop's items make one result, changed if any item
// changed, failed if any failed.
func resultOf(host string, jr jsonResult) *Result {
	res := &Result{Host: host, changed: bool(jr.Changed), failed: bool(jr.Failed), skipped: bool(jr.Skipped), unreachable: bool(jr.Unreachable), items: len(jr.Results)}
	// An include_role result is counted in no stats: ansible-core 2.14
	// plugins/strategy/__init__.py _process_pending_results counts no ok for a TaskInclude,
	// and only an include_tasks file is counted later, when _load_included_file loads it.
	switch strings.TrimPrefix(strings.TrimPrefix(jr.Action, "ansible.builtin."), "ansible.legacy.") {
	case "include_role":
		res.include = !res.failed && !res.unreachable
	}
	for _, it := range jr.Results {
		res.changed = res.changed || bool(it.Changed)
		res.failed = res.failed || bool(it.Failed)
	}
	if res.failed || res.unreachable {
		res.skipped = false
	}
	return res
}

type jsonDuration struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// jsonResult keeps only what says what happened; the module's output is dropped unread.
type jsonResult struct {
	Action      string   `json:"action"`
	Changed     jsonBool `json:"changed"`
	Failed      jsonBool `json:"failed"`
	Skipped     jsonBool `json:"skipped"`
	Unreachable jsonBool `json:"unreachable"`
	Results     []struct {
		Changed jsonBool `json:"changed"`
		Failed  jsonBool `json:"failed"`
		Skipped jsonBool `json:"skipped"`
	} `json:"results"`
}

// jsonBool is a result flag: modules return booleans, but a misbehaving one may return
// anything; only true counts.
type jsonBool bool

func (b *jsonBool) UnmarshalJSON(data []byte) error {
	*b = string(data) == "true"
	return nil
}

func parseJSON(source string, data []byte) *Run {
	r := &Run{Source: source, Format: "json", Profile: true}
	start := bytes.IndexByte(data, '{')
	var doc jsonDoc
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if err := dec.Decode(&doc); err != nil {
		line := 1 + bytes.Count(data[:start], []byte("\n"))
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line += bytes.Count(data[start:start+int(min(se.Offset, int64(len(data)-start)))], []byte("\n"))
		case errors.As(err, &te):
			line += bytes.Count(data[start:start+int(min(te.Offset, int64(len(data)-start)))], []byte("\n"))
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			r.problem(line, "the JSON document ends early (the run was cut off or the log truncated)")
		} else {
			r.problem(line, "not a json callback document: %v", err)
		}
		return r
	}
	for _, jp := range doc.Plays {
		p := &Play{Name: jp.Play.Name}
		for _, jt := range jp.Tasks {
			// The json callback does not mark handlers; a role's handlers file does
			// (playbook-level handlers stay unmarked).
			t := &Task{Name: jt.Task.Name, Path: jt.Task.Path, Seconds: jt.Task.Duration.seconds(),
				Handler: strings.Contains(filepath.ToSlash(jt.Task.Path), "/handlers/")}
			hosts := make([]string, 0, len(jt.Hosts))
			for h := range jt.Hosts {
				hosts = append(hosts, h)
			}
			sort.Strings(hosts)
			for _, h := range hosts {
				t.Results = append(t.Results, resultOf(h, jt.Hosts[h]))
			}
			p.Tasks = append(p.Tasks, t)
			r.Slowest = append(r.Slowest, Timing{Task: t.Name, Seconds: t.Seconds})
		}
		r.Plays = append(r.Plays, p)
	}
	sortSlowest(r.Slowest)
	if doc.Stats != nil {
		r.hasRecap = true
		r.Recap = recapOf(doc.Stats)
	} else {
		r.problem(0, "the JSON document has no stats (no PLAY RECAP)")
	}
	r.finishJSON()
	return r
}

// finishJSON marks the failures the host ran on and checks the recap. The json callbacks
// do not say whether such a failure was ignored or rescued; the stats do when only one of
// the two happened on that host.
func (r *Run) finishJSON() {
	r.markContinued()
	r.checkRecap()
	r.reconcileLast()
	recap := map[string]Recap{}
	for _, rc := range r.Recap {
		recap[rc.Host] = rc
	}
	for _, p := range r.Plays {
		for _, t := range p.Tasks {
			for _, res := range t.Results {
				if !res.continued {
					continue
				}
				switch rc, ok := recap[res.Host]; {
				case ok && rc.Ignored > 0 && rc.Rescued == 0:
					res.ignored, res.continued = true, false
				case ok && rc.Rescued > 0 && rc.Ignored == 0:
				default:
					res.unsure = true
				}
			}
		}
	}
}

func (d jsonDuration) seconds() float64 {
	s, err1 := time.Parse(time.RFC3339Nano, d.Start)
	e, err2 := time.Parse(time.RFC3339Nano, d.End)
	if err1 != nil || err2 != nil || e.Before(s) {
		return 0
	}
	return e.Sub(s).Seconds()
}
