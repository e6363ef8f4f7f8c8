package charts_test

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestHostileManifests: fields of the wrong shape and type never make values panic; the
// report renders.
func TestHostileManifests(t *testing.T) {
	const m = "/var/lib/rancher/k3s/server/manifests/"
	head := "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: app\n  namespace: kube-system\n"
	for _, tc := range []struct{ name, spec string }{
		{"spec-list", "spec: [1, 2]\n"},
		{"spec-scalar", "spec: x\n"},
		{"set-list", "spec:\n  set: [a, b]\n"},
		{"set-map-value", "spec:\n  set:\n    a: {b: 1}\n    c: [1]\n    d: 1.5\n    e: 3000000000\n    f: ~\n"},
		{"valuescontent-map", "spec:\n  valuesContent: {a: 1}\n"},
		{"valuescontent-garbage", "spec:\n  valuesContent: \"\\x00\\x01: [\"\n"},
		{"values-list", "spec:\n  values: [1, 2]\n"},
		{"values-scalar", "spec:\n  values: 5\n"},
		{"secrets-scalar", "spec:\n  valuesSecrets: x\n"},
		{"secrets-items", "spec:\n  valuesSecrets: [1, {name: s}, {name: s, keys: [a, [b]]}]\n"},
		{"chartcontent-garbage", "spec:\n  chartContent: '%%%'\n"},
		{"chartcontent-not-gzip", "spec:\n  chartContent: aGVsbG8=\n"},
		{"deep", "spec:\n  valuesContent: \"" + deep(200) + "\"\n"},
		{"anchors", "spec:\n  valuesContent: |-\n    a: &x [*x]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, m+"app.yaml", []byte(head+tc.spec), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := charts.Inspect(charts.Options{Node: fs, Res: res, Name: "app"})
			if err != nil {
				return // not found is fine: the object did not parse as a HelmChart
			}
			red := report.NewRedactor(res, false)
			chartsreport.Text(discard{}, rep, red, true)
			_ = chartsreport.JSON(rep, nodereport.EnvelopeOf(res, "values"), red, true)
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func deep(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += "{a: "
	}
	s += "1"
	for i := 0; i < n; i++ {
		s += "}"
	}
	return s
}
