package ansible

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The differential test: generated inventories, vars files, roles and extra vars (fixed
// seeds), run through ansible-playbook (a play with connection: local that loads the roles
// and prints every variable with to_json and type_debug), compared value for value and
// type for type with Resolve. Checked against ansible-core 2.14.18 (Debian 12).
var diffN = flag.Int("diff.n", 0, "number of generated ansible-playbook scenarios (default 10, CI 20, or $K3SCONF_ANSIBLE_DIFF_N)")

func diffCount() int {
	if *diffN > 0 {
		return *diffN
	}
	if s := os.Getenv("K3SCONF_ANSIBLE_DIFF_N"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		if n > 0 {
			return n
		}
	}
	return 10 // about 2.4 s of CPU each: docs/testing.md's time budget; CI runs 20
}

// Value pools. Each is written as the input format types it; the expected value comes
// from k3sconf's own loader, the truth from ansible-playbook.
var (
	yamlPool = []string{"yes", "no", "on", "Off", "0644", "1_000", "1e3", "1.5e+3", "2001-01-01", "1:30", "0x1F",
		`"quoted"`, `'single'`, "~", "null", "True", "hello", "[1, a, yes]", "{a: 1, b: [x]}", "08", "-0", ".5",
		"2001-12-14 21:59:43.10 -5", "0b101", "+12", "'0644'", "1.0", "-.inf", "y", "n", "2.14.18", "{}", "[]", "\"\"",
		"0o17", "12_3.4_5", "190:20:30", "!!str 12", "|\n    block\n    text"}
	iniPool = []string{"false", "True", "1", "0644", "1_000", "1e3", "'s'", `"d q"`, "[1,2]", "{'a':1}", "None", "yes",
		"1.2.3", "0o17", "-5", "(1,2)", "abc#x", "0x10", "1.5", `"[1, 'x']"`, "'True'", "\"'True'\"", "x=y", "", "01", "3j"}
	kvPool = []string{"a", "1", "true", `"q v"`, "'sq'", "{}", "[1]", "x=y"}
)

type scenario struct {
	dir, pbDir string
	// playDir is the folder of the file holding the play: pb, or pb/sub when site.yml
	// only imports it (ansible then reads playbook group_vars from pb/sub, not pb).
	playDir string
	invArgs []string
	hosts   []string
	vars    []string
	extra   []string
	roles   []string
}

func genScenario(t *testing.T, seed uint64, root string) *scenario {
	r := rand.New(rand.NewPCG(seed, 13))
	s := &scenario{dir: root, pbDir: filepath.Join(root, "pb")}
	nv := 14 + r.IntN(10)
	for i := 0; i < nv; i++ {
		s.vars = append(s.vars, fmt.Sprintf("v%d", i))
	}
	pick := func() []string {
		var out []string
		for _, v := range s.vars {
			if r.IntN(3) == 0 {
				out = append(out, v)
			}
		}
		return out
	}
	yv := func() string { return yamlPool[r.IntN(len(yamlPool))] }
	yamlVars := func(indent string) string {
		var b strings.Builder
		for _, v := range pick() {
			val := yv()
			if strings.HasPrefix(val, "|") {
				val = strings.ReplaceAll(val, "\n    ", "\n"+indent+"  ")
			}
			fmt.Fprintf(&b, "%s%s: %s\n", indent, v, val)
		}
		return b.String()
	}
	write := func(p, content string) {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ng := 2 + r.IntN(4)
	groups := make([]string, ng)
	for i := range groups {
		groups[i] = fmt.Sprintf("g%c", 'a'+r.IntN(26))
		for j := 0; j < i; j++ {
			if groups[j] == groups[i] {
				groups[i] += fmt.Sprint(i)
			}
		}
	}
	nh := 2 + r.IntN(4)
	for i := 0; i < nh; i++ {
		s.hosts = append(s.hosts, fmt.Sprintf("h%d", i))
	}
	// Group tree: a child has a higher index than its parent (no loops).
	children := map[int][]int{}
	for i := 1; i < ng; i++ {
		if r.IntN(2) == 0 {
			p := r.IntN(i)
			children[p] = append(children[p], i)
		}
	}
	members := map[int][]string{}
	for _, h := range s.hosts {
		for gi := range groups {
			if r.IntN(3) == 0 {
				members[gi] = append(members[gi], h)
			}
		}
	}
	prio := map[int]int{}
	for gi := range groups {
		if r.IntN(4) == 0 {
			prio[gi] = r.IntN(4)
		}
	}
	format := r.IntN(3) // 0 INI file, 1 YAML file, 2 folder of YAML files
	switch format {
	case 0:
		var b strings.Builder
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "%s %s\n", s.hosts[0], iniHostVars(r, pick()))
		}
		for gi, g := range groups {
			fmt.Fprintf(&b, "[%s]\n", g)
			for _, h := range members[gi] {
				fmt.Fprintf(&b, "%s %s\n", h, iniHostVars(r, pick()))
			}
			if len(children[gi]) > 0 {
				fmt.Fprintf(&b, "[%s:children]\n", g)
				for _, c := range children[gi] {
					fmt.Fprintf(&b, "%s\n", groups[c])
				}
			}
			vs := pick()
			_, hasP := prio[gi]
			if len(vs) > 0 || hasP {
				fmt.Fprintf(&b, "[%s:vars]\n", g)
				for _, v := range vs {
					fmt.Fprintf(&b, "%s=%s\n", v, iniPool[r.IntN(len(iniPool))])
				}
				if hasP {
					fmt.Fprintf(&b, "ansible_group_priority=%d\n", prio[gi])
				}
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString("[all:vars]\n")
			for _, v := range pick() {
				fmt.Fprintf(&b, "%s=%s\n", v, iniPool[r.IntN(len(iniPool))])
			}
		}
		write("inv/hosts.ini", b.String())
		s.invArgs = []string{filepath.Join(root, "inv/hosts.ini")}
	default:
		var groupYAML func(gi int, indent string, b *strings.Builder)
		groupYAML = func(gi int, indent string, b *strings.Builder) {
			fmt.Fprintf(b, "%s%s:\n", indent, groups[gi])
			if len(members[gi]) > 0 {
				fmt.Fprintf(b, "%s  hosts:\n", indent)
				for _, h := range members[gi] {
					hv := yamlVars(indent + "      ")
					if hv == "" {
						fmt.Fprintf(b, "%s    %s:\n", indent, h)
					} else {
						fmt.Fprintf(b, "%s    %s:\n%s", indent, h, hv)
					}
				}
			}
			gv := yamlVars(indent + "    ")
			if p, ok := prio[gi]; ok {
				gv += fmt.Sprintf("%s    ansible_group_priority: %d\n", indent, p)
			}
			if gv != "" {
				fmt.Fprintf(b, "%s  vars:\n%s", indent, gv)
			}
			if len(children[gi]) > 0 {
				fmt.Fprintf(b, "%s  children:\n", indent)
				for _, c := range children[gi] {
					// Children are declared by name here and defined at top level.
					fmt.Fprintf(b, "%s    %s:\n", indent, groups[c])
				}
			}
		}
		var docs []string
		var b strings.Builder
		b.WriteString("all:\n")
		if av := yamlVars("    "); av != "" {
			fmt.Fprintf(&b, "  vars:\n%s", av)
		}
		b.WriteString("  children:\n")
		for gi := range groups {
			if format == 2 && gi%2 == 1 {
				continue
			}
			groupYAML(gi, "    ", &b)
		}
		docs = append(docs, b.String())
		if format == 2 {
			var b2 strings.Builder
			b2.WriteString("all:\n  children:\n")
			n := 0
			for gi := range groups {
				if gi%2 == 1 {
					groupYAML(gi, "    ", &b2)
					n++
				}
			}
			if n > 0 {
				docs = append(docs, b2.String())
			}
			for i, d := range docs {
				write(fmt.Sprintf("inv/%02d-hosts.yml", i), d)
			}
			// An .ini file in a folder source is ignored by ansible (INVENTORY_IGNORE_EXTS).
			write("inv/zz.ini", "[ignored]\n"+s.hosts[0]+" v0=999\n")
			s.invArgs = []string{filepath.Join(root, "inv")}
		} else {
			write("inv/hosts.yml", docs[0])
			s.invArgs = []string{filepath.Join(root, "inv/hosts.yml")}
		}
	}
	imported := r.IntN(3) == 0
	s.playDir = s.pbDir
	play := "pb"
	bases := []string{"inv", "pb"}
	if imported {
		s.playDir = filepath.Join(s.pbDir, "sub")
		play = "pb/sub"
		bases = append(bases, play)
	}
	// group_vars/host_vars beside the inventory and beside the playbook(s).
	for _, base := range bases {
		for _, g := range append([]string{"all"}, groups...) {
			if r.IntN(2) == 0 {
				continue
			}
			switch r.IntN(4) {
			case 0:
				write(base+"/group_vars/"+g+".yml", yamlVars(""))
			case 1:
				write(base+"/group_vars/"+g, yamlVars(""))
			case 2:
				write(base+"/group_vars/"+g+"/b.yml", yamlVars(""))
				write(base+"/group_vars/"+g+"/a.yaml", yamlVars(""))
				write(base+"/group_vars/"+g+"/sub/c.yml", yamlVars(""))
				write(base+"/group_vars/"+g+"/skip.txt", "v0: skipped\n")
			case 3:
				// Both forms: the bare name (a folder) is found first and ends the search.
				write(base+"/group_vars/"+g+"/x.yml", yamlVars(""))
				write(base+"/group_vars/"+g+".yml", yamlVars(""))
			}
		}
		for _, h := range s.hosts {
			if r.IntN(3) == 0 {
				write(base+"/host_vars/"+h+".yaml", yamlVars(""))
			}
		}
	}
	// Roles: r1 depends on r3; r2 has vars/main as a folder.
	write(play+"/roles/r3/defaults/main.yml", "---\n"+yamlVars(""))
	write(play+"/roles/r3/vars/main.yml", "---\n"+yamlVars(""))
	write(play+"/roles/r1/meta/main.yml", "dependencies:\n  - r3\n")
	write(play+"/roles/r1/defaults/main.yml", yamlVars(""))
	write(play+"/roles/r1/vars/main.yml", yamlVars(""))
	write(play+"/roles/r1/tasks/main.yml", "- meta: noop\n")
	write(play+"/roles/r3/tasks/main.yml", "- meta: noop\n")
	write(play+"/roles/r2/defaults/main/a.yml", yamlVars(""))
	write(play+"/roles/r2/defaults/main/b.yml", yamlVars(""))
	write(play+"/roles/r2/vars/main/x.yml", yamlVars(""))
	write(play+"/roles/r2/tasks/main.yml", "- meta: noop\n")
	s.roles = []string{"r1", "r2"}
	if r.IntN(2) == 0 {
		s.roles = []string{"r2", "r1"}
	}
	var playText strings.Builder
	fmt.Fprintf(&playText, "- hosts: all\n  connection: local\n  gather_facts: false\n  roles: [%s]\n", strings.Join(s.roles, ", "))
	if pv := yamlVars("    "); pv != "" {
		fmt.Fprintf(&playText, "  vars:\n%s", pv)
	}
	var items []string
	for _, v := range s.vars {
		// to_json fails on a complex (an INI 3j), bytes or set: those compare by type only.
		items = append(items, fmt.Sprintf("'%[1]s': ([(%[1]s | to_json) if (%[1]s | type_debug) not in ['complex', 'bytes', 'set'] else 'unserializable', %[1]s | type_debug] if %[1]s is defined else none)", v))
	}
	fmt.Fprintf(&playText, "  tasks:\n    - debug:\n        msg: \"{{ {%s} | to_json }}\"\n", strings.Join(items, ", "))
	if imported {
		write("pb/sub/play.yml", playText.String())
		write("pb/site.yml", "- import_playbook: sub/play.yml\n")
	} else {
		write("pb/site.yml", playText.String())
	}
	for i := r.IntN(3); i > 0; i-- {
		switch r.IntN(3) {
		case 0:
			var kv []string
			for _, v := range pick() {
				kv = append(kv, v+"="+kvPool[r.IntN(len(kvPool))])
			}
			if len(kv) > 0 {
				s.extra = append(s.extra, strings.Join(kv, " "))
			}
		case 1:
			var kv []string
			for _, v := range pick() {
				kv = append(kv, fmt.Sprintf("%q: %s", v, []string{"1", "true", `"s"`, "1e3", "[1]", "{\"a\": 2}", "null", "1.50"}[r.IntN(8)]))
			}
			s.extra = append(s.extra, "{"+strings.Join(kv, ", ")+"}")
		case 2:
			f := fmt.Sprintf("extra%d.yml", i)
			write(f, "---\n"+yamlVars(""))
			s.extra = append(s.extra, "@"+filepath.Join(root, f))
		}
	}
	return s
}

func iniHostVars(r *rand.Rand, vars []string) string {
	var out []string
	for _, v := range vars {
		val := iniPool[r.IntN(len(iniPool))]
		if strings.ContainsAny(val, " ") && !strings.HasPrefix(val, `"`) {
			val = `"` + val + `"`
		}
		out = append(out, v+"="+val)
	}
	return strings.Join(out, " ")
}

// ansibleEnv keeps ansible from reading the user's configuration and keeps its temporary
// and local folders inside the test's folder.
func ansibleEnv(dir string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8",
		"ANSIBLE_CONFIG=" + filepath.Join(dir, "none.cfg"),
		"ANSIBLE_LOCAL_TEMP=" + filepath.Join(dir, "tmp"),
		"ANSIBLE_REMOTE_TEMP=" + filepath.Join(dir, "rtmp"),
		"ANSIBLE_HOME=" + filepath.Join(dir, "ahome"),
		"ANSIBLE_STDOUT_CALLBACK=json",
		"ANSIBLE_NOCOLOR=1",
		"ANSIBLE_RETRY_FILES_ENABLED=0",
		"ANSIBLE_DEPRECATION_WARNINGS=0",
		"ANSIBLE_LOCALHOST_WARNING=0",
		"ANSIBLE_INVENTORY_UNPARSED_WARNING=0",
		"ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3",
	}
	return env
}

// runAnsible runs the scenario's play and returns host -> var -> [json, type] (absent when
// undefined).
func runAnsible(t *testing.T, s *scenario) (map[string]map[string][2]string, error) {
	args := []string{}
	for _, i := range s.invArgs {
		args = append(args, "-i", i)
	}
	for _, e := range s.extra {
		args = append(args, "-e", e)
	}
	args = append(args, filepath.Join(s.pbDir, "site.yml"))
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Env = ansibleEnv(s.dir)
	cmd.Dir = s.dir
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		return nil, fmt.Errorf("ansible-playbook: %v\n%s\n%s", err, stderr, out)
	}
	var doc struct {
		Plays []struct {
			Tasks []struct {
				Hosts map[string]struct {
					Msg string `json:"msg"`
				} `json:"hosts"`
			} `json:"tasks"`
		} `json:"plays"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, fmt.Errorf("ansible output: %v\n%s", err, out)
	}
	res := map[string]map[string][2]string{}
	if len(doc.Plays) == 0 || len(doc.Plays[0].Tasks) == 0 {
		return res, nil
	}
	for h, r := range doc.Plays[0].Tasks[len(doc.Plays[0].Tasks)-1].Hosts {
		var m map[string]*[2]string
		if err := json.Unmarshal([]byte(r.Msg), &m); err != nil {
			return nil, fmt.Errorf("host %s msg: %v: %s", h, err, r.Msg)
		}
		res[h] = map[string][2]string{}
		for k, v := range m {
			if v != nil {
				res[h][k] = [2]string{v[0], normType(v[1])}
			}
		}
	}
	return res, nil
}

func normType(t string) string {
	switch t {
	case "AnsibleUnicode", "AnsibleUnsafeText", "NativeJinjaUnsafeText", "NativeJinjaText", "str":
		return "str"
	case "AnsibleMapping", "dict":
		return "dict"
	case "AnsibleSequence", "list":
		return "list"
	}
	return t
}

// k3sconfScenario resolves every host of a scenario with this package.
func k3sconfScenario(s *scenario) (map[string]map[string][2]string, error) {
	inv, err := LoadInventory(s.invArgs)
	if err != nil {
		return nil, err
	}
	var roles []*Role
	cache := map[string]*Role{}
	var load func(name string) (*Role, error)
	load = func(name string) (*Role, error) {
		if r, ok := cache[name]; ok {
			return r, nil
		}
		r, err := LoadRole(name, filepath.Join(s.playDir, "roles", name))
		if err != nil {
			return nil, err
		}
		cache[name] = r
		if name == "r1" {
			d, err := load("r3")
			if err != nil {
				return nil, err
			}
			r.Deps = []*Role{d}
		}
		return r, nil
	}
	for _, n := range s.roles {
		r, err := load(n)
		if err != nil {
			return nil, err
		}
		roles = append(roles, r)
	}
	play := &Play{Name: "site", Roles: roles}
	playFile := filepath.Join(s.pbDir, "site.yml")
	if s.playDir != s.pbDir {
		playFile = filepath.Join(s.playDir, "play.yml")
	}
	pb, err := LoadPlaybookVars(playFile)
	if err != nil {
		return nil, err
	}
	play.Vars = pb
	var extra []ExtraVars
	for i, e := range s.extra {
		x, err := ParseExtraVars(e, i+1)
		if err != nil {
			return nil, err
		}
		extra = append(extra, x)
	}
	out := map[string]map[string][2]string{}
	for _, h := range inv.HostOrder {
		res, err := Resolve(Options{Inventory: inv, Host: h, PlaybookDir: s.playDir, Play: play, Extra: extra})
		if err != nil {
			return nil, err
		}
		out[h] = map[string][2]string{}
		for _, v := range s.vars {
			if x, ok := res.Vars[v]; ok {
				j := "unserializable"
				if JSONable(x.Value) {
					j = PyJSON(x.Value)
				}
				out[h][v] = [2]string{j, TypeName(x.Value)}
			}
		}
	}
	return out, nil
}

func TestDifferentialAnsiblePlaybook(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core); the differential test against ansible-core is skipped")
	}
	n := diffCount()
	var mu sync.Mutex
	cases, agree := 0, 0
	t.Cleanup(func() {
		t.Logf("ansible-playbook differential: %d scenarios, %d host×variable cases, %d agree", n, cases, agree)
	})
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			s := genScenario(t, uint64(seed), dir)
			want, err := runAnsible(t, s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := k3sconfScenario(s)
			if err != nil {
				t.Fatalf("k3sconf: %v", err)
			}
			hosts := map[string]bool{}
			for h := range want {
				hosts[h] = true
			}
			for h := range got {
				hosts[h] = true
			}
			var hs []string
			for h := range hosts {
				hs = append(hs, h)
			}
			sort.Strings(hs)
			c, a := 0, 0
			for _, h := range hs {
				for _, v := range s.vars {
					c++
					w, wok := want[h][v]
					g, gok := got[h][v]
					if wok != gok || w != g {
						t.Errorf("host %s var %s: ansible %v (defined %v), k3sconf %v (defined %v)", h, v, w, wok, g, gok)
						continue
					}
					a++
				}
			}
			mu.Lock()
			cases += c
			agree += a
			mu.Unlock()
			if t.Failed() {
				t.Logf("scenario kept in %s", dir)
			}
		})
	}
}
