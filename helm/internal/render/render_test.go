package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParse reads the errors real helm printed (v4.1.4 and v3 layouts) for traefik 27.0.2
// (traefik/traefik-helm-chart v27.0.2, the chart k3s packaged as traefik 27) and traefik
// 39.0.0's schema.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, stderr string
		want         Failure
		reason       string
	}{
		{"helm 4 wrong type", `Error: traefik/templates/rbac/clusterrole.yaml:59:39
  executing "traefik/templates/rbac/clusterrole.yaml" at <include "imageVersion" $>:
    error calling include:
traefik/templates/_helpers.tpl:129:43
  executing "imageVersion" at <$.Values.image.tag>:
    wrong type for value; expected string; got float64

Use --debug flag to render out invalid YAML
`, Failure{Last: "wrong type for value; expected string; got float64", Template: "traefik/templates/_helpers.tpl:129:43", Paths: []string{"image.tag"}},
			"Helm 4 splits the chain over lines; the cause is the last"},
		{"helm 3 wrong type", `Error: template: traefik/templates/rbac/clusterrole.yaml:59:39: executing "traefik/templates/rbac/clusterrole.yaml" at <include "imageVersion" $>: error calling include: template: traefik/templates/_helpers.tpl:129:43: executing "imageVersion" at <$.Values.image.tag>: wrong type for value; expected string; got float64
`, Failure{Last: "wrong type for value; expected string; got float64", Template: "traefik/templates/_helpers.tpl:129:43", Paths: []string{"image.tag"}},
			"Helm 3 puts it on one line"},
		{"fail", `Error: execution error at (traefik/templates/_podtemplate.tpl:101:18): ERROR: All hostPort must match their respective containerPort when ` + "`hostNetwork`" + ` is enabled

Use --debug flag to render out invalid YAML
`, Failure{Last: "execution error at (traefik/templates/_podtemplate.tpl:101:18): ERROR: All hostPort must match their respective containerPort when `hostNetwork` is enabled", Template: "traefik/templates/_podtemplate.tpl:101:18"},
			"a chart's own fail names no value"},
		{"schema", `Error: values don't meet the specifications of the schema(s) in the following chart(s):
traefik:
- at '/image/tag': got number, want null or string
`, Failure{Last: "- at '/image/tag': got number, want null or string", Paths: []string{"image.tag"}, Schema: true},
			"values.schema.json names the value by JSON pointer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse(tc.stderr)
			got.Message = ""
			if d := cmp.Diff(&tc.want, got); d != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", tc.reason, d)
			}
			if m := Parse(tc.stderr).Message; strings.Contains(m, "--debug") || strings.HasPrefix(m, "Error:") {
				t.Errorf("message keeps Helm's noise: %q", m)
			}
		})
	}
}
