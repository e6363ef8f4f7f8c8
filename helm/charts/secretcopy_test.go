package charts_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestChartDefaultSecretCopies: a copy of a secret by YAML alias in a chart's own
// values.yaml (`password: &pw zebra`, `login: *pw`) is hidden by structure in `values`
// text and --json, and so is a secret default a values-set-type finding would quote; the
// same word at a plain key with no alias is shown (issue 25). "zebra" is a plain word: no
// content rule knows it, and the redactor replaces it only where it is quoted as a value.
func TestChartDefaultSecretCopies(t *testing.T) {
	defaults := "auth:\n  password: &pw zebra\nmail:\n  login: *pw\n  from: plainzebra\nref: [a, *pw]\nlabel: zebrafish\n"
	for _, tc := range []struct {
		name, reason string
		set          string
		hidden       []string // words no output may hold
		shown        []string // what the text output must hold
	}{
		{"copy", "the issue's case: a default set through an alias of auth.password's anchor",
			"", []string{`"zebra"`}, []string{`mail.login = "REDACTED"`, `ref = ["REDACTED","REDACTED"]`, `mail.from = "plainzebra"`, `label = "zebrafish"`}},
		{"set-over-copy", "values-set-type quotes the chart's default: a copy's is hidden",
			"  set:\n    mail.login: \"true\"\n", []string{`"zebra"`}, []string{"where the chart's default is a string (hidden)"}},
		{"set-over-secret-name", "values-set-type quotes the chart's default: a secret name's is hidden, a word too",
			"  set:\n    auth.password: \"true\"\n", []string{`"zebra"`}, []string{"where the chart's default is a string (hidden)"}},
		{"set-over-plain", "values-set-type quotes a plain default: it fires and shows it",
			"  set:\n    label: \"true\"\n", nil, []string{`where the chart's default is the string "zebrafish"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, "/var/lib/rancher/k3s/server/manifests/app.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: app\n  namespace: kube-system\nspec:\n  chart: app\n"+tc.set), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := charts.Inspect(charts.Options{Node: fs, Res: res, Name: "app", ChartFile: "app.tgz",
				ChartData: tgz(t, "app", map[string]string{"Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n", "values.yaml": defaults})})
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			chartsreport.Text(&text, rep, report.NewRedactor(res, false), true)
			js, err := json.Marshal(chartsreport.JSON(rep, output.Envelope{}, report.NewRedactor(res, false), true))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range tc.hidden {
				for _, o := range []struct{ name, s string }{{"text", text.String()}, {"json", string(js)}} {
					if strings.Contains(strings.ReplaceAll(o.s, `\"`, `"`), h) {
						t.Errorf("%s: the %s output holds %q:\n%s", tc.reason, o.name, h, o.s)
					}
				}
			}
			for _, s := range tc.shown {
				if !strings.Contains(text.String(), s) {
					t.Errorf("%s: the text lacks %q:\n%s", tc.reason, s, text.String())
				}
			}
			if tc.set != "" {
				return
			}
			// --show-secrets shows the copy.
			var shown bytes.Buffer
			chartsreport.Text(&shown, rep, report.NewRedactor(res, true), true)
			if !strings.Contains(shown.String(), `mail.login = "zebra"`) {
				t.Errorf("--show-secrets: the copy is not shown:\n%s", shown.String())
			}
		})
	}
}
