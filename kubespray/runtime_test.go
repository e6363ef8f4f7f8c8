package kubespray

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// runtimeFiles: a role that set_facts v_on (when true), v_off (when false), v_reg (when on
// a registered result) and include_vars an OS-specific file for v_os; the inventory sets
// every one of them, and a later play prints them.
var runtimeFiles = map[string]string{
	"ks/roles/facts/tasks/main.yml": "- name: Probe\n  command: 'true'\n  register: probe\n  changed_when: false\n" +
		"- name: Set on\n  set_fact:\n    v_on: from-set-fact\n  when: net == 'calico'\n" +
		"- name: Set off\n  set_fact:\n    v_off: from-set-fact\n  when: net == 'flannel'\n" +
		"- name: Set reg\n  set_fact:\n    v_reg: from-set-fact\n  when: probe.rc == 0\n" +
		"- name: OS vars\n  include_vars: \"{{ item }}\"\n  with_first_found:\n    - files:\n        - \"{{ ansible_facts['os_family'] | lower }}.yml\"\n        - defaults.yml\n      paths: [vars]\n",
	"ks/roles/facts/vars/debian.yml":   "v_os: from-debian-vars\n",
	"ks/roles/facts/vars/defaults.yml": "v_other: 1\n",
	"ks/roles/facts/defaults/main.yml": "v_role: 1\n",
	"inv/group_vars/all.yml":           "net: calico\nv_on: inventory\nv_off: inventory\nv_reg: inventory\nv_os: inventory\n",
}

const runtimePlays = "- name: Facts\n  hosts: all\n  gather_facts: true\n  roles: [facts]\n" +
	"- name: Print\n  hosts: all\n  gather_facts: false\n  tasks:\n    - debug:\n        msg: \"{{ v_on }} {{ v_off }} {{ v_reg }} {{ v_os }}\"\n"

// TestRuntimeSets: set_fact and include_vars are sources of their own, each with whether it
// runs on the host: a when: that holds (fires), one that is false (quiet), one on a
// registered result (depends on the run), an include_vars chosen by facts (listed per
// file). The inventory's value is then no longer called simply "the highest-precedence
// assignment". With ansible-playbook, the run prints the set_fact's value where k3sconf
// says it runs, the inventory's where it says it does not.
func TestRuntimeSets(t *testing.T) {
	ks, inv := siteTree(t, runtimePlays, runtimeFiles)
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"v_on", "v_off", "v_reg", "v_os"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"v_on": "yes", "v_off": "no", "v_reg": "unsure", "v_os": "unsure"}
	for _, ex := range r.Vars {
		if len(ex.SetAtRunTime) != 1 {
			t.Errorf("%s: %d run-time sets, want 1: %+v", ex.Name, len(ex.SetAtRunTime), ex.SetAtRunTime)
			continue
		}
		s := ex.SetAtRunTime[0]
		if s.Runs != want[ex.Name] {
			t.Errorf("%s: runs %q (%s), want %q", ex.Name, s.Runs, s.Why, want[ex.Name])
		}
	}
	if s := r.Vars[3].SetAtRunTime; len(s) == 1 && (s[0].Kind != IncludeVars || !strings.HasSuffix(s[0].File, "debian.yml") || !strings.Contains(strings.Join(s[0].Facts, ","), "ansible_os_family")) {
		t.Errorf("v_os: %+v, want include_vars of debian.yml depending on ansible_os_family", s[0])
	}
	var b bytes.Buffer
	Text(&b, r)
	if !strings.Contains(b.String(), "before the run; a task below sets it while the play runs") {
		t.Errorf("the inventory value is still called simply the winner:\n%s", b.String())
	}
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed: the run is not compared")
	}
	ansibletest.Require(t)
	runner := &ansibletest.Runner{Dir: ks}
	res := runner.Run(t, []string{"-i", inv, "-l", "w1", "-e", "ansible_connection=local", "-e", "ansible_python_interpreter=/usr/bin/python3", "cluster.yml"}, "ANSIBLE_ROLES_PATH="+filepath.Join(ks, "roles"))
	if res.Code != 0 {
		t.Fatalf("ansible-playbook exited %d:\n%s", res.Code, res.Text)
	}
	// This machine is a Debian (os_family Debian): debian.yml is the file loaded.
	if !bytes.Contains(res.Text, []byte(`"msg": "from-set-fact inventory from-set-fact from-debian-vars"`)) {
		t.Errorf("ansible printed (want v_on, v_reg from set_fact, v_off from the inventory, v_os from debian.yml):\n%s", res.Text)
	}
}
