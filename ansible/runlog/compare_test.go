package runlog

import (
	"math/rand"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCompareProperties: for any sequence of real runs (the golden logs, in random orders
// and lengths), each host's changes of the last run are split with none lost and none
// twice, a change is "every run" exactly when every earlier run changed it on that host,
// and Before has one entry per earlier run.
func TestCompareProperties(t *testing.T) {
	var pool []*Run
	for _, a := range []string{"generated-text.txtar", "generated-json.txtar", "generated-jsonl.txtar", "seed-containerd.txtar"} {
		for _, name := range []string{"run1.txt", "run2.txt", "run3.txt", "run1.json", "run2.json", "run3.json", "run1.jsonl", "run2.jsonl", "run3.jsonl", "deploy.log", "rerun.log", "edited.log"} {
			if data := logIfAny(t, a, name); data != nil {
				pool = append(pool, Parse(name, data)...)
			}
		}
	}
	if len(pool) < 10 {
		t.Fatalf("only %d runs in the golden logs", len(pool))
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		n := 1 + rng.Intn(4)
		runs := make([]*Run, n)
		for k := range runs {
			runs[k] = pool[rng.Intn(len(pool))]
		}
		last := runs[n-1]
		for _, hc := range Compare(runs) {
			got := map[string]int{}
			for _, c := range append(append([]Change(nil), hc.EveryRun...), hc.New...) {
				got[c.Play+"\x00"+c.Task]++
				if len(c.Before) != n-1 {
					t.Fatalf("Before has %d entries for %d earlier runs", len(c.Before), n-1)
				}
				every := n > 1
				for k, st := range c.Before {
					if st != runs[k].statusOf(hc.Host, c.Play+"\x00"+c.Task) {
						t.Fatalf("Before[%d] %s, StatusOf says %s", k, st, runs[k].statusOf(hc.Host, c.Play+"\x00"+c.Task))
					}
					every = every && st == Changed
				}
				if every != c.EveryRun {
					t.Fatalf("%s: EveryRun %v with before %v", c.Task, c.EveryRun, c.Before)
				}
			}
			want := last.Changes(hc.Host)
			if len(got) != len(want) {
				t.Fatalf("%s: %d changes split, the run has %d", hc.Host, len(got), len(want))
			}
			for _, e := range want {
				if got[e.Key()] != 1 {
					t.Fatalf("%s: %q split %d times", hc.Host, e.Task.Name, got[e.Key()])
				}
			}
		}
	}
}

func logIfAny(t *testing.T, archive, name string) []byte {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/" + archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "log/"+name {
			return f.Data
		}
	}
	return nil
}
