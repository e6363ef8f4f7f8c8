package procbench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/k3sconf/k3sconf/internal/benchnode"
)

// sample is one run of one program.
type sample struct {
	wall, cpu time.Duration
	rssKB     int64
}

// build compiles k3sconf and the floor into dir, from the module root (two levels up).
func build(tb testing.TB, dir string) (k3sconf, floor string) {
	tb.Helper()
	k3sconf, floor = filepath.Join(dir, "k3sconf"), filepath.Join(dir, "floor")
	for _, b := range [][2]string{{k3sconf, "./cmd/k3sconf"}, {floor, "./internal/floor"}} {
		cmd := exec.Command("go", "build", "-o", b[0], b[1])
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	return k3sconf, floor
}

// env is the environment without the Go runtime's tuning variables: the programs run with
// the settings they ship with.
func env() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
			out = append(out, kv)
		}
	}
	return out
}

// execOne runs a program to completion, discarding its output, and measures it. wantCode
// is the exit code the command must end with.
func execOne(tb testing.TB, argv, extraEnv []string, wantCode int) sample {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(env(), extraEnv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if code := cmd.ProcessState.ExitCode(); code != wantCode {
		tb.Fatalf("%s: exit %d (%v), want %d\n%s", strings.Join(argv, " "), code, err, wantCode, stderr.String())
	}
	ps := cmd.ProcessState
	s := sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		s.rssKB = ru.Maxrss // kilobytes on Linux
	}
	return s
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// node is one node under test: its root and the key explain is asked about.
type node struct {
	name string
	root string
}

// commands are the ones measured in docs/performance.md. json-gogc100 is show --json with
// Go's default GC setting (GOGC=100 turns the CLI's tuning off): what a program embedding
// the library gets.
var commands = []struct {
	name string
	args []string
	env  []string
}{
	{"json", []string{"--json", "--show-secrets", "show"}, nil},
	{"text", []string{"show"}, nil},
	{"explain", []string{"explain", "node-name"}, nil},
	{"json-gogc100", []string{"--json", "--show-secrets", "show"}, []string{"GOGC=100"}},
}

// BenchmarkProcess runs the floor and k3sconf alternately on each node and reports, per
// command: the median wall time of each (floor-ms, k3sconf-ms) and their ratio (x-floor);
// the same for CPU time, user+system (floor-cpu-ms, k3sconf-cpu-ms, x-floor-cpu), which a
// loaded machine disturbs less;
// and the largest peak RSS seen (floor-MB, k3sconf-MB). With -benchtime 1x (CI) each runs
// once; for figures use e.g. -benchtime 15x.
//
// Peak RSS comes from wait4's rusage (ProcessState.SysUsage, Maxrss). Go starts children
// with CLONE_VM, and Linux keeps the high-water mark of the memory the child shared with
// this test process until exec, so a figure below the test process's own RSS (about
// 14 MB) reads as that: an upper bound. /usr/bin/time -v gives the small figures exactly.
func BenchmarkProcess(b *testing.B) {
	dir := b.TempDir()
	k3sconf, floor := build(b, dir)
	nodes := []node{{"examples-node", filepath.Join("..", "..", "examples", "node")}}
	for _, n := range []int{200, 500, 2000} {
		root := filepath.Join(dir, fmt.Sprintf("node%d", n))
		if _, err := benchnode.WriteDir(root, n, 25); err != nil {
			b.Fatal(err)
		}
		nodes = append(nodes, node{fmt.Sprintf("dropins=%d", n), root})
	}
	// Issue 19's shape: the same 2,000 drop-ins with every list a flow sequence of
	// benchnode.FlowItems items (four times the list items).
	flow := filepath.Join(dir, "node2000-flow")
	if _, err := benchnode.WriteDirShape(flow, 2000, 25, benchnode.Flow); err != nil {
		b.Fatal(err)
	}
	nodes = append(nodes, node{"dropins=2000-flow", flow})
	// Issue 25's shape: every list a two-item flow sequence (twice the list items).
	flow2 := filepath.Join(dir, "node2000-flow2")
	if _, err := benchnode.WriteDirShape(flow2, 2000, 25, benchnode.Flow2); err != nil {
		b.Fatal(err)
	}
	nodes = append(nodes, node{"dropins=2000-flow2", flow2})
	for _, n := range nodes {
		for _, c := range commands {
			b.Run(n.name+"/"+c.name, func(b *testing.B) {
				var fw, fc, kw, kc []time.Duration
				var frss, krss int64
				for i := 0; i < b.N; i++ {
					// Alternate which program goes first, so neither always runs on a
					// cache the other warmed.
					runFloor := func() {
						s := execOne(b, []string{floor, n.root}, nil, 0)
						fw, fc, frss = append(fw, s.wall), append(fc, s.cpu), max(frss, s.rssKB)
					}
					runK := func() {
						s := execOne(b, append([]string{k3sconf, "--root", n.root}, c.args...), c.env, 0)
						kw, kc, krss = append(kw, s.wall), append(kc, s.cpu), max(krss, s.rssKB)
					}
					if i%2 == 0 {
						runFloor()
						runK()
					} else {
						runK()
						runFloor()
					}
				}
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(ms(median(fw)), "floor-ms")
				b.ReportMetric(ms(median(kw)), "k3sconf-ms")
				b.ReportMetric(float64(median(kw))/float64(median(fw)), "x-floor")
				b.ReportMetric(ms(median(fc)), "floor-cpu-ms")
				b.ReportMetric(ms(median(kc)), "k3sconf-cpu-ms")
				b.ReportMetric(float64(median(kc))/float64(max(median(fc), 1)), "x-floor-cpu")
				b.ReportMetric(float64(frss)/1024, "floor-MB")
				b.ReportMetric(float64(krss)/1024, "k3sconf-MB")
			})
		}
	}
}
