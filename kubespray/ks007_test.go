package kubespray

import (
	"strings"
	"testing"
)

// TestKS007Fix: KS007's fix per kind of winner, both ways. The line, uncommented, would be
// an inventory group_vars value: it beats role defaults and nothing above them. Which value
// wins at each level is checked against ansible-playbook elsewhere: set_fact over the
// inventory (TestRuntimeSets, v_on "after"; TestDifferentialRuntime's first scenario sets
// kubelet_runtime_cgroups in group_vars/all, which the set_fact replaces), -e over set_fact
// (the same scenario's -e kubelet_kubelet_cgroups), role vars and play vars_files over the
// inventory (TestRuntimeSets, e_role and f_var), the inventory over role defaults (every
// differential of this package).
func TestKS007Fix(t *testing.T) {
	plays := boiler + "- name: Nodes\n  hosts: k8s_cluster\n  gather_facts: false\n  vars:\n    p_play: from-play\n" +
		"  roles:\n    - { role: kubespray_defaults }\n    - { role: node }\n"
	files := map[string]string{
		"ks/roles/node/defaults/main.yml": "v_fact: d\nv_def: d\nv_unsure: d\nv_extra: d\nv_mixed: d\ndriver: systemd\n",
		"ks/roles/node/vars/main.yml":     "v_rvar: from-role-vars\n",
		"ks/roles/node/tasks/main.yml": "- name: Early use\n  debug:\n    msg: \"{{ v_mixed }}\"\n" +
			"- name: Probe\n  command: \"true\"\n  register: probe\n" +
			"- name: Set cgroupfs facts\n  set_fact:\n    v_fact: from-set-fact\n    v_mixed: from-set-fact\n  when: driver == 'cgroupfs'\n" +
			"- name: Maybe\n  set_fact:\n    v_unsure: from-set-fact\n  when: probe.rc == 0\n" +
			"- name: Use\n  debug:\n    msg: \"{{ v_fact }} {{ v_def }} {{ v_unsure }} {{ v_extra }} {{ v_rvar }} {{ p_play }} {{ v_mixed }}\"\n",
		"inv/group_vars/all.yml": "driver: cgroupfs\n# v_fact: x\n# v_def: x\n# v_unsure: x\n# v_extra: x\n# v_rvar: x\n# p_play: x\n# v_mixed: x\n",
		// For KS002: w1 is not in etcd.
		"inv/group_vars/etcd.yml": "v_fact: x\nv_def: x\n",
	}
	ks, inv := siteTree(t, plays, files)
	for _, c := range []struct {
		v, why    string
		extra     []string
		want, not []string
		// ks002: KS002's fix contains it ("" when the variable has no KS002).
		ks002 string
	}{
		{"v_fact", "a set_fact that runs beats every inventory value: -e, and the task's when:",
			nil, []string{"removing the '#' would change nothing: the set_fact of task \"node : Set cgroupfs facts\"", "-e v_fact=…", "runs when: driver == 'cgroupfs'"}, []string{"remove the '#' to set it"},
			"an inventory value would change nothing here: the set_fact of task \"node : Set cgroupfs facts\""},
		{"v_def", "a role default loses to the inventory: uncommenting sets it",
			nil, []string{"remove the '#' to set it"}, []string{"would change nothing", "unless"},
			"add w1 to etcd in the inventory"},
		{"v_unsure", "the default wins unless a set_fact whose when: depends on a registered result runs",
			nil, []string{"remove the '#' to set it (unless the set_fact at ", "depends on probe"}, []string{"would change nothing"}, ""},
		{"v_extra", "-e beats every inventory value",
			[]string{"v_extra=e"}, []string{"would change nothing: -e sets it", "change the -e"}, []string{"remove the '#' to set it"}, ""},
		{"v_rvar", "role vars beat the inventory: -e, or the role's vars file",
			nil, []string{"would change nothing: role vars", "-e v_rvar=…", "or change it at ", "roles/node/vars/main.yml:1"}, []string{"remove the '#' to set it"}, ""},
		{"p_play", "play vars beat the inventory",
			nil, []string{"would change nothing: play vars", "-e p_play=…"}, []string{"remove the '#' to set it"}, ""},
		{"v_mixed", "used before the set_fact (the default, which the line would beat) and after it (the set_fact wins)",
			nil, []string{"remove the '#' to set it for the uses nothing stronger sets; at the others the set_fact of task \"node : Set cgroupfs facts\"", "-e v_mixed=… beats it"}, []string{"would change nothing"}, ""},
	} {
		r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{c.v}, Extra: c.extra})
		if err != nil {
			t.Fatal(err)
		}
		var fix, ks002 string
		n := 0
		for _, d := range r.Diagnostics {
			if d.Code == "KS007" && d.Key == c.v {
				fix, n = d.Hint, n+1
			}
			if d.Code == "KS002" && d.Key == c.v {
				ks002 = d.Hint
			}
		}
		if !strings.Contains(ks002, c.ks002) || (c.ks002 == "") != (ks002 == "") {
			t.Errorf("%s: KS002 fix %q, want one containing %q", c.v, ks002, c.ks002)
		}
		t.Logf("%s: %s", c.v, fix)
		if n != 1 {
			t.Errorf("%s: %d KS007 findings, want 1: %v", c.v, n, r.Diagnostics)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(fix, w) {
				t.Errorf("%s (%s): no %q in the fix: %s", c.v, c.why, w, fix)
			}
		}
		for _, w := range c.not {
			if strings.Contains(fix, w) {
				t.Errorf("%s (%s): %q in the fix: %s", c.v, c.why, w, fix)
			}
		}
	}
}

// TestKS011Fix: KS011's fix, both ways: where the roles' differing values are role
// defaults, the inventory gives every role one value; where they are role vars, only -e
// does (role vars beat the inventory: TestRuntimeSets' e_role checks it with
// ansible-playbook).
func TestKS011Fix(t *testing.T) {
	plays := boiler + "- name: Nodes\n  hosts: k8s_cluster\n  gather_facts: false\n  roles: [kubespray_defaults, ra, rb]\n"
	for _, c := range []struct {
		dir, why  string
		want, not string
	}{
		{"defaults", "the inventory beats role defaults", "set the variable in the inventory (or with -e)", "role vars beat"},
		{"vars", "role vars beat the inventory: -e only", "pass it as an extra var (-e v_own=…", "in the inventory (or"},
	} {
		ks, inv := siteTree(t, plays, map[string]string{
			"ks/roles/ra/" + c.dir + "/main.yml": "v_own: from-ra\n",
			"ks/roles/ra/tasks/main.yml":         "- name: ta\n  debug: {msg: a}\n",
			"ks/roles/rb/" + c.dir + "/main.yml": "v_own: from-rb\n",
			"ks/roles/rb/tasks/main.yml":         "- name: tb\n  debug: {msg: b}\n",
		})
		r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"v_own"}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range r.Diagnostics {
			if d.Code != "KS011" {
				continue
			}
			n++
			if !strings.Contains(d.Hint, c.want) || strings.Contains(d.Hint, c.not) {
				t.Errorf("%s (%s): fix %q, want %q and not %q", c.dir, c.why, d.Hint, c.want, c.not)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d KS011 findings, want 1: %v", c.dir, n, r.Diagnostics)
		}
	}
}
