package runlog

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/*.txtar")

// dump is a run as the golden files keep it: verdict, recap, every task's status per host,
// the slowest tasks, problems; then the comparison of the last run with the earlier ones.
func dump(runs []*Run) string {
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, "run %s format=%s profile=%v verdict=%s\n", r.Source, r.Format, r.Profile, r.Verdict())
		for _, rc := range r.Recap {
			fmt.Fprintf(&b, "  recap %s ok=%d changed=%d unreachable=%d failed=%d skipped=%d rescued=%d ignored=%d\n",
				rc.Host, rc.OK, rc.Changed, rc.Unreachable, rc.Failed, rc.Skipped, rc.Rescued, rc.Ignored)
		}
		for _, p := range r.Plays {
			fmt.Fprintf(&b, "  play %q\n", p.Name)
			for _, t := range p.Tasks {
				kind := "task"
				if t.Handler {
					kind = "handler"
				}
				var rs []string
				for _, res := range t.Results {
					s := res.Host + "=" + string(res.Status())
					if res.items > 0 {
						s += fmt.Sprintf("(%d items)", res.items)
					}
					rs = append(rs, s)
				}
				fmt.Fprintf(&b, "    %s %q: %s\n", kind, t.Name, strings.Join(rs, " "))
			}
		}
		for _, s := range r.Slowest {
			fmt.Fprintf(&b, "  slow %.2fs %q\n", s.Seconds, s.Task)
		}
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "  error line %d: %s\n", e.Line, e.Message)
		}
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  problem line %d: %s\n", p.Line, p.Message)
		}
	}
	for _, hc := range Compare(runs) {
		fmt.Fprintf(&b, "last %s every-run=%q new=%q\n", hc.Host, names(hc.EveryRun), names(hc.New))
	}
	return b.String()
}

// TestGolden: each archive holds logs of real ansible-playbook runs (log/…, oldest first;
// the comment says which ansible-core made them and how) and want/parse, the dump of what
// Parse and Compare make of them.
func TestGolden(t *testing.T) {
	golden.Archives(t, "testdata/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		if err := golden.CheckNames(ar, "log/", "want/"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(ar.Comment), "ansible-core 2.") {
			t.Errorf("%s: the comment must name the ansible-core release that printed the logs", path)
		}
		var runs []*Run
		var inputs []txtar.File
		for _, f := range ar.Files {
			if name, ok := strings.CutPrefix(f.Name, "log/"); ok {
				runs = append(runs, Parse(name, f.Data)...)
				inputs = append(inputs, f)
			}
		}
		golden.Check(t, path, ar, inputs, map[string]string{"want/parse": dump(runs)}, []string{"want/parse"}, *update, "parse", "go test ./ansible/runlog -run TestGolden -update")
	})
}
