package runs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// The seed's operation, for real: a small kubespray-like checkout (written for this test)
// whose containerd role renders config.toml from containerd_max_container_log_line_size
// and notifies "Restart containerd" (two handlers listen to it), and renders hosts.toml
// with no notify. ansible-playbook (connection: local) runs cluster.yml three times: the
// first deployment, a re-run with nothing edited, and a run with --tags containerd after
// the value was edited in the inventory's group_vars. Then `runs --var` must say, per
// variable, what the test knows happened. Checked with ansible-core 2.14.18.
var seedTree = map[string]string{
	"cluster.yml": "- name: Install Kubernetes\n  import_playbook: playbooks/cluster.yml\n",
	"playbooks/cluster.yml": `- name: Prepare hosts
  hosts: k8s_cluster
  gather_facts: false
  roles:
    - { role: container-engine/containerd, tags: [container-engine, containerd] }
    - { role: kubernetes/node, tags: node }
`,
	"roles/container-engine/containerd/defaults/main.yml": "containerd_max_container_log_line_size: 16384\ncontainerd_registry_mirror: https://mirror.example\n",
	"roles/container-engine/containerd/tasks/main.yml": `- name: Containerd | Copy containerd config file
  template:
    src: "{{ 'config.toml.j2' if true else 'config-v1.toml.j2' }}"
    dest: "{{ state }}/config.toml"
  notify: Restart containerd
- name: Containerd | Write hosts.toml
  template:
    src: hosts.toml.j2
    dest: "{{ state }}/hosts.toml"
- name: Containerd | Changes every run
  debug: {msg: "x"}
  changed_when: true
`,
	"roles/container-engine/containerd/templates/config.toml.j2":    "max_container_log_line_size = {{ containerd_max_container_log_line_size }}\n",
	"roles/container-engine/containerd/templates/config-v1.toml.j2": "# old\n",
	"roles/container-engine/containerd/templates/hosts.toml.j2":     "server = \"{{ containerd_registry_mirror }}\"\n",
	"roles/container-engine/containerd/handlers/main.yml": `- name: Containerd | restart containerd
  debug: {msg: "restart"}
  changed_when: true
  listen: Restart containerd
- name: Containerd | wait for containerd
  debug: {msg: "wait"}
  listen: Restart containerd
`,
	"roles/kubernetes/node/defaults/main.yml": "kubelet_max_pods: 110\n",
	"roles/kubernetes/node/tasks/main.yml": `- name: Node | Write kubelet config
  copy:
    content: "maxPods: {{ kubelet_max_pods }}\n"
    dest: "{{ state }}/kubelet.yaml"
`,
	"inv/hosts.ini":          "[k8s_cluster]\nn1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n[etcd]\ne1\n",
	"inv/group_vars/all.yml": "",
	// kubespray's ansible.cfg at 46dbdd3 has both (stdout_callback = default).
	"ansible.cfg": "[defaults]\ncallbacks_enabled = profile_tasks\ndisplay_skipped_hosts = no\n",
}

func TestSeedRealRuns(t *testing.T) {
	ansibletest.Require(t)
	t.Parallel()
	dir := writeTree(t, seedTree)
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	groupVars := filepath.Join(dir, "inv", "group_vars", "all.yml")
	runner := &ansibletest.Runner{Dir: dir, Config: seedTree["ansible.cfg"], JSON: true}
	var logs, jsonLogs, jsonlLogs []Log
	for i, r := range []struct {
		name, gv string
		args     []string
	}{
		{"deploy.log", "", nil},
		{"rerun.log", "", nil},
		{"edited.log", "containerd_max_container_log_line_size: 32768\n", []string{"--tags", "containerd"}},
	} {
		if err := os.WriteFile(groupVars, []byte("state: "+state+"\n"+r.gv), 0o644); err != nil {
			t.Fatal(err)
		}
		res := runner.Run(t, append([]string{"-i", "inv/hosts.ini", "cluster.yml"}, r.args...), "ANSIBLE_ROLES_PATH="+filepath.Join(dir, "roles"))
		if res.Code != 0 {
			t.Fatalf("run %d failed:\n%s", i+1, res.Text)
		}
		logs = append(logs, Log{Name: r.name, Data: res.Text})
		if res.JSON != nil {
			jsonLogs = append(jsonLogs, Log{Name: strings.TrimSuffix(r.name, ".log") + ".json", Data: res.JSON})
			jsonlLogs = append(jsonlLogs, Log{Name: strings.TrimSuffix(r.name, ".log") + ".jsonl", Data: res.JSONL})
		}
	}
	b, err := os.ReadFile(filepath.Join(state, "config.toml"))
	if err != nil || !strings.Contains(string(b), "32768") {
		t.Fatalf("the third run did not write the new value (%v): %q", err, b)
	}
	if jsonLogs == nil {
		t.Log("the ansible.posix collection (json callback) is not installed: text logs only")
	}
	check(t, dir, logs)
	if jsonLogs != nil {
		check(t, dir, jsonLogs)
		check(t, dir, jsonlLogs)
	}
	if os.Getenv("RUNS_RECORD") != "" {
		for _, l := range append(append(logs, jsonLogs...), jsonlLogs...) {
			_ = os.WriteFile(filepath.Join(os.Getenv("RUNS_RECORD"), l.Name), l.Data, 0o644)
		}
	}
}

// check: what `runs --var` must say about the seed's three runs (text or json logs).
func check(t *testing.T, dir string, logs []Log) {
	t.Helper()
	for _, tc := range []struct {
		name, reason string
		logs         []Log
		variable     string
		tags         []string
		want         string
		tasks        map[string]runlog.Status
		handlers     map[string]runlog.Status
	}{
		{name: "edited-with-tags", reason: "the edit reached config.toml and both listening handlers ran",
			logs: logs, variable: "containerd_max_container_log_line_size", want: Applied,
			tasks:    map[string]runlog.Status{"Containerd | Copy containerd config file": runlog.Changed},
			handlers: map[string]runlog.Status{"Containerd | restart containerd": runlog.Changed, "Containerd | wait for containerd": runlog.OK}},
		{name: "rerun-unchanged", reason: "the re-run rewrote nothing: config.toml was already so",
			logs: logs[:2], variable: "containerd_max_container_log_line_size", want: Unchanged,
			tasks: map[string]runlog.Status{"Containerd | Copy containerd config file": runlog.OK}, handlers: map[string]runlog.Status{}},
		{name: "no-notify", reason: "hosts.toml is written with no notify; its value did not change",
			logs: logs, variable: "containerd_registry_mirror", want: Unchanged,
			tasks: map[string]runlog.Status{"Containerd | Write hosts.toml": runlog.OK}, handlers: map[string]runlog.Status{}},
		{name: "not-selected-by-tags", reason: "--tags containerd does not run the node role",
			logs: logs, variable: "kubelet_max_pods", want: NotRun,
			tasks: map[string]runlog.Status{"Node | Write kubelet config": ""}, handlers: map[string]runlog.Status{}},
		{name: "not-selected-by-given-tags", reason: "runs --tags containerd, the run's own: the node role's task is outside the selection",
			logs: logs, variable: "kubelet_max_pods", tags: []string{"containerd"}, want: NotSelected,
			tasks: map[string]runlog.Status{"Node | Write kubelet config": ""}, handlers: map[string]runlog.Status{}},
		{name: "selected-by-given-tags", reason: "runs --tags containerd: config.toml's task is selected, changed, and both handlers ran",
			logs: logs, variable: "containerd_max_container_log_line_size", tags: []string{"containerd"}, want: Applied,
			tasks:    map[string]runlog.Status{"Containerd | Copy containerd config file": runlog.Changed},
			handlers: map[string]runlog.Status{"Containerd | restart containerd": runlog.Changed, "Containerd | wait for containerd": runlog.OK}},
		{name: "first-deploy", reason: "one run: the template changed and the handlers ran",
			logs: logs[:1], variable: "containerd_max_container_log_line_size", want: Applied,
			tasks:    map[string]runlog.Status{"Containerd | Copy containerd config file": runlog.Changed},
			handlers: map[string]runlog.Status{"Containerd | restart containerd": runlog.Changed, "Containerd | wait for containerd": runlog.OK}},
	} {
		t.Run(logs[0].Name+"/"+tc.name, func(t *testing.T) {
			rep, err := Build(Options{Logs: tc.logs, Var: tc.variable, Tags: tc.tags, Dir: dir, Inventory: []string{filepath.Join(dir, "inv", "hosts.ini")}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed() {
				t.Errorf("%s: the last run failed", tc.reason)
			}
			if diff := cmp.Diff([]string{"e1"}, rep.Missing); diff != "" {
				t.Errorf("%s: missing hosts (-want +got):\n%s", tc.reason, diff)
			}
			var n1 *VarHost
			for i := range rep.Var.Hosts {
				if rep.Var.Hosts[i].Host == "n1" {
					n1 = &rep.Var.Hosts[i]
				}
			}
			if n1 == nil {
				t.Fatalf("%s: no answer for n1", tc.reason)
			}
			if n1.Verdict != tc.want {
				t.Errorf("%s: verdict %s, want %s", tc.reason, n1.Verdict, tc.want)
			}
			tasks, handlers := map[string]runlog.Status{}, map[string]runlog.Status{}
			for _, to := range n1.Tasks {
				tasks[to.Use.Task] = to.Status
				if want := len(tc.tags) == 0 || tc.want != NotSelected; to.Selected != want {
					t.Errorf("%s: %s selected %v, want %v", tc.reason, to.Use.Task, to.Selected, want)
				}
			}
			for _, ho := range n1.Handlers {
				handlers[ho.Handler.Name] = ho.Status
			}
			if diff := cmp.Diff(tc.tasks, tasks); diff != "" {
				t.Errorf("%s: tasks (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.handlers, handlers); diff != "" {
				t.Errorf("%s: handlers (-want +got):\n%s", tc.reason, diff)
			}
			var out bytes.Buffer
			Text(&out, rep)
			if t.Failed() {
				t.Logf("report:\n%s", out.String())
			}
		})
	}
	// Across runs: in the edited run, the debug task changes every run; config.toml and the
	// restart handler are new.
	rep, err := Build(Options{Logs: logs})
	if err != nil {
		t.Fatal(err)
	}
	var every, fresh []string
	for _, hc := range rep.Last {
		for _, c := range hc.EveryRun {
			every = append(every, c.Task)
		}
		for _, c := range hc.New {
			fresh = append(fresh, c.Task)
		}
	}
	if diff := cmp.Diff([]string{"container-engine/containerd : Containerd | Changes every run"}, every); diff != "" {
		t.Errorf("changes every run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"container-engine/containerd : Containerd | Copy containerd config file", "container-engine/containerd : Containerd | restart containerd"}, fresh); diff != "" {
		t.Errorf("new in this run (-want +got):\n%s", diff)
	}
}
