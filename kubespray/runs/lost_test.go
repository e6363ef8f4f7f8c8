package runs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// TestLostHandlerRealRuns: the lost handler, with real ansible-playbook runs (ansible-core
// 2.14.18) of the seed's tree, to which the node role adds a task that fails when asked. A
// run that edits containerd_max_container_log_line_size and then fails in the node role
// rewrites config.toml, but the play ends before its handlers flush; the next run finds
// config.toml as it should be and notifies nothing. runs must say, on the last run, that
// the change of that run never reached the daemon, and advise only what works: touching
// config.toml and re-running with --force-handlers changes nothing (the template task
// compares contents, reports ok and notifies nothing: the handler stays owed). Both ways it
// stays quiet: the failing run given --force-handlers (the handler runs on the failed
// host), and a later run whose change does notify (the handler runs, nothing is owed).
//
// The --force-handlers pair (runs 6 and 7) costs two more real runs; it runs when
// K3SCONF_RUNS_REAL=all (CI sets it), so the README's test command stays within its time
// budget (docs/testing.md).
func TestLostHandlerRealRuns(t *testing.T) {
	ansibletest.Require(t)
	t.Parallel()
	tree := map[string]string{}
	for k, v := range seedTree {
		tree[k] = v
	}
	tree["roles/kubernetes/node/tasks/main.yml"] = seedTree["roles/kubernetes/node/tasks/main.yml"] +
		"- name: Node | Fail when asked\n  fail: {msg: stop}\n  when: fail_now | default(false) | bool\n"
	type step struct {
		name, gv string
		args     []string
		code     int
		// touch: touch the rendered config.toml before the run (its time changes, its
		// contents do not).
		touch bool
	}
	run := func(t *testing.T, steps []step) (text, jsonl []Log, dir string) {
		dir = writeTree(t, tree)
		state := filepath.Join(dir, "state")
		if err := os.MkdirAll(state, 0o755); err != nil {
			t.Fatal(err)
		}
		runner := &ansibletest.Runner{Dir: dir, Config: tree["ansible.cfg"], JSON: true}
		for i, s := range steps {
			if s.touch {
				now := time.Now()
				if err := os.Chtimes(filepath.Join(state, "config.toml"), now, now); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "inv", "group_vars", "all.yml"), []byte("state: "+state+"\n"+s.gv), 0o644); err != nil {
				t.Fatal(err)
			}
			res := runner.Run(t, append([]string{"-i", "inv/hosts.ini", "cluster.yml"}, s.args...), "ANSIBLE_ROLES_PATH="+filepath.Join(dir, "roles"))
			if res.Code != s.code {
				t.Fatalf("run %d (%s) exited %d, want %d:\n%s", i+1, s.name, res.Code, s.code, res.Text)
			}
			text = append(text, Log{Name: s.name, Data: res.Text})
			if res.JSONL != nil {
				jsonl = append(jsonl, Log{Name: strings.TrimSuffix(s.name, ".log") + ".jsonl", Data: res.JSONL})
			}
		}
		return text, jsonl, dir
	}
	const v = "containerd_max_container_log_line_size"
	answer := func(t *testing.T, dir string, logs []Log) (VarHost, string) {
		t.Helper()
		rep, err := Build(Options{Logs: logs, Var: v, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range rep.Var.Hosts {
			if h.Host == "n1" {
				var b bytes.Buffer
				Text(&b, rep)
				t.Logf("%s:\n%s", logs[len(logs)-1].Name, b.String())
				return h, varLine(rep, h)
			}
		}
		t.Fatal("no answer for n1")
		return VarHost{}, ""
	}
	edit := v + ": 32768\n"
	// One sequence of seven runs (each case reads a prefix of it): the deployment; an edit
	// and a failure after it; a re-run; config.toml touched and a re-run with
	// --force-handlers (what runs once advised, wrongly: nothing changes, nothing is
	// notified); another edit, whose change notifies; an edit and a failure with
	// --force-handlers; a re-run.
	steps := []step{
		{"deploy.log", "", nil, 0, false},
		{"failed.log", edit + "fail_now: true\n", nil, 2, false},
		{"rerun.log", edit, nil, 0, false},
		{"touched.log", edit, []string{"--force-handlers"}, 0, true},
		{"edited.log", v + ": 65536\n", nil, 0, false},
	}
	forced := os.Getenv("K3SCONF_RUNS_REAL") == "all"
	if forced {
		steps = append(steps,
			step{"forced.log", v + ": 131072\nfail_now: true\n", []string{"--force-handlers"}, 2, false},
			step{"after.log", v + ": 131072\n", nil, 0, false})
	} else {
		t.Log("K3SCONF_RUNS_REAL is not all: the --force-handlers pair (runs 5 and 6) is not run")
	}
	text, jsonl, dir := run(t, steps)
	for _, logs := range [][]Log{text, jsonl} {
		if logs == nil {
			continue
		}
		// The failed run itself: its handlers did not run, and a re-run will not notify
		// them (run 3 shows it).
		if h, line := answer(t, dir, logs[:2]); h.Verdict != HandlerNotRun || !strings.Contains(line, "a re-run that writes the same contents will not notify them") || !strings.Contains(line, "do it by hand on the host: what \"Containerd | restart containerd\" does (") {
			t.Errorf("%s: verdict %s: %s", logs[1].Name, h.Verdict, line)
		}
		// Fires: run 3 finds config.toml unchanged; run 2's handler never ran. The advice
		// names what to do by hand, and --force-handlers only for runs to come.
		h, line := answer(t, dir, logs[:3])
		if h.Verdict != HandlerNotRun || h.Owed == nil || h.Owed.Run != 1 || h.Owed.FailedAt != "kubernetes/node : Node | Fail when asked" {
			t.Errorf("%s: verdict %s, owed %+v: want handler-not-run owed by run 2, failed at the node task", logs[2].Name, h.Verdict, h.Owed)
		}
		for _, want := range []string{"changed in run 2 (", `its handlers "Containerd | restart containerd", "Containerd | wait for containerd" never ran`, "and a re-run that writes the same contents will not", "Do it by hand on the host: what \"Containerd | restart containerd\" does (", "In a play without any_errors_fatal, --force-handlers"} {
			if !strings.Contains(line, want) {
				t.Errorf("%s: no %q in the line: %s", logs[2].Name, want, line)
			}
		}
		if strings.Contains(line, "touch") && !strings.Contains(line, "touching the file does not help") {
			t.Errorf("%s: the line advises touching the file: %s", logs[2].Name, line)
		}
		// Still owed: run 4 touched config.toml and re-ran with --force-handlers; the
		// template task found the contents as it writes them, reported ok and notified
		// nothing, so no handler ran.
		if h, _ := answer(t, dir, logs[:4]); h.Verdict != HandlerNotRun || h.Owed == nil || h.Owed.Run != 1 {
			t.Errorf("%s: verdict %s, owed %+v: touching the file and --force-handlers ran no handler; run 2's is still owed", logs[3].Name, h.Verdict, h.Owed)
		} else if len(h.Tasks) == 0 || h.Tasks[0].Status != "ok" {
			t.Errorf("%s: the template task %+v: want ok (touching the file changes nothing)", logs[3].Name, h.Tasks)
		}
		// Quiet: run 5 changes it again and the handlers run.
		if h, _ := answer(t, dir, logs[:5]); h.Verdict != Applied || h.Owed != nil {
			t.Errorf("%s: verdict %s, owed %+v: want applied", logs[4].Name, h.Verdict, h.Owed)
		}
		// Quiet: run 6 fails after the change but --force-handlers runs the handler on the
		// failed host; run 7 owes nothing.
		if !forced {
			continue
		}
		if h, _ := answer(t, dir, logs); h.Verdict != Unchanged || h.Owed != nil {
			t.Errorf("%s: verdict %s, owed %+v: --force-handlers ran the handler, nothing is owed", logs[6].Name, h.Verdict, h.Owed)
		}
	}
}
