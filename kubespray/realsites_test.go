package kubespray

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/ansible"
)

// TestRealCheckoutUseSites compares explain's value at the use sites with what
// ansible-playbook hands the tasks there, on a real kubespray checkout
// (K3SCONF_KUBESPRAY_DIR) with its sample inventory. The checkout is copied and every
// tasks file is rewritten to a marker task that prints the variables its role uses,
// followed by the file's includes, imports and group_by tasks (with their when:, loop:,
// vars: and blocks; ignore_errors on each, since the set_fact results they may test are
// gone) and the setup tasks; handlers are emptied. cluster.yml then runs with
// connection: local on three hosts (control plane + etcd + node, node, etcd only).
// Compared: which tasks files run on which host in which play (files behind a condition
// the walk cannot decide are not counted when ansible did not run them), and the value
// and type of every variable of the marker whose definitions are all literal (a templated
// value is shown as written, ansible prints it rendered). K3SCONF_KUBESPRAY_EXTRA adds
// one -e argument (e.g. kube_network_plugin=cilium).
func TestRealCheckoutUseSites(t *testing.T) {
	src := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if src == "" {
		t.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout to run this test")
	}
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed")
	}
	dir := t.TempDir()
	if os.Getenv("K3SCONF_KEEP") != "" {
		dir, _ = os.MkdirTemp("", "k3sconf-real-sites")
		t.Logf("tree in %s", dir)
	}
	ks := filepath.Join(dir, "ks")
	for _, p := range []string{"roles", "playbooks", "library", "plugins"} {
		if err := os.CopyFS(filepath.Join(ks, p), os.DirFS(filepath.Join(src, p))); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"cluster.yml", "ansible.cfg"} {
		data, err := os.ReadFile(filepath.Join(src, p))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(ks, p), data, 0o644)
	}
	invDir := filepath.Join(dir, "inv")
	if err := os.CopyFS(invDir, os.DirFS(filepath.Join(src, "inventory/sample"))); err != nil {
		t.Fatal(err)
	}
	ini := filepath.Join(invDir, "inventory.ini")
	os.WriteFile(ini, []byte("[kube_control_plane]\nnode1\n[etcd:children]\nkube_control_plane\n[etcd]\nnode3\n[kube_node]\nnode1\nnode2\n"+
		"[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\n"), 0o644)
	var extra []string
	if e := os.Getenv("K3SCONF_KUBESPRAY_EXTRA"); e != "" {
		extra = append(extra, e)
	}

	c, err := Load(ks)
	if err != nil {
		t.Fatal(err)
	}
	literal := literalNames(t, ks, invDir)
	for _, p := range c.Plays {
		for _, d := range p.Vars {
			if ansible.IsTemplated(d.Value) {
				literal[d.Name] = false
			}
		}
	}
	roles := c.roleDirs()
	// Per role: the literal-only names its tasks, templates and handlers mention.
	used := map[string][]string{}
	word := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	for _, r := range roles {
		seen := map[string]bool{}
		for _, sub := range []string{"tasks", "templates", "handlers"} {
			filepath.WalkDir(filepath.Join(ks, "roles", r, sub), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				data, _ := os.ReadFile(p)
				for _, w := range word.FindAllString(string(data), -1) {
					if literal[w] && !seen[w] {
						seen[w] = true
						used[r] = append(used[r], w)
					}
				}
				return nil
			})
		}
		sort.Strings(used[r])
	}
	// Rewrite the tasks files.
	rolesDir := filepath.Join(ks, "roles")
	rewritten := 0
	filepath.WalkDir(rolesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			return nil
		}
		rel, _ := filepath.Rel(rolesDir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		at := -1
		for i, s := range parts {
			if s == "tasks" || s == "handlers" {
				at = i
				break
			}
		}
		if at < 1 {
			return nil
		}
		role := strings.Join(parts[:at], "/")
		if parts[at] == "handlers" {
			os.WriteFile(p, []byte("[]\n"), 0o644)
			return nil
		}
		if role == "dynamic_groups" {
			return nil // kept as it is: the groups it adds are what is compared
		}
		data, _ := os.ReadFile(p)
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
			return nil
		}
		out := markerTasks(deAlias(doc.Content[0]))
		m := fmt.Sprintf("- name: \"M %s\"\n  ignore_errors: true\n  debug:\n    msg: \"{{ {%s} | to_json }}\"\n", filepath.ToSlash(rel), dumpItems(used[role]))
		var mk yaml.Node
		yaml.Unmarshal([]byte(m), &mk)
		out.Content = append([]*yaml.Node{mk.Content[0].Content[0]}, out.Content...)
		b, _ := yaml.Marshal(out)
		os.WriteFile(p, b, 0o644)
		rewritten++
		return nil
	})
	// Play-level tasks of the playbooks: only includes, group_by and setup are kept.
	filepath.WalkDir(filepath.Join(ks, "playbooks"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yml") {
			return nil
		}
		data, _ := os.ReadFile(p)
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
			return nil
		}
		doc.Content[0] = deAlias(doc.Content[0])
		for _, play := range doc.Content[0].Content {
			for i := 0; i+1 < len(play.Content); i += 2 {
				switch play.Content[i].Value {
				case "pre_tasks", "tasks", "post_tasks":
					play.Content[i+1] = markerTasks(play.Content[i+1])
				case "any_errors_fatal":
					play.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Value: "false"}
				}
			}
		}
		b, _ := yaml.Marshal(doc.Content[0])
		os.WriteFile(p, b, 0o644)
		return nil
	})
	t.Logf("%d tasks files rewritten to markers", rewritten)

	args := []string{"-i", ini, "-f", "1"}
	for _, e := range extra {
		args = append(args, "-e", e)
	}
	want := runMarkersIn(t, dir, ks, args)
	var xs []ansible.ExtraVars
	for i, e := range extra {
		x, _ := ansible.ParseExtraVars(e, i+1)
		xs = append(xs, x)
	}
	files, cases, agree, unsureSkipped := 0, 0, 0, 0
	for _, h := range []string{"node1", "node2", "node3"} {
		hr, err := c.Tasks().Run([]string{ini}, h, xs, nil)
		if err != nil {
			t.Fatal(err)
		}
		type run struct {
			f  *FileRun
			pr *PlayRun
		}
		got := map[string]map[string][]run{}
		unsure := map[string]bool{}
		for _, pr := range hr.Plays {
			for _, f := range pr.Files {
				if f.Handlers || f.Role == nil {
					continue
				}
				rel, _ := filepath.Rel(rolesDir, f.File)
				rel = filepath.ToSlash(rel)
				if len(f.Unsure) > 0 || pr.Unsure != "" {
					unsure[pr.Play.Name+"\x00"+rel] = true
				}
				if f.Skip != "" || !pr.Runs || strings.HasPrefix(rel, "dynamic_groups/") {
					continue
				}
				if got[pr.Play.Name] == nil {
					got[pr.Play.Name] = map[string][]run{}
				}
				got[pr.Play.Name][rel] = append(got[pr.Play.Name][rel], run{f, pr})
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
					unsureSkipped++
					continue
				}
				t.Errorf("host %s play %q file %s: k3sconf runs it %d times, ansible %d", h, p, f, len(g), len(wv))
				continue
			}
			for i := range g {
				files++
				res := hr.Resolve(g[i].pr, g[i].f.Role, g[i].f.Epoch)
				role := f[:strings.Index(f, "/tasks/")]
				for _, v := range used[role] {
					cases++
					gv, gok := [2]string{}, false
					if x := res.Var(v); x != nil {
						gv, gok = [2]string{ansible.PyJSON(x.Value), ansible.TypeName(x.Value)}, true
					}
					av, aok := wv[i][v]
					if gok != aok || gv != av {
						src := ""
						if x := res.Var(v); x != nil {
							src = x.Source.Level + " " + x.Source.Pos.String()
						}
						t.Errorf("host %s play %q file %s (%s) var %s: k3sconf %v (defined %v, %s), ansible %v (defined %v)", h, p, f, g[i].f.Role.Path(), v, gv, gok, src, av, aok)
						continue
					}
					agree++
				}
			}
		}
	}
	t.Logf("real checkout: %d play×host×file runs compared, %d file×variable cases, %d agree; %d file runs behind undecided conditions not counted", files, cases, agree, unsureSkipped)
}

// markerTasks keeps, of a task list, the includes, imports, group_by and setup tasks
// (blocks filtered the same way), each with ignore_errors.
func markerTasks(seq *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.SequenceNode}
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return out
	}
	for _, t := range seq.Content {
		if t.Kind != yaml.MappingNode {
			continue
		}
		keep, block := false, false
		for i := 0; i+1 < len(t.Content); i += 2 {
			switch strings.TrimPrefix(t.Content[i].Value, "ansible.builtin.") {
			case "block", "rescue", "always":
				block = true
				t.Content[i+1] = markerTasks(t.Content[i+1])
			case "import_tasks", "include_tasks", "include", "import_role", "include_role", "group_by", "setup":
				keep = true
			}
		}
		if block {
			n := 0
			for i := 0; i+1 < len(t.Content); i += 2 {
				switch t.Content[i].Value {
				case "block", "rescue", "always":
					n += len(t.Content[i+1].Content)
				}
			}
			if n > 0 {
				out.Content = append(out.Content, t)
			}
			continue
		}
		if keep {
			nt := &yaml.Node{Kind: yaml.MappingNode}
			for i := 0; i+1 < len(t.Content); i += 2 {
				switch t.Content[i].Value {
				case "notify", "register", "ignore_errors", "failed_when", "changed_when", "until", "retries", "delay":
					continue
				}
				nt.Content = append(nt.Content, t.Content[i], t.Content[i+1])
			}
			nt.Content = append(nt.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "ignore_errors"}, &yaml.Node{Kind: yaml.ScalarNode, Value: "true"})
			out.Content = append(out.Content, nt)
		}
	}
	return out
}

// literalNames are the variables every definition of which (role defaults and vars, the
// sample inventory's group_vars) is literal.
func literalNames(t *testing.T, ks, inv string) map[string]bool {
	state := map[string]bool{}
	visit := func(p string) {
		defs, err := ansible.LoadVarsFile(p)
		if err != nil {
			return
		}
		for _, d := range defs {
			lit := !strings.Contains(ansible.PyJSON(d.Value), "{{") && !strings.Contains(ansible.PyJSON(d.Value), "{%")
			if prev, ok := state[d.Name]; ok {
				state[d.Name] = prev && lit
			} else {
				state[d.Name] = lit
			}
		}
	}
	filepath.WalkDir(filepath.Join(ks, "roles"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if strings.Contains(p, "/defaults/") || strings.Contains(p, "/vars/") {
			visit(p)
		}
		return nil
	})
	filepath.WalkDir(filepath.Join(inv, "group_vars"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			visit(p)
		}
		return nil
	})
	out := map[string]bool{}
	for k, v := range state {
		if v {
			out[k] = true
		}
	}
	return out
}

// deAlias replaces YAML aliases by copies of what they name (the anchor may sit in a task
// the marker copy drops).
func deAlias(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		return deAlias(n.Alias)
	}
	c := *n
	c.Anchor = ""
	c.Content = nil
	for _, x := range n.Content {
		c.Content = append(c.Content, deAlias(x))
	}
	return &c
}
