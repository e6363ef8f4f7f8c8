package runs

import (
	"testing"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// TestForceHandlersRealRuns checks with ansible-playbook (ansible-core 2.14.18) what the
// lost-handler advice says of --force-handlers, on a play of two local hosts: a task that
// changes on both and notifies a handler, then a task that fails on h1. The advice says
// that --force-handlers (or force_handlers = True in ansible.cfg) runs the handlers of a
// changed task on a host where a later task fails, but not in a play with any_errors_fatal
// as kubespray writes it ("{{ any_errors_fatal | default(true) }}"): ansible-core 2.14's
// linear strategy reads the task's any_errors_fatal untemplated (plugins/strategy/linear.py:
// `if (task.any_errors_fatal or run_once)`), a non-empty string, so -e
// any_errors_fatal=false does not turn it off, and the play ends at the failure before the
// always: flush_handlers that Play.compile adds for force_handlers (playbook/play.py).
func TestForceHandlersRealRuns(t *testing.T) {
	ansibletest.Require(t)
	t.Parallel()
	play := func(aef string) string {
		return "- hosts: all\n  gather_facts: false\n" + aef +
			"  handlers:\n    - name: restart it\n      debug: {msg: restart}\n      changed_when: true\n" +
			"  tasks:\n    - name: write it\n      debug: {msg: write}\n      changed_when: true\n      notify: restart it\n" +
			"    - name: fail on h1\n      fail: {msg: stop}\n      when: inventory_hostname == 'h1'\n"
	}
	const kubesprayAEF = "  any_errors_fatal: \"{{ any_errors_fatal | default(true) }}\"\n"
	for _, c := range []struct {
		name, why   string
		aef, config string
		args        []string
		handlerOnH1 bool
	}{
		{"plain", "the lost handler: h1 fails before the handlers flush", "", "", nil, false},
		{"force-handlers", "--force-handlers: the handler runs on h1 although h1 failed", "", "", []string{"--force-handlers"}, true},
		{"force_handlers in ansible.cfg", "the ansible.cfg form the advice names does the same", "", "[defaults]\nforce_handlers = True\n", nil, true},
		{"kubespray's any_errors_fatal", "with any_errors_fatal as kubespray writes it, -e any_errors_fatal=false and --force-handlers, the play still ends at the failure: no handler", kubesprayAEF, "", []string{"--force-handlers", "-e", "any_errors_fatal=false"}, false},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeTree(t, map[string]string{
				"pb.yml":    play(c.aef),
				"hosts.ini": "[all]\nh1\nh2\n[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n",
			})
			runner := &ansibletest.Runner{Dir: dir, Config: c.config}
			res := runner.Run(t, append([]string{"-i", "hosts.ini", "pb.yml"}, c.args...))
			if res.Code != 2 {
				t.Fatalf("exit %d, want 2 (h1 failed):\n%s", res.Code, res.Text)
			}
			ran := false
			for _, run := range runlog.Parse("run.log", res.Text) {
				for _, e := range run.Events("h1") {
					if e.Task.Name == "restart it" && e.Task.Handler && e.Result.Status() == runlog.Changed {
						ran = true
					}
				}
			}
			if ran != c.handlerOnH1 {
				t.Errorf("the handler ran on h1: %v, want %v (%s):\n%s", ran, c.handlerOnH1, c.why, res.Text)
			}
		})
	}
}
