package main

import (
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	yamlv2 "gopkg.in/yaml.v2"

	"github.com/k3sconf/k3sconf/internal/benchfleet"
	"github.com/k3sconf/k3sconf/internal/benchnode"
)

// BenchmarkShowJSONVsFloor runs `k3sconf --root DIR --json show` on nodes on disk and, in
// the same run, the floor: reading every config file once and decoding it once with yaml.v2,
// which k3s itself must do. It reports both and their ratio (x-floor), in one process with
// Go's default GC setting (main's tuneGC is left out: it would outlive the benchmark). The
// process-level comparison is internal/procbench's.
func BenchmarkShowJSONVsFloor(b *testing.B) {
	for _, sz := range []struct{ dropins, keys int }{{3, 8}, {500, 25}, {1000, 25}, {2000, 25}} {
		dir := b.TempDir()
		files, err := benchnode.WriteDir(dir, sz.dropins, sz.keys)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("dropins=%d", sz.dropins), func(b *testing.B) {
			var floor, full time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				for _, f := range files {
					data, err := os.ReadFile(f)
					if err != nil {
						b.Fatal(err)
					}
					var ms yamlv2.MapSlice
					if err := yamlv2.Unmarshal(data, &ms); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				if code := run([]string{"--root", dir, "--json", "show"}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
				floor += t1.Sub(t0)
				full += time.Since(t1)
			}
			b.ReportMetric(float64(floor.Nanoseconds())/float64(b.N), "floor-ns/op")
			b.ReportMetric(float64(full.Nanoseconds())/float64(b.N), "show-ns/op")
			b.ReportMetric(float64(full)/float64(floor), "x-floor")
		})
	}
}

// BenchmarkFleet1000Docs runs `k3sconf fleet DIR` over 1,000 show documents through the
// command layer, with Go's default GC (main's tuneGC would outlive the benchmark).
func BenchmarkFleet1000Docs(b *testing.B) {
	dir := b.TempDir()
	if err := benchfleet.WriteDocs(dir, 1000); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"fleet", dir}, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkShowFlowLists is `k3sconf --root DIR show` (text, or --json with -json) on the
// 2,000-drop-in node whose lists are flow sequences of four items (benchnode.Flow, issue 19)
// and of two (benchnode.Flow2, issue 25), for profiling memory (-memprofile) and time.
func BenchmarkShowFlowLists(b *testing.B) {
	for _, shape := range []struct {
		name  string
		shape benchnode.Shape
	}{{"flow", benchnode.Flow}, {"flow2", benchnode.Flow2}} {
		dir := b.TempDir()
		if _, err := benchnode.WriteDirShape(dir, 2000, 25, shape.shape); err != nil {
			b.Fatal(err)
		}
		for _, args := range [][]string{{"show"}, {"--json", "--show-secrets", "show"}} {
			b.Run(shape.name+"/"+args[len(args)-1]+fmt.Sprint(len(args)), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if code := run(append([]string{"--root", dir}, args...), io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
			})
		}
	}
}
