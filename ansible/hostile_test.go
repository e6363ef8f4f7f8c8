package ansible

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// bounded runs f under a timeout and an allocation bound: a hostile input must end, and
// must not make k3sconf allocate without limit.
func bounded(t *testing.T, timeout time.Duration, maxMB uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(timeout):
		t.Fatalf("did not end within %v", timeout)
	}
	runtime.ReadMemStats(&after)
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > maxMB {
		t.Errorf("allocated %d MB, more than %d MB", mb, maxMB)
	}
}

// aliasBomb is a "billion laughs" vars file: ten anchors, each a list of nine aliases to the
// one before (9^10 values when expanded, under 500 bytes), then an ordinary variable.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString(`a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	b.WriteString("keep_me: 1\n")
	return b.String()
}

// TestAliasBombVarsFile: the bomb's variables are left out with a LimitError at the first
// one's key; small ones and keep_me are read (the rest of the report renders).
func TestAliasBombVarsFile(t *testing.T) {
	var es []Entry
	var err error
	bounded(t, 10*time.Second, 200, func() { es, err = LoadVarsYAML("bomb.yml", []byte(aliasBomb())) })
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("want a LimitError, got %v", err)
	}
	if le.Pos.File != "bomb.yml" || le.Pos.Line < 2 || !strings.Contains(le.Msg, "excessive aliasing") {
		t.Errorf("the error must name the file, the line of the variable and the reason: %v", le)
	}
	if len(le.Names) == 0 || le.Names[len(le.Names)-1] != "a9" || len(le.At) != len(le.Names) {
		t.Errorf("every variable left out is named with its position: %v %v", le.Names, le.At)
	}
	got := map[string]bool{}
	for _, e := range es {
		got[e.Name] = true
	}
	if !got["keep_me"] || !got["a0"] || got["a9"] {
		t.Errorf("read %v: want a0 and keep_me, not a9", got)
	}
}

// TestAliasSelfReference: an alias inside the value it names (PyYAML builds a recursive
// list) ends with a LimitError, not a stack overflow.
func TestAliasSelfReference(t *testing.T) {
	bounded(t, 10*time.Second, 50, func() {
		_, err := LoadVarsYAML("self.yml", []byte("a: &a [1, *a]\nb: 2\n"))
		var le *LimitError
		if !errors.As(err, &le) || le.Pos.Line != 1 {
			t.Errorf("want a LimitError at line 1, got %v", err)
		}
	})
}

// TestAliasBombInventory: a YAML inventory whose group vars are a bomb, and one whose
// children alias the group holding them (ansible's yaml plugin would recurse forever), are
// read with input-unreadable findings; the hosts and the other variables are there.
func TestAliasBombInventory(t *testing.T) {
	dir := t.TempDir()
	vars := "    vars:\n"
	for _, l := range strings.Split(strings.TrimSpace(aliasBomb()), "\n") {
		vars += "      " + l + "\n"
	}
	cases := []struct{ name, reason, text, host string }{
		{"vars", "a bomb among a group's vars", "all:\n  hosts:\n    node1:\n" + vars, "node1"},
		{"children-self", "children alias the group that holds them", "all:\n  hosts:\n    node1:\n  children:\n    g: &g\n      hosts:\n        node2:\n      children:\n        h: *g\n", "node2"},
		{"children-bomb", "groups whose children multiply", childrenBomb(), "node1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".yml")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var inv *Inventory
			var err error
			bounded(t, 10*time.Second, 200, func() { inv, err = LoadInventory([]string{p}) })
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if inv.Hosts[tc.host] == nil {
				t.Errorf("%s: host %s must be read, have %v", tc.reason, tc.host, inv.HostOrder)
			}
			found := false
			for _, d := range inv.Diagnostics {
				if d.Code == "input-unreadable" && d.Pos.File == p && d.Pos.Line > 0 {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: want an input-unreadable finding at a line of %s, got %v", tc.reason, p, inv.Diagnostics)
			}
		})
	}
	// Clean: aliases that do not multiply are read as ansible reads them.
	p := filepath.Join(dir, "clean.yml")
	if err := os.WriteFile(p, []byte("all:\n  hosts:\n    node1: &v\n      x: [1, 2]\n    node2: *v\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv, err := LoadInventory([]string{p})
	if err != nil || len(inv.Diagnostics) != 0 || len(inv.Hosts["node2"].Vars) != 1 {
		t.Errorf("a plain alias must be expanded without findings: %v %v", err, inv.Diagnostics)
	}
}

func childrenBomb() string {
	var b strings.Builder
	b.WriteString("all:\n  hosts:\n    node1:\n  children:\n    g0: &g0\n      hosts:\n        node1:\n")
	for i := 1; i < 9; i++ {
		b.WriteString("    g" + string(rune('0'+i)) + ": &g" + string(rune('0'+i)) + "\n      children:\n")
		for j := 0; j < 9; j++ {
			b.WriteString("        c" + string(rune('0'+i)) + string(rune('0'+j)) + ": *g" + string(rune('0'+i-1)) + "\n")
		}
	}
	return b.String()
}

// TestDirLinkLoops: two links to "." in an inventory folder and in group_vars/all (ansible-
// core 2.14.18 walks them without end: ansible-playbook had not finished after 60 s) are
// skipped, each with an AN004 finding naming the link; the variables are read once. A link
// to a sibling folder is no loop: it is followed as ansible follows it, with no finding.
func TestDirLinkLoops(t *testing.T) {
	root := t.TempDir()
	inv := filepath.Join(root, "inv")
	all := filepath.Join(inv, "group_vars", "all")
	for _, d := range []string{all, filepath.Join(root, "shared")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(inv, "hosts"):            "[k]\nnode1\n",
		filepath.Join(all, "x.yml"):            "x: 1\n",
		filepath.Join(root, "shared", "s.yml"): "s: 2\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{".", filepath.Join(inv, "sub1")}, {".", filepath.Join(inv, "sub2")},
		{".", filepath.Join(all, "a")}, {".", filepath.Join(all, "b")}, {"../../../shared", filepath.Join(all, "shared")}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	var res *Result
	var invv *Inventory
	bounded(t, 10*time.Second, 100, func() {
		var err error
		if invv, err = LoadInventory([]string{inv}); err != nil {
			t.Error(err)
			return
		}
		res, err = Resolve(Options{Inventory: invv, Host: "node1"})
		if err != nil {
			t.Error(err)
		}
	})
	if res == nil {
		t.FailNow()
	}
	loops := map[string]bool{}
	for _, d := range append(invv.Diagnostics, res.Diagnostics...) {
		if d.Code == CodeDirLoop {
			loops[filepath.Base(d.Pos.File)] = true
		}
	}
	if want := map[string]bool{"sub1": true, "sub2": true, "a": true, "b": true}; !cmp.Equal(loops, want) {
		t.Errorf("loop findings at %v, want %v (the sibling link 'shared' is no loop)", loops, want)
	}
	if v := res.Vars["x"]; v == nil || len(v.History) != 1 {
		t.Errorf("x is set once, by group_vars/all/x.yml: %+v", v)
	}
	if v := res.Vars["s"]; v == nil {
		t.Error("s is read through the link to the sibling folder")
	}
}

// TestHostRangeBound: a host range that expands to a million names (ansible-core builds the
// whole list) is left out with an input-unreadable finding at its file:line, within bounded
// time and memory; the other hosts, groups and variables of the file are read. The bound is
// inclusive: a pattern of exactly MaxRangeHosts names is expanded.
func TestHostRangeBound(t *testing.T) {
	dir := t.TempDir()
	ini := "[web]\nw[1:3]\nh[0:999999]\n[db]\nd[0:999][0:999] ansible_user=x\nd1\nok[1:10000]\n[db:vars]\nport=5432\n"
	yml := "all:\n  children:\n    edge:\n      hosts:\n        e[0:99999]:\n        e1:\n"
	for n, s := range map[string]string{"hosts.ini": ini, "more.yml": yml} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var inv *Inventory
	var err error
	bounded(t, 20*time.Second, 200, func() {
		inv, err = LoadInventory([]string{filepath.Join(dir, "hosts.ini"), filepath.Join(dir, "more.yml")})
	})
	if err != nil {
		t.Fatal(err)
	}
	type finding struct {
		Line, Column int
		Code         string
	}
	var got []finding
	for _, d := range inv.Diagnostics {
		got = append(got, finding{d.Pos.Line, d.Pos.Column, d.Code})
		if !strings.Contains(d.Message, "more than k3sconf's bound of 10000 per pattern") {
			t.Errorf("the message must name the bound: %s", d.Message)
		}
	}
	want := []finding{{3, 1, "input-unreadable"}, {5, 1, "input-unreadable"}, {5, 9, "input-unreadable"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	for _, h := range []string{"w1", "w3", "d1", "ok1", "ok10000", "e1"} {
		if inv.Hosts[h] == nil {
			t.Errorf("host %s is missing: the rest of the inventory must be read", h)
		}
	}
	if len(inv.Hosts) != 3+1+10000+1 {
		t.Errorf("%d hosts, want %d", len(inv.Hosts), 3+1+10000+1)
	}
	if g := inv.Groups["db"]; g == nil || len(g.Vars) != 1 || g.Vars[0].Name != "port" {
		t.Errorf("[db:vars] after the refused line must be read: %+v", g)
	}
}

// TestCountHostPattern: the count taken before expanding is the number of names the
// expansion gives, for every shape of range (each case says which rule it exercises).
func TestCountHostPattern(t *testing.T) {
	for _, tc := range []struct{ p, reason string }{
		{"plain", "no range: one name"},
		{"n[1:3]", "a numeric range, inclusive"},
		{"n[01:10:3]x", "a zero-padded range with a step and a tail"},
		{"n[:4]", "an empty begin means 0"},
		{"n[5:1]", "end before begin: no names"},
		{"n[a:e]-[1:2]", "a letter range, then a numeric range in the tail"},
		{"n[1:2][3:5][7:8]", "three ranges multiply"},
		{"n[1:3]:22", "a port is not part of the name"},
		{"n[1:2", "no closing bracket: not a range"},
		{"n[x]", "brackets without a colon: not a range"},
	} {
		names, err := expandHostPatternAll(tc.p)
		if err != nil {
			t.Errorf("%s (%s): %v", tc.p, tc.reason, err)
			continue
		}
		if n := countHostPattern(tc.p); n != len(names) {
			t.Errorf("%s (%s): counted %d, expanded %d", tc.p, tc.reason, n, len(names))
		}
	}
	if n := countHostPattern("h[0:999999][0:999999][0:999999]"); n != rangeCountCap {
		t.Errorf("three ranges of a million: %d, want the cap %d", n, rangeCountCap)
	}
}
