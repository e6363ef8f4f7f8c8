package kubespray

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/ansible"
)

// siteTree writes a small kubespray-like tree (cluster.yml importing playbooks/cluster.yml,
// dynamic_groups as kubespray has it) plus files, and an inventory; it returns the
// checkout and the inventory file.
func siteTree(t *testing.T, plays string, files map[string]string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{
		"ks/cluster.yml":           "- name: Install\n  ansible.builtin.import_playbook: playbooks/cluster.yml\n",
		"ks/playbooks/cluster.yml": plays,
		"ks/roles/dynamic_groups/tasks/main.yml": "- name: Match groups\n  vars:\n    group_mappings:\n      k8s_cluster: [kube_node, kube_control_plane]\n" +
			"  group_by:\n    key: \"{{ item.key }}\"\n  when: group_names | intersect(item.value) | length > 0\n  loop: \"{{ group_mappings | dict2items }}\"\n",
		"ks/roles/kubespray_defaults/defaults/main.yml": "net: calico\nlog_line: 1\n",
		"inv/hosts.ini": "[kube_control_plane]\ncp1\n[etcd]\netcd1\n[kube_node]\nw1\n",
	}
	for k, v := range files {
		all[k] = v
	}
	for p, content := range all {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "ks"), filepath.Join(dir, "inv", "hosts.ini")
}

const boiler = "- name: Inventory setup\n  hosts: all\n  gather_facts: false\n  roles: [dynamic_groups]\n"

// engineFiles: a container-engine role that include_roles the manager through a task-vars
// dict (as kubespray's "Container Manager" task does); the manager's default is used in its
// template, which its tasks render.
var engineFiles = map[string]string{
	"ks/roles/container-engine/tasks/main.yml": "- name: Container Manager\n  vars:\n    role_of:\n      containerd: containerd\n      crio: cri-o\n" +
		"  include_role:\n    name: \"container-engine/{{ role_of[container_manager] }}\"\n",
	"ks/roles/container-engine/containerd/defaults/main.yml":        "log_line: 16384\n",
	"ks/roles/container-engine/containerd/tasks/main.yml":           "- name: Copy config\n  template:\n    src: config.toml.j2\n    dest: /etc/containerd/config.toml\n",
	"ks/roles/container-engine/containerd/templates/config.toml.j2": "max_container_log_line_size = {{ log_line }}\n",
	"ks/roles/container-engine/cri-o/defaults/main.yml":             "log_line: 2\n",
	"ks/roles/container-engine/cri-o/tasks/main.yml":                "- name: Copy crio config\n  template:\n    src: crio.conf.j2\n    dest: /etc/crio/crio.conf\n",
	"ks/roles/container-engine/cri-o/templates/crio.conf.j2":        "log_size_max = {{ log_line }}\n",
	"ks/roles/kubespray_defaults/defaults/main.yml":                 "container_manager: containerd\nnet: calico\n",
}

func siteExplain(t *testing.T, ks, inv, host, v string, extra ...string) *Explained {
	t.Helper()
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: host, Vars: []string{v}, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	return r.Vars[0]
}

func val(v *ansible.Var) string {
	if v == nil {
		return "undefined"
	}
	return ansible.Repr(v.Value) + " from " + v.Source.Level
}

// TestUseSiteIncludeRoleDefaults: a default of a role reached through include_role (with a
// templated name) is what its template gets; a task at play level does not see it (the
// old answer, "undefined"). A host that does not run the play says it uses it nowhere.
func TestUseSiteIncludeRoleDefaults(t *testing.T) {
	plays := boiler + "- name: Prepare\n  hosts: k8s_cluster\n  gather_facts: false\n  roles:\n    - kubespray_defaults\n    - container-engine\n"
	files := map[string]string{}
	for k, v := range engineFiles {
		files[k] = v
	}
	files["ks/roles/kubespray_defaults/defaults/main.yml"] = "container_manager: containerd\n"
	ks, inv := siteTree(t, plays, files)
	ex := siteExplain(t, ks, inv, "w1", "log_line")
	if got, want := val(ex.Var), "16384 from role defaults (container-engine/containerd, for the tasks of container-engine/containerd)"; got != want {
		t.Errorf("log_line at its use site: %s, want %s", got, want)
	}
	if ex.NotUsed || len(ex.Values) != 1 {
		t.Errorf("used %v, %d values; want used, 1 value", !ex.NotUsed, len(ex.Values))
	}
	// cri-o's template is not rendered: container_manager is containerd.
	for _, s := range ex.Sites {
		if strings.Contains(s.Use.Pos.File, "cri-o") && s.Runs() {
			t.Errorf("cri-o's template counted as run: %+v", s)
		}
	}
	// With -e container_manager=crio the other role's default holds.
	ex = siteExplain(t, ks, inv, "w1", "log_line", "container_manager=crio")
	if got := val(ex.Var); !strings.HasPrefix(got, "2 from role defaults (container-engine/cri-o") {
		t.Errorf("with crio: %s", got)
	}
	// etcd1 is not in k8s_cluster: no use site runs there, and that is said, not "undefined".
	ex = siteExplain(t, ks, inv, "etcd1", "log_line")
	if !ex.NotUsed {
		t.Errorf("etcd1: NotUsed false; sites %+v", ex.Sites)
	}
	var b bytes.Buffer
	r, _ := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "etcd1", Vars: []string{"log_line"}})
	Text(&b, r)
	for _, want := range []string{"log_line is used by no task, template or handler that etcd1 runs", `play "Prepare" does not run on etcd1 (hosts: k8s_cluster)`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text for etcd1 lacks %q:\n%s", want, b.String())
		}
	}
}

// TestUseSitePerPlay: the same variable gets different values in two plays (another role's
// default in the second), each is shown; --play picks one. Before dynamic_groups' play the
// host is not in k8s_cluster yet, so group_vars/k8s_cluster does not hold there.
func TestUseSitePerPlay(t *testing.T) {
	plays := "- name: Early\n  hosts: all\n  gather_facts: false\n  roles: [kubespray_defaults, early]\n" + boiler +
		"- name: First\n  hosts: k8s_cluster\n  gather_facts: false\n  roles: [kubespray_defaults, a]\n" +
		"- name: Second\n  hosts: k8s_cluster\n  gather_facts: false\n  roles: [kubespray_defaults, b]\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/early/tasks/main.yml":                 "- name: early use\n  debug: msg={{ depth }}\n",
		"ks/roles/a/tasks/main.yml":                     "- name: a use\n  debug: msg={{ depth }}\n",
		"ks/roles/b/defaults/main.yml":                  "depth: from-b\n",
		"ks/roles/b/tasks/main.yml":                     "- name: b use\n  debug: msg={{ depth }}\n",
		"ks/roles/kubespray_defaults/defaults/main.yml": "depth: default\n",
		"inv/group_vars/k8s_cluster.yml":                "other: 1\n",
	})
	ex := siteExplain(t, ks, inv, "w1", "depth")
	var got []string
	for _, g := range ex.Values {
		var plays []string
		for _, s := range g.Sites {
			plays = append(plays, s.Play.Play.Name)
		}
		got = append(got, ansible.Repr(g.Var.Value)+"@"+strings.Join(plays, ","))
	}
	if want := []string{"'default'@Early,First", "'from-b'@Second"}; !slices.Equal(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"depth"}, Play: "Second"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Vars[0].Values) != 1 || ansible.Repr(r.Vars[0].Var.Value) != "'from-b'" {
		t.Errorf("--play Second: %+v", r.Vars[0].Values)
	}
	if _, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"depth"}, Play: "Nope"}); err == nil || !strings.Contains(err.Error(), `"First"`) {
		t.Errorf("--play Nope: %v, want an error listing the plays", err)
	}

	// k8s_cluster's group_vars: not in the play before dynamic_groups.
	ks, inv = siteTree(t, plays, map[string]string{
		"ks/roles/early/tasks/main.yml":                 "- name: early use\n  debug: msg={{ depth }}\n",
		"ks/roles/a/tasks/main.yml":                     "- name: a use\n  debug: msg={{ depth }}\n",
		"ks/roles/b/tasks/main.yml":                     "- name: b\n  debug: msg=b\n",
		"ks/roles/kubespray_defaults/defaults/main.yml": "depth: default\n",
		"inv/group_vars/k8s_cluster.yml":                "depth: cluster\n",
	})
	ex = siteExplain(t, ks, inv, "w1", "depth")
	got = nil
	for _, g := range ex.Values {
		got = append(got, ansible.Repr(g.Var.Value)+"@"+g.Sites[0].Play.Play.Name)
	}
	if want := []string{"'default'@Early", "'cluster'@First"}; !slices.Equal(got, want) {
		t.Errorf("before and after dynamic_groups: %v, want %v", got, want)
	}
}

// TestUseSiteGroupBy: a host joins a play through a group_by of an earlier play (as
// kubespray's workers join the etcd play with cilium); whether it does follows the
// group_by's when:.
func TestUseSiteGroupBy(t *testing.T) {
	plays := boiler + "- name: Add workers\n  hosts: kube_node\n  gather_facts: false\n  roles: [kubespray_defaults]\n" +
		"  tasks:\n    - name: needs etcd\n      group_by:\n        key: _needs_etcd\n      when:\n        - net in [\"cilium\", \"flannel\"]\n" +
		"- name: Install etcd\n  hosts: etcd:_needs_etcd\n  gather_facts: false\n  roles: [kubespray_defaults, etcd]\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/etcd/tasks/main.yml":    "- name: certs\n  debug: msg={{ etcd_cert_dir }}\n",
		"ks/roles/etcd/defaults/main.yml": "etcd_cert_dir: /etc/ssl/etcd\n",
	})
	ex := siteExplain(t, ks, inv, "w1", "etcd_cert_dir")
	if !ex.NotUsed {
		t.Errorf("calico: w1 does not join the etcd play, but %+v", ex.Values)
	}
	ex = siteExplain(t, ks, inv, "w1", "etcd_cert_dir", "net=cilium")
	if ex.NotUsed || len(ex.Values) != 1 || ex.Values[0].Sites[0].Play.Joined != "_needs_etcd" {
		t.Fatalf("cilium: w1 joins the etcd play through _needs_etcd; got NotUsed %v, %+v", ex.NotUsed, ex.Values)
	}
	if got := val(ex.Var); got != "'/etc/ssl/etcd' from role defaults (etcd, for the tasks of etcd)" {
		t.Errorf("value %s", got)
	}
	// An undecidable condition (a fact) keeps the play, marked unsure.
	ks, inv = siteTree(t, strings.Replace(plays, `net in ["cilium", "flannel"]`, `ansible_facts.os_family == "Debian"`, 1), map[string]string{
		"ks/roles/etcd/tasks/main.yml":    "- name: certs\n  debug: msg={{ etcd_cert_dir }}\n",
		"ks/roles/etcd/defaults/main.yml": "etcd_cert_dir: /etc/ssl/etcd\n",
	})
	ex = siteExplain(t, ks, inv, "w1", "etcd_cert_dir")
	if ex.NotUsed || ex.Values[0].Sites[0].Play.Unsure == "" {
		t.Errorf("fact condition: want a use site marked unsure, got NotUsed %v %+v", ex.NotUsed, ex.Values)
	}
}

// TestUseSiteWhenFalse: a role entry whose when: is false runs nothing on the host; the
// use site is listed with the reason.
func TestUseSiteWhenFalse(t *testing.T) {
	plays := boiler + "- name: Prepare\n  hosts: all\n  gather_facts: false\n  roles:\n    - kubespray_defaults\n" +
		"    - { role: engine, when: deploy_engine }\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/kubespray_defaults/defaults/main.yml": "deploy_engine: \"{{ 'k8s_cluster' in group_names }}\"\n",
		"ks/roles/engine/tasks/main.yml":                "- name: use\n  debug: msg={{ engine_opt }}\n",
		"ks/roles/engine/defaults/main.yml":             "engine_opt: 7\n",
	})
	if ex := siteExplain(t, ks, inv, "w1", "engine_opt"); ex.NotUsed || val(ex.Var) != "7 from role defaults (engine, for the tasks of engine)" {
		t.Errorf("w1 (in k8s_cluster): %s, NotUsed %v", val(ex.Var), ex.NotUsed)
	}
	ex := siteExplain(t, ks, inv, "etcd1", "engine_opt")
	if !ex.NotUsed || len(ex.Sites) != 1 || ex.Sites[0].Skip != "when: deploy_engine is false" {
		t.Errorf("etcd1: NotUsed %v, sites %+v", ex.NotUsed, ex.Sites)
	}
}

// TestUseSiteSecretsRedacted: a secret-named variable is redacted at every use site, in
// the text and in --json's useSites, unless ShowSecrets.
func TestUseSiteSecretsRedacted(t *testing.T) {
	plays := boiler + "- name: Prepare\n  hosts: all\n  gather_facts: false\n  roles: [kubespray_defaults, a, b]\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/a/tasks/main.yml":                     "- name: login\n  debug: msg={{ registry_password }}\n",
		"ks/roles/b/defaults/main.yml":                  "registry_password: hunter2-b\n",
		"ks/roles/b/tasks/main.yml":                     "- name: login\n  debug: msg={{ registry_password }}\n",
		"inv/group_vars/all.yml":                        "other: 1\n",
		"ks/roles/kubespray_defaults/defaults/main.yml": "registry_password: hunter2-default\n",
	})
	for _, show := range []bool{false, true} {
		r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"registry_password"}, ShowSecrets: show})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		Text(&b, r)
		js, _ := json.Marshal(JSON(r))
		leaked := strings.Contains(b.String()+string(js), "hunter2")
		if leaked == !show {
			t.Errorf("ShowSecrets %v: secret in the output = %v\n%s\n%s", show, leaked, b.String(), js)
		}
	}
}

// TestNotUsedValueAtThePlayNamed: a variable no task of the host uses is shown at a play
// the host runs after joining its run-time groups (group_vars/k8s_cluster applies there),
// with the value at the first play, before dynamic_groups, said apart (undefined there);
// before, the first play was named with the value of the groups joined later.
func TestNotUsedValueAtThePlayNamed(t *testing.T) {
	plays := "- name: Check version\n  hosts: all\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n" + boiler +
		"- name: Later\n  hosts: k8s_cluster\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n"
	ks, inv := siteTree(t, plays, map[string]string{"inv/group_vars/k8s_cluster/x.yml": "unused_v: 7\n"})
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"unused_v"}})
	if err != nil {
		t.Fatal(err)
	}
	ex := r.Vars[0]
	if !ex.NotUsed || ex.Play == nil || ex.Play.Name != "Later" {
		t.Fatalf("not used %v, play %+v: want the play Later", ex.NotUsed, ex.Play)
	}
	if got := val(ex.Var); got != "7 from inventory group_vars/k8s_cluster" {
		t.Errorf("value at Later: %s", got)
	}
	if ex.BeforePlay == nil || ex.BeforePlay.Play.Name != "Check version" || ex.Before != nil {
		t.Errorf("before: %v at %+v, want undefined at Check version", val(ex.Before), ex.BeforePlay)
	}
	var b bytes.Buffer
	Text(&b, r)
	for _, want := range []string{"no task on w1 uses it", `play "Later"`, `at play "Check version"`, "it is undefined"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	// Quiet: with the value in group_vars/all, every play has it and nothing is said apart.
	ks, inv = siteTree(t, plays, map[string]string{"inv/group_vars/all/x.yml": "unused_v: 7\n"})
	r, err = Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"unused_v"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Vars[0].BeforePlay != nil || val(r.Vars[0].Var) != "7 from inventory group_vars/all" {
		t.Errorf("group_vars/all: %s, before %+v", val(r.Vars[0].Var), r.Vars[0].BeforePlay)
	}
}

// TestWhereDefinitionLabel: a role default that sets the variable (containerd_debug_level:
// info) is said to set it; a default whose value mentions it is another variable's value.
func TestWhereDefinitionLabel(t *testing.T) {
	ks, _ := siteTree(t, boiler, map[string]string{
		"ks/roles/kubespray_defaults/defaults/main.yml": "level: info\nlevel_flag: \"--log-level={{ level }}\"\n",
		"ks/roles/kubespray_defaults/vars/main.yml":     "level   : debug\n",
	})
	uses, err := Where(ks, "level")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WhereText(&b, "level", uses)
	for _, want := range []string{
		"defaults/main.yml:1:1  kubespray_defaults default  (sets it: a role default",
		"defaults/main.yml:2:20  kubespray_defaults default  (in the value of another variable",
		"vars/main.yml:1:1  kubespray_defaults var  (sets it: role vars",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("where lacks %q:\n%s", want, b.String())
		}
	}
}

// TestPlayVarsOfRolelessPlay: a play with no roles whose vars: (or vars_files) set a
// variable defines it (ansible-core 2.14.18 vars/manager.py get_vars reads a play's vars
// whatever its roles): no KS006, and the value shown is the one at that play, even when
// the play runs before dynamic_groups (kubespray's "Check Ansible version" sets
// minimal_ansible_version so). A name no play, role or inventory sets is still KS006.
func TestPlayVarsOfRolelessPlay(t *testing.T) {
	plays := "- name: Check version\n  hosts: all\n  gather_facts: false\n  vars:\n    min_v: 2.18.0\n  vars_files: [pv.yml]\n  tasks:\n    - debug: msg=hi\n" + boiler +
		"- name: Later\n  hosts: k8s_cluster\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n"
	ks, inv := siteTree(t, plays, map[string]string{"ks/playbooks/pv.yml": "file_v: from-file\n"})
	r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"min_v", "file_v", "min_vv"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"'2.18.0' from play vars", "'from-file' from play vars"} {
		ex := r.Vars[i]
		if got := val(ex.Var); got != want || ex.Play == nil || ex.Play.Name != "Check version" {
			t.Errorf("%s: %s at %+v, want %s at the play Check version", ex.Name, got, ex.Play, want)
		}
	}
	var ks006 []string
	for _, d := range r.Diagnostics {
		if d.Code == "KS006" {
			ks006 = append(ks006, d.Key)
		}
	}
	if len(ks006) != 1 || ks006[0] != "min_vv" {
		t.Errorf("KS006 for %v, want [min_vv] only (play vars define min_v and file_v)", ks006)
	}
}

// TestWherePlayOwnTasks: a play's own tasks (pre_tasks, tasks, post_tasks, handlers
// written in the playbook, and files it includes from beside it) are uses with their
// file:line; a set_fact key or a vars: key assigns the variable, a plain word (a task's
// name, a message without {{ }}) or a comment only mentions it: no use. A bare when:,
// that: or {{ }} is one.
func TestWherePlayOwnTasks(t *testing.T) {
	plays := boiler + "- name: Own\n  hosts: all\n  gather_facts: false\n  vars:\n    w_v: 1\n  pre_tasks:\n" +
		"    - name: Set w_v\n      set_fact:\n        w_v: 2\n" + // 11-13: a key and a plain name
		"    # w_v is set above\n" + // 14: a comment
		"    - name: Plain w_v\n      debug:\n        msg: w_v is a word here\n" + // 15-17
		"  tasks:\n    - name: Check\n      assert:\n        that:\n          - w_v == 2\n" + // 18-22: a bare expression
		"    - name: Block\n      when: w_v | int > 1\n      block:\n        - debug:\n            msg: \"{{ w_v }}\"\n" + // 23-27: the block's when: is its task's
		"    - include_tasks: own.yml\n" +
		"  post_tasks:\n    - name: With vars\n      vars:\n        w_v: 3\n      debug: msg=hi\n      notify: h\n" + // 29-34
		"  handlers:\n    - name: h\n      debug:\n        msg: \"{{ w_v }}\"\n" // 35-38: a handler of the play
	ks, _ := siteTree(t, plays, map[string]string{"ks/playbooks/own.yml": "- debug:\n    msg: \"{{ w_v + 1 }}\"\n- debug: var=w_v\n- debug: msg=w_v\n"})
	uses, err := Where(ks, "w_v")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range uses {
		got = append(got, fmt.Sprintf("%s:%d %s %d sites", filepath.Base(u.Pos.File), u.Pos.Line, u.Kind, len(u.Sites)))
	}
	want := []string{"cluster.yml:22 task 1 sites", "cluster.yml:24 task 1 sites", "cluster.yml:27 task 1 sites", "own.yml:2 task 1 sites", "own.yml:3 task 1 sites", "cluster.yml:38 handler 1 sites"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("uses mismatch (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	WhereText(&b, "w_v", uses)
	if !strings.Contains(b.String(), "cluster.yml:22:13  (play) task \"Check\"") {
		t.Errorf("where text:\n%s", b.String())
	}
}

// TestUseSiteBlockWhenFalse: a task in a block whose when: is false does not run (nor do
// the block's rescue and always tasks), in a play's own tasks and in a role; the use site
// is listed with the reason, and a task after the block still runs. Found by
// TestDifferentialUseSites (seeds 2 and 3): k3sconf counted the marker in the block as
// run where ansible-core 2.14.18 skipped it. A use in the block's own when: is evaluated
// whatever the condition gives.
func TestUseSiteBlockWhenFalse(t *testing.T) {
	plays := boiler + "- name: Prepare\n  hosts: all\n  gather_facts: false\n  roles: [kubespray_defaults, engine]\n" +
		"  tasks:\n    - block:\n        - name: in block\n          debug: msg={{ bv }}\n      vars:\n        bv: blockv\n" +
		"      when: net == 'cilium'\n    - name: after\n      debug: msg={{ av }}\n  vars:\n    av: 1\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/kubespray_defaults/defaults/main.yml": "net: calico\n",
		"ks/roles/engine/tasks/main.yml": "- block:\n    - block:\n        - name: use\n          debug: msg={{ engine_opt }}\n" +
			"      rescue:\n        - debug: msg={{ engine_opt }}\n    - name: check\n      debug: msg={{ net_used }}\n" +
			"  always:\n    - debug: msg={{ engine_opt }}\n  when: net != 'calico' and net_used is defined\n",
		"ks/roles/engine/defaults/main.yml": "engine_opt: 7\nnet_used: 1\n",
	})
	for _, c := range []struct {
		v, skip string
		extra   []string
	}{
		{"bv", "when: net == 'cilium'", nil},
		{"engine_opt", "when: net != 'calico' and net_used is defined", nil},
		{"bv", "", []string{"net=cilium"}},
		{"engine_opt", "", []string{"net=cilium"}},
	} {
		ex := siteExplain(t, ks, inv, "w1", c.v, c.extra...)
		if c.skip != "" {
			// Every use is in the block: none runs.
			if !ex.NotUsed || len(ex.Sites) == 0 {
				t.Errorf("%s %v: want its use sites skipped, got NotUsed %v, %d sites", c.v, c.extra, ex.NotUsed, len(ex.Sites))
			}
			for _, s := range ex.Sites {
				if !strings.HasPrefix(s.Skip, c.skip) {
					t.Errorf("%s %v: site %s skipped for %q, want %q", c.v, c.extra, s.Use.Pos, s.Skip, c.skip)
				}
			}
			continue
		}
		if ex.NotUsed || len(ex.Sites) == 0 || !ex.Sites[0].Runs() {
			t.Errorf("%s %v: want a use site that runs, got NotUsed %v, %+v", c.v, c.extra, ex.NotUsed, ex.Sites)
		}
	}
	if ex := siteExplain(t, ks, inv, "w1", "av"); ex.NotUsed || val(ex.Var) != "1 from play vars" {
		t.Errorf("av after the block: %s, NotUsed %v", val(ex.Var), ex.NotUsed)
	}
	// net_used: in the block (skipped) and in the block's when: (run).
	ex := siteExplain(t, ks, inv, "w1", "net_used")
	var runs []int
	for _, s := range ex.Sites {
		if s.Runs() {
			runs = append(runs, s.Use.Pos.Line)
		}
	}
	if len(ex.Sites) != 2 || !slices.Equal(runs, []int{11}) {
		t.Errorf("net_used: want the use in the when: (line 11) run and the one in the block not, got runs at %v of %d sites", runs, len(ex.Sites))
	}
}

// TestImportRoleVarsArePlayRoleVars: the vars: of an import_role are the imported role's
// vars (ansible-core 2.14.18 playbook/role_include.py get_block_list: ri.vars.update(
// self.vars), and a static import joins play.get_roles()), so every task of the play sees
// them at role-vars level, above play vars: pre_tasks, another role, the tasks after it;
// not a later play. An include_role's vars: (not public) stay with its role's tasks.
// Found by TestDifferentialUseSites: k3sconf kept them for the imported role's tasks.
func TestImportRoleVarsArePlayRoleVars(t *testing.T) {
	dbg := func(name string) string { return "- name: " + name + "\n  debug: msg={{ x }}\n" }
	plays := boiler + "- name: Prepare\n  hosts: all\n  gather_facts: false\n  vars:\n    x: playvar\n  roles: [kubespray_defaults, a]\n" +
		"  pre_tasks:\n    - name: pre\n      debug: msg={{ x }}\n" +
		"  tasks:\n    - import_role:\n        name: b\n      vars:\n        x: fromimport\n" +
		"    - include_role:\n        name: c\n      vars:\n        x: frominclude\n" +
		"    - name: after\n      debug: msg={{ x }}\n" +
		"- name: Next\n  hosts: all\n  gather_facts: false\n  tasks:\n    - name: next\n      debug: msg={{ x }}\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/a/tasks/main.yml": dbg("a"),
		"ks/roles/b/tasks/main.yml": dbg("b"),
		"ks/roles/c/tasks/main.yml": dbg("c"),
	})
	ex := siteExplain(t, ks, inv, "w1", "x")
	var got []string
	for _, s := range ex.Sites {
		if s.Runs() {
			v := "undefined"
			if s.Var != nil {
				v = ansible.Repr(s.Var.Value)
			}
			got = append(got, filepath.Base(filepath.Dir(filepath.Dir(s.Use.Pos.File)))+"/"+strings.Fields(s.Use.Task + " -")[0]+"="+v)
		}
	}
	// ansible-playbook 2.14.18 on this tree prints: pre fromimport, a fromimport, b
	// fromimport, c frominclude, after fromimport, next undefined. (Sites lists a play
	// section's file run before the roles its tasks import: compared sorted.)
	want := []string{"a/a='fromimport'", "b/b='fromimport'", "c/c='frominclude'", "ks/after='fromimport'", "ks/next=undefined", "ks/pre='fromimport'"}
	slices.Sort(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("x at each use site (-want +got):\n%s", d)
	}
}

// TestRoleReachedTwiceGetsItsOwnVars: a role included (or imported) twice in a play runs
// each time with the vars: of that include or import. Found by TestDifferentialUseSites:
// explain gave both runs the vars of the first (the task of the first compiled instance).
// ansible-playbook 2.14.18 on this tree prints c inc1, b imp1, c inc2, b imp2.
func TestRoleReachedTwiceGetsItsOwnVars(t *testing.T) {
	plays := boiler + "- name: Prepare\n  hosts: all\n  gather_facts: false\n  roles: [kubespray_defaults]\n" +
		"  tasks:\n    - include_role:\n        name: c\n      vars:\n        x: inc1\n" +
		"    - import_role:\n        name: b\n      vars:\n        y: imp1\n" +
		"    - include_role:\n        name: c\n      vars:\n        x: inc2\n" +
		"  post_tasks:\n    - import_role:\n        name: b\n      vars:\n        y: imp2\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/b/tasks/main.yml": "- name: b\n  debug: msg={{ y }}\n",
		"ks/roles/c/tasks/main.yml": "- name: c\n  debug: msg={{ x }}\n",
	})
	for v, want := range map[string][]string{"x": {"'inc1'", "'inc2'"}, "y": {"'imp1'", "'imp2'"}} {
		var got []string
		for _, s := range siteExplain(t, ks, inv, "w1", v).Sites {
			if s.Runs() && s.Var != nil {
				got = append(got, ansible.Repr(s.Var.Value))
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s at the role's two runs (-want +got):\n%s", v, d)
		}
	}
}

// TestImportRoleVarsLoadOrder: when several import_role tasks of a play set the same
// variable, the one play.get_roles() lists last wins for the play's other tasks. Play
// loads its task lists as base.py load_data orders the fields (priority, then as play.py
// declares them: handlers, pre_tasks, post_tasks, tasks), so an import in tasks beats one
// in post_tasks, which beats one in pre_tasks. Found by TestDifferentialUseSites (seed 20
// of 40): k3sconf took post_tasks' as the last. ansible-playbook 2.14.18 on this tree
// prints: pre POST, b PRE, b POST; b PRE, tasks TASKS, b TASKS, b POST.
func TestImportRoleVarsLoadOrder(t *testing.T) {
	imp := func(v string) string {
		return "    - import_role:\n        name: b\n      vars:\n        y: " + v + "\n"
	}
	plays := boiler + "- name: One\n  hosts: all\n  gather_facts: false\n  roles: [kubespray_defaults]\n" +
		"  pre_tasks:\n    - name: pre\n      debug: msg={{ y }}\n" + imp("PRE") + "  post_tasks:\n" + imp("POST") +
		"- name: Two\n  hosts: all\n  gather_facts: false\n  pre_tasks:\n" + imp("PRE") +
		"  tasks:\n    - name: tasks\n      debug: msg={{ y }}\n" + imp("TASKS") + "  post_tasks:\n" + imp("POST")
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/b/tasks/main.yml": "- name: b\n  debug: msg={{ y }}\n",
	})
	var got []string
	for _, s := range siteExplain(t, ks, inv, "w1", "y").Sites {
		if s.Runs() && s.Var != nil {
			got = append(got, s.Play.Play.Name+" "+strings.Fields(s.Use.Task + " -")[0]+" "+ansible.Repr(s.Var.Value))
		}
	}
	want := []string{"One b 'POST'", "One b 'PRE'", "One pre 'POST'", "Two b 'POST'", "Two b 'PRE'", "Two b 'TASKS'", "Two tasks 'TASKS'"}
	slices.Sort(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("y at each use site (-want +got):\n%s", d)
	}
}
