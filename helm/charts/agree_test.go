package charts_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestComponentsAndValuesAgree: `components` (its link to values) and `values` name the
// same HelmChartConfig for a chart, or both none.
func TestComponentsAndValuesAgree(t *testing.T) {
	const m = "/var/lib/rancher/k3s/server/manifests/"
	chart := "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: traefik\n  namespace: kube-system\nspec:\n  chart: traefik\n  repo: https://traefik.github.io/charts\n"
	cfg := func(ns string) string {
		s := "apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: traefik\n"
		if ns != "" {
			s += "  namespace: " + ns + "\n"
		}
		return s + "spec:\n  valuesContent: |-\n    logs:\n      general:\n        level: DEBUG\n"
	}
	for _, tc := range []struct {
		name, reason string
		files        map[string]string
		config       string
		want         string // the file of the HelmChartConfig that applies, "" for none
	}{
		{"same-namespace", "name and namespace match", map[string]string{"traefik-config.yaml": cfg("kube-system")}, "", m + "traefik-config.yaml"},
		{"no-namespace", "without metadata.namespace it lives in default", map[string]string{"traefik-config.yaml": cfg("")}, "", ""},
		{"other-namespace", "namespace default does not match kube-system", map[string]string{"traefik-config.yaml": cfg("default")}, "", ""},
		{"disabled-file", "disable: traefik-config deletes the file", map[string]string{"traefik-config.yaml": cfg("kube-system")}, "disable: traefik-config\n", ""},
		{"skipped-file", "a .skip'ped file is not applied", map[string]string{"traefik-config.yaml": cfg("kube-system"), "traefik-config.yaml.skip": ""}, "", ""},
		{"two-files", "both apply the same object; the last applied is what the cluster has", map[string]string{"a-config.yaml": cfg("kube-system"), "b-config.yaml": cfg("kube-system")}, "", m + "b-config.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			if tc.config != "" {
				afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(tc.config), 0o644)
			}
			afero.WriteFile(fs, m+"my-traefik.yaml", []byte(chart), 0o644)
			for p, d := range tc.files {
				afero.WriteFile(fs, m+p, []byte(d), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			comp := components.Inspect(fs, res)
			rep, err := charts.Inspect(charts.Options{Node: fs, Res: res, Name: "traefik"})
			if err != nil {
				t.Fatal(err)
			}
			fromComponents, fromValues := "", ""
			if o := comp.HelmChartConfigFor("kube-system", "traefik"); o != nil {
				fromComponents = o.File
			}
			if rep.Config != nil {
				fromValues = rep.Config.File
			}
			if fromComponents != fromValues || fromValues != tc.want {
				t.Errorf("%s (%s): components says %q, values says %q, want %q", tc.name, tc.reason, fromComponents, fromValues, tc.want)
			}
		})
	}
}

// TestTextEscapesControlCharacters: a key or value with an escape sequence reaches the
// terminal as text.
func TestTextEscapesControlCharacters(t *testing.T) {
	const m = "/var/lib/rancher/k3s/server/manifests/"
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	afero.WriteFile(fs, m+"app.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: app\n  namespace: kube-system\nspec:\n  chart: app\n  repo: https://example.com\n  valuesContent: |-\n    \"k\\e[31m\": \"v\\e[0m\"\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := charts.Inspect(charts.Options{Node: fs, Res: res, Name: "app"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	chartsreport.Text(&b, rep, report.NewRedactor(res, false), false)
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("the text output holds an escape character:\n%q", b.String())
	}
	if !strings.Contains(b.String(), `k\u001b[31m`) { // internal/termesc's form
		t.Errorf("the key is not shown escaped:\n%s", b.String())
	}
}
