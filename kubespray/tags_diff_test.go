package kubespray

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDifferentialTags generates playbook trees in which every task and handler is a
// marker (a debug task named M<n> or H<n>), runs ansible-playbook with --tags T for every
// tag the tree has (and always, never, all, tagged, untagged, a tag nothing has) and with
// some --skip-tags, and compares the markers that ran with the tasks TaskNode.Selected
// picks and the handlers they notify. The trees mix play, role-entry, meta-dependency,
// block and task tags, import_tasks/include_tasks (with apply:), import_role/include_role
// (with tasks_from: and apply:), always and never, handlers notified by name, by
// "role : name" and by listen: topic, handlers notifying handlers, handlers tagged never or
// skipped, roles and files nothing loads. go test runs 1 tree with 4 selections by default
// (an ansible-playbook run costs about 2.4 s of CPU on a quiet machine, 5.6 s measured on
// a busy one: the time budget of docs/testing.md), CI 2 trees;
// K3SCONF_TAGS_DIFF_N sets the number of trees and K3SCONF_TAGS_DIFF_ALL=1 runs every
// selection.
func TestDifferentialTags(t *testing.T) {
	t.Parallel() // ansible-playbook runs: overlaps the package's other runs (2 cores)
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Skip("ansible-playbook not installed (apt-get install ansible-core); the tags differential test is skipped")
	}
	n := 1
	if s := os.Getenv("K3SCONF_TAGS_DIFF_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	all := os.Getenv("K3SCONF_TAGS_DIFF_ALL") != ""
	var mu sync.Mutex
	runs, agree, cases := 0, 0, 0
	t.Cleanup(func() {
		t.Logf("tags differential: %d trees, %d ansible-playbook runs (%d agree), %d task/handler×selection cases", n, runs, agree, cases)
	})
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			// A lone tree runs in this test's own slot: as a parallel subtest it would queue
			// behind every other parallel test of the package and end it alone.
			if n > 1 {
				t.Parallel()
			}
			dir, err := os.MkdirTemp("", "k3sconf-tags-diff")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if !t.Failed() {
					os.RemoveAll(dir)
				}
			})
			r := rand.New(rand.NewPCG(uint64(seed), 2114))
			g := &tagGen{r: r, dir: filepath.Join(dir, "ks")}
			g.tree(t)
			c, err := Load(g.dir)
			if err != nil {
				t.Fatal(err)
			}
			tt := c.compileTasks()
			var sels [][2][]string
			for _, tg := range append(append([]string(nil), tt.Tags...), "always", "never", "all", "tagged", "untagged", "nosuch") {
				sels = append(sels, [2][]string{{tg}, nil})
			}
			for i := 0; i < 3 && len(tt.Tags) > 0; i++ {
				sk := []string{tt.Tags[r.IntN(len(tt.Tags))]}
				if i == 1 {
					sk = []string{"always"}
				}
				if i == 2 {
					sk = append(sk, "never")
				}
				sels = append(sels, [2][]string{nil, sk})
				sels = append(sels, [2][]string{{tt.Tags[r.IntN(len(tt.Tags))], "always"}, sk})
			}
			if !all {
				// Four of them, chosen by the seed, the last (--tags T,always --skip-tags S)
				// kept.
				r.Shuffle(len(sels)-1, func(i, j int) { sels[i], sels[j] = sels[j], sels[i] })
				if len(sels) > 4 {
					sels = append(sels[:3], sels[len(sels)-1])
				}
			}
			for _, sel := range sels {
				want := runTagMarkers(t, dir, sel[0], sel[1])
				got := modelMarkers(tt, sel[0], sel[1])
				mu.Lock()
				runs++
				cases += g.n
				mu.Unlock()
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("--tags %v --skip-tags %v: markers that ran (-ansible +k3sconf):\n%s", sel[0], sel[1], d)
					continue
				}
				mu.Lock()
				agree++
				mu.Unlock()
			}
			if t.Failed() {
				t.Logf("tree kept in %s", dir)
			}
		})
	}
}

// modelMarkers is what k3sconf says runs: the selected marker tasks, and the handlers they
// notify (debug markers with changed_when: true always report changed).
func modelMarkers(tt *TaskTree, only, skip []string) []string {
	seen := map[string]bool{}
	for _, pl := range tt.Plays {
		for _, n := range pl.Tasks {
			if n.Include || !n.Selected(only, skip) {
				continue
			}
			seen[n.Name] = true
			for _, h := range pl.Notified(n) {
				seen[h.Handler.Name] = true
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

var reTaskLine = regexp.MustCompile(`^(?:TASK|RUNNING HANDLER) \[(?:.* : )?([MH]\d+)\]`)

func runTagMarkers(t *testing.T, dir string, only, skip []string) []string {
	t.Helper()
	args := []string{"-i", "localhost,", "cluster.yml"}
	if len(only) > 0 {
		args = append(args, "--tags", strings.Join(only, ","))
	}
	if len(skip) > 0 {
		args = append(args, "--skip-tags", strings.Join(skip, ","))
	}
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Dir = filepath.Join(dir, "ks")
	cmd.Env = ansibleEnv(dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ansible-playbook %v: %v\n%s", args, err, out)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := reTaskLine.FindStringSubmatch(sc.Text()); m != nil {
			seen[m[1]] = true
		}
	}
	res := []string{}
	for k := range seen {
		res = append(res, k)
	}
	sort.Strings(res)
	return res
}

func ansibleEnv(dir string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8",
		"ANSIBLE_CONFIG=" + filepath.Join(dir, "none.cfg"),
		"ANSIBLE_LOCAL_TEMP=" + filepath.Join(dir, "tmp"), "ANSIBLE_REMOTE_TEMP=" + filepath.Join(dir, "rtmp"),
		"ANSIBLE_HOME=" + filepath.Join(dir, "ahome"), "ANSIBLE_NOCOLOR=1", "ANSIBLE_FORCE_COLOR=0",
		"ANSIBLE_RETRY_FILES_ENABLED=0", "ANSIBLE_DEPRECATION_WARNINGS=0", "ANSIBLE_LOCALHOST_WARNING=0",
		"ANSIBLE_INVENTORY_UNPARSED_WARNING=0", "ANSIBLE_ROLES_PATH=" + filepath.Join(dir, "ks", "roles")}
}

// tagGen writes one marker tree.
type tagGen struct {
	r     *rand.Rand
	dir   string
	n     int // markers written
	roles []string
	// handlers[role] are the role's handler names and listen topics.
	handlers map[string][]string
	topics   map[string][]string
}

var genTags = []string{"t0", "t1", "t2", "t3", "t4", "always", "never"}

func (g *tagGen) write(t *testing.T, p, content string) {
	p = filepath.Join(g.dir, p)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (g *tagGen) tagList() string {
	k := g.r.IntN(4)
	if k == 0 {
		return ""
	}
	var ts []string
	for i := 0; i < k-1 || i == 0; i++ {
		// always and never are rarer than the others.
		tg := genTags[g.r.IntN(5)]
		if g.r.IntN(8) == 0 {
			tg = genTags[5+g.r.IntN(2)]
		}
		ts = appendUniq(ts, tg)
	}
	if g.r.IntN(3) == 0 {
		return strings.Join(ts, ",")
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

func (g *tagGen) tagsLine(indent string) string {
	if s := g.tagList(); s != "" {
		return indent + "tags: " + s + "\n"
	}
	return ""
}

// marker is a debug task; it notifies a handler of role (or of the play) now and then.
func (g *tagGen) marker(indent, role string) string {
	g.n++
	var b strings.Builder
	fmt.Fprintf(&b, "%s- name: M%d\n%s  debug: msg=M%d\n", indent, g.n, indent, g.n)
	b.WriteString(g.tagsLine(indent + "  "))
	hs := g.handlers[role]
	if len(hs) > 0 && g.r.IntN(3) == 0 {
		var notify []string
		for _, h := range hs {
			if g.r.IntN(2) == 0 {
				notify = append(notify, h)
			}
		}
		if ts := g.topics[role]; len(ts) > 0 && g.r.IntN(2) == 0 {
			notify = append(notify, ts[g.r.IntN(len(ts))])
		}
		if len(notify) > 0 {
			fmt.Fprintf(&b, "%s  changed_when: true\n%s  notify: [%s]\n", indent, indent, strings.Join(quoteAll(notify), ", "))
		}
	}
	return b.String()
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "'" + x + "'"
	}
	return out
}

// items writes a task list for a file of role ri at level (0 main, 1 extra, 2 other):
// markers, blocks, and imports/includes of deeper files or later roles.
func (g *tagGen) items(ri, level, depth int, indent string) string {
	role := g.roles[ri]
	var b strings.Builder
	for k := 1 + g.r.IntN(4); k > 0; k-- {
		switch x := g.r.IntN(10); {
		case x < 4 || depth > 1:
			b.WriteString(g.marker(indent, role))
		case x < 5:
			fmt.Fprintf(&b, "%s- name: blk\n", indent)
			b.WriteString(g.tagsLine(indent + "  "))
			fmt.Fprintf(&b, "%s  block:\n", indent)
			b.WriteString(g.items(ri, level, depth+1, indent+"    "))
			if g.r.IntN(3) == 0 {
				fmt.Fprintf(&b, "%s  always:\n", indent)
				b.WriteString(g.marker(indent+"    ", role))
			}
		case x < 7 && level < 2:
			file := []string{"extra.yml", "other.yml"}[level]
			if level == 0 && g.r.IntN(2) == 0 {
				file = "other.yml"
			}
			if g.r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s- import_tasks: %s\n", indent, file)
				b.WriteString(g.tagsLine(indent + "  "))
			} else {
				fmt.Fprintf(&b, "%s- include_tasks:\n%s    file: %s\n", indent, indent, file)
				if s := g.tagList(); s != "" && g.r.IntN(2) == 0 {
					fmt.Fprintf(&b, "%s    apply:\n%s      tags: %s\n", indent, indent, s)
				}
				b.WriteString(g.tagsLine(indent + "  "))
			}
		case ri+1 < len(g.roles):
			target := ri + 1 + g.r.IntN(len(g.roles)-ri-1)
			kind := []string{"import_role", "include_role"}[g.r.IntN(2)]
			fmt.Fprintf(&b, "%s- %s:\n%s    name: %s\n", indent, kind, indent, g.roles[target])
			if g.r.IntN(3) == 0 {
				fmt.Fprintf(&b, "%s    tasks_from: %s\n", indent, []string{"extra", "other"}[g.r.IntN(2)])
			}
			if s := g.tagList(); kind == "include_role" && s != "" && g.r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s    apply:\n%s      tags: %s\n", indent, indent, s)
			}
			b.WriteString(g.tagsLine(indent + "  "))
		default:
			b.WriteString(g.marker(indent, role))
		}
	}
	return b.String()
}

func (g *tagGen) tree(t *testing.T) {
	nr := 3 + g.r.IntN(4)
	g.handlers, g.topics = map[string][]string{}, map[string][]string{}
	for i := 0; i < nr; i++ {
		name := fmt.Sprintf("r%d", i)
		if g.r.IntN(3) == 0 {
			name = "grp/" + name
		}
		g.roles = append(g.roles, name)
	}
	hn := 0
	for i, role := range g.roles {
		// Handlers: some listen to a topic, some notify the next one; their own tags
		// (never, or a tag that is skipped) do not count.
		var hb strings.Builder
		k := g.r.IntN(4)
		for j := 0; j < k; j++ {
			hn++
			h := fmt.Sprintf("H%d", hn)
			fmt.Fprintf(&hb, "- name: %s\n  debug: msg=%s\n  changed_when: true\n", h, h)
			if g.r.IntN(3) == 0 {
				fmt.Fprintf(&hb, "  tags: [never, t%d]\n", g.r.IntN(5))
			}
			if g.r.IntN(3) == 0 {
				topic := fmt.Sprintf("topic%d", i)
				fmt.Fprintf(&hb, "  listen: %s\n", topic)
				g.topics[role] = appendUniq(g.topics[role], topic)
			}
			if j+1 < k && g.r.IntN(2) == 0 {
				fmt.Fprintf(&hb, "  notify: H%d\n", hn+1)
			}
			if g.r.IntN(3) == 0 {
				g.handlers[role] = append(g.handlers[role], role+" : "+h)
			} else {
				g.handlers[role] = append(g.handlers[role], h)
			}
		}
		if k > 0 {
			g.write(t, "roles/"+role+"/handlers/main.yml", hb.String())
		}
	}
	for i := len(g.roles) - 1; i >= 0; i-- {
		role := g.roles[i]
		g.write(t, "roles/"+role+"/tasks/main.yml", g.items(i, 0, 0, ""))
		g.write(t, "roles/"+role+"/tasks/extra.yml", g.items(i, 1, 0, ""))
		g.write(t, "roles/"+role+"/tasks/other.yml", g.items(i, 2, 0, ""))
		// A file nothing includes: its tags are no tags of the playbook.
		g.write(t, "roles/"+role+"/tasks/unused.yml", "- name: M0\n  debug: msg=M0\n  tags: orphan\n")
		if i+1 < len(g.roles) && g.r.IntN(2) == 0 {
			dep := g.roles[i+1+g.r.IntN(len(g.roles)-i-1)]
			g.write(t, "roles/"+role+"/meta/main.yml", fmt.Sprintf("dependencies:\n  - role: %s\n%s", dep, g.tagsLine("    ")))
		}
	}
	var pb strings.Builder
	pb.WriteString("---\n")
	for p := 0; p < 1+g.r.IntN(2); p++ {
		fmt.Fprintf(&pb, "- name: P%d\n  hosts: localhost\n  connection: local\n  gather_facts: false\n", p)
		pb.WriteString(g.tagsLine("  "))
		if g.r.IntN(2) == 0 {
			pb.WriteString("  pre_tasks:\n")
			pb.WriteString(g.marker("    ", ""))
		}
		pb.WriteString("  roles:\n")
		// Not every role: the last ones are often reached only through includes, or not at
		// all.
		for _, role := range g.roles[:1+g.r.IntN(len(g.roles)-1)] {
			if g.r.IntN(3) == 0 {
				continue
			}
			if s := g.tagList(); s != "" {
				fmt.Fprintf(&pb, "    - role: %s\n      tags: %s\n", role, s)
			} else {
				fmt.Fprintf(&pb, "    - %s\n", role)
			}
		}
		pb.WriteString("  tasks:\n")
		pb.WriteString(g.marker("    ", ""))
	}
	g.write(t, "cluster.yml", pb.String())
}
