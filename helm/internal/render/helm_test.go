package render

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"testing"

	"github.com/k3sconf/k3sconf/helm/values"
)

// A chart written for these tests with the two failures of k3s's packaged traefik 27
// (traefik/traefik-helm-chart v27.0.2: _helpers.tpl imageVersion passes image.tag to a
// string function; _podtemplate.tpl fails when a hostPort differs from its port under
// hostNetwork).
var testChart = map[string]string{
	"app/Chart.yaml":  "apiVersion: v2\nname: app\nversion: 1.0.0\n",
	"app/values.yaml": "image:\n  tag: \"\"\nhostNetwork: false\nports:\n  web:\n    port: 8000\n",
	"app/templates/_helpers.tpl": `{{- define "imageVersion" -}}
{{ (split "@" (trimPrefix "v" (default "1.0" $.Values.image.tag)))._0 }}
{{- end -}}`,
	"app/templates/deploy.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: app
data:
  version: {{ include "imageVersion" . | quote }}
{{- if .Values.hostNetwork }}
{{- range $name, $p := .Values.ports }}
{{- if and $p.hostPort (ne ($p.hostPort | int) ($p.port | int)) }}
{{- fail "ERROR: All hostPort must match their respective containerPort when ` + "`hostNetwork`" + ` is enabled" }}
{{- end }}
{{- end }}
{{- end }}
`,
}

func archive(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range testChart {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write([]byte(data))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestRealHelm renders with the real helm, both ways for each failure.
func TestRealHelm(t *testing.T) {
	var bins []string
	for _, env := range []string{"K3SCONF_HELM3", "K3SCONF_HELM4"} {
		if b := os.Getenv(env); b != "" {
			bins = append(bins, b)
		}
	}
	if len(bins) == 0 {
		t.Skip("no helm binary: set K3SCONF_HELM3 or K3SCONF_HELM4")
	}
	for _, tc := range []struct {
		name, values string
		fails        bool
		path, last   string
		reason       string
	}{
		{"float tag", "image:\n  tag: 2.11\n", true, "image.tag", "wrong type for value; expected string; got float64", "YAML reads 2.11 as a number"},
		{"string tag", "image:\n  tag: \"2.11\"\n", false, "", "", "quoted, it is the string the template wants"},
		{"hostPort differs", "hostNetwork: true\nports:\n  web:\n    hostPort: 80\n", true, "", "All hostPort must match", "the chart's own fail"},
		{"hostPort matches", "hostNetwork: true\nports:\n  web:\n    hostPort: 8000\n", false, "", "", "the check passes"},
	} {
		for _, bin := range bins {
			t.Run(tc.name, func(t *testing.T) {
				in := values.Input{Major: 4, Layers: []values.Layer{{Kind: values.HelmChartConfigValuesContent, Text: []byte(tc.values)}},
					Set: []values.SetArg{{Key: "global.systemDefaultRegistry"}}}
				res, err := Render(context.Background(), Options{Helm: bin, Chart: archive(t), Release: "app", Namespace: "kube-system", Input: in})
				if err != nil {
					t.Fatal(err)
				}
				if (res.Failure != nil) != tc.fails {
					t.Fatalf("%s (%s): failure %+v, want failing %v", tc.reason, res.Version, res.Failure, tc.fails)
				}
				if f := res.Failure; f != nil {
					if !bytes.Contains([]byte(f.Last), []byte(tc.last)) || (tc.path != "" && (len(f.Paths) == 0 || f.Paths[0] != tc.path)) {
						t.Errorf("%s (%s): %+v, want last %q and path %q", tc.reason, res.Version, f, tc.last, tc.path)
					}
				}
			})
		}
	}
}
