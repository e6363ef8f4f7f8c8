package runlog

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/internal/ansibletest"
)

// A generated playbook and what the generator knows each task does on each host.
type genPlay struct {
	hosts []string
	yaml  string
	// want is the status of each task per host ("" = no result: never run, or the host
	// failed before it).
	want map[string]map[string]Status
	// hidden: skipped results the text will not show (display_skipped_hosts = no).
	failed string
}

// genPlaybook writes a random playbook: tasks that change on some hosts, stay ok, skip,
// fail and are ignored, fail inside a block and are rescued, loop, notify handlers (by name
// and by listen), are never selected (tag never), and at most one that fails on one host.
func genPlaybook(rng *rand.Rand) genPlay {
	g := genPlay{want: map[string]map[string]Status{}}
	nh := 1 + rng.Intn(3)
	for i := 1; i <= nh; i++ {
		h := "h" + strconv.Itoa(i)
		g.hosts = append(g.hosts, h)
		g.want[h] = map[string]Status{}
	}
	subset := func() []string {
		var s []string
		for _, h := range g.hosts {
			if rng.Intn(2) == 0 {
				s = append(s, h)
			}
		}
		return s
	}
	in := func(hs []string, h string) bool {
		for _, x := range hs {
			if x == h {
				return true
			}
		}
		return false
	}
	list := func(hs []string) string {
		q := make([]string, len(hs))
		for i, h := range hs {
			q[i] = "'" + h + "'"
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString("- name: Generated play\n  hosts: all\n  gather_facts: false\n  tasks:\n")
	failedAt := map[string]bool{} // hosts that failed: no results after
	set := func(h, task string, st Status) {
		if !failedAt[h] {
			g.want[h][task] = st
		}
	}
	notified := map[string]map[string]bool{} // handler -> hosts
	ntasks := 4 + rng.Intn(7)
	hostFailDone := false
	for i := 0; i < ntasks; i++ {
		name := fmt.Sprintf("t%02d", i)
		switch k := rng.Intn(9); {
		case k == 0: // changes on a subset, ok elsewhere
			hs := subset()
			fmt.Fprintf(&b, "    - name: %s changes on some\n      debug: {msg: x}\n      changed_when: inventory_hostname in %s\n", name, list(hs))
			for _, h := range g.hosts {
				st := OK
				if in(hs, h) {
					st = Changed
				}
				set(h, name+" changes on some", st)
			}
		case k == 1: // skipped on a subset
			hs := subset()
			fmt.Fprintf(&b, "    - name: %s skips on some\n      debug: {msg: x}\n      when: inventory_hostname not in %s\n", name, list(hs))
			for _, h := range g.hosts {
				st := OK
				if in(hs, h) {
					st = Skipped
				}
				set(h, name+" skips on some", st)
			}
		case k == 2:
			fmt.Fprintf(&b, "    - name: %s fails ignored\n      fail: {msg: x}\n      ignore_errors: true\n", name)
			for _, h := range g.hosts {
				set(h, name+" fails ignored", Ignored)
			}
		case k == 3:
			fmt.Fprintf(&b, "    - name: %s block\n      block:\n        - name: %s fails rescued\n          fail: {msg: x}\n      rescue:\n        - name: %s rescue\n          debug: {msg: r}\n", name, name, name)
			for _, h := range g.hosts {
				set(h, name+" fails rescued", Rescued)
				set(h, name+" rescue", OK)
			}
		case k == 4: // a loop changing on some items for some hosts
			hs := subset()
			fmt.Fprintf(&b, "    - name: %s loop\n      debug: {msg: \"{{ item }}\"}\n      loop: [a, b, c]\n      changed_when: item == 'b' and inventory_hostname in %s\n", name, list(hs))
			for _, h := range g.hosts {
				st := OK
				if in(hs, h) {
					st = Changed
				}
				set(h, name+" loop", st)
			}
		case k == 5: // notify a handler, by name or by listen, changed on a subset
			hs := subset()
			hd := fmt.Sprintf("handler %d", rng.Intn(2))
			topic := hd
			if rng.Intn(2) == 0 {
				topic = "topic " + hd
			}
			fmt.Fprintf(&b, "    - name: %s notifies\n      debug: {msg: x}\n      changed_when: inventory_hostname in %s\n      notify: %s\n", name, list(hs), topic)
			for _, h := range g.hosts {
				st := OK
				if in(hs, h) {
					st = Changed
					if !failedAt[h] {
						if notified[hd] == nil {
							notified[hd] = map[string]bool{}
						}
						notified[hd][h] = true
					}
				}
				set(h, name+" notifies", st)
			}
		case k == 6:
			fmt.Fprintf(&b, "    - name: %s never\n      debug: {msg: x}\n      tags: [never]\n", name)
		case k == 7 && !hostFailDone && len(g.hosts) > 1:
			hostFailDone = true
			h := g.hosts[rng.Intn(len(g.hosts))]
			fmt.Fprintf(&b, "    - name: %s fails on %s\n      fail: {msg: x}\n      when: inventory_hostname == '%s'\n", name, h, h)
			for _, x := range g.hosts {
				if x == h {
					set(x, name+" fails on "+h, Failed)
					failedAt[x] = true
					g.failed = x
				} else {
					set(x, name+" fails on "+h, Skipped)
				}
			}
		default:
			fmt.Fprintf(&b, "    - name: %s ok\n      debug: {msg: x}\n", name)
			for _, h := range g.hosts {
				set(h, name+" ok", OK)
			}
		}
	}
	b.WriteString("  handlers:\n")
	for i := 0; i < 2; i++ {
		hd := fmt.Sprintf("handler %d", i)
		fmt.Fprintf(&b, "    - name: %s\n      debug: {msg: h}\n      changed_when: true\n      listen: topic %s\n", hd, hd)
		for h := range notified[hd] {
			if !failedAt[h] { // handlers do not run on a host that failed
				g.want[h][hd] = Changed
			}
		}
	}
	g.yaml = b.String()
	return g
}

// TestDifferentialGenerated runs generated playbooks (K3SCONF_RUNS_DIFF_N of them; 1 by
// default, as CI runs it) with ansible-playbook and checks the text, json and jsonl parses
// of each run against what the generator knows.
func TestDifferentialGenerated(t *testing.T) {
	ansibletest.Require(t)
	n := 1
	if s := os.Getenv("K3SCONF_RUNS_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	cases := 0
	for seed := 1; seed <= n; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		g := genPlaybook(rng)
		dir := t.TempDir()
		var inv strings.Builder
		for _, h := range g.hosts {
			fmt.Fprintf(&inv, "%s ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n", h)
		}
		for name, body := range map[string]string{"inventory.ini": inv.String(), "pb.yml": g.yaml} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		hideSkips := rng.Intn(2) == 0
		env := []string{"ANSIBLE_CALLBACKS_ENABLED=profile_tasks"}
		if hideSkips {
			env = append(env, "ANSIBLE_DISPLAY_SKIPPED_HOSTS=no")
		}
		res := (&ansibletest.Runner{Dir: dir, JSON: true}).Run(t, []string{"-i", "inventory.ini", "pb.yml"}, env...)
		wantVerdict := Succeeded
		if g.failed != "" {
			wantVerdict = FailedRun
		}
		for _, out := range []struct {
			format string
			data   []byte
		}{{"text", res.Text}, {"json", res.JSON}, {"jsonl", res.JSONL}} {
			if out.data == nil {
				continue
			}
			rs := Parse("gen", out.data)
			if len(rs) != 1 || rs[0].Format != out.format {
				t.Fatalf("seed %d %s: %d runs", seed, out.format, len(rs))
			}
			r := rs[0]
			want := map[string]map[string]Status{}
			for h, ts := range g.want {
				want[h] = map[string]Status{}
				for task, st := range ts {
					if st == Skipped && hideSkips && out.format == "text" {
						continue
					}
					if (st == Ignored || st == Rescued) && out.format != "text" {
						st = jsonFailure(r, h, st)
					}
					want[h][task] = st
					cases++
				}
			}
			got := statuses(r)
			for _, h := range g.hosts {
				if got[h] == nil {
					got[h] = map[string]Status{}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("seed %d %s: statuses (-want +got):\n%s\nplaybook:\n%s\nlog:\n%s", seed, out.format, diff, g.yaml, out.data)
			}
			if r.Verdict() != wantVerdict || len(r.Problems) > 0 {
				t.Errorf("seed %d %s: verdict %s, want %s; problems %v", seed, out.format, r.Verdict(), wantVerdict, r.Problems)
			}
		}
	}
	t.Logf("%d generated playbooks, %d host×task×format cases", n, cases)
}

// jsonFailure is what the json callbacks can say of an ignored or rescued failure: the
// stats decide when the host had only one kind.
func jsonFailure(r *Run, host string, st Status) Status {
	for _, rc := range r.Recap {
		if rc.Host == host && rc.Ignored > 0 && rc.Rescued > 0 {
			return IgnoredOrRescued
		}
	}
	return st
}
