package resolve_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/spf13/afero"
	yamlv2 "gopkg.in/yaml.v2"

	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// benchSizes: a small node (install.sh unit, config.yaml, 3 drop-ins) and growing large ones
// to show that time grows linearly with the number of drop-ins.
var benchSizes = []struct{ dropins, keys int }{{3, 8}, {500, 25}, {1000, 25}, {2000, 25}}

// BenchmarkFloor is what k3s itself must do: read each config file once and decode its YAML
// once with yaml.v2 into a MapSlice. The resolver is measured against it.
func BenchmarkFloor(b *testing.B) {
	for _, sz := range benchSizes {
		fs, files := benchnode.Node(sz.dropins, sz.keys)
		b.Run(fmt.Sprintf("dropins=%d", sz.dropins), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, f := range files {
					data, err := afero.ReadFile(fs, f)
					if err != nil {
						b.Fatal(err)
					}
					var ms yamlv2.MapSlice
					if err := yamlv2.Unmarshal(data, &ms); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkResolve is the whole resolution: unit, env files, config files, merge, splice and
// both CLI passes.
func BenchmarkResolve(b *testing.B) {
	for _, sz := range benchSizes {
		fs, _ := benchnode.Node(sz.dropins, sz.keys)
		b.Run(fmt.Sprintf("dropins=%d", sz.dropins), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := resolve.Resolve(resolve.Options{FS: fs}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShowJSON is `k3sconf --json show`: resolve, then build and encode the document.
func BenchmarkShowJSON(b *testing.B) {
	for _, sz := range benchSizes {
		fs, _ := benchnode.Node(sz.dropins, sz.keys)
		b.Run(fmt.Sprintf("dropins=%d", sz.dropins), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, err := resolve.Resolve(resolve.Options{FS: fs})
				if err != nil {
					b.Fatal(err)
				}
				if err := nodereport.WriteJSON(io.Discard, nodereport.JSON(res, report.NewRedactor(res, false))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
