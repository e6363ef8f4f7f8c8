package runs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFindUses: the tasks that render a template using the variable are found from their
// src, literal or templated (kubespray.Where's compiled tree); notify finds handlers by
// name, role-prefixed name and listen.
func TestFindUses(t *testing.T) {
	files := map[string]string{}
	for k, v := range seedTree {
		files[k] = v
	}
	files["roles/kubernetes/node/tasks/main.yml"] = seedTree["roles/kubernetes/node/tasks/main.yml"] + "- import_tasks: kubelet.yml\n"
	files["roles/kubernetes/node/tasks/kubelet.yml"] = `- name: Write kubelet config file
  template:
    src: "kubelet-config.{{ api_version }}.yaml.j2"
    dest: /x
  notify: "kubernetes/node : Kubelet | restart kubelet"
- name: Other template
  template:
    src: kubelet-config-old.yaml.j2
    dest: /z
`
	files["roles/kubernetes/node/templates/kubelet-config.v1beta1.yaml.j2"] = "maxPods: {{ kubelet_max_pods }}\n"
	files["roles/kubernetes/node/templates/kubelet-config-old.yaml.j2"] = "# no use\n"
	files["roles/kubernetes/node/handlers/main.yml"] = "- name: Kubelet | restart kubelet\n  debug: {msg: r}\n"
	dir := writeTree(t, files)
	for _, tc := range []struct {
		name, reason, variable string
		tasks                  []string
		handlers               []string
	}{
		{"templated-src", "kubelet-config.{{ api_version }}.yaml.j2 renders kubelet-config.v1beta1.yaml.j2; the role-prefixed notify finds the handler; the other template does not count",
			"kubelet_max_pods", []string{"Node | Write kubelet config:", "Write kubelet config file:kubelet-config.v1beta1.yaml.j2"}, []string{"Kubelet | restart kubelet"}},
		{"jinja-choice", "a src choosing between two templates names both; listen reaches two handlers",
			"containerd_max_container_log_line_size", []string{"Containerd | Copy containerd config file:config.toml.j2"}, []string{"Containerd | restart containerd", "Containerd | wait for containerd"}},
		{"no-notify", "hosts.toml's task notifies nothing", "containerd_registry_mirror", []string{"Containerd | Write hosts.toml:hosts.toml.j2"}, nil},
		{"unused", "a variable no file names", "nothing_uses_this", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := FindUses(dir, tc.variable)
			if err != nil {
				t.Fatal(err)
			}
			var tasks, handlers []string
			for _, x := range u.Tasks {
				tasks = append(tasks, x.Task+":"+strings.Join(x.Templates, ","))
			}
			for _, h := range u.Handlers {
				handlers = append(handlers, h.Name)
			}
			if diff := cmp.Diff(tc.tasks, tasks); diff != "" {
				t.Errorf("%s: tasks (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.handlers, handlers); diff != "" {
				t.Errorf("%s: handlers (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func goldenLogs(t *testing.T, archive string) []Log {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "ansible", "runlog", "testdata", archive))
	if err != nil {
		t.Fatal(err)
	}
	var out []Log
	for _, f := range ar.Files {
		if n, ok := strings.CutPrefix(f.Name, "log/"); ok {
			out = append(out, Log{Name: n, Data: f.Data})
		}
	}
	return out
}

// TestNothingOfTheOutput: the logs' task output (debug messages, failure dumps, loop items)
// holds "hunter2"; neither the text nor the JSON report prints it.
func TestNothingOfTheOutput(t *testing.T) {
	for _, a := range []string{"generated-text.txtar", "generated-json.txtar"} {
		logs := goldenLogs(t, a)
		found := false
		for _, l := range logs {
			found = found || bytes.Contains(l.Data, []byte("hunter2"))
		}
		if !found {
			t.Fatalf("%s: no hunter2 in the logs: the test checks nothing", a)
		}
		rep, err := Build(Options{Logs: logs})
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		Text(&text, rep)
		js, _ := json.Marshal(JSON(rep))
		for what, b := range map[string][]byte{"text": text.Bytes(), "json": js} {
			if bytes.Contains(b, []byte("hunter2")) || bytes.Contains(b, []byte("item=")) {
				t.Errorf("%s: the %s report prints task output:\n%s", a, what, b)
			}
		}
	}
}

// TestEscaped: control characters in names taken from a log never reach the terminal.
func TestEscaped(t *testing.T) {
	log := "PLAY [p\x07] ***\n\nTASK [evil \x1b]0;pwned\x07 \x1b[2J\u202e name\x9b] ***\nchanged: [h\x01]\nfatal: [h2]: FAILED! => {}\n\nPLAY RECAP ***\nh\x01 : ok=1 changed=1 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0\nh2 : ok=0 changed=0 unreachable=0 failed=1 skipped=0 rescued=0 ignored=0\n"
	rep, err := Build(Options{Logs: []Log{{Name: "x\x1b.log", Data: []byte(log)}}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	Text(&b, rep)
	for _, c := range b.String() {
		if (c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x202e {
			t.Errorf("control character %U in the output:\n%q", c, b.String())
			break
		}
	}
	if !strings.Contains(b.String(), `\u0001`) || !strings.Contains(b.String(), `\u202e`) {
		t.Errorf("the escapes are not shown:\n%s", b.String())
	}
}

// TestSplitLog: one file with two runs (log_path appends) reads as two runs in order.
func TestSplitLog(t *testing.T) {
	logs := goldenLogs(t, "generated-text.txtar")
	both := append(append([]byte{}, logs[1].Data...), logs[2].Data...)
	rep, err := Build(Options{Logs: []Log{logs[0], {Name: "ansible.log", Data: both}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 3 || rep.Runs[1].Source != "ansible.log#1" || rep.Runs[2].Source != "ansible.log#2" || !rep.Failed() {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	var b bytes.Buffer
	Text(&b, rep)
	if !strings.Contains(b.String(), "changes of the last run (run 3: ansible.log#2) against runs 1, 2") {
		t.Errorf("report:\n%s", b.String())
	}
}
