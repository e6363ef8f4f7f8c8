package nodereport_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// BenchmarkRender is rendering one result: the JSON document, and the text of show --all,
// check and explain for every key.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{3, 2000} {
		fs, _ := benchnode.Node(n, 25)
		res, err := resolve.Resolve(resolve.Options{FS: fs})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("json/dropins=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := nodereport.WriteJSON(io.Discard, nodereport.JSON(res, report.NewRedactor(res, false))); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("text/dropins=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				red := report.NewRedactor(res, false)
				nodereport.Show(io.Discard, res, red, true)
				nodereport.Check(io.Discard, res, red)
				for _, k := range res.Keys {
					nodereport.Explain(io.Discard, res, k, red)
				}
			}
		})
	}
}
