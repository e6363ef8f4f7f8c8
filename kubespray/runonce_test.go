package kubespray

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runOncePlays: a play on two hosts whose role sets variables with run_once (ansible runs
// the task on n1, the play's first host, with n1's variables, and gives what it sets to
// n2 too), and a play on one host, where run_once changes nothing.
const runOncePlays = boiler + `- name: Nodes
  hosts: kube_node
  gather_facts: false
  roles:
    - kubespray_defaults
    - once
- name: Sole
  hosts: kube_control_plane
  gather_facts: false
  roles:
    - kubespray_defaults
    - sole
`

var runOnceFiles = map[string]string{
	"inv/hosts.ini": "[kube_control_plane]\ncp1\n[kube_node]\nn1\nn2\n[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n",
	"ks/roles/kubespray_defaults/defaults/main.yml": "o_n2: inventory\no_n1: inventory\no_name: inventory\no_blk: inventory\no_iv: inventory\no_no: inventory\no_yes: inventory\no_plain: inventory\no_src: a\no_src2: b\n",
	"ks/roles/once/tasks/main.yml": `- name: Set when n2
  set_fact:
    o_n2: from-n2-cond
  when: inventory_hostname == 'n2'
  run_once: true
- name: Set when n1
  set_fact:
    o_n1: from-n1-cond
  when: inventory_hostname == 'n1'
  run_once: true
- name: Set the name
  set_fact:
    o_name: "{{ inventory_hostname }}"
  run_once: true
- name: Once
  run_once: true
  block:
    - name: Set in the block
      set_fact:
        o_blk: in-block
    - name: Use in the block
      debug:
        msg: "{{ o_src }}"
- name: Read vars when n1
  include_vars:
    file: once.yml
  when: inventory_hostname == 'n1'
  run_once: true
- name: Not once
  set_fact:
    o_plain: plain
  when: inventory_hostname == 'n2'
  run_once: false
- name: Use not once
  debug:
    msg: "{{ o_src2 }}"
  run_once: false
` + markerTask("after", runOnceVars, ""),
	"ks/roles/once/vars/once.yml": "o_iv: from-file\n",
	"ks/roles/sole/tasks/main.yml": `- name: Set for nobody
  set_fact:
    o_no: set
  when: inventory_hostname == 'nobody'
  run_once: true
- name: Set for cp1
  set_fact:
    o_yes: set
  when: inventory_hostname == 'cp1'
  run_once: true
` + markerTask("sole", runOnceVars, ""),
}

var runOnceVars = []string{"o_n2", "o_n1", "o_name", "o_blk", "o_iv", "o_no", "o_yes", "o_plain"}

// TestRunOnceSets: a set_fact or include_vars with run_once is decided by the play's first
// host, and what it sets is given to every host of the play. On a host that may not be
// the first, explain must not decide it with the host's own when: or value (before this
// rule, n2 had o_n1 "inventory", o_n2 "from-n2-cond" and o_name "n2", all decided and all
// wrong); on a play's only host, run_once changes nothing and stays decided.
func TestRunOnceSets(t *testing.T) {
	t.Parallel() // an ansible-playbook run
	ks, inv := siteTree(t, runOncePlays, runOnceFiles)
	sites := map[string]map[string]map[string]*rtSite{}
	for _, h := range []string{"n1", "n2", "cp1"} {
		sites[h] = explainSites(t, Options{Dir: ks, Inventory: []string{inv}, Host: h, Vars: runOnceVars})
	}
	// What explain must say, each with the rule behind it.
	for _, tc := range []struct {
		host, label, v   string
		decided          bool
		want, reason     string
		candidatesHolder string
	}{
		{"n2", "after", "o_n1", false, "", "n1 runs it (its when: holds there) and sets it on n2 too", `"from-n1-cond"`},
		{"n2", "after", "o_n2", false, "", "n1 runs it and its when: is false there: nothing is set, though it holds on n2", `"inventory"`},
		{"n2", "after", "o_name", false, "", "the value is templated with n1's variables", ""},
		{"n2", "after", "o_plain", true, `"plain"`, "run_once: false is no run_once", ""},
		{"n1", "after", "o_plain", true, `"inventory"`, "run_once: false: n1's own when: is false", ""},
		{"cp1", "sole", "o_no", true, `"inventory"`, "the play's only host runs it: its own when: decides (false)", ""},
		{"cp1", "sole", "o_yes", true, `"set"`, "the play's only host runs it: its own when: decides (true)", ""},
	} {
		s := sites[tc.host][tc.label][tc.v]
		if s == nil {
			t.Errorf("%s on %s at %s: explain has no use site there", tc.v, tc.host, tc.label)
			continue
		}
		if s.Decided != tc.decided || tc.decided && s.Explain != tc.want {
			t.Errorf("%s on %s at %s (%s): explain %s (decided %v), want decided %v %s", tc.v, tc.host, tc.label, tc.reason, s.Explain, s.Decided, tc.decided, tc.want)
		}
		if tc.candidatesHolder != "" && !s.Open && !strings.Contains(strings.Join(s.Candidates, " "), tc.candidatesHolder) {
			t.Errorf("%s on %s at %s (%s): candidates %v lack %s", tc.v, tc.host, tc.label, tc.reason, s.Candidates, tc.candidatesHolder)
		}
	}
	// The text says why.
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "n2", Vars: []string{"o_n1", "o_blk"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Text(&b, r)
	for _, want := range []string{
		"may run: run_once: the play's first host runs it, with its own variables, and what it sets is set on every host of the play (this one too); when: inventory_hostname == 'n1'",
		"sets it on this host (run_once: the play's first host runs it",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
	// where marks the task with run_once (inherited from its block) and not the one with
	// run_once: false.
	for _, tc := range []struct {
		v    string
		want bool
	}{{"o_src", true}, {"o_src2", false}} {
		uses, err := Where(ks, tc.v)
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		WhereText(&w, tc.v, uses)
		if got := strings.Contains(w.String(), "run_once: true: only the play's first host runs it"); got != tc.want {
			t.Errorf("where %s: run_once line %v, want %v:\n%s", tc.v, got, tc.want, w.String())
		}
	}
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed: the run is not compared")
	}
	// One run of the whole inventory (no --limit: a limit would make each host the play's
	// first), every host's markers compared.
	got := runMarkersHosts(t, filepath.Dir(ks), ks, inv, "", "", nil)
	n := 0
	for _, h := range []string{"n1", "n2", "cp1"} {
		for _, s := range compareRT(sites[h], got[h], runOnceVars) {
			n++
			if !s.Agrees() {
				t.Errorf("%s: %s", h, s)
			}
		}
	}
	t.Logf("%d marker×variable cases on three hosts compared with ansible-playbook", n)
}

// TestRunOnceNotQuoted: where names a templated run_once by the variables it uses and
// does not quote the expression, which may hold a secret where's redactor (no inventory)
// does not know; text and --json.
func TestRunOnceNotQuoted(t *testing.T) {
	ks, _ := siteTree(t, boiler+"- name: Nodes\n  hosts: kube_node\n  gather_facts: false\n  roles: [kubespray_defaults, q]\n", map[string]string{
		"ks/roles/q/tasks/main.yml":                     "- name: Use it\n  debug:\n    msg: \"{{ q_var }}\"\n  run_once: \"{{ registry_password == 'Lit3ralS3cret' }}\"\n",
		"ks/roles/kubespray_defaults/defaults/main.yml": "q_var: 1\nregistry_password: Lit3ralS3cret\n",
	})
	uses, err := Where(ks, "q_var")
	if err != nil {
		t.Fatal(err)
	}
	var w strings.Builder
	WhereText(&w, "q_var", uses)
	doc, err := json.Marshal(WhereJSON("q_var", uses))
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": w.String(), "json": string(doc)} {
		if strings.Contains(out, "Lit3ralS3cret") || !strings.Contains(out, "templated on registry_password") {
			t.Errorf("%s: the run_once expression is quoted, or its variables not named:\n%s", name, out)
		}
	}
}
