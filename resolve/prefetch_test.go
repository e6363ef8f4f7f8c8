package resolve_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// oneReader is an afero.Fs resolve does not know to be safe for concurrent reads (any type
// but its own and afero's OS and in-memory ones): it reads config files one at a time.
type oneReader struct{ afero.Fs }

// TestPrefetchChangesNothing: config files read in parallel (prefetchConfigs, from 32 files
// on an in-memory tree) give the result reading them one by one gives, byte for byte in the
// JSON document and the text of explain, also when a file in the middle is broken YAML (the
// wrapper stops there), a directory, unknown keys, or takes the yaml.v3 path (an anchor), and
// when the wrapper's lookup is skipped (K3S_DEBUG and K3S_DATA_DIR set: the main parser
// reads them first).
func TestPrefetchChangesNothing(t *testing.T) {
	const dir = "/etc/rancher/k3s/config.yaml.d/"
	skipWrapper := []sources.EnvAssignment{{Name: "K3S_DEBUG", Value: "true", Raw: "K3S_DEBUG=true"}, {Name: "K3S_DATA_DIR", Value: "/data", Raw: "K3S_DATA_DIR=/data"}}
	tests := []struct {
		name  string
		edit  func(fs afero.Fs)
		env   []sources.EnvAssignment
		files int
	}{
		{name: "plain", files: 200},
		{name: "below-threshold", files: 20},
		{name: "broken-yaml-in-the-middle", files: 120, edit: func(fs afero.Fs) {
			_ = afero.WriteFile(fs, dir+"00060.yaml", []byte("node-name: a\n  bad: x: y\n"), 0o644)
		}},
		{name: "broken-yaml-main-parser", files: 120, env: skipWrapper, edit: func(fs afero.Fs) {
			_ = afero.WriteFile(fs, dir+"00060.yaml", []byte("node-name: a\n  bad: x: y\n"), 0o644)
		}},
		{name: "directory-and-slow-path", files: 80, edit: func(fs afero.Fs) {
			_ = fs.MkdirAll(dir+"00030.yaml", 0o755)
			_ = afero.WriteFile(fs, dir+"00040.yaml", []byte("token: &t abc\nnode-name: *t\nnode-labl: x\n"), 0o644)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := benchnode.NodeShape(tc.files, 25, benchnode.Flow2)
			if tc.edit != nil {
				tc.edit(fs)
			}
			render := func(fsys afero.Fs) []byte {
				res, err := resolve.Resolve(resolve.Options{FS: fsys, Env: tc.env})
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := nodereport.WriteJSON(&b, nodereport.JSON(res, report.NewRedactor(res, false))); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"node-name", "kubelet-arg", "token"} {
					nodereport.Explain(&b, res, res.Key(k), report.NewRedactor(res, false))
				}
				fmt.Fprintf(&b, "refused %v incomplete %v\n", res.Refused(), res.Incomplete())
				return b.Bytes()
			}
			parallel, sequential := render(fs), render(oneReader{fs})
			if !bytes.Equal(parallel, sequential) {
				t.Errorf("reading in parallel changed the result:\n%s", firstDiff(parallel, sequential))
			}
		})
	}
}

// firstDiff shows where two renderings part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("parallel …%s…\nsequential …%s…", a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}
