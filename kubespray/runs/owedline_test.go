package runs

import (
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/diag"
)

// TestOwedLineAdvice: what the lost-handler line advises, per case, both ways. Each claim it
// makes about ansible-playbook is checked by a real run (lost_test.go: touching the file and
// --force-handlers on a re-run notify nothing; forcehandlers_test.go: --force-handlers on the
// failing run, and not under kubespray's any_errors_fatal).
func TestOwedLineAdvice(t *testing.T) {
	restart := Handler{Role: "container-engine/containerd", Name: "Containerd | restart containerd", Pos: diag.Position{File: "roles/container-engine/containerd/handlers/main.yml", Line: 2},
		Does: "reloads systemd's unit files and restarts containerd", ByHand: "systemctl daemon-reload && systemctl restart containerd"}
	wait := Handler{Role: "container-engine/containerd", Name: "Containerd | wait for containerd", Pos: diag.Position{File: "roles/container-engine/containerd/handlers/main.yml", Line: 11},
		Does: "runs `{{ containerd_bin_dir }}/ctr images ls -q`"}
	touch := Handler{Name: "restart it", Pos: diag.Position{File: "roles/x/handlers/main.yml", Line: 1}, Does: "runs module file"}
	use := Use{Role: "container-engine/containerd", Task: "Containerd | Copy containerd config file"}
	for _, c := range []struct {
		name, why string
		owed      Owed
		want, not []string
	}{
		{"kubespray's containerd", "the restart named as a command, the wait pointed at, --force-handlers only with its any_errors_fatal caveat",
			Owed{Run: 1, Tasks: []Use{use}, Handlers: []Handler{restart, wait}, FailedAt: "kubernetes/node : Node | x", FailedStatus: runlog.Failed},
			[]string{`changed in run 2 (b.log): "Containerd | Copy containerd config file" changed; its handlers "Containerd | restart containerd", "Containerd | wait for containerd" never ran (run 2 failed at "kubernetes/node : Node | x")`,
				"the daemon still runs the old configuration. Do it by hand on the host: `systemctl daemon-reload && systemctl restart containerd` (what \"Containerd | restart containerd\" does); then what \"Containerd | wait for containerd\" does (roles/container-engine/containerd/handlers/main.yml:11: runs `{{ containerd_bin_dir }}/ctr images ls -q`)",
				"touching the file does not help", "In a play without any_errors_fatal, --force-handlers", "kubespray's plays set any_errors_fatal"},
			[]string{"after touching", "re-run with --force-handlers"}},
		{"another module", "no command to name: the handler's file:line, and no word of a daemon",
			Owed{Run: 0, Tasks: []Use{use}, Handlers: []Handler{touch}, FailedAt: "t", FailedStatus: runlog.Failed},
			[]string{"what the handler does has not happened since. Do it by hand on the host: what \"restart it\" does (roles/x/handlers/main.yml:1: runs module file)", "while run 1 is among its logs"},
			[]string{"daemon", "systemctl"}},
		{"unreachable", "no handler runs on a host ansible cannot reach, --force-handlers or not: it is not offered",
			Owed{Run: 1, Tasks: []Use{use}, Handlers: []Handler{restart}, FailedAt: "t", FailedStatus: runlog.Unreachable},
			[]string{"run 2 lost the host at \"t\"", "systemctl daemon-reload && systemctl restart containerd"},
			[]string{"--force-handlers"}},
		{"cut off", "an interrupted run: --force-handlers is no answer",
			Owed{Run: 1, Tasks: []Use{use}, Handlers: []Handler{restart}},
			[]string{"the run was cut off"},
			[]string{"--force-handlers"}},
	} {
		o := c.owed
		r := &Report{Runs: []*runlog.Run{{Source: "a.log"}, {Source: "b.log"}, {Source: "c.log"}}}
		line := varLine(r, VarHost{Host: "n1", Verdict: HandlerNotRun, Owed: &o})
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: no %q (%s) in:\n%s", c.name, w, c.why, line)
			}
		}
		for _, w := range c.not {
			if strings.Contains(line, w) {
				t.Errorf("%s: %q (%s) in:\n%s", c.name, w, c.why, line)
			}
		}
	}
}

// TestHandlerSkippedNotOwed: a run that went on (its recap counts no failure for the host)
// and has no result for a notified handler did not lose it: with display_skipped_hosts = no,
// ansible-core 2.14.18 prints nothing for a handler skipped by its own when: (checked: no
// RUNNING HANDLER banner, the recap counts it in skipped=). The last run's line says so
// instead of advising a restart by hand, and a later unchanged run owes nothing. The logs
// are shaped as that run printed them, with the seed tree's names.
func TestHandlerSkippedNotOwed(t *testing.T) {
	dir := writeTree(t, seedTree)
	log := func(status string, changed int) []byte {
		return []byte("\nPLAY [Prepare hosts] ***********************************************************\n\n" +
			"TASK [container-engine/containerd : Containerd | Copy containerd config file] ***\n" + status + ": [n1]\n\n" +
			"TASK [container-engine/containerd : Containerd | Write hosts.toml] *************\nok: [n1]\n\n" +
			"PLAY RECAP *********************************************************************\n" +
			"n1                         : ok=2    changed=" + string(rune('0'+changed)) + "    unreachable=0    failed=0    skipped=2    rescued=0    ignored=0   \n\n")
	}
	edited, rerun := Log{Name: "edited.log", Data: log("changed", 1)}, Log{Name: "rerun.log", Data: log("ok", 0)}
	rep, err := Build(Options{Logs: []Log{edited}, Var: "containerd_max_container_log_line_size", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	h := rep.Var.Hosts[0]
	line := varLine(rep, h)
	if h.Verdict != HandlerNotRun || !strings.Contains(line, "no result for it, though the run went on on this host") || strings.Contains(line, "by hand") {
		t.Errorf("edited.log alone: %s: %s", h.Verdict, line)
	}
	rep, err = Build(Options{Logs: []Log{edited, rerun}, Var: "containerd_max_container_log_line_size", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if h := rep.Var.Hosts[0]; h.Owed != nil || h.Verdict != Unchanged {
		t.Errorf("after a run that went on: %s, owed %+v: nothing is owed", h.Verdict, h.Owed)
	}
}
