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
	"github.com/k3sconf/k3sconf/diag"
)

// TestDifferentialUseSites runs ansible-playbook on generated kubespray-like trees whose
// every tasks file starts with a marker task printing the variables, and compares with
// the play/role walk (Checkout.Walk) and the value at each marker's use site as explain
// resolves it (HostRun.Sites, with the block and include vars around it; playOwn lists
// what the plays themselves get): which files run on which host in which play (roles:
// entries with when:, meta dependencies with role params, import_role with tasks_from,
// include_role over a loop with when: item.enabled and over a name from a task-vars
// dict, include_role with defaults_from, import_tasks, include_tasks with when:, a
// group_by play as kubespray's install_etcd.yml has, a templated when: over group_names
// that changes after dynamic_groups), and the value and type of every variable there.
func TestDifferentialUseSites(t *testing.T) {
	t.Parallel() // ansible-playbook runs: overlaps the package's other runs (2 cores)
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core); the use-site differential test is skipped")
	}
	// go test runs one tree, seed 1 (38 play×host×file runs with the plays' own parts,
	// 3.7 s of CPU measured at load 8); seed 0 had 50 runs before them and cost 23 s,
	// which took the package over the time budget of docs/testing.md.
	// K3SCONF_USESITES_DIFF_N=N runs seeds 0 to N-1 (CI: 4).
	n, first := 1, 1
	if s := os.Getenv("K3SCONF_USESITES_DIFF_N"); s != "" {
		fmt.Sscan(s, &n)
		first = 0
	}
	var mu sync.Mutex
	files, own, cases, agree := 0, 0, 0, 0
	t.Cleanup(func() {
		t.Logf("use-site differential: %d trees, %d play×host×file runs (%d of them a play's own markers), %d file×variable cases, %d agree", n, files, own, cases, agree)
	})
	for seed := first; seed < first+n; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			// A lone tree runs in this test's own slot: as a parallel subtest it would queue
			// behind every other parallel test of the package and end it alone.
			if n > 1 {
				t.Parallel()
			}
			dir, err := os.MkdirTemp("", "k3sconf-usesites-diff")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if !t.Failed() {
					os.RemoveAll(dir)
				}
			})
			vars, extra := genSiteTree(t, uint64(seed), dir)
			want := runMarkers(t, dir, extra)
			invPath := filepath.Join(dir, "inv", "hosts.ini")
			inv, _ := ansible.LoadInventory([]string{invPath})
			c, err := Load(filepath.Join(dir, "ks"))
			if err != nil {
				t.Fatal(err)
			}
			var xs []ansible.ExtraVars
			for i, e := range extra {
				x, _ := ansible.ParseExtraVars(e, i+1)
				xs = append(xs, x)
			}
			for _, h := range inv.HostOrder {
				hr, err := c.Tasks().Run([]string{invPath}, h, xs, nil)
				if err != nil {
					t.Fatal(err)
				}
				rt := hr.newRuntime(c.Tasks()) // for markerSite
				// play -> file (a role's: its path under roles/; the play's own: the
				// marker's name) -> the runs k3sconf expects, in walk order.
				type run struct {
					f  *FileRun
					pr *PlayRun
					n  *TaskNode // a play's own marker
				}
				got := map[string]map[string][]run{}
				unsure := map[string]bool{}
				for _, pr := range hr.Plays {
					if !strings.HasPrefix(pr.Play.Name, "P") {
						continue
					}
					for _, f := range pr.Files {
						if f.Handlers {
							continue
						}
						var rs []run
						var keys []string
						if f.Role != nil {
							rel, _ := filepath.Rel(filepath.Join(dir, "ks", "roles"), f.File)
							rs, keys = append(rs, run{f, pr, nil}), append(keys, rel)
						} else {
							// A play's own tasks file (a section of the playbook, or a file
							// it includes): its markers.
							for _, n := range pr.tree.Tasks {
								if n.Role == "" && strings.HasPrefix(n.Name, "M ") && filepath.Clean(n.Pos.File) == filepath.Clean(f.File) && f.holds(n.Pos.Line) {
									rs, keys = append(rs, run{f, pr, n}), append(keys, strings.TrimPrefix(n.Name, "M "))
								}
							}
						}
						for i, x := range rs {
							key := keys[i]
							fileUnsure, skip := f.Unsure, f.Skip
							if x.n != nil {
								// A marker of the play's own: whether it runs is its use
								// site's (the file's, and the when: of its blocks).
								// The marker's debug msg line, as where finds the use.
								s, ok := markerSite(hr, rt, pr, nil, x.n.Pos.File, x.n.Pos.Line+2, vars[0])
								if !ok {
									t.Errorf("host %s play %s marker %s: no use site", h, pr.Play.Name, key)
									continue
								}
								fileUnsure, skip = s.Unsure, s.Skip
							}
							if len(fileUnsure) > 0 || pr.Unsure != "" {
								unsure[pr.Play.Name+"\x00"+key] = true
							}
							if skip != "" || !pr.Runs {
								continue
							}
							if got[pr.Play.Name] == nil {
								got[pr.Play.Name] = map[string][]run{}
							}
							got[pr.Play.Name][key] = append(got[pr.Play.Name][key], x)
						}
					}
				}
				keys := map[string]bool{}
				for p, m := range got {
					for f := range m {
						keys[p+"\x00"+f] = true
					}
				}
				for p, m := range want {
					for f, hs := range m {
						if len(hs[h]) > 0 {
							keys[p+"\x00"+f] = true
						}
					}
				}
				var sorted []string
				for k := range keys {
					sorted = append(sorted, k)
				}
				sort.Strings(sorted)
				for _, k := range sorted {
					p, f, _ := strings.Cut(k, "\x00")
					g := got[p][f]
					wv := want[p][f][h]
					if len(g) != len(wv) {
						if unsure[k] {
							continue
						}
						t.Errorf("host %s play %s file %s: k3sconf runs it %d times, ansible %d", h, p, f, len(g), len(wv))
						continue
					}
					for i := range g {
						mu.Lock()
						files++
						if g[i].n != nil {
							own++
						}
						mu.Unlock()
						at := func(v string) *ansible.Var {
							// A role's marker is its file's first task: its msg is line 3.
							file, line := g[i].f.File, 3
							if n := g[i].n; n != nil {
								file, line = n.Pos.File, n.Pos.Line+2
							}
							s, ok := markerSite(hr, rt, g[i].pr, g[i].f.Role, file, line, v)
							if !ok {
								t.Errorf("host %s play %s file %s: no use site", h, p, f)
								return nil
							}
							return s.Var
						}
						where := "play"
						if g[i].f.Role != nil {
							where = g[i].f.Role.Path()
						}
						for _, v := range vars {
							mu.Lock()
							cases++
							mu.Unlock()
							x := at(v)
							gv, gok := [2]string{}, false
							if x != nil {
								gv, gok = [2]string{ansible.PyJSON(x.Value), ansible.TypeName(x.Value)}, true
							}
							av, aok := wv[i][v]
							if gok != aok || gv != av {
								src := ""
								if x != nil {
									src = x.Source.Level + " " + x.Source.Pos.String()
								}
								t.Errorf("host %s play %s file %s (%s) var %s: k3sconf %v (defined %v, %s), ansible %v (defined %v)", h, p, f, where, v, gv, gok, src, av, aok)
								continue
							}
							mu.Lock()
							agree++
							mu.Unlock()
						}
					}
				}
			}
			if t.Failed() {
				t.Logf("tree kept in %s", dir)
			}
		})
	}
}

// markerSite is the use site in play pr, role run rr (nil: the play's own) of the marker
// whose debug msg is at file:line, for name, as explain gives it (hr.Sites, then the task
// vars and include params of runtime.go: Resolve alone is the file's, without the vars
// of the blocks and includes around the task).
func markerSite(hr *HostRun, rt *runtimeRun, pr *PlayRun, rr *RoleRun, file string, line int, name string) (Site, bool) {
	u := Use{Kind: "task", Pos: diag.Position{File: file, Line: line, Column: 5}}
	sites := hr.Sites([]Use{u}, name)
	rt.applySites(sites, name)
	for _, s := range sites {
		if s.Play == pr && s.Role == rr {
			return s, true
		}
	}
	return Site{}, false
}

func genSiteTree(t *testing.T, seed uint64, dir string) (vars, extra []string) {
	r := rand.New(rand.NewPCG(seed, 2114))
	r2 := rand.New(rand.NewPCG(seed, 2115))
	write := func(p, content string) {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 10; i++ {
		vars = append(vars, fmt.Sprintf("v%d", i))
	}
	n := 0
	vals := func(indent string) string {
		var b strings.Builder
		for _, v := range vars {
			if r.IntN(4) == 0 {
				n++
				fmt.Fprintf(&b, "%s%s: src%d\n", indent, v, n)
			}
		}
		return b.String()
	}
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
		if r.IntN(3) > 0 {
			add("kube_node", h)
		}
		if r.IntN(2) == 0 {
			add("etcd", h)
		}
	}
	var ini strings.Builder
	for _, g := range order {
		fmt.Fprintf(&ini, "[%s]\n", g)
		for _, h := range groups[g] {
			fmt.Fprintf(&ini, "%s\n", h)
		}
	}
	for _, g := range []string{"etcd", "kube_control_plane", "kube_node"} {
		if _, ok := groups[g]; !ok {
			fmt.Fprintf(&ini, "[%s]\n", g)
		}
	}
	fmt.Fprintf(&ini, "[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n")
	write("inv/hosts.ini", ini.String())
	nets := []string{"calico", "cilium", "flannel"}
	for _, g := range []string{"all", "k8s_cluster", "kube_node", "etcd", "kube_control_plane"} {
		if r.IntN(2) == 0 {
			s := "---\n" + vals("")
			if r.IntN(3) == 0 {
				s += "net: " + nets[r.IntN(3)] + "\n"
			}
			if r.IntN(4) == 0 {
				s += fmt.Sprintf("c1_enabled: %v\n", r.IntN(2) == 0)
			}
			write("inv/group_vars/"+g+".yml", s)
		}
	}
	for _, h := range hosts {
		if r.IntN(3) == 0 {
			write("inv/host_vars/"+h+".yml", "---\n"+vals(""))
		}
	}
	dump := "- name: M %s\n  debug:\n    msg: \"{{ {" + dumpItems(vars) + "} | to_json }}\"\n"
	marker := func(rel string) string { return fmt.Sprintf(dump, rel) }
	role := func(name string, tasks map[string]string, meta string) {
		write("ks/roles/"+name+"/defaults/main.yml", "---\n"+vals(""))
		if r.IntN(2) == 0 {
			write("ks/roles/"+name+"/vars/main.yml", "---\n"+vals(""))
		}
		for f, body := range tasks {
			write("ks/roles/"+name+"/tasks/"+f, marker(name+"/tasks/"+f)+body)
		}
		if meta != "" {
			write("ks/roles/"+name+"/meta/main.yml", meta)
		}
	}
	write("ks/cluster.yml", "- name: Install\n  ansible.builtin.import_playbook: playbooks/cluster.yml\n")
	write("ks/ansible.cfg", "[defaults]\nroles_path = roles\n")
	write("ks/playbooks/boilerplate.yml", "- name: Inventory setup\n  hosts: all\n  gather_facts: false\n  tags: always\n  roles:\n    - dynamic_groups\n")
	write("ks/roles/dynamic_groups/tasks/main.yml", `- name: Match groups by old names or definition
  vars:
    group_mappings:
      kube_control_plane: [kube-master]
      kube_node: [kube-node]
      k8s_cluster: [kube_node, kube_control_plane]
  group_by:
    key: "{{ item.key }}"
  when: group_names | intersect(item.value) | length > 0
  loop: "{{ group_mappings | dict2items }}"
`)
	etcdParams := ""
	if r.IntN(2) == 0 {
		etcdParams = ", " + vars[r.IntN(len(vars))] + ": rparam"
	}
	// The plays' own parts (pre_tasks, tasks, post_tasks, vars:, vars_files:, block and
	// include vars) come from a second source, so the first stream, and with it every part
	// of the trees earlier seeds made, stays as it was.
	own, own2vals := playOwn(r2, vars, write, marker)
	write("ks/playbooks/cluster.yml", `- name: Common
  import_playbook: boilerplate.yml
- name: Pg needs etcd
  hosts: kube_node
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
`+own("Pg", `    - name: needs
      group_by:
        key: _needs
      when:
        - net in ["cilium", "flannel"]
`)+`- name: Px etcd
  hosts: etcd:_needs
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - { role: etcdr, tags: etcd`+etcdParams+` }
`+own("Px", "")+`- name: P1 prepare
  hosts: k8s_cluster:etcd
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - { role: engine, tags: engine, when: deploy_engine }
`+own("P1", "")+`- name: P2 control plane
  hosts: kube_control_plane
  gather_facts: false
  roles:
    - { role: kubespray_defaults }
    - { role: cp, tags: cp }
`+own("P2", ""))
	if r2.IntN(3) == 0 {
		// The group the Pg play's group_by adds has group_vars: the play's tasks below it
		// and the later plays see them.
		write("inv/group_vars/_needs.yml", "---\n"+own2vals(""))
	}
	// kubespray_defaults: the switches, deploy_engine templated over group_names as
	// kubespray's deploy_container_engine is.
	write("ks/roles/kubespray_defaults/defaults/main/main.yml", "---\n"+vals("")+
		"deploy_engine: \"{{ 'k8s_cluster' in group_names }}\"\nnet: "+nets[r.IntN(3)]+
		fmt.Sprintf("\nc1_enabled: %v\nmgr: %s\n", r.IntN(2) == 0, []string{"a", "b"}[r.IntN(2)]))
	write("ks/roles/kubespray_defaults/vars/main.yml", "---\n"+vals(""))
	write("ks/roles/kubespray_defaults/tasks/main.yml", marker("kubespray_defaults/tasks/main.yml"))
	role("etcdr", map[string]string{"main.yml": ""}, "")
	role("engine", map[string]string{"main.yml": `- name: Validate
  import_role:
    name: validate
    tasks_from: check
- name: Runtimes
  include_role:
    name: "rt_{{ item.role }}"
  loop:
    - { role: one, enabled: "{{ c1_enabled }}" }
    - { role: two, enabled: true }
  when: item.enabled
- name: Manager
  vars:
    mgr_map: {a: mgr_a, b: mgr_b}
  include_role:
    name: "{{ mgr_map[mgr] }}"
- import_tasks: sub.yml
- include_tasks: other.yml
  when: net == 'cilium'
`, "sub.yml": "", "other.yml": ""}, "dependencies:\n  - role: engine_common\n")
	role("engine_common", map[string]string{"main.yml": ""}, "")
	role("validate", map[string]string{"main.yml": "", "check.yml": ""}, "")
	role("rt_one", map[string]string{"main.yml": ""}, "")
	role("rt_two", map[string]string{"main.yml": ""}, "dependencies:\n  - role: rt_dep\n")
	role("rt_dep", map[string]string{"main.yml": ""}, "")
	role("mgr_a", map[string]string{"main.yml": "", "extra.yml": ""}, "")
	write("ks/roles/mgr_a/defaults/alt.yml", "---\n"+vals(""))
	role("mgr_b", map[string]string{"main.yml": "- include_role:\n    name: nested\n"}, "")
	role("nested", map[string]string{"main.yml": ""}, "dependencies:\n  - nested_dep\n")
	role("nested_dep", map[string]string{"main.yml": ""}, "")
	params := ""
	if r.IntN(2) == 0 {
		params = ", " + vars[r.IntN(len(vars))] + ": param"
	}
	role("cp", map[string]string{"main.yml": `- name: Extra
  include_role:
    name: mgr_a
    tasks_from: extra
    defaults_from: alt
- name: Again
  import_role:
    name: cp_dep
`}, "dependencies:\n  - { role: cp_dep"+params+" }\n")
	role("cp_dep", map[string]string{"main.yml": ""}, "")
	if r.IntN(3) == 0 {
		extra = append(extra, vars[r.IntN(len(vars))]+"=fromcli")
	}
	return vars, extra
}

// playOwn gives, for each play, the play's own parts drawn from r: vars: and vars_files:
// (a file in the playbook's vars/ folder, beside it, or both; written plainly or as a
// first-found list) setting some of vars (strings, and values PyYAML reads as other
// types); a group_by in pre_tasks whose group has group_vars; a marker in pre_tasks,
// tasks (after the play's own tasks, written in tasks) and post_tasks; in tasks, a block
// with vars: (and when:, or not) around a marker (with task vars of its own or not), and
// an include_tasks or import_tasks of a file beside the playbook (with vars:, with when:,
// or not); an include_role or import_role of own_role in tasks and in post_tasks (so
// maybe twice in a play), with vars: or not. The markers are named "<playbook>:<section>" for the playbook's own tasks,
// "playbooks/<file>" for an included one. The second result sets some of vars from r
// (for other files).
func playOwn(r *rand.Rand, vars []string, write func(p, content string), marker func(string) string) (func(play, tasks string) string, func(indent string) string) {
	n := 0
	vals := func(indent string) string {
		var b strings.Builder
		for _, v := range vars {
			if r.IntN(4) == 0 {
				n++
				// Some of YAML 1.1's types as PyYAML reads them (yes, an octal, a list).
				val := []string{"own%d", "%d", "yes", "[own%d, 1]", "0%d", "'%d'"}[r.IntN(6)]
				if strings.Contains(val, "%") {
					val = fmt.Sprintf(val, n)
				}
				fmt.Fprintf(&b, "%s%s: %s\n", indent, v, val)
			}
		}
		return b.String()
	}
	// indent puts a task written at column 0 under a section's list.
	indent := func(s, pre string) string {
		lines := strings.SplitAfter(s, "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = pre + l
			}
		}
		return strings.Join(lines, "")
	}
	const pb = "playbooks/cluster.yml"
	wroteRole := false
	return func(play, tasks string) string {
		var b strings.Builder
		if r.IntN(2) == 0 {
			if v := vals("    "); v != "" {
				b.WriteString("  vars:\n" + v)
			}
		}
		if r.IntN(2) == 0 {
			f := "vf_" + play + ".yml"
			// ansible reads a vars_files name in the playbook's vars/ folder first, then
			// beside the playbook: one there, one beside, or both (the one beside unread).
			switch r.IntN(3) {
			case 0:
				write("ks/playbooks/vars/"+f, "---\n"+vals(""))
			case 1:
				write("ks/playbooks/"+f, "---\n"+vals(""))
			default:
				write("ks/playbooks/vars/"+f, "---\n"+vals(""))
				write("ks/playbooks/"+f, "---\n"+vals(""))
			}
			if r.IntN(3) == 0 {
				// A list entry loads the first file found.
				fmt.Fprintf(&b, "  vars_files:\n    - [missing_%s.yml, %s]\n", play, f)
			} else {
				fmt.Fprintf(&b, "  vars_files:\n    - %s\n", f)
			}
		}
		pre := ""
		if r.IntN(4) == 0 {
			// A group pre_tasks adds, with group_vars: the tasks below it, the play's
			// roles and the later plays see them.
			g := "own_" + play
			write("inv/group_vars/"+g+".yml", "---\n"+vals(""))
			pre += "    - group_by:\n        key: " + g + "\n"
		}
		if r.IntN(2) == 0 {
			pre += indent(marker(pb+":pre_tasks"), "    ")
		}
		if pre != "" {
			b.WriteString("  pre_tasks:\n" + pre)
		}
		own := ""
		if r.IntN(2) == 0 {
			own += indent(marker(pb+":tasks"), "    ")
		}
		if r.IntN(2) == 0 {
			m := marker(pb + ":tasks:block")
			if r.IntN(2) == 0 {
				if v := vals("    "); v != "" {
					m += "  vars:\n" + v
				}
			}
			own += "    - block:\n" + indent(m, "        ") + "      vars:\n" + vals("        ") + "        unused_block_var: 1\n"
			if r.IntN(3) == 0 {
				own += "      when: net " + []string{"==", "!="}[r.IntN(2)] + " 'cilium'\n"
			}
		}
		if r.IntN(2) == 0 {
			write("ks/playbooks/own_tasks.yml", marker("playbooks/own_tasks.yml"))
			inc := []string{"include_tasks", "import_tasks"}[r.IntN(2)]
			own += "    - " + inc + ": own_tasks.yml\n"
			if r.IntN(2) == 0 {
				if v := vals("        "); v != "" {
					own += "      vars:\n" + v
				}
			}
			if r.IntN(3) == 0 {
				own += "      when: net == 'cilium'\n"
			}
		}
		// ownRole: an include_role or import_role of a role with defaults, from the
		// play's tasks and post_tasks, with vars: (include params, or task vars of an
		// import) or not.
		ownRole := func() string {
			if r.IntN(3) > 0 {
				return ""
			}
			if !wroteRole {
				wroteRole = true
				write("ks/roles/own_role/defaults/main.yml", "---\n"+vals(""))
				write("ks/roles/own_role/tasks/main.yml", marker("own_role/tasks/main.yml"))
			}
			x := "    - " + []string{"include_role", "import_role"}[r.IntN(2)] + ":\n        name: own_role\n"
			if v := vals("        "); v != "" {
				x += "      vars:\n" + v
			}
			return x
		}
		own += ownRole()
		if tasks+own != "" {
			b.WriteString("  tasks:\n" + tasks + own)
		}
		post := ""
		if r.IntN(2) == 0 {
			post += indent(marker(pb+":post_tasks"), "    ")
		}
		post += ownRole()
		if post != "" {
			b.WriteString("  post_tasks:\n" + post)
		}
		return b.String()
	}, vals
}

// runMarkers runs the tree and returns play -> roles-relative file -> host -> the values
// each run of the file's marker printed, in order (skipped runs left out).
func runMarkers(t *testing.T, dir string, extra []string) map[string]map[string]map[string][]map[string][2]string {
	args := []string{"-i", filepath.Join(dir, "inv", "hosts.ini")}
	for _, e := range extra {
		args = append(args, "-e", e)
	}
	return runMarkersIn(t, dir, filepath.Join(dir, "ks"), args)
}

// runMarkersIn runs ks/cluster.yml with args; on the real tree (strict false) a failed run
// still gives its output.
func runMarkersIn(t *testing.T, dir, ks string, args []string) map[string]map[string]map[string][]map[string][2]string {
	strict := filepath.Base(ks) == "ks" && !strings.Contains(dir, "real-sites") && os.Getenv("K3SCONF_KUBESPRAY_DIR") == ""
	args = append(args, "cluster.yml")
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Dir = ks
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8",
		"ANSIBLE_CONFIG=" + filepath.Join(ks, "ansible.cfg"),
		"ANSIBLE_LOCAL_TEMP=" + filepath.Join(dir, "tmp"), "ANSIBLE_REMOTE_TEMP=" + filepath.Join(dir, "rtmp"),
		"ANSIBLE_HOME=" + filepath.Join(dir, "ahome"), "ANSIBLE_STDOUT_CALLBACK=json", "ANSIBLE_NOCOLOR=1",
		"ANSIBLE_CACHE_PLUGIN=memory", "ANSIBLE_CALLBACKS_ENABLED=",
		"ANSIBLE_RETRY_FILES_ENABLED=0", "ANSIBLE_DEPRECATION_WARNINGS=0", "ANSIBLE_LOCALHOST_WARNING=0"}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		if strict {
			t.Fatalf("ansible-playbook: %v\n%s\n%s", err, msg, out)
		}
		t.Logf("ansible-playbook: %v\n%s", err, lastLines(msg, 20))
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
					Msg     any  `json:"msg"`
					Skipped bool `json:"skipped"`
				} `json:"hosts"`
			} `json:"tasks"`
		} `json:"plays"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("ansible output: %v", err)
	}
	res := map[string]map[string]map[string][]map[string][2]string{}
	for _, p := range doc.Plays {
		for _, task := range p.Tasks {
			_, file, ok := strings.Cut(task.Task.Name, "M ")
			if !ok {
				continue
			}
			if res[p.Play.Name] == nil {
				res[p.Play.Name] = map[string]map[string][]map[string][2]string{}
			}
			if res[p.Play.Name][file] == nil {
				res[p.Play.Name][file] = map[string][]map[string][2]string{}
			}
			for h, hr := range task.Hosts {
				if hr.Skipped {
					continue
				}
				s, _ := hr.Msg.(string)
				var m map[string]*[2]string
				if err := json.Unmarshal([]byte(s), &m); err != nil {
					if strict {
						t.Fatalf("play %s host %s: %v: %v", p.Play.Name, h, err, hr.Msg)
					}
					// Its inherited when: failed to evaluate (a registered result the
					// marker copy no longer has): ansible decided nothing there.
					t.Logf("play %s task %s host %s: the marker's condition failed: %v", p.Play.Name, task.Task.Name, h, short(fmt.Sprint(hr.Msg)))
					continue
				}
				vals := map[string][2]string{}
				for k, v := range m {
					if v != nil {
						ty := v[1]
						switch ty {
						case "AnsibleUnicode", "AnsibleUnsafeText", "str":
							ty = "str"
						}
						vals[k] = [2]string{v[0], ty}
					}
				}
				res[p.Play.Name][file][h] = append(res[p.Play.Name][file][h], vals)
			}
		}
	}
	return res
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
