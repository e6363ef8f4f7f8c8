package kubespray

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/ansible"
)

// The run-time differential harness: a tree whose use sites are marker tasks named
// "U <label>" that print every variable of the comparison ({{ {…} | to_json }}, as the
// other differentials do); explain's value at each marker is compared with what
// ansible-playbook printed there.

// markerTask is a marker task printing vars.
func markerTask(label string, vars []string, indent string) string {
	return indent + "- name: U " + label + "\n" + indent + "  debug:\n" + indent + "    msg: \"{{ {" + dumpItems(vars) + "} | to_json }}\"\n"
}

// rtSite is one variable at one marker: what explain says and what ansible printed.
type rtSite struct {
	Label, Var string
	// Explain: the value (PyJSON, "undefined") and type explain gives; Decided: no
	// run-time set before the site is undecided; Candidates: the values it names when not
	// decided (the static one and each undecided set's known value); Open: an undecided
	// set's value is not known (anything may come).
	Explain, Type string
	Decided       bool
	Candidates    []string
	Open          bool
	// Ansible: what ansible-playbook printed ("undefined", or to_json), AnsibleType its
	// type_debug.
	Ansible, AnsibleType string
	Ran                  bool
}

// Agrees: a decided site has ansible's value and type; an undecided one names it among
// its candidates (or leaves the value open).
func (s rtSite) Agrees() bool {
	if !s.Ran {
		return false
	}
	if s.Decided {
		return s.Explain == s.Ansible && (s.Ansible == "undefined" || s.Type == s.AnsibleType)
	}
	if s.Open {
		return true
	}
	for _, c := range s.Candidates {
		if c == s.Ansible {
			return true
		}
	}
	return false
}

func (s rtSite) String() string {
	d := "decided"
	if !s.Decided {
		d = fmt.Sprintf("undecided (candidates %v, open %v)", s.Candidates, s.Open)
	}
	return fmt.Sprintf("%s at %q: explain %s (%s) %s; ansible-playbook %s (%s)", s.Var, s.Label, s.Explain, s.Type, d, s.Ansible, s.AnsibleType)
}

func pyJSONOf(v *ansible.Var) (string, string) {
	if v == nil {
		return "undefined", ""
	}
	return ansible.PyJSON(v.Value), ansible.TypeName(v.Value)
}

// explainSites runs explain and returns, per label and variable, what it says at the
// markers the host runs.
func explainSites(t *testing.T, o Options) map[string]map[string]*rtSite {
	t.Helper()
	r, err := Explain(o)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]*rtSite{}
	for _, ex := range r.Vars {
		for _, s := range ex.Sites {
			label, ok := strings.CutPrefix(s.Use.Task, "U ")
			if !ok || s.Use.Kind != "task" || !s.Runs() {
				continue
			}
			if out[label] == nil {
				out[label] = map[string]*rtSite{}
			}
			if out[label][ex.Name] != nil {
				continue // a marker reached again (another role run): the first is compared
			}
			rs := &rtSite{Label: label, Var: ex.Name}
			rs.Explain, rs.Type = pyJSONOf(s.Var)
			und := r.undecided(ex, s)
			rs.Decided = len(und) == 0
			if !rs.Decided {
				rs.Candidates = append(rs.Candidates, rs.Explain)
				for _, u := range und {
					if u.Known {
						rs.Candidates = append(rs.Candidates, ansible.PyJSON(u.Evaluated))
					} else {
						rs.Open = true
					}
				}
			}
			out[label][ex.Name] = rs
		}
	}
	return out
}

// runMarkersRT runs ks/cluster.yml on host with ansible-playbook (connection local), the
// host's facts read from factsDir (ansible's jsonfile fact cache; gather_facts is off in
// the tree), and returns label -> var -> [to_json, type_debug] (nil: undefined) for every
// marker run.
func runMarkersRT(t *testing.T, dir, ks, inv, host, factsDir string, extra []string) map[string]map[string]*[2]string {
	t.Helper()
	return runMarkersHosts(t, dir, ks, inv, host, factsDir, extra)[host]
}

// runMarkersHosts is runMarkersRT for every host the run reaches: limit "" runs the whole
// inventory (a --limit makes each host its play's first, which run_once depends on),
// factsDir "" keeps the facts in memory. host -> label -> var, the first run of a marker
// on a host.
func runMarkersHosts(t *testing.T, dir, ks, inv, limit, factsDir string, extra []string) map[string]map[string]map[string]*[2]string {
	t.Helper()
	args := []string{"-i", inv, "-e", "ansible_connection=local", "-e", "ansible_python_interpreter=/usr/bin/python3"}
	if limit != "" {
		args = append(args, "-l", limit)
	}
	for _, e := range extra {
		args = append(args, "-e", e)
	}
	args = append(args, "cluster.yml")
	cache := []string{"ANSIBLE_CACHE_PLUGIN=memory"}
	if factsDir != "" {
		cache = []string{"ANSIBLE_CACHE_PLUGIN=jsonfile", "ANSIBLE_CACHE_PLUGIN_CONNECTION=" + factsDir, "ANSIBLE_CACHE_PLUGIN_TIMEOUT=0"}
	}
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Dir = ks
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8",
		"ANSIBLE_CONFIG=" + filepath.Join(ks, "ansible.cfg"), "ANSIBLE_ROLES_PATH=" + filepath.Join(ks, "roles"),
		"ANSIBLE_LOCAL_TEMP=" + filepath.Join(dir, "tmp"), "ANSIBLE_REMOTE_TEMP=" + filepath.Join(dir, "rtmp"),
		"ANSIBLE_HOME=" + filepath.Join(dir, "ahome"), "ANSIBLE_STDOUT_CALLBACK=json", "ANSIBLE_NOCOLOR=1",
		"ANSIBLE_CALLBACKS_ENABLED=", "ANSIBLE_RETRY_FILES_ENABLED=0", "ANSIBLE_DEPRECATION_WARNINGS=0", "ANSIBLE_LOCALHOST_WARNING=0"}, cache...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("ansible-playbook %s: %v\n%s\n%s", strings.Join(args, " "), err, msg, lastLines(string(out), 60))
	}
	var doc struct {
		Plays []struct {
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
	res := map[string]map[string]map[string]*[2]string{}
	for _, p := range doc.Plays {
		for _, task := range p.Tasks {
			// A role's task is named "role : U label".
			_, label, ok := strings.Cut(task.Task.Name, "U ")
			if !ok {
				continue
			}
			for h, hr := range task.Hosts {
				if hr.Skipped || res[h][label] != nil {
					continue
				}
				s, _ := hr.Msg.(string)
				var m map[string]*[2]string
				if err := json.Unmarshal([]byte(s), &m); err != nil {
					t.Fatalf("marker %s on %s: %v: %v", label, h, err, hr.Msg)
				}
				for _, v := range m {
					if v != nil {
						switch v[1] {
						case "AnsibleUnicode", "AnsibleUnsafeText", "str":
							v[1] = "str"
						}
					}
				}
				if res[h] == nil {
					res[h] = map[string]map[string]*[2]string{}
				}
				res[h][label] = m
			}
		}
	}
	return res
}

// compareRT joins explain's sites with ansible's markers; a marker one side runs and the
// other does not is a disagreement too.
func compareRT(exp map[string]map[string]*rtSite, got map[string]map[string]*[2]string, vars []string) []rtSite {
	var out []rtSite
	labels := map[string]bool{}
	for l := range exp {
		labels[l] = true
	}
	for l := range got {
		labels[l] = true
	}
	var ls []string
	for l := range labels {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	for _, l := range ls {
		for _, v := range vars {
			s := exp[l][v]
			if s == nil {
				if exp[l] != nil {
					continue // explain does not find the variable's use on this line
				}
				s = &rtSite{Label: l, Var: v, Explain: "(marker not run per explain)", Decided: true}
			}
			if g, ok := got[l]; ok {
				s.Ran = true
				s.Ansible = "undefined"
				if x := g[v]; x != nil {
					s.Ansible, s.AnsibleType = x[0], x[1]
				}
			} else {
				s.Ansible = "(marker not run by ansible-playbook)"
			}
			out = append(out, *s)
		}
	}
	return out
}

// writeFactsCache writes host's facts as ansible's jsonfile fact cache keeps them (and as
// HOST.json, what --facts DIR reads).
func writeFactsCache(t *testing.T, dir, host string, facts map[string]any) {
	t.Helper()
	b, err := json.Marshal(facts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{host, host + ".json"} {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
