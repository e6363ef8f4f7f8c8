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
