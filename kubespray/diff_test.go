package kubespray

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/k3sconf/k3sconf/ansible"
)

// TestDifferentialKubesprayPlays runs ansible-playbook on generated kubespray-like trees
// (cluster.yml importing playbooks/cluster.yml, a dynamic_groups role written like
// kubespray's, old and new group names, group_vars beside the inventory, beside
// playbooks/ and beside cluster.yml, roles found through meta dependencies relative to
// their parent) and compares every variable of every play on every host with
// ResolvePlays: which plays run on the host, and each value and its type. A tree's
// ansible-playbook run costs about 6 s of CPU: go test runs 1 tree by default (the time
// budget of docs/testing.md), CI 8; K3SCONF_KUBESPRAY_DIFF_N sets the number.
func TestDifferentialKubesprayPlays(t *testing.T) {
	t.Parallel() // ansible-playbook runs: overlaps the package's other runs (2 cores)
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core); the kubespray differential test is skipped")
	}
	n := 1
	if s := os.Getenv("K3SCONF_KUBESPRAY_DIFF_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	var mu sync.Mutex
	cases, agree := 0, 0
	t.Cleanup(func() {
		t.Logf("kubespray differential: %d trees, %d play×host×variable cases, %d agree", n, cases, agree)
	})
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			// A lone tree runs in this test's own slot: as a parallel subtest it would queue
			// behind every other parallel test of the package and end it alone.
			if n > 1 {
				t.Parallel()
			}
			// Kept when the case fails, for a look at the tree.
			dir, err := os.MkdirTemp("", "k3sconf-kubespray-diff")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if !t.Failed() {
					os.RemoveAll(dir)
				}
			})
			vars, extra := genTree(t, uint64(seed), dir)
			want := runCluster(t, dir, extra)
			inv, _ := ansible.LoadInventory([]string{filepath.Join(dir, "inv", "hosts.ini")})
			for _, h := range inv.HostOrder {
				hp, err := resolvePlays(Options{Dir: filepath.Join(dir, "ks"), Inventory: []string{filepath.Join(dir, "inv", "hosts.ini")}, Host: h, Extra: extra})
				if err != nil {
					t.Fatal(err)
				}
				// A subscript over a group filled at run time depends on the order ansible
				// processed results (KS009): not compared.
				unsure := map[string]bool{}
				for _, p := range hp.Uncertain {
					unsure[p.Name] = true
				}
				var gotPlays, wantPlays []string
				for _, p := range hp.Plays {
					if strings.HasPrefix(p.Name, "P") && !unsure[p.Name] {
						gotPlays = append(gotPlays, p.Name)
					}
				}
				for p := range want {
					if _, ok := want[p][h]; ok && !unsure[p] {
						wantPlays = append(wantPlays, p)
					}
				}
				sort.Strings(gotPlays)
				sort.Strings(wantPlays)
				if strings.Join(gotPlays, ",") != strings.Join(wantPlays, ",") {
					t.Errorf("host %s: plays %v, ansible ran %v", h, gotPlays, wantPlays)
					continue
				}
				for i, p := range hp.Plays {
					w, ok := want[p.Name][h]
					if !ok || unsure[p.Name] {
						continue
					}
					for _, v := range vars {
						mu.Lock()
						cases++
						mu.Unlock()
						g, gok := [2]string{}, false
						if x := hp.Results[i].Vars[v]; x != nil {
							g, gok = [2]string{ansible.PyJSON(x.Value), ansible.TypeName(x.Value)}, true
						}
						wv, wok := w[v]
						if gok != wok || g != wv {
							t.Errorf("host %s play %s var %s: k3sconf %v (defined %v), ansible %v (defined %v)", h, p.Name, v, g, gok, wv, wok)
							continue
						}
						mu.Lock()
						agree++
						mu.Unlock()
					}
				}
			}
			if t.Failed() {
				t.Logf("tree kept in %s", dir)
			}
		})
	}
}

func genTree(t *testing.T, seed uint64, dir string) (vars, extra []string) {
	r := rand.New(rand.NewPCG(seed, 1313))
	write := func(p, content string) {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 12; i++ {
		vars = append(vars, fmt.Sprintf("v%d", i))
	}
	pool := []string{"yes", "0644", "1_000", "1e3", "'s'", "[1, 2]", "{a: 1}", "~", "2024-01-02", "false"}
	n := 0
	vals := func() string {
		var b strings.Builder
		for _, v := range vars {
			if r.IntN(4) == 0 {
				n++
				if r.IntN(3) == 0 {
					fmt.Fprintf(&b, "%s: %s\n", v, pool[r.IntN(len(pool))])
				} else {
					fmt.Fprintf(&b, "%s: src%d\n", v, n)
				}
			}
		}
		return b.String()
	}
	// Inventory: each host in old- or new-named groups.
	hosts := []string{"n1", "n2", "n3", "n4"}[:2+r.IntN(3)]
	groups := map[string][]string{}
	var order []string
	add := func(g, h string) {
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], h)
	}
	for _, h := range hosts {
		switch r.IntN(3) {
		case 0:
			add("kube_control_plane", h)
		case 1:
			add("kube-master", h)
		}
		switch r.IntN(3) {
		case 0:
			add("kube_node", h)
		case 1:
			add("kube-node", h)
		}
		if r.IntN(2) == 0 {
			add("etcd", h)
		}
		if r.IntN(5) == 0 {
			add("calico_rr", h)
		}
	}
	var ini strings.Builder
	for _, g := range order {
		fmt.Fprintf(&ini, "[%s]\n", g)
		for _, h := range groups[g] {
			fmt.Fprintf(&ini, "%s\n", h)
		}
	}
	// An old-style inventory declares k8s_cluster itself.
	if r.IntN(3) == 0 {
		ini.WriteString("[k8s_cluster:children]\n")
		for _, g := range order {
			if g != "etcd" {
				ini.WriteString(g + "\n")
			}
		}
	}
	for _, g := range []string{"etcd", "kube_control_plane", "kube_node", "k8s_cluster", "calico_rr"} {
		if _, ok := groups[g]; !ok && g != "k8s_cluster" {
			fmt.Fprintf(&ini, "[%s]\n", g)
		}
	}
	fmt.Fprintf(&ini, "[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n")
	write("inv/hosts.ini", ini.String())
	for _, g := range []string{"all", "k8s_cluster", "kube_node", "kube-node", "etcd", "kube_control_plane", "calico_rr"} {
		if r.IntN(2) == 0 {
			write("inv/group_vars/"+g+".yml", "---\n"+vals())
		}
	}
	for _, h := range hosts {
		if r.IntN(3) == 0 {
			write("inv/host_vars/"+h+".yml", "---\n"+vals())
		}
	}
	if r.IntN(2) == 0 {
		write("ks/playbooks/group_vars/k8s_cluster.yml", vals())
	}
	if r.IntN(2) == 0 {
		write("ks/group_vars/all.yml", vals()) // never read: cluster.yml only imports
	}
	// The checkout.
	write("ks/cluster.yml", "- name: Install\n  ansible.builtin.import_playbook: playbooks/cluster.yml\n")
	importVars := ""
	if r.IntN(2) == 0 {
		importVars = "  vars:\n" + indent(vals(), "    ")
	}
	debug := "  tasks:\n    - name: dump\n      debug:\n        msg: \"{{ {" + dumpItems(vars) + "} | to_json }}\"\n"
	write("ks/playbooks/cluster.yml", `- name: Common
  import_playbook: boilerplate.yml
- name: P1 prepare
  hosts: k8s_cluster:etcd
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - { role: kubernetes/node, tags: node }
`+debug+`- name: etcd
`+importVars+`  import_playbook: install_etcd.yml
- name: P3 control plane
  hosts: kube_control_plane
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - { role: kubernetes-apps/policy, tags: apps }
`+debug+`- name: P4 first control plane
  hosts: kube_control_plane[0]
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
`+debug)
	write("ks/playbooks/install_etcd.yml", `- name: P2 etcd
  hosts: etcd:kube_control_plane
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - role: etcd
      tags: etcd
`+debug)
	write("ks/playbooks/boilerplate.yml", "- name: Inventory setup\n  hosts: all\n  gather_facts: false\n  tags: always\n  roles:\n    - dynamic_groups\n")
	// dynamic_groups as kubespray has it: group_by over a mapping, the loop's when seeing
	// group_names as they were when the task started.
	write("ks/roles/dynamic_groups/tasks/main.yml", `- name: Match groups by old names or definition
  vars:
    group_mappings:
      kube_control_plane: [kube-master]
      kube_node: [kube-node]
      calico_rr: [calico-rr]
      no_floating: [no-floating]
      k8s_cluster: [kube_node, kube_control_plane, calico_rr]
  group_by:
    key: "{{ item.key }}"
  when: group_names | intersect(item.value) | length > 0
  loop: "{{ group_mappings | dict2items }}"
`)
	noop := "- meta: noop\n"
	write("ks/roles/kubespray_defaults/defaults/main/main.yml", vals())
	write("ks/roles/kubespray_defaults/defaults/main/download.yml", vals())
	write("ks/roles/kubespray_defaults/vars/main/main.yml", vals())
	write("ks/roles/kubespray_defaults/tasks/main.yml", noop)
	write("ks/roles/kubernetes/node/defaults/main.yml", vals())
	write("ks/roles/kubernetes/node/vars/main.yml", vals())
	write("ks/roles/kubernetes/node/tasks/main.yml", noop)
	write("ks/roles/etcd/defaults/main.yml", vals())
	write("ks/roles/etcd/tasks/main.yml", noop)
	write("ks/roles/etcd/meta/main.yml", "dependencies:\n  - role: etcd_defaults\n")
	write("ks/roles/etcd_defaults/defaults/main.yml", vals())
	write("ks/roles/etcd_defaults/tasks/main.yml", noop)
	// A dependency found beside its parent: roles/kubernetes-apps/policy/calico.
	write("ks/roles/kubernetes-apps/policy/meta/main.yml", "dependencies:\n  - role: policy/calico\n")
	write("ks/roles/kubernetes-apps/policy/defaults/main.yml", vals())
	write("ks/roles/kubernetes-apps/policy/tasks/main.yml", noop)
	write("ks/roles/kubernetes-apps/policy/calico/defaults/main.yml", vals())
	write("ks/roles/kubernetes-apps/policy/calico/vars/main.yml", vals())
	write("ks/roles/kubernetes-apps/policy/calico/tasks/main.yml", noop)
	write("ks/ansible.cfg", "[defaults]\nroles_path = roles\n")
	if r.IntN(2) == 0 {
		extra = append(extra, vars[r.IntN(len(vars))]+"=fromcli")
	}
	return vars, extra
}

func indent(s, p string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l != "" {
			out = append(out, p+l)
		}
	}
	if len(out) == 0 {
		return p + "{}\n"
	}
	return strings.Join(out, "\n") + "\n"
}

func dumpItems(vars []string) string {
	var items []string
	for _, v := range vars {
		items = append(items, fmt.Sprintf("'%[1]s': ([%[1]s | to_json, %[1]s | type_debug] if %[1]s is defined else none)", v))
	}
	return strings.Join(items, ", ")
}

// runCluster runs ks/cluster.yml from the checkout (so its ansible.cfg applies, as for a
// kubespray user) and returns play name -> host -> var -> [json, type].
func runCluster(t *testing.T, dir string, extra []string) map[string]map[string]map[string][2]string {
	args := []string{"-i", filepath.Join(dir, "inv", "hosts.ini")}
	for _, e := range extra {
		args = append(args, "-e", e)
	}
	args = append(args, "cluster.yml")
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Dir = filepath.Join(dir, "ks")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8",
		"ANSIBLE_CONFIG=" + filepath.Join(dir, "ks", "ansible.cfg"),
		"ANSIBLE_LOCAL_TEMP=" + filepath.Join(dir, "tmp"), "ANSIBLE_REMOTE_TEMP=" + filepath.Join(dir, "rtmp"),
		"ANSIBLE_HOME=" + filepath.Join(dir, "ahome"), "ANSIBLE_STDOUT_CALLBACK=json", "ANSIBLE_NOCOLOR=1",
		"ANSIBLE_RETRY_FILES_ENABLED=0", "ANSIBLE_DEPRECATION_WARNINGS=0", "ANSIBLE_LOCALHOST_WARNING=0"}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("ansible-playbook: %v\n%s\n%s", err, msg, out)
	}
	var doc struct {
		Plays []struct {
			Play struct {
				Name string `json:"name"`
			} `json:"play"`
			Tasks []struct {
				Task struct {
					Name string `json:"name"`
				} `json:"task"`
				Hosts map[string]struct {
					Msg any `json:"msg"`
				} `json:"hosts"`
			} `json:"tasks"`
		} `json:"plays"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("ansible output: %v", err)
	}
	res := map[string]map[string]map[string][2]string{}
	for _, p := range doc.Plays {
		for _, task := range p.Tasks {
			if task.Task.Name != "dump" {
				continue
			}
			res[p.Play.Name] = map[string]map[string][2]string{}
			for h, hr := range task.Hosts {
				s, _ := hr.Msg.(string)
				var m map[string]*[2]string
				if err := json.Unmarshal([]byte(s), &m); err != nil {
					t.Fatalf("play %s host %s: %v: %v", p.Play.Name, h, err, hr.Msg)
				}
				res[p.Play.Name][h] = map[string][2]string{}
				for k, v := range m {
					if v != nil {
						t := v[1]
						switch t {
						case "AnsibleUnicode", "AnsibleUnsafeText", "str":
							t = "str"
						case "AnsibleMapping", "dict":
							t = "dict"
						case "AnsibleSequence", "list":
							t = "list"
						}
						res[p.Play.Name][h][k] = [2]string{v[0], t}
					}
				}
			}
		}
	}
	return res
}
