package kubespray

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// realConfig is the value each templated include name takes in the marker run of the real
// checkout (passed with -e), and what the model's Choices must hold for a node to count.
var realConfig = map[string]string{
	"container_manager":    "containerd",
	"kube_network_plugin":  "calico",
	"etcd_deployment_type": "host",
}

// realTags are the tags checked against the real checkout by default (K3SCONF_TAGS=a,b,…
// for others, K3SCONF_TAGS=all for every tag of cluster.yml).
var realTags = []string{"always", "asserts", "bootstrap_os", "calico", "client", "cni", "container-engine", "containerd",
	"control-plane", "coredns", "crio", "docker", "download", "etcd", "facts", "files", "kube-proxy", "kube-vip",
	"kubeadm", "kubelet", "kubectl", "network", "node", "node-label", "preinstall", "resolvconf", "apps",
	"validate-container-engine", "upgrade", "helm", "metrics_server", "etcd-secrets", "nginx", "dns"}

// TestRealCheckoutTags copies the kubespray checkout named by K3SCONF_KUBESPRAY_DIR with
// every task turned into a marker (a debug task named after its file and line; handlers
// keep their names; include and import tasks stay, without when:), runs ansible-playbook
// --tags T on localhost for each tag, and compares the markers that ran with the tasks
// TaskNode.Selected picks (those reached with the choices of realConfig) and the handlers
// they notify. Also compares ansible-playbook --list-tags.
func TestRealCheckoutTags(t *testing.T) {
	src := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if src == "" {
		t.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout to run this test")
	}
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed")
	}
	dir := t.TempDir()
	ks := filepath.Join(dir, "ks")
	if err := markerCopy(src, ks); err != nil {
		t.Fatal(err)
	}
	c, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	tt := c.compileTasks()
	tags := realTags
	if s := os.Getenv("K3SCONF_TAGS"); s == "all" {
		tags = tt.Tags
	} else if s != "" {
		tags = strings.Split(s, ",")
	}
	var groups []string
	for _, g := range []string{"k8s_cluster", "etcd", "kube_control_plane", "kube_node", "calico_rr", "bastion", "_kubespray_needs_etcd"} {
		groups = append(groups, "["+g+"]\nlocalhost ansible_connection=local\n")
	}
	os.WriteFile(filepath.Join(dir, "hosts.ini"), []byte(strings.Join(groups, "")), 0o644)
	extra := `{"os_release_dict": {"ID": "debian", "VARIANT_ID": "x"}, "ansible_version": {"full": "2.17.0", "string": "2.17.0"}`
	for k, v := range realConfig {
		extra += fmt.Sprintf(", %q: %q", k, v)
	}
	extra += "}"
	agree := 0
	for _, tg := range tags {
		want := realRun(t, dir, ks, extra, tg)
		got := realModel(tt, src, tg)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("--tags %s: markers that ran (-ansible +k3sconf):\n%s", tg, d)
			continue
		}
		agree++
		t.Logf("--tags %s: %d tasks and handlers agree", tg, len(want))
	}
	t.Logf("real checkout: %d of %d tags agree", agree, len(tags))
}

func realModel(tt *TaskTree, src, tag string) []string {
	seen := map[string]bool{}
	for _, pl := range tt.Plays {
		for _, n := range pl.Tasks {
			// Markers never fail: a rescue: section never runs in the marker copy.
			if n.Include || n.Rescue || !n.Selected([]string{tag}, nil) || !consistent(n.Choices) {
				continue
			}
			rel, _ := filepath.Rel(src, n.Pos.File)
			if n.Action == "validate_argument_spec" {
				// Not a marker: the role's argument-spec task, by its name.
				seen["V|"+n.DisplayName()] = true
			} else {
				seen[fmt.Sprintf("M|%s:%d", filepath.ToSlash(rel), n.Pos.Line)] = true
			}
			for _, h := range pl.Notified(n) {
				if consistent(h.Handler.Choices) {
					seen["H|"+h.Handler.DisplayName()] = true
				}
			}
		}
	}
	out := []string{}
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// consistent: the choices agree with realConfig (the OS-specific files: debian.yml).
func consistent(cs []Choice) bool {
	for _, c := range cs {
		switch {
		case c.Expr == "container_manager_role[container_manager]":
			if c.Value != map[string]string{"containerd": "containerd", "crio": "cri-o", "docker": "cri-dockerd"}[realConfig["container_manager"]] {
				return false
			}
		case c.Expr == "included_tasks_file":
			if c.Value != "debian.yml" {
				return false
			}
		case realConfig[c.Expr] != "":
			if c.Value != realConfig[c.Expr] {
				return false
			}
		}
	}
	return true
}

var reRealLine = regexp.MustCompile(`^(TASK|RUNNING HANDLER) \[(.*)\] \*`)

func realRun(t *testing.T, dir, ks, extra, tag string) []string {
	t.Helper()
	cmd := exec.Command("ansible-playbook", "-i", filepath.Join(dir, "hosts.ini"), "-e", extra, "--tags", tag, "cluster.yml")
	cmd.Dir = ks
	cmd.Env = ansibleEnv(dir)
	cmd.Env = append(cmd.Env, "ANSIBLE_ROLES_PATH="+filepath.Join(ks, "roles"), "ANSIBLE_FORCE_VALID_GROUP_NAMES=ignore")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ansible-playbook --tags %s: %v\n%s", tag, err, tail(out))
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := reRealLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if m[1] == "TASK" {
			if i := strings.Index(m[2], "M|"); i >= 0 {
				seen[m[2][i:]] = true
			} else if strings.Contains(m[2], " : Validating arguments against arg spec ") {
				seen["V|"+m[2]] = true
			}
		} else {
			seen["H|"+m[2]] = true
		}
	}
	res := []string{}
	for k := range seen {
		res = append(res, k)
	}
	sort.Strings(res)
	return res
}

func tail(b []byte) string {
	if len(b) > 4000 {
		return string(b[len(b)-4000:])
	}
	return string(b)
}

// markerCopy copies cluster.yml, playbooks/ and roles/ with every task a marker.
func markerCopy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		top := strings.SplitN(rel, "/", 2)[0]
		if rel != "." && top != "cluster.yml" && top != "playbooks" && top != "roles" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		parts := strings.Split(rel, "/")
		yml := strings.HasSuffix(rel, ".yml") || strings.HasSuffix(rel, ".yaml")
		switch {
		case yml && (top == "playbooks" || top == "cluster.yml"):
			data, err = convertYAML(data, rel, "playbook")
		case yml && top == "roles" && slices_contains(parts, "tasks"):
			data, err = convertYAML(data, rel, "tasks")
		case yml && top == "roles" && slices_contains(parts, "handlers"):
			data, err = convertYAML(data, rel, "handlers")
		case yml && top == "roles" && slices_contains(parts, "meta"):
			data, err = convertYAML(data, rel, "meta")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return os.WriteFile(out, data, 0o644)
	})
}

func slices_contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func convertYAML(data []byte, rel, kind string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return data, nil
	}
	root := doc.Content[0]
	dealias(root, 0)
	switch kind {
	case "playbook":
		if root.Kind != yaml.SequenceNode {
			return data, nil
		}
		for _, p := range root.Content {
			delKeys(p, "environment", "any_errors_fatal", "vars_prompt", "serial", "max_fail_percentage")
			if get(p, "hosts") != nil {
				setKey(p, "gather_facts", "false")
			}
			if rs := get(p, "roles"); rs != nil {
				for _, r := range rs.Content {
					delKeys(r, "when")
				}
			}
			for _, k := range []string{"pre_tasks", "tasks", "post_tasks"} {
				convertTasks(get(p, k), rel, false)
			}
			convertTasks(get(p, "handlers"), rel, true)
		}
	case "tasks", "handlers":
		convertTasks(root, rel, kind == "handlers")
	case "meta":
		if deps := get(root, "dependencies"); deps != nil {
			for _, d := range deps.Content {
				delKeys(d, "when")
			}
		}
	}
	return yaml.Marshal(&doc)
}

var includeKeys = map[string]bool{}

func init() {
	for k := range includeActions {
		includeKeys[k] = true
	}
}

func convertTasks(seq *yaml.Node, rel string, handlers bool) {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return
	}
	for i, t := range seq.Content {
		if t.Kind != yaml.MappingNode {
			continue
		}
		if get(t, "block") != nil {
			keep(t, "name", "tags", "block", "rescue", "always")
			for _, k := range []string{"block", "rescue", "always"} {
				convertTasks(get(t, k), rel, handlers)
			}
			continue
		}
		isInclude := false
		for j := 0; j+1 < len(t.Content); j += 2 {
			if includeKeys[t.Content[j].Value] {
				isInclude = true
			}
		}
		if isInclude {
			delKeys(t, "when", "delegate_to", "run_once")
			for _, k := range []string{"loop", "with_items", "with_list", "with_dict"} {
				if l := get(t, k); l != nil && l.Kind == yaml.ScalarNode {
					// A loop computed at run time (kubespray's downloads): two items, a
					// container and a file, so both include files load.
					delKeys(t, k)
					setNode(t, "loop", mustNode(`[{key: a, file: a, download: {}, value: {container: true, enabled: true}}, {key: b, file: b, download: {}, value: {container: false, enabled: true}}]`))
				}
			}
			continue
		}
		line := t.Line
		name := scalar(get(t, "name"))
		m := &yaml.Node{Kind: yaml.MappingNode}
		if handlers {
			m.Content = append(m.Content, str("name"), str(name))
		} else {
			m.Content = append(m.Content, str("name"), str(fmt.Sprintf("M|%s:%d", rel, line)))
		}
		m.Content = append(m.Content, str("debug"), mustNode("{msg: marker}"))
		for _, k := range []string{"tags", "notify", "listen"} {
			if v := get(t, k); v != nil {
				m.Content = append(m.Content, str(k), v)
			}
		}
		m.Content = append(m.Content, str("changed_when"), str("true"))
		seq.Content[i] = m
	}
}

// dealias replaces each *alias by its anchor's node: a marker drops the task holding the
// anchor.
func dealias(n *yaml.Node, depth int) {
	if depth > 50 {
		return
	}
	n.Anchor = ""
	for i, c := range n.Content {
		if c.Kind == yaml.AliasNode && c.Alias != nil {
			n.Content[i] = c.Alias
		}
		dealias(n.Content[i], depth+1)
	}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

func mustNode(s string) *yaml.Node {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil {
		panic(err)
	}
	return n.Content[0]
}

func delKeys(m *yaml.Node, keys ...string) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	var out []*yaml.Node
	for j := 0; j+1 < len(m.Content); j += 2 {
		if !slices_contains(keys, m.Content[j].Value) {
			out = append(out, m.Content[j], m.Content[j+1])
		}
	}
	m.Content = out
}

func keep(m *yaml.Node, keys ...string) {
	var out []*yaml.Node
	for j := 0; j+1 < len(m.Content); j += 2 {
		if slices_contains(keys, m.Content[j].Value) {
			out = append(out, m.Content[j], m.Content[j+1])
		}
	}
	m.Content = out
}

func setKey(m *yaml.Node, k, v string) { setNode(m, k, str(v)) }

func setNode(m *yaml.Node, k string, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for j := 0; j+1 < len(m.Content); j += 2 {
		if m.Content[j].Value == k {
			m.Content[j+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(k), v)
}

var (
	rePlayLine = regexp.MustCompile(`^  play #\d+ \(.*?\): (.*)\tTAGS: \[(.*)\]$`)
	reTaskList = regexp.MustCompile(`^      (.*)\tTAGS: \[(.*)\]$`)
)

// TestRealCheckoutListTasks runs ansible-playbook --list-tasks and --list-tags on the
// kubespray checkout named by K3SCONF_KUBESPRAY_DIR (nothing runs) and compares, play by
// play, every task known before the run (not below a dynamic include; include tasks
// themselves are listed) with its effective tags, and the TASK TAGS, with the model's.
func TestRealCheckoutListTasks(t *testing.T) {
	src := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if src == "" {
		t.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout to run this test")
	}
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed")
	}
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts.ini")
	os.WriteFile(hosts, []byte("[k8s_cluster:children]\nkube_control_plane\nkube_node\n[kube_control_plane]\nnode1\n[kube_node]\nnode1\n[etcd]\nnode1\n"), 0o644)
	run := func(arg string) []string {
		cmd := exec.Command("ansible-playbook", "-i", hosts, "cluster.yml", arg)
		cmd.Dir = src
		// kubespray's ansible.cfg (roles_path, library), not the test default.
		for _, e := range ansibleEnv(dir) {
			if !strings.HasPrefix(e, "ANSIBLE_ROLES_PATH=") && !strings.HasPrefix(e, "ANSIBLE_CONFIG=") {
				cmd.Env = append(cmd.Env, e)
			}
		}
		cmd.Env = append(cmd.Env, "ANSIBLE_CONFIG="+filepath.Join(src, "ansible.cfg"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ansible-playbook %s: %v\n%s", arg, err, tail(out))
		}
		return strings.Split(string(out), "\n")
	}
	c, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	tt := c.compileTasks()
	type play struct {
		name  string
		tasks []string
	}
	var want []play
	for _, l := range run("--list-tasks") {
		if m := rePlayLine.FindStringSubmatch(l); m != nil {
			want = append(want, play{name: m[1]})
		} else if m := reTaskList.FindStringSubmatch(l); m != nil && len(want) > 0 {
			want[len(want)-1].tasks = append(want[len(want)-1].tasks, m[1]+" ["+m[2]+"]")
		}
	}
	var got []play
	for _, pl := range tt.Plays {
		p := play{name: pl.Name}
		for _, n := range pl.Tasks {
			// cli/playbook.py: block: sections only; an unnamed task is its module
			// alone.
			// A listing, not a run: a role's second place is listed too.
			if len(n.Gates) == 0 && n.tagSelected([]string{"all"}, nil) && !n.Rescue && !n.InAlways {
				name := n.DisplayName()
				if n.Name == "" {
					name = n.RawAction
				}
				p.tasks = append(p.tasks, name+" ["+strings.Join(n.Tags, ", ")+"]")
			}
		}
		got = append(got, p)
	}
	ntasks := 0
	for i := range want {
		if i >= len(got) {
			t.Errorf("play %q: not in the model", want[i].name)
			continue
		}
		ntasks += len(want[i].tasks)
		if d := cmp.Diff(want[i], got[i], cmp.AllowUnexported(play{})); d != "" {
			t.Errorf("play %d (-ansible --list-tasks +k3sconf):\n%s", i+1, d)
		}
	}
	var listTags []string
	for _, l := range run("--list-tags") {
		if _, tags, ok := strings.Cut(l, "TASK TAGS: ["); ok {
			for _, tg := range strings.Split(strings.TrimSuffix(tags, "]"), ", ") {
				if tg != "" {
					listTags = appendUniq(listTags, tg)
				}
			}
		}
	}
	sort.Strings(listTags)
	if d := cmp.Diff(listTags, tt.staticTags()); d != "" {
		t.Errorf("--list-tags (-ansible +k3sconf):\n%s", d)
	}
	t.Logf("--list-tasks: %d plays, %d tasks with their tags; --list-tags: %d tags", len(want), ntasks, len(listTags))
}
