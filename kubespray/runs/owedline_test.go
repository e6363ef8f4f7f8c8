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
