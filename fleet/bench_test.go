package fleet_test

import (
	"io"
	"testing"

	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/internal/benchfleet"
	"github.com/k3sconf/k3sconf/internal/fleetreport"
)

// BenchmarkFleet1000Docs: load 1,000 show documents from a folder, compare them and write
// the table (docs/fleet.md, Performance).
func BenchmarkFleet1000Docs(b *testing.B) {
	dir := b.TempDir()
	if err := benchfleet.WriteDocs(dir, 1000); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l := &fleet.Loader{}
		nodes, bad := l.Path(dir)
		if len(nodes) != 1000 || len(bad) != 0 {
			b.Fatalf("%d nodes, %v", len(nodes), bad)
		}
		rep := fleet.Analyze(nodes, bad)
		if rep.Failed() {
			b.Fatalf("the benchmark fleet is not consistent: %s", rep.Findings[0].Message)
		}
		fleetreport.Text(io.Discard, rep)
	}
}
