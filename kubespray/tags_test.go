package kubespray

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEvaluateTags: taggable.py evaluate_tags case by case (ansible-core 2.14.18).
func TestEvaluateTags(t *testing.T) {
	cases := []struct {
		name, reason     string
		tags, only, skip []string
		want             bool
	}{
		{"untagged default", "no --tags is --tags all", nil, []string{"all"}, nil, true},
		{"untagged with a tag", "an untagged task carries only 'untagged'", nil, []string{"a"}, nil, false},
		{"untagged selected by untagged", "--tags untagged", nil, []string{"untagged"}, nil, true},
		{"tag match", "any common tag", []string{"a", "b"}, []string{"b"}, nil, true},
		{"tag miss", "no common tag", []string{"a"}, []string{"b"}, nil, false},
		{"always", "always runs under any --tags", []string{"always"}, []string{"b"}, nil, true},
		{"always skipped by name", "--skip-tags always", []string{"always"}, []string{"all"}, []string{"always"}, false},
		{"always survives skip all", "--skip-tags all leaves always", []string{"always"}, []string{"all"}, []string{"all"}, true},
		{"never by default", "never is not run by --tags all", []string{"never", "a"}, []string{"all"}, nil, false},
		{"never named", "--tags a runs a never task tagged a", []string{"never", "a"}, []string{"a"}, nil, true},
		{"never by never", "--tags never runs it too", []string{"never"}, []string{"never"}, nil, true},
		{"tagged", "--tags tagged: any tag but never", []string{"a"}, []string{"tagged"}, nil, true},
		{"tagged not never", "--tags tagged does not run never", []string{"never", "a"}, []string{"tagged"}, nil, false},
		{"skip tagged", "--skip-tags tagged skips tagged tasks", []string{"a"}, []string{"all"}, []string{"tagged"}, false},
		{"skip wins", "--skip-tags beats --tags", []string{"a", "b"}, []string{"a"}, []string{"b"}, false},
		{"explicit untagged", "a task tagged only 'untagged' is the untagged set: --tags tagged skips it (checked with ansible-playbook 2.14.18)", []string{"untagged"}, []string{"tagged"}, nil, false},
		{"always and skip", "--skip-tags a skips an always task tagged a", []string{"always", "a"}, []string{"x"}, []string{"a"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := evaluateTags(tc.tags, tc.only, tc.skip); got != tc.want {
				t.Errorf("EvaluateTags(%v, %v, %v) = %v, want %v (%s)", tc.tags, tc.only, tc.skip, got, tc.want, tc.reason)
			}
		})
	}
}

// tagTree writes a small kubespray-like tree for the named cases.
func tagTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func tagsOfUse(t *testing.T, dir, v, fileSuffix string) []string {
	t.Helper()
	uses, err := Where(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range uses {
		if strings.HasSuffix(filepath.ToSlash(u.Pos.File), fileSuffix) {
			return u.Tags
		}
	}
	t.Fatalf("no use of %s in %s: %v", v, fileSuffix, uses)
	return nil
}

// The disagreements issue 21 found in where, each as a named case (the old where took the
// union of every tag of a role, followed no tasks_from and listed tags of roles cluster.yml
// never runs).
func TestWhereTagCases(t *testing.T) {
	play := "- hosts: all\n  gather_facts: false\n  roles:\n    - { role: node, tags: node }\n"
	cases := []struct {
		name, reason string
		files        map[string]string
		file         string
		want         []string
	}{
		{"import_tasks tags inherited",
			"an import's tags are added to every imported task (helpers.py load_list_of_tasks): kubespray's kubelet.yml imported with tags kubelet, kubeadm",
			map[string]string{"roles/node/tasks/main.yml": "- import_tasks: kubelet.yml\n  tags: [kubelet, kubeadm]\n",
				"roles/node/tasks/kubelet.yml":    "- name: Write kubelet config\n  template: {src: kubelet.j2, dest: /etc/kubelet.yaml}\n",
				"roles/node/templates/kubelet.j2": "maxPods: {{ kubelet_max_pods }}\n"},
			"templates/kubelet.j2", []string{"kubeadm", "kubelet", "node"}},
		{"include_tasks tags not inherited",
			"an include's own tags select the include, not the included tasks (task.py _get_parent_attribute skips a dynamic parent): --tags inc runs the include, whose task (untagged below it) is then filtered out",
			map[string]string{"roles/node/tasks/main.yml": "- include_tasks: kubelet.yml\n  tags: inc\n",
				"roles/node/tasks/kubelet.yml": "- name: Use\n  debug: msg={{ kubelet_max_pods }}\n  tags: own\n"},
			"tasks/kubelet.yml", []string{"node"}},
		{"include_tasks apply tags",
			"apply: tags reach the included tasks; the include itself must be selected too",
			map[string]string{"roles/node/tasks/main.yml": "- include_tasks:\n    file: kubelet.yml\n    apply: {tags: [inc]}\n  tags: inc\n",
				"roles/node/tasks/kubelet.yml": "- name: Use\n  debug: msg={{ kubelet_max_pods }}\n"},
			"tasks/kubelet.yml", []string{"inc", "node"}},
		{"include_tasks tagged always",
			"an include tagged always loads under every --tags; its tasks are filtered by their own tags",
			map[string]string{"roles/node/tasks/main.yml": "- include_tasks: kubelet.yml\n  tags: always\n",
				"roles/node/tasks/kubelet.yml": "- name: Use\n  debug: msg={{ kubelet_max_pods }}\n  tags: own\n"},
			"tasks/kubelet.yml", []string{"node", "own"}},
		{"tasks_from reaches one file",
			"import_role with tasks_from: loads that tasks file only (kubespray's validate-container-engine imports containerd's reset tasks; the config template is not rendered)",
			map[string]string{"roles/node/tasks/main.yml": "- import_role: {name: containerd, tasks_from: reset}\n  tags: validate\n",
				"roles/containerd/tasks/main.yml":           "- name: Config\n  template: {src: config.toml.j2, dest: /etc/containerd/config.toml}\n",
				"roles/containerd/tasks/reset.yml":          "- name: Reset\n  debug: msg={{ containerd_x }}\n",
				"roles/containerd/templates/config.toml.j2": "x = {{ containerd_x }}\n"},
			"templates/config.toml.j2", nil},
		{"never task",
			"a task tagged never runs only when --tags names one of its tags",
			map[string]string{"roles/node/tasks/main.yml": "- name: Use\n  debug: msg={{ kubelet_max_pods }}\n  tags: [never, debug]\n"},
			"tasks/main.yml", []string{"debug", "never", "node"}},
		{"meta dependency tags",
			"a dependency's tasks carry its entry's tags and the parent's",
			map[string]string{"roles/node/meta/main.yml": "dependencies:\n  - {role: dep, tags: deptag}\n", "roles/node/tasks/main.yml": "- debug: msg=x\n",
				"roles/dep/tasks/main.yml": "- name: Use\n  debug: msg={{ kubelet_max_pods }}\n"},
			"dep/tasks/main.yml", []string{"deptag", "node"}},
		{"block tags",
			"a block's tags reach its tasks (rescue and always too)",
			map[string]string{"roles/node/tasks/main.yml": "- block:\n    - debug: msg=x\n  rescue:\n    - name: Use\n      debug: msg={{ kubelet_max_pods }}\n  tags: blk\n"},
			"tasks/main.yml", []string{"blk", "node"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["cluster.yml"] = play
			dir := tagTree(t, tc.files)
			v := "kubelet_max_pods"
			if strings.Contains(tc.file, "config.toml") {
				v = "containerd_x"
			}
			if d := cmp.Diff(tc.want, tagsOfUse(t, dir, v, tc.file)); d != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, d)
			}
		})
	}
}

// TestTagsOnlyOfReachedTasks: a tag written only in a role (or file) cluster.yml never
// runs is no tag of cluster.yml (kubespray's reset role: "files").
func TestTagsOnlyOfReachedTasks(t *testing.T) {
	dir := tagTree(t, map[string]string{"cluster.yml": "- hosts: all\n  roles: [node]\n",
		"roles/node/tasks/main.yml":   "- debug: msg=x\n  tags: used\n",
		"roles/node/tasks/unused.yml": "- debug: msg=x\n  tags: orphan\n",
		"roles/reset/tasks/main.yml":  "- debug: msg=x\n  tags: files\n"})
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"used"}, c.compileTasks().Tags); d != "" {
		t.Errorf("tags of cluster.yml (-want +got):\n%s", d)
	}
}

// seedTree is issue 21's seed scenario in small: containerd's config template notifies
// "Restart containerd" (two handlers listen to it), the registry hosts.toml template
// notifies nothing; the role comes in through an include_role whose apply: gives it the
// container-engine and containerd tags, as kubespray's container-engine role does.
func seedTree(t *testing.T) string {
	return tagTree(t, map[string]string{
		"cluster.yml": "- hosts: all\n  gather_facts: false\n  roles:\n    - { role: container-engine, tags: container-engine }\n",
		"roles/container-engine/tasks/main.yml": `- name: Container Manager
  include_role:
    name: "container-engine/{{ container_manager_role[container_manager] }}"
    apply:
      tags: [container-engine, containerd]
  vars:
    container_manager_role: {containerd: containerd, crio: cri-o}
  tags: [container-engine, containerd]
`,
		"roles/container-engine/containerd/defaults/main.yml": "containerd_cfg_dir: /etc/containerd\ncontainerd_max_container_log_line_size: 16384\n",
		"roles/container-engine/containerd/tasks/main.yml": `- name: Containerd | Copy containerd config file
  template:
    src: config.toml.j2
    dest: "{{ containerd_cfg_dir }}/config.toml"
  notify: Restart containerd
- name: Containerd | Write hosts.toml file
  template:
    src: hosts.toml.j2
    dest: "{{ containerd_cfg_dir }}/certs.d/{{ item.prefix }}/hosts.toml"
  loop: "{{ containerd_registries_mirrors }}"
`,
		"roles/container-engine/containerd/templates/config.toml.j2": "max_container_log_line_size = {{ containerd_max_container_log_line_size }}\n{{ containerd_registries_mirrors | length }}\n",
		"roles/container-engine/containerd/templates/hosts.toml.j2":  "server = {{ containerd_registries_mirrors[0].server }}\n",
		"roles/container-engine/containerd/handlers/main.yml": `- name: Containerd | restart containerd
  systemd_service:
    name: containerd
    state: restarted
    daemon-reload: true
  listen: Restart containerd
- name: Containerd | wait for containerd
  command: "ctr images ls -q"
  listen: Restart containerd
`,
		"roles/container-engine/cri-o/tasks/main.yml": "- name: Crio\n  debug: msg={{ containerd_max_container_log_line_size }}\n",
	})
}

// TestWhereSeedAnswer: the one-line answers of issue 21's seed scenario.
func TestWhereSeedAnswer(t *testing.T) {
	dir := seedTree(t)
	uses, err := Where(dir, "containerd_max_container_log_line_size")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Answers(uses) {
		got = append(got, Renderers.AnswerLine(a))
	}
	want := []string{
		"`--tags container-engine`: rewrites /etc/containerd/config.toml ({{ containerd_cfg_dir }}/config.toml with role defaults) (template config.toml.j2, task \"container-engine/containerd : Containerd | Copy containerd config file\"; only when container_manager_role[container_manager] is containerd), runs \"container-engine/cri-o : Crio\" (debug; only when container_manager_role[container_manager] is cri-o) and reloads systemd's unit files and restarts containerd (handler \"container-engine/containerd : Containerd | restart containerd\"), runs `ctr images ls -q` (handler \"container-engine/containerd : Containerd | wait for containerd\")",
		"`--tags containerd`: rewrites /etc/containerd/config.toml ({{ containerd_cfg_dir }}/config.toml with role defaults) (template config.toml.j2, task \"container-engine/containerd : Containerd | Copy containerd config file\"; only when container_manager_role[container_manager] is containerd), runs \"container-engine/cri-o : Crio\" (debug; only when container_manager_role[container_manager] is cri-o) and reloads systemd's unit files and restarts containerd (handler \"container-engine/containerd : Containerd | restart containerd\"), runs `ctr images ls -q` (handler \"container-engine/containerd : Containerd | wait for containerd\")",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("answers (-want +got):\n%s", d)
	}
	uses, err = Where(dir, "containerd_registries_mirrors")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, a := range Answers(uses) {
		lines = append(lines, Renderers.AnswerLine(a))
	}
	// hosts.toml: rewritten, nothing notified; config.toml (which also uses the variable):
	// rewritten and containerd restarted.
	if len(lines) != 2 || !strings.Contains(lines[1], "hosts.toml (template hosts.toml.j2") || !strings.Contains(lines[1], "restarts containerd") {
		t.Errorf("answers for containerd_registries_mirrors: %q", lines)
	}
	for _, u := range uses {
		for _, s := range u.Sites {
			if strings.HasSuffix(u.Pos.File, "hosts.toml.j2") && len(s.Handlers) != 0 {
				t.Errorf("hosts.toml.j2 is written with no notify, got handlers %v", s.Handlers)
			}
			if strings.HasSuffix(u.Pos.File, "config.toml.j2") && len(s.Handlers) != 2 {
				t.Errorf("config.toml.j2 notifies Restart containerd: two listeners, got %v", s.Handlers)
			}
		}
	}
}

// TestHandlersRunWhateverTags runs ansible-playbook: a notified handler runs whatever
// --tags and --skip-tags say, its own tags (never, a skipped tag) included; it does not run
// when the notifying task is not selected; listen: and "role : name" reach it; a handler
// notified by a handler runs too. The model (Notified, Selected) agrees on each run.
func TestHandlersRunWhateverTags(t *testing.T) {
	t.Parallel() // ansible-playbook runs, one per case, each case on its own: they overlap
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core)")
	}
	dir := t.TempDir()
	ks := filepath.Join(dir, "ks")
	files := map[string]string{
		"cluster.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  roles:\n    - { role: r, tags: rt }\n",
		"roles/r/tasks/main.yml": `- name: M1
  debug: msg=M1
  changed_when: true
  notify: [H1, "r : H2", topic]
  tags: a
- name: M2
  debug: msg=M2
  changed_when: true
  notify: H4
  tags: [never, b]
`,
		"roles/r/handlers/main.yml": `- name: H1
  debug: msg=H1
  changed_when: true
  notify: H5
  tags: [never, skipme]
- name: H2
  debug: msg=H2
  tags: skipme
- name: H3
  debug: msg=H3
  listen: topic
  tags: never
- name: H4
  debug: msg=H4
- name: H5
  debug: msg=H5
  tags: [never]
`,
	}
	for p, c := range files {
		p = filepath.Join(ks, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	c, err := Load(ks)
	if err != nil {
		t.Fatal(err)
	}
	tt := c.compileTasks()
	for _, tc := range []struct {
		name       string
		only, skip []string
		want       []string
	}{
		{"tags a", []string{"a"}, nil, []string{"H1", "H2", "H3", "H5", "M1"}},
		{"skip the handlers' tags", []string{"a"}, []string{"skipme", "never"}, []string{"H1", "H2", "H3", "H5", "M1"}},
		{"notifier skipped", nil, []string{"a"}, []string{}},
		{"never task named", []string{"b"}, nil, []string{"H4", "M2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := runTagMarkers(t, dir, tc.only, tc.skip)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("ansible-playbook ran (-want +got):\n%s", d)
			}
			if d := cmp.Diff(got, modelMarkers(tt, tc.only, tc.skip)); d != "" {
				t.Errorf("model (-ansible +k3sconf):\n%s", d)
			}
		})
	}
	// ansible-playbook --list-tags lists task tags only ("TASK TAGS"); a handler's tags
	// select nothing.
	if slices.Contains(tt.Tags, "skipme") {
		t.Errorf("a handler's tags are no tags of the playbook: %v", tt.Tags)
	}
}

// TestWhereSeedText: the text report names the rendering task, how tags select it, the
// handlers and what they do, and answers per tag; a control character in a file's task
// data cannot reach the terminal.
func TestWhereSeedText(t *testing.T) {
	dir := seedTree(t)
	uses, err := Where(dir, "containerd_max_container_log_line_size")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WhereText(&b, "containerd_max_container_log_line_size", uses)
	out := strings.ReplaceAll(b.String(), dir+"/", "")
	for _, want := range []string{
		`roles/container-engine/containerd/templates/config.toml.j2:1:34  container-engine/containerd template  tags: container-engine,containerd`,
		`    rendered by "container-engine/containerd : Containerd | Copy containerd config file" (roles/container-engine/containerd/tasks/main.yml:1:3) in play "", dest /etc/containerd/config.toml ({{ containerd_cfg_dir }}/config.toml with role defaults)`,
		`      selected by: include [container-engine,containerd] then task [container-engine,containerd]`,
		`      only when: container_manager_role[container_manager] = containerd`,
		`      notifies "Restart containerd" -> handler "container-engine/containerd : Containerd | restart containerd" (roles/container-engine/containerd/handlers/main.yml:1:3): reloads systemd's unit files and restarts containerd`,
		"  `--tags containerd`: rewrites /etc/containerd/config.toml",
	} {
		if !strings.Contains(out, want+"\n") && !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestWhereSeedJSONSchema: the where document with sites, handlers and answers matches
// docs/schema/kubespray-where.schema.json.
func TestWhereSeedJSONSchema(t *testing.T) {
	t.Parallel() // python3 jsonschema: overlaps the package's other subprocesses
	if exec.Command("python3", "-c", "import jsonschema").Run() != nil {
		t.Skip("python3 with jsonschema not available (apt-get install python3-jsonschema)")
	}
	dir := seedTree(t)
	uses, err := Where(dir, "containerd_registries_mirrors")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(WhereJSON("containerd_registries_mirrors", uses))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "where.json")
	os.WriteFile(p, data, 0o644)
	out, err := exec.Command("python3", "-c", "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))", p, filepath.Join("..", "docs", "schema", "kubespray-where.schema.json")).CombinedOutput()
	if err != nil {
		t.Errorf("where JSON does not match its schema: %v\n%s", err, out)
	}
	if !strings.Contains(string(data), `"does":"reloads systemd's unit files and restarts containerd","runsUnderTags":true`) {
		t.Errorf("no handler in the document: %s", data)
	}
}

// TestSelectedSites: the config template's site runs under --tags containerd, not under
// --tags containerd --skip-tags container-engine, nor under --tags other.
func TestSelectedSites(t *testing.T) {
	uses, err := Where(seedTree(t), "containerd_max_container_log_line_size")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		only, skip []string
		want       int
	}{{[]string{"containerd"}, nil, 2}, {[]string{"containerd"}, []string{"container-engine"}, 0}, {[]string{"other"}, nil, 0}, {nil, nil, 2}} {
		if got := len(SelectedSites(uses, tc.only, tc.skip)); got != tc.want {
			t.Errorf("--tags %v --skip-tags %v: %d sites, want %d", tc.only, tc.skip, got, tc.want)
		}
	}
}

// TestIncludeRoleKeyValueForm: include_role: name=dep tasks_from=extra (the k=v form).
func TestIncludeRoleKeyValueForm(t *testing.T) {
	dir := tagTree(t, map[string]string{"cluster.yml": "- hosts: all\n  roles: [node]\n",
		"roles/node/tasks/main.yml": "- include_role: name=dep tasks_from=extra\n  tags: inc\n",
		"roles/dep/tasks/main.yml":  "- name: Main\n  debug: msg={{ v }}\n",
		"roles/dep/tasks/extra.yml": "- name: Extra\n  debug: msg={{ v }}\n  tags: inc\n",
	})
	uses, err := Where(dir, "v")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range uses {
		got = append(got, filepath.Base(u.Pos.File)+" "+strings.Join(u.Tags, ","))
	}
	if d := cmp.Diff([]string{"extra.yml inc", "main.yml "}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestRoleRunsOncePerPlay: a role reached twice in a play with the same parameters is
// one Role object; once it had a task run (and its role_complete ran), the second place
// skips it. Found by TestDifferentialTags (seed 17 of a 20-tree run): r5 is a meta
// dependency of r4, which the play reaches as r0's dependency (tags t1) and through r1's
// import_role (r1 tagged t0); under --tags t0, r5's t2 task is not run at the second place
// because r5's t0 task ran at the first. Compared with ansible-playbook run by run.
func TestRoleRunsOncePerPlay(t *testing.T) {
	t.Parallel() // ansible-playbook runs, one per case, each case on its own: they overlap
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core)")
	}
	dir := t.TempDir()
	ks := filepath.Join(dir, "ks")
	files := map[string]string{
		"cluster.yml":             "- hosts: localhost\n  connection: local\n  gather_facts: false\n  roles:\n    - r0\n    - { role: r1, tags: t0 }\n",
		"roles/r0/meta/main.yml":  "dependencies:\n  - { role: r4, tags: t1 }\n",
		"roles/r0/tasks/main.yml": "- name: M10\n  debug: msg=x\n",
		"roles/r1/tasks/main.yml": "- import_role:\n    name: r4\n",
		"roles/r4/meta/main.yml":  "dependencies:\n  - role: r5\n",
		"roles/r4/tasks/main.yml": "- name: M4\n  debug: msg=x\n",
		"roles/r5/tasks/main.yml": "- name: M1\n  debug: msg=x\n  tags: t2\n- name: M2\n  debug: msg=x\n  tags: t0\n",
	}
	for p, c := range files {
		p = filepath.Join(ks, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	c, err := Load(ks)
	if err != nil {
		t.Fatal(err)
	}
	tt := c.compileTasks()
	for _, tc := range []struct {
		name       string
		only, skip []string
		want       []string
	}{
		{"second place skipped", []string{"t0"}, nil, []string{"M2", "M4"}},
		{"role_complete skipped: no dedup", nil, []string{"always"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := runTagMarkers(t, dir, tc.only, tc.skip)
			if tc.want != nil {
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("ansible-playbook ran (-want +got):\n%s", d)
				}
			}
			if d := cmp.Diff(got, modelMarkers(tt, tc.only, tc.skip)); d != "" {
				t.Errorf("model (-ansible +k3sconf):\n%s", d)
			}
		})
	}
}
