package runs

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// Where runs' own reading of templates, notify: and handlers (before FindUses was built on
// kubespray.Where's sites) and the where model disagree, the where model wins: it compiles
// cluster.yml as ansible-core 2.14 does and is checked against real --tags runs
// (kubespray/tags_real_test.go). One test per difference found.

func findNames(t *testing.T, files map[string]string, variable string) (tasks, handlers []string) {
	t.Helper()
	base := map[string]string{
		"cluster.yml": "- name: Install\n  hosts: all\n  gather_facts: false\n  roles:\n    - { role: a, tags: a }\n",
	}
	for k, v := range files {
		base[k] = v
	}
	u, err := FindUses(writeTree(t, base), variable)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range u.Tasks {
		tasks = append(tasks, x.Display)
	}
	for _, h := range u.Handlers {
		handlers = append(handlers, h.Display)
	}
	return tasks, handlers
}

// TestDifferUnreachedTasksFile: a tasks file of a role that no play of cluster.yml imports or
// includes never runs, so its tasks are no use (runs' own reading took every tasks file of
// the role).
func TestDifferUnreachedTasksFile(t *testing.T) {
	tasks, _ := findNames(t, map[string]string{
		"roles/a/tasks/main.yml":   "- name: Used\n  debug: {msg: '{{ v }}'}\n",
		"roles/a/tasks/unused.yml": "- name: Never imported\n  debug: {msg: '{{ v }}'}\n",
		"roles/b/tasks/main.yml":   "- name: Role no play runs\n  debug: {msg: '{{ v }}'}\n",
	}, "v")
	if diff := cmp.Diff([]string{"a : Used"}, tasks); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
}

// TestDifferLoopSrc: a template src that starts with an expression ("{{ item | lower }}.yaml.j2"
// over a loop) names every template of the role it can match in the where model, so the task
// is a use of a template's variable (runs' own reading skipped such a src).
func TestDifferLoopSrc(t *testing.T) {
	tasks, handlers := findNames(t, map[string]string{
		"roles/a/tasks/main.yml":         "- name: Push many\n  template: {src: '{{ item | lower }}.yaml.j2', dest: /y}\n  loop: [a]\n  notify: Restart\n",
		"roles/a/templates/conf.yaml.j2": "x: {{ v }}\n",
		"roles/a/handlers/main.yml":      "- name: Restart\n  debug: {msg: r}\n",
	}, "v")
	if diff := cmp.Diff([]string{"a : Push many"}, tasks); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a : Restart"}, handlers); diff != "" {
		t.Errorf("handlers (-want +got):\n%s", diff)
	}
}

// TestDifferHandlerOfThePlay: a notify name reaches the handlers of the play that runs the
// task, the last loaded of that name (ansible-core 2.14 search_handler_blocks_by_name), not
// every handler of the checkout with that name (runs' own reading took both roles' and a
// role no play runs).
func TestDifferHandlerOfThePlay(t *testing.T) {
	_, handlers := findNames(t, map[string]string{
		"cluster.yml":               "- name: Install\n  hosts: all\n  gather_facts: false\n  roles: [a, b]\n",
		"roles/a/tasks/main.yml":    "- name: Write\n  copy: {content: '{{ v }}', dest: /x}\n  notify: Restart\n",
		"roles/a/handlers/main.yml": "- name: Restart\n  debug: {msg: a}\n",
		"roles/b/tasks/main.yml":    "- debug: {msg: b}\n",
		"roles/b/handlers/main.yml": "- name: Restart\n  debug: {msg: b}\n",
		"roles/c/handlers/main.yml": "- name: Restart\n  debug: {msg: c}\n",
	}, "v")
	if diff := cmp.Diff([]string{"b : Restart"}, handlers); diff != "" {
		t.Errorf("handlers (-want +got):\n%s", diff)
	}
}

// TestDifferHandlerChain: a handler that notifies another handler: both are the use's
// handlers, both must run for the change to be picked up (runs' own reading stopped at the
// first).
func TestDifferHandlerChain(t *testing.T) {
	_, handlers := findNames(t, map[string]string{
		"roles/a/tasks/main.yml":    "- name: Write\n  copy: {content: '{{ v }}', dest: /x}\n  notify: Reload\n",
		"roles/a/handlers/main.yml": "- name: Reload\n  debug: {msg: a}\n  notify: Restart\n- name: Restart\n  debug: {msg: b}\n",
	}, "v")
	if diff := cmp.Diff([]string{"a : Reload", "a : Restart"}, handlers); diff != "" {
		t.Errorf("handlers (-want +got):\n%s", diff)
	}
}

// TestDifferImportIsNoTask: an import_tasks whose when: uses the variable prints no TASK
// banner (ansible-core 2.14 expands imports when the play is compiled; the imported tasks are
// printed), so it is no task to find in a log; an include_tasks is one (it prints
// "TASK [role : name]" when it runs). runs' own reading took both, as kubespray's preinstall
// "Apply resolvconf settings" (import_tasks when: dns_mode != 'none').
func TestDifferImportIsNoTask(t *testing.T) {
	tasks, _ := findNames(t, map[string]string{
		"roles/a/tasks/main.yml": "- name: Imported\n  import_tasks: x.yml\n  when: v != 'none'\n" +
			"- name: Included\n  include_tasks: x.yml\n  when: v != 'none'\n",
		"roles/a/tasks/x.yml": "- name: Inside\n  debug: {msg: x}\n",
	}, "v")
	if diff := cmp.Diff([]string{"a : Included"}, tasks); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
}

// TestDifferPlayOfTheLog: a log task is the use's only in a play that runs it; a task
// printed with the same name in another play is another task (runs' own reading matched
// the name in any play, and read the change below as the edit applied).
func TestDifferPlayOfTheLog(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"cluster.yml": "- name: A\n  hosts: all\n  roles: [a]\n" +
			"- name: B\n  hosts: all\n  tasks:\n    - name: 'a : Write'\n      debug: {msg: other}\n",
		"roles/a/tasks/main.yml": "- name: Write\n  copy: {content: '{{ v }}', dest: /x}\n",
	})
	log := "PLAY [A] ***\n\nTASK [a : Write] ***\nok: [h]\n\nPLAY [B] ***\n\nTASK [a : Write] ***\nchanged: [h]\n\n" +
		"PLAY RECAP ***\nh : ok=2 changed=1 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0\n"
	rep, err := Build(Options{Logs: []Log{{Name: "run.log", Data: []byte(log)}}, Var: "v", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Var.Hosts) != 1 || rep.Var.Hosts[0].Verdict != Unchanged {
		t.Fatalf("hosts %+v, want h unchanged (the change is play B's task)", rep.Var.Hosts)
	}
}

// TestDifferUnnamedTask: a task with no name is printed with its module for name
// ("TASK [a : ansible.builtin.copy]", ansible-core 2.14 playbook/task.py get_name), so it
// is found in the log under that name (runs' own reading left unnamed tasks out).
func TestDifferUnnamedTask(t *testing.T) {
	tasks, _ := findNames(t, map[string]string{
		"roles/a/tasks/main.yml": "- ansible.builtin.copy: {content: '{{ v }}', dest: /x}\n",
	}, "v")
	if diff := cmp.Diff([]string{"a : ansible.builtin.copy"}, tasks); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
}

// TestHandlerChainReal: a handler notified by a handler runs only when that handler reports
// changed (checked here with ansible-playbook, connection: local). The where model lists
// both as the task's handlers; runs must not call the change "not picked up" because the
// second did not run when the first changed nothing, and must require it when the first
// changed.
func TestHandlerChainReal(t *testing.T) {
	ansibletest.Require(t)
	t.Parallel()
	for _, tc := range []struct {
		name, reason  string
		reloadChanged string
		handlers      map[string]runlog.Status
	}{
		{"first-unchanged", "Reload reports ok, so Restart is never notified: applied, Restart not listed",
			"false", map[string]runlog.Status{"Reload": runlog.OK}},
		{"first-changed", "Reload reports changed and notifies Restart, which runs: applied, both listed",
			"true", map[string]runlog.Status{"Reload": runlog.Changed, "Restart": runlog.OK}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				"cluster.yml":            "- name: Install\n  hosts: all\n  gather_facts: false\n  roles: [a]\n",
				"roles/a/tasks/main.yml": "- name: Write\n  debug: {msg: '{{ v }}'}\n  changed_when: true\n  notify: Reload\n",
				"roles/a/handlers/main.yml": "- name: Reload\n  debug: {msg: r}\n  changed_when: " + tc.reloadChanged + "\n  notify: Restart\n" +
					"- name: Restart\n  debug: {msg: s}\n",
				"inv.ini": "n1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3 v=1\n",
			}
			dir := writeTree(t, files)
			res := (&ansibletest.Runner{Dir: dir}).Run(t, []string{"-i", "inv.ini", "cluster.yml"}, "ANSIBLE_ROLES_PATH="+filepath.Join(dir, "roles"))
			if res.Code != 0 {
				t.Fatalf("ansible-playbook failed:\n%s", res.Text)
			}
			rep, err := Build(Options{Logs: []Log{{Name: "run.log", Data: res.Text}}, Var: "v", Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Var.Hosts) != 1 {
				t.Fatalf("hosts %+v", rep.Var.Hosts)
			}
			h := rep.Var.Hosts[0]
			got := map[string]runlog.Status{}
			for _, ho := range h.Handlers {
				got[ho.Handler.Name] = ho.Status
			}
			if h.Verdict != Applied {
				t.Errorf("%s: verdict %s, want applied\n%s", tc.reason, h.Verdict, res.Text)
			}
			if diff := cmp.Diff(tc.handlers, got); diff != "" {
				t.Errorf("%s: handlers (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
