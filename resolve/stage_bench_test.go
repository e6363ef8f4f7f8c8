package resolve

import (
	"fmt"
	"testing"

	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/sources"
)

func parsedFiles(b *testing.B, n int) []*sources.ConfigFile {
	b.Helper()
	var out []*sources.ConfigFile
	for i := 0; i <= n; i++ {
		cf, _, err := sources.ParseConfig(fmt.Sprintf("/etc/rancher/k3s/config.yaml.d/%05d.yaml", i), []byte(benchnode.Config(i, 25)))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, cf)
	}
	return out
}

// BenchmarkMerge is the "+"/replace merge across files and the rendering into arguments.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{3, 2000} {
		files := parsedFiles(b, n)
		b.Run(fmt.Sprintf("dropins=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				seq := 0
				_ = configTokens(mergeConfig(files, &seq, ""), 0, 0)
			}
		})
	}
}

// BenchmarkCLI is the CLI layer's decisions (urfave/cli v2 rules) over the spliced argv.
func BenchmarkCLI(b *testing.B) {
	for _, n := range []int{3, 2000} {
		files := parsedFiles(b, n)
		seq := 0
		toks := append([]token{{text: "server", kind: sources.KindCLI}}, configTokens(mergeConfig(files, &seq, ""), 0, 0)...)
		b.Run(fmt.Sprintf("dropins=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			r := &resolver{p: profile.K3s(), era: EraV2, env: map[string]*EnvVar{}, res: &Result{}}
			for i := 0; i < b.N; i++ {
				run := r.runCLI(append([]token(nil), toks...))
				if run.err != nil {
					b.Fatal(run.err.msg)
				}
			}
		})
	}
}
