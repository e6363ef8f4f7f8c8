package kubespray

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/ansible"
)

const (
	tree = "testdata/tree"
	inv  = "testdata/inv/inventory.ini"
)

func codes(r *Report, key string) []string {
	var out []string
	for _, d := range r.Diagnostics {
		if key == "" || d.Key == key || d.Key == "" {
			out = append(out, d.Code)
		}
	}
	return out
}

func explain(t *testing.T, o Options) *Report {
	t.Helper()
	if o.Dir == "" {
		o.Dir = tree
	}
	if o.Inventory == nil {
		o.Inventory = []string{inv}
	}
	r, err := Explain(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFindings: every finding with a triggering and a clean example.
func TestFindings(t *testing.T) {
	cases := []struct {
		name, reason string
		host, v      string
		extra        []string
		code         string
		want         bool
	}{
		{"KS001 old group name", "group_vars/kube-node.yml is kubespray's old name of kube_node", "node2", "kube_proxy_strict_arp", nil, "KS001", true},
		{"KS002 host not in group", "etcd1 is not in k8s_cluster, where container_manager is set", "etcd1", "container_manager", nil, "KS002", true},
		{"KS002 clean", "node2 is in k8s_cluster", "node2", "container_manager", nil, "KS002", false},
		{"KS004 INI string true", "[kube_node:vars] kubeconfig_localhost=true is the string 'true'", "node2", "kubeconfig_localhost", nil, "KS004", true},
		{"KS004 clean", "node1 is not in kube_node: the default (a YAML boolean) wins", "node1", "kubeconfig_localhost", nil, "KS004", false},
		{"KS004 -e string", "-e key=value is a string", "node1", "kubeconfig_localhost", []string{"kubeconfig_localhost=false"}, "KS004", true},
		{"KS004 -e JSON clean", "-e JSON keeps the boolean", "node1", "kubeconfig_localhost", []string{`{"kubeconfig_localhost": false}`}, "KS004", false},
		{"KS005 role vars beat inventory", "kubespray_defaults/vars sets the admission plugins", "node2", "kube_apiserver_admission_plugins_needs_configuration", nil, "KS005", true},
		{"KS005 clean with -e", "extra vars beat role vars", "node2", "kube_apiserver_admission_plugins_needs_configuration", []string{"kube_apiserver_admission_plugins_needs_configuration=EventRateLimit"}, "KS005", false},
		{"KS006 unknown variable", "a typo of kube_version", "node1", "kube_verison", nil, "KS006", true},
		{"KS006 clean", "kube_version is a default", "node1", "kube_version", nil, "KS006", false},
		{"KS007 commented out", "# container_manager: crio in group_vars/all/all.yml; etcd1 gets the default", "etcd1", "container_manager", nil, "KS007", true},
		{"KS007 clean", "node2 gets container_manager from k8s_cluster", "node2", "container_manager", nil, "KS007", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := explain(t, Options{Host: c.host, Vars: []string{c.v}, Extra: c.extra})
			if got := slices.Contains(codes(r, c.v), c.code); got != c.want {
				t.Errorf("%s (%s): finding %s present = %v, want %v; findings %v", c.name, c.reason, c.code, got, c.want, codes(r, ""))
			}
		})
	}
}

// TestKS001Clean: an inventory with only current group names has no KS001.
func TestKS001Clean(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/inv")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "group_vars", "kube-node.yml"))
	r := explain(t, Options{Inventory: []string{filepath.Join(dir, "inventory.ini")}, Host: "node2", Vars: []string{"cluster_name"}})
	if slices.Contains(codes(r, ""), "KS001") {
		t.Errorf("KS001 without an old-named group_vars file: %v", r.Diagnostics)
	}
}

func treeWith(t *testing.T, file, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(tree)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, file)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestKS003PlaybookGroupVars: group_vars/ beside the playbook that holds the plays
// (playbooks/) beats the inventory's.
func TestKS003PlaybookGroupVars(t *testing.T) {
	dir := treeWith(t, "playbooks/group_vars/k8s_cluster.yml", "container_manager: docker\n")
	r := explain(t, Options{Dir: dir, Host: "node2", Vars: []string{"container_manager"}})
	if got := ansible.Repr(r.Vars[0].Var.Value); got != "'docker'" {
		t.Errorf("value %s, want 'docker' (playbook group_vars beat inventory group_vars)", got)
	}
	if !slices.Contains(codes(r, "container_manager"), "KS003") {
		t.Errorf("no KS003: %v", r.Diagnostics)
	}
	clean := explain(t, Options{Host: "node2", Vars: []string{"container_manager"}})
	if slices.Contains(codes(clean, "container_manager"), "KS003") {
		t.Errorf("KS003 without playbook group_vars: %v", clean.Diagnostics)
	}
}

// TestRootGroupVarsNotReadForImportedPlays: cluster.yml only imports playbooks/cluster.yml,
// and ansible-core 2.14 reads playbook group_vars beside the file holding the play
// (play._included_path), so group_vars/ next to cluster.yml is never read (checked with
// ansible-playbook: an imported play sees sub/group_vars, not the top folder's).
func TestRootGroupVarsNotReadForImportedPlays(t *testing.T) {
	dir := treeWith(t, "group_vars/k8s_cluster.yml", "container_manager: docker\n")
	r := explain(t, Options{Dir: dir, Host: "node2", Vars: []string{"container_manager"}})
	if got := ansible.Repr(r.Vars[0].Var.Value); got != "'crio'" {
		t.Errorf("value %s, want 'crio' from the inventory (the top group_vars/ is not read)", got)
	}
	if !slices.Contains(codes(r, ""), "KS008") {
		t.Errorf("no KS008: %v", r.Diagnostics)
	}
	if clean := explain(t, Options{Host: "node2", Vars: []string{"container_manager"}}); slices.Contains(codes(clean, ""), "KS008") {
		t.Errorf("KS008 without a top group_vars/: %v", clean.Diagnostics)
	}
}

// TestTemplatedRefs: a Jinja default is shown as written with its variables one level down.
func TestTemplatedRefs(t *testing.T) {
	r := explain(t, Options{Host: "node1", Vars: []string{"dns_domain", "kube_version"}})
	got := map[string][]string{}
	for _, ex := range r.Vars {
		for _, rv := range ex.Refs {
			got[ex.Name] = append(got[ex.Name], rv.Name+"="+ansible.PyJSON(rv.Value)+"@"+string(rv.Source.Kind))
		}
	}
	want := map[string][]string{
		"dns_domain":   {`cluster_name="mycluster"@group_vars`},
		"kube_version": {`kubelet_checksums={"amd64": {"v1.31.1": "0123abcd", "v1.31.0": "4567ef01"}}@role-vars`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("refs (-want +got):\n%s", d)
	}
}

// TestDynamicGroups: k8s_cluster is built at run time from kube_node/kube_control_plane,
// and an old-named group maps to the new name (but not further within the same loop).
func TestDynamicGroups(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hosts.ini")
	os.WriteFile(p, []byte("[kube-master]\nold1\n[kube_node]\nw1\n"), 0o644)
	i, err := ansible.LoadInventory([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"old1": {"kube_control_plane"}, "w1": {"k8s_cluster"}}
	if d := cmp.Diff(want, addDynamicGroups(i)); d != "" {
		t.Errorf("dynamic groups (-want +got):\n%s", d)
	}
}

// TestDeclaredGroupNotAddedAtRunTime: the explain header says a group was added at run
// time by dynamic_groups only when the inventory does not already put the host in it.
func TestDeclaredGroupNotAddedAtRunTime(t *testing.T) {
	base, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, reason, extra string
		added               []string
	}{
		{"undeclared", "the test inventory has no k8s_cluster: dynamic_groups makes it", "", []string{"k8s_cluster"}},
		{"declared", "[k8s_cluster:children] names kube_node: node2 is in it before the run", "\n[k8s_cluster:children]\nkube_control_plane\nkube_node\n", nil},
		{"declared-without-host", "k8s_cluster is declared but holds only the control plane: node2 joins it at run time", "\n[k8s_cluster:children]\nkube_control_plane\n", []string{"k8s_cluster"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Dir(inv))); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "inventory.ini")
			if err := os.WriteFile(p, append(append([]byte(nil), base...), tc.extra...), 0o644); err != nil {
				t.Fatal(err)
			}
			r := explain(t, Options{Inventory: []string{p}, Host: "node2", Vars: []string{"kube_apiserver_admission_plugins_needs_configuration"}})
			if d := cmp.Diff(tc.added, r.Added); d != "" {
				t.Errorf("%s: added (-want +got):\n%s", tc.reason, d)
			}
			var b strings.Builder
			Text(&b, r)
			header, _, _ := strings.Cut(b.String(), "\n")
			if got := strings.Contains(header, "added at run time"); got != (tc.added != nil) {
				t.Errorf("%s: header %q", tc.reason, header)
			}
		})
	}
}

// TestWhere: tasks and templates using a variable with play, role, block and task tags.
func TestWhere(t *testing.T) {
	uses, err := Where(tree, "containerd_version")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range uses {
		rel, _ := filepath.Rel(tree, u.Pos.File)
		got = append(got, rel+" "+u.Kind+" "+u.Task+" ["+strings.Join(u.Tags, ",")+"]")
	}
	want := []string{
		"roles/container-engine/containerd/tasks/main.yml task Containerd | Download [container-engine,containerd,download,install]",
		"roles/container-engine/containerd/templates/config.toml.j2 template  [container-engine,containerd]",
		"roles/kubespray_defaults/defaults/main/download.yml default  []",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("where containerd_version (-want +got):\n%s", d)
	}
	uses, _ = Where(tree, "kube_proxy_strict_arp")
	var tags []string
	for _, u := range uses {
		if u.Kind == "task" {
			tags = u.Tags
		}
	}
	// Play tag "nodes", role tag "node", task tag "kube-proxy".
	if d := cmp.Diff([]string{"kube-proxy", "node", "nodes"}, tags); d != "" {
		t.Errorf("kube_proxy_strict_arp task tags (-want +got):\n%s", d)
	}
}

// TestWhereImportRole: a role pulled in by import_role runs with the includer's play and
// role tags plus the import task's own tags.
func TestWhereImportRole(t *testing.T) {
	uses, err := Where(tree, "calico_pool_cidr")
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) != 1 {
		t.Fatalf("uses %v", uses)
	}
	if d := cmp.Diff([]string{"calico", "network", "node", "nodes"}, uses[0].Tags); d != "" {
		t.Errorf("tags (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"Install nodes"}, uses[0].Plays); d != "" {
		t.Errorf("plays (-want +got):\n%s", d)
	}
}

// TestRealCheckout runs against a real kubespray checkout named by K3SCONF_KUBESPRAY_DIR.
func TestRealCheckout(t *testing.T) {
	dir := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if dir == "" {
		t.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout to run this test")
	}
	// The sample's hosts are commented out: copy it and name one host.
	invDir := t.TempDir()
	if err := os.CopyFS(invDir, os.DirFS(filepath.Join(dir, "inventory/sample"))); err != nil {
		t.Fatal(err)
	}
	ini := filepath.Join(invDir, "inventory.ini")
	if err := os.WriteFile(ini, []byte("[kube_control_plane]\nnode1\n[etcd:children]\nkube_control_plane\n[kube_node]\nnode1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := explain(t, Options{Dir: dir, Inventory: []string{ini}, Host: "node1",
		Vars: []string{"kube_network_plugin", "container_manager", "kube_version"}})
	for _, ex := range r.Vars {
		if ex.Var == nil {
			t.Errorf("%s undefined on node1 of the sample inventory", ex.Name)
		}
	}
	uses, err := Where(dir, "containerd_version")
	if err != nil || len(uses) == 0 {
		t.Errorf("where containerd_version: %v, %d uses", err, len(uses))
	}
	// A play's own tasks are uses (issue 28, F2): "Check Ansible version" asserts
	// minimal_ansible_version, set in that play's vars: (F3: no KS006, its value there);
	// the group_by task of install_etcd.yml reads cilium_deploy_additionally.
	for v, file := range map[string]string{"minimal_ansible_version": "playbooks/ansible_version.yml", "cilium_deploy_additionally": "playbooks/install_etcd.yml"} {
		uses, err := Where(dir, v)
		found := false
		for _, u := range uses {
			found = found || strings.HasSuffix(filepath.ToSlash(u.Pos.File), file) && len(u.Sites) > 0
		}
		if err != nil || !found {
			t.Errorf("where %s: %v; no use in %s run by a play", v, err, file)
		}
	}
	r = explain(t, Options{Dir: dir, Inventory: []string{ini}, Host: "node1", Vars: []string{"minimal_ansible_version"}})
	if ex := r.Vars[0]; ex.NotUsed || ex.Var == nil || ex.Var.Source.Kind != ansible.KindPlayVars || ex.Play == nil || ex.Play.Name != "Check Ansible version" {
		t.Errorf("minimal_ansible_version on node1: not used %v, %+v at %+v; want the play vars of Check Ansible version", ex.NotUsed, ex.Var, ex.Play)
	}
	for _, d := range r.Diagnostics {
		if d.Code == "KS006" {
			t.Errorf("KS006 for a play's vars: %s", d.Message)
		}
	}
	// The sample's group_vars (hundreds of values of every YAML type) against
	// ansible-inventory --host, with k8s_cluster declared statically (ansible-inventory does
	// not run dynamic_groups).
	if _, err := exec.LookPath("ansible-inventory"); err != nil {
		t.Skip("ansible-inventory not installed")
	}
	static := filepath.Join(invDir, "static.yml")
	os.WriteFile(static, []byte("all:\n  children:\n    k8s_cluster:\n      children:\n        kube_control_plane:\n          hosts: {node1: }\n        kube_node:\n          hosts: {node1: }\n    etcd:\n      children: {kube_control_plane: }\n"), 0o644)
	cmd := exec.Command("ansible-inventory", "-i", static, "--host", "node1")
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ANSIBLE_CONFIG=" + filepath.Join(home, "none.cfg"), "ANSIBLE_LOCAL_TEMP=" + home}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ansible-inventory: %v", err)
	}
	var want map[string]any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	i2, err := ansible.LoadInventory([]string{static})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ansible.Resolve(ansible.Options{Inventory: i2, Host: "node1"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for name, v := range res.Vars {
		var x any
		if err := json.Unmarshal([]byte(ansible.PyJSON(v.Value)), &x); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = x
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sample inventory vs ansible-inventory --host node1 (-ansible +k3sconf):\n%s", d)
	}
	t.Logf("sample inventory: %d variables agree with ansible-inventory", len(want))
}

// TestSecretsRedacted: secret-named variables (and secret keys inside dicts) are redacted
// unless ShowSecrets.
func TestSecretsRedacted(t *testing.T) {
	extra := []string{`{"registry_password": "hunter22", "registries": {"r1": {"token": "abcd1234", "url": "x"}}}`}
	r := explain(t, Options{Host: "node1", Vars: []string{"registry_password", "registries"}, Extra: extra})
	got := ansible.PyJSON(r.Vars[0].Var.Value) + " " + ansible.PyJSON(r.Vars[1].Var.Value)
	if want := `"REDACTED" {"r1": {"token": "REDACTED", "url": "x"}}`; got != want {
		t.Errorf("redacted: %s, want %s", got, want)
	}
	r = explain(t, Options{Host: "node1", Vars: []string{"registry_password"}, Extra: extra, ShowSecrets: true})
	if got := ansible.PyJSON(r.Vars[0].Var.Value); got != `"hunter22"` {
		t.Errorf("with ShowSecrets: %s", got)
	}
}

// TestKS011OwnRoleDefault: a task in a role sees the role's own default, not the play-level
// winner from a later role.
func TestKS011OwnRoleDefault(t *testing.T) {
	dir := treeWith(t, "roles/container-engine/containerd/defaults/main.yml", "containerd_debug_level: info\ncluster_name: from-containerd\n")
	// No inventory value for the variable: the play-level winner is kubespray_defaults'
	// default ... unless a later role sets it.
	r := explain(t, Options{Dir: dir, Inventory: []string{inv}, Host: "node2", Vars: []string{"image_arch"}})
	if slices.Contains(codes(r, "image_arch"), "KS011") {
		t.Errorf("KS011 for a variable only one role defines: %v", r.Diagnostics)
	}
	dir = treeWith(t, "roles/container-engine/containerd/defaults/main.yml", "containerd_debug_level: info\nimage_arch: arm64\n")
	r = explain(t, Options{Dir: dir, Inventory: []string{inv}, Host: "node2", Vars: []string{"image_arch"}})
	if got := ansible.Repr(r.Vars[0].Var.Value); got != "'arm64'" {
		t.Errorf("play-level value %s, want 'arm64' (the last role's default)", got)
	}
	if !slices.Contains(codes(r, "image_arch"), "KS011") {
		t.Errorf("no KS011 when kubespray_defaults' tasks see 'amd64': %v", r.Diagnostics)
	}
}

// TestIniInFolderNotRead: ansible skips *.ini inside a folder given to -i (checked with
// ansible-inventory -i DIR --list: "No inventory was parsed"); the error says why the host
// is missing.
func TestIniInFolderNotRead(t *testing.T) {
	_, err := Explain(Options{Dir: tree, Inventory: []string{"testdata/inv"}, Host: "node1", Vars: []string{"cluster_name"}})
	if err == nil || !strings.Contains(err.Error(), "inventory.ini was not read: ansible ignores *.ini") {
		t.Errorf("error %v, want one saying inventory.ini was not read", err)
	}
}

// TestBrokenVarsFile: a group_vars file that does not parse is an error finding (exit 1 in
// the CLI: ansible-playbook stops on it too; not 3, as every input was read) and the rest of
// the report still renders.
func TestBrokenVarsFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/inv")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "group_vars", "kube_node.yml"), []byte("a: [1,\n"), 0o644)
	r := explain(t, Options{Inventory: []string{filepath.Join(dir, "inventory.ini")}, Host: "node2", Vars: []string{"containerd_debug_level", "cluster_name"}})
	if !r.Invalid || r.InputError || !slices.Contains(codes(r, ""), "KS000") {
		t.Errorf("no input error for a broken group_vars file: %v", r.Diagnostics)
	}
	for _, ex := range r.Vars {
		if ex.Var == nil {
			t.Errorf("%s undefined: the other inputs must still count", ex.Name)
		}
	}
}

// TestWhereTemplatedIncludeRole: include_role with a templated name may load any role its
// fixed parts match (here: the loop's item.role values); apply: tags written with the same
// expression become the role's part (kubespray's container-engine: name
// "container-engine/{{ item.role }}", apply tags "{{ item.role }}"). The include task's own
// tags gate it: --tags one skips the include (tagged engines, node, nodes), so the role's
// tasks never load (checked with ansible-playbook 2.14.18; kubespray repeats every runtime
// name on its include for this reason).
func TestWhereTemplatedIncludeRole(t *testing.T) {
	dir := treeWith(t, "roles/kubernetes/node/tasks/engines.yml", `- name: Engines
  include_role:
    name: "engines/{{ item.role }}"
    apply:
      tags: [engines, "{{ item.role }}"]
  loop: [{role: one}, {role: two}]
  tags: engines
`)
	main := filepath.Join(dir, "roles/kubernetes/node/tasks/main.yml")
	data, _ := os.ReadFile(main)
	os.WriteFile(main, append(data, "\n- import_tasks: engines.yml\n"...), 0o644)
	for _, r := range []string{"one", "two", "three"} {
		p := filepath.Join(dir, "roles", "engines", r, "tasks", "main.yml")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("- name: use\n  debug: msg={{ engine_opt }}\n"), 0o644)
	}
	uses, err := Where(dir, "engine_opt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range uses {
		got = append(got, u.Role+" ["+strings.Join(u.Tags, ",")+"]")
	}
	want := []string{"engines/one [engines,node,nodes]", "engines/three []", "engines/two [engines,node,nodes]"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestWhereMetaDependencyTags: a meta dependency's tasks run under the including role's
// tags plus those of the dependency entry.
func TestWhereMetaDependencyTags(t *testing.T) {
	uses, err := Where(tree, "runc_version")
	if err != nil || len(uses) != 1 {
		t.Fatalf("uses %v, %v", uses, err)
	}
	if d := cmp.Diff([]string{"container-engine", "containerd", "runc"}, uses[0].Tags); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestAliasBombExtraVars: -e @file with an alias bomb ends at once; the bomb's variables
// are input-unreadable at their line (not "undefined", no KS006), the report is incomplete
// and the file's other variables are read.
func TestAliasBombExtraVars(t *testing.T) {
	var b strings.Builder
	b.WriteString(`a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat("*a"+string(rune('0'+i-1))+",", 8) + "*a" + string(rune('0'+i-1)) + "]\n")
	}
	b.WriteString("keep_me: 7\n")
	p := filepath.Join(t.TempDir(), "bomb.yml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Report, 1)
	go func() {
		done <- explain(t, Options{Host: "node1", Vars: []string{"a9", "keep_me"}, Extra: []string{"@" + p}})
	}()
	var r *Report
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("an alias bomb in -e @file did not end within 10 s")
	}
	if !r.InputError {
		t.Error("the report must be incomplete (exit 3)")
	}
	if r.Vars[0].Unread == nil || r.Vars[0].Unread.Line != 10 || r.Vars[1].Var == nil {
		t.Errorf("a9 is unread at line 10, keep_me is read: %+v %+v", r.Vars[0].Unread, r.Vars[1].Var)
	}
	if slices.Contains(codes(r, "a9"), "KS006") || !slices.Contains(codes(r, ""), "input-unreadable") {
		t.Errorf("a9 is set (unread), not undefined: %v", codes(r, "a9"))
	}
}
