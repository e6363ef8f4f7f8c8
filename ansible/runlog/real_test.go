package runlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// The real-run test: a generated playbook run three times with ansible-playbook
// (connection: local, two inventory hosts). Each run prints text with the default callback
// (with profile_tasks in runs 1 and 3, colours forced in run 2, skipped hosts hidden in run 3
// as kubespray's ansible.cfg does) and, where the ansible.posix collection is installed
// (Debian's ansible package), writes the json callback's document of the same run
// (internal/ansibletest). Both parses are compared with each other and with what the test
// knows each task does. Checked with ansible-core 2.14.18 and ansible.posix 1.5.4.
//
// Tasks are debug, fail and one copy, so a run takes seconds: debug and fail are action
// plugins that run no module.

const realPlaybook = `- name: Test play
  hosts: all
  gather_facts: false
  tasks:
    - name: always changes
      debug: {msg: "x"}
      changed_when: true
    - name: stays ok
      debug: {msg: "y"}
    - name: write config
      copy:
        content: "value={{ myvar }}\n"
        dest: "{{ state }}/{{ inventory_hostname }}.conf"
      notify: restart things
    - name: fails ignored
      fail: {msg: "ignored password=hunter2"}
      ignore_errors: true
    - name: a block
      block:
        - name: fails rescued
          fail: {msg: "rescued"}
      rescue:
        - name: rescue task
          debug: {msg: "in rescue secret=hunter2"}
    - name: loop task
      debug: {msg: "{{ item }}"}
      loop: [a, b]
      changed_when: item == 'b'
    - name: tagged only
      debug: {msg: "never"}
      tags: [never, special]
    - name: skipped when
      debug: {msg: "no"}
      when: false
    - name: fails when asked
      fail: {msg: "asked"}
      when: fail_h2 | default(false) | bool and inventory_hostname == 'h2'
    - name: after the failure
      debug: {msg: "z"}
  handlers:
    - name: restart thing
      debug: {msg: "restart"}
      changed_when: true
      listen: restart things
`

// realRun is one run: its extra vars and environment.
type realRun struct {
	extra []string
	env   []string
}

var realRuns = []realRun{
	{extra: []string{"myvar=a"}, env: []string{"ANSIBLE_CALLBACKS_ENABLED=profile_tasks"}},
	{extra: []string{"myvar=a"}, env: []string{"ANSIBLE_FORCE_COLOR=1"}},
	{extra: []string{"myvar=b", "fail_h2=true"}, env: []string{"ANSIBLE_CALLBACKS_ENABLED=profile_tasks", "ANSIBLE_DISPLAY_SKIPPED_HOSTS=no"}},
}

// truth is what each task does on each host in each run ("" = no result: not run).
func truth(run int, host, task string) Status {
	failH2 := run == 2 && host == "h2"
	switch task {
	case "always changes", "loop task":
		return Changed
	case "stays ok", "rescue task":
		return OK
	case "write config":
		if run == 1 {
			return OK // same value as run 1
		}
		return Changed
	case "fails ignored":
		return Ignored
	case "fails rescued":
		return Rescued
	case "skipped when":
		return Skipped
	case "fails when asked":
		if failH2 {
			return Failed
		}
		return Skipped
	case "after the failure":
		if failH2 {
			return ""
		}
		return OK
	case "restart thing":
		if run == 1 || failH2 {
			return "" // not notified; not run on a failed host
		}
		return Changed
	}
	return ""
}

var realTasks = []string{"always changes", "stays ok", "write config", "fails ignored", "fails rescued", "rescue task", "loop task", "skipped when", "fails when asked", "after the failure", "restart thing"}

// playRuns runs the playbook once per realRuns entry and returns each run's text output
// and, where the json callback is installed, the json callback's document of the same run.
func playRuns(t *testing.T) (texts, jsons, jsonls [][]byte) {
	t.Helper()
	ansibletest.Require(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	for name, body := range map[string]string{
		"inventory.ini": "h1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3\nh2 ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n",
		"pb.yml":        realPlaybook,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if !ansibletest.HaveJSONCallback() {
		t.Log("the ansible.posix collection (json callback) is not installed (Debian: apt-get install ansible): text only")
	}
	runner := &ansibletest.Runner{Dir: dir, JSON: true}
	for i, r := range realRuns {
		args := []string{"-i", "inventory.ini", "pb.yml", "-e", "state=" + state}
		for _, e := range r.extra {
			args = append(args, "-e", e)
		}
		res := runner.Run(t, args, r.env...)
		texts = append(texts, res.Text)
		if rec := os.Getenv("RUNLOG_RECORD"); rec != "" { // keep the logs (for the golden files)
			_ = os.WriteFile(filepath.Join(rec, fmt.Sprintf("run%d.txt", i+1)), res.Text, 0o644)
			if res.JSON != nil {
				_ = os.WriteFile(filepath.Join(rec, fmt.Sprintf("run%d.json", i+1)), res.JSON, 0o644)
			}
		}
		if res.JSON != nil {
			jsons = append(jsons, res.JSON)
			jsonls = append(jsonls, res.JSONL)
			if rec := os.Getenv("RUNLOG_RECORD"); rec != "" {
				_ = os.WriteFile(filepath.Join(rec, fmt.Sprintf("run%d.jsonl", i+1)), res.JSONL, 0o644)
			}
		}
	}
	return texts, jsons, jsonls
}

// statuses is what a run says each task did per host, by task name.
func statuses(r *Run) map[string]map[string]Status {
	out := map[string]map[string]Status{}
	for _, h := range r.Hosts() {
		out[h] = map[string]Status{}
		for _, e := range r.Events(h) {
			out[h][e.Task.Name] = e.Result.Status()
		}
	}
	return out
}

func TestRealRuns(t *testing.T) {
	texts, jsons, jsonls := playRuns(t)
	var textRuns, jsonRuns, jsonlRuns []*Run
	for i, out := range texts {
		rs := Parse(fmt.Sprintf("run%d.txt", i+1), out)
		if len(rs) != 1 {
			t.Fatalf("run %d: %d runs in one log:\n%s", i+1, len(rs), out)
		}
		textRuns = append(textRuns, rs[0])
	}
	for i, out := range jsons {
		rs := Parse(fmt.Sprintf("run%d.json", i+1), out)
		if len(rs) != 1 || rs[0].Format != "json" {
			t.Fatalf("json run %d: not one json run:\n%s", i+1, out)
		}
		jsonRuns = append(jsonRuns, rs[0])
	}
	for i, out := range jsonls {
		rs := Parse(fmt.Sprintf("run%d.jsonl", i+1), out)
		if len(rs) != 1 || rs[0].Format != "jsonl" {
			t.Fatalf("jsonl run %d: not one jsonl run:\n%s", i+1, out)
		}
		jsonlRuns = append(jsonlRuns, rs[0])
	}
	for i, r := range textRuns {
		// Ground truth: the test knows what each task does.
		want := map[string]map[string]Status{}
		for _, h := range []string{"h1", "h2"} {
			want[h] = map[string]Status{}
			for _, task := range realTasks {
				if st := truth(i, h, task); st != "" {
					if st == Skipped && r.Profile && i == 2 {
						continue // display_skipped_hosts=no: not printed
					}
					want[h][task] = st
				}
			}
		}
		if diff := cmp.Diff(want, statuses(r)); diff != "" {
			t.Errorf("run %d (text): statuses mismatch (-want +got):\n%s\n%s", i+1, diff, texts[i])
		}
		if len(r.Problems) > 0 || len(r.Errors) > 0 {
			t.Errorf("run %d (text): problems %v errors %v", i+1, r.Problems, r.Errors)
		}
		wantVerdict := Succeeded
		if i == 2 {
			wantVerdict = FailedRun
		}
		if r.Verdict() != wantVerdict {
			t.Errorf("run %d (text): verdict %s, want %s", i+1, r.Verdict(), wantVerdict)
		}
		if wantProfile := i != 1; r.Profile != wantProfile || (len(r.Slowest) > 0) != wantProfile {
			t.Errorf("run %d (text): profile %v with %d slowest, want %v", i+1, r.Profile, len(r.Slowest), wantProfile)
		}
		for _, s := range r.Slowest {
			if !contains(realTasks, s.Task) && s.Task != "tagged only" {
				t.Errorf("run %d: profile_tasks task %q is none of the playbook's", i+1, s.Task)
			}
		}
		for _, set := range [][]*Run{jsonRuns, jsonlRuns} {
			if i < len(set) {
				compareWithText(t, i, r, set[i])
			}
		}
	}
	// The recap against the statuses: every run's changed= is the changes seen plus the
	// failures that reported changed (the text does not show that), failed= the failures.
	for i, r := range textRuns {
		for _, rc := range r.Recap {
			failed := 0
			for _, e := range r.Events(rc.Host) {
				if e.Result.Status() == Failed {
					failed++
				}
			}
			if failed != rc.Failed {
				t.Errorf("run %d %s: recap failed=%d, %d failures seen", i+1, rc.Host, rc.Failed, failed)
			}
			if rc.Ignored != 1 || rc.Rescued != 1 {
				t.Errorf("run %d %s: recap ignored=%d rescued=%d, want 1 and 1", i+1, rc.Host, rc.Ignored, rc.Rescued)
			}
		}
	}
	// Across runs, on the text and the json: in run 3, write config and the handler are new
	// on h1; always changes and loop task change every run.
	for _, set := range [][]*Run{textRuns, jsonRuns, jsonlRuns} {
		if len(set) == 0 {
			continue
		}
		got := map[string][2][]string{}
		for _, hc := range Compare(set) {
			got[hc.Host] = [2][]string{names(hc.EveryRun), names(hc.New)}
		}
		want := map[string][2][]string{
			"h1": {{"always changes", "loop task"}, {"write config", "restart thing"}},
			"h2": {{"always changes", "loop task"}, {"write config"}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Compare mismatch (-want +got):\n%s", set[0].Format, diff)
		}
		// Two runs: the second's changes against the first.
		for _, hc := range Compare(set[:2]) {
			if diff := cmp.Diff([]string{"always changes", "loop task"}, names(hc.EveryRun)); diff != "" || len(hc.New) != 0 {
				t.Errorf("%s %s: runs 1-2: every run %v, new %v", set[0].Format, hc.Host, names(hc.EveryRun), names(hc.New))
			}
		}
	}
	// Secrets in task output never reach the parse: nothing keeps it.
	for i, out := range texts {
		if !strings.Contains(string(out), "hunter2") && i == 0 {
			t.Errorf("run 1: the playbook's messages are not in the output; the secret check checks nothing")
		}
	}
}

func names(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Task)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// compareWithText: the json (or jsonl) callback's view of run i says what the text says:
// the same recap, the same statuses (it cannot tell ignored from rescued where a host has
// both, and prints skipped results the text hid), the same verdict.
func compareWithText(t *testing.T, i int, r, j *Run) {
	t.Helper()
	strip := func(rs []Recap) []Recap {
		out := append([]Recap(nil), rs...)
		for k := range out {
			out[k].Line = 0
		}
		return out
	}
	if diff := cmp.Diff(strip(r.Recap), strip(j.Recap)); diff != "" {
		t.Errorf("run %d: recap text vs %s (-text +%s):\n%s", i+1, j.Format, j.Format, diff)
	}
	js := statuses(j)
	ts := statuses(r)
	for _, rc := range r.Recap {
		// The json callback cannot tell ignored from rescued where a host has both.
		for task, st := range ts[rc.Host] {
			if (st == Ignored || st == Rescued) && rc.Ignored > 0 && rc.Rescued > 0 {
				ts[rc.Host][task] = IgnoredOrRescued
			}
		}
	}
	for h := range js {
		for task, st := range js[h] {
			if st == Skipped && ts[h][task] == "" && i == 2 {
				delete(js[h], task) // hidden in the text
			}
		}
	}
	if diff := cmp.Diff(ts, js); diff != "" {
		t.Errorf("run %d: statuses text vs %s (-text +%s):\n%s", i+1, j.Format, j.Format, diff)
	}
	if j.Verdict() != r.Verdict() {
		t.Errorf("run %d: verdict text %s, %s %s", i+1, r.Verdict(), j.Format, j.Verdict())
	}
}
