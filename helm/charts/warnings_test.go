package charts_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// tgz packs files (paths under the chart's folder) as a chart archive.
func tgz(t *testing.T, name string, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for p, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name + "/" + p, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(data))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestValuesWarningsBothWays: values-unknown-path fires for a misspelt short key and on a
// chart with subcharts, and stays quiet for the globals RKE2 injects into every packaged
// chart; RKE2's report never speaks of k3s.
func TestValuesWarningsBothWays(t *testing.T) {
	canal := map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: rke2-canal\nversion: v3.32.1\n",
		"values.yaml": "global:\n  systemDefaultRegistry: \"\"\n  clusterCIDRv4: \"\"\n  clusterCIDRv6: \"\"\nflannel:\n  iface: \"\"\n",
	}
	multus := map[string]string{
		"Chart.yaml":                          "apiVersion: v1\nname: rke2-multus\nversion: v4.3.017\n",
		"requirements.yaml":                   "dependencies:\n- condition: rke2-whereabouts.enabled\n  name: rke2-whereabouts\n  repository: file://./charts/rke2-whereabouts\n",
		"values.yaml":                         "image:\n  tag: v4.3.0\nrke2-whereabouts:\n  enabled: false\n",
		"charts/rke2-whereabouts/Chart.yaml":  "apiVersion: v2\nname: rke2-whereabouts\nversion: v0.9.4\n",
		"charts/rke2-whereabouts/values.yaml": "image:\n  pullPolicy: IfNotPresent\n",
	}
	traefik := map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: traefik\nversion: 39.0.7\n",
		"values.yaml": "logs:\n  general:\n    level: INFO\n",
	}
	injected := "  set:\n    global.clusterCIDR: 10.42.0.0/16\n    global.clusterCIDRv4: 10.42.0.0/16\n    global.systemDefaultRegistry: \"\"\n"
	for _, tc := range []struct {
		name, reason   string
		product, chart string
		archive        map[string]string
		set, config    string
		want           string // the key of a values-unknown-path finding, "" for none
	}{
		{"short-key-typo", "log: for logs: is three letters, still a typo of a key the chart has",
			"k3s", "traefik", traefik, "", "log:\n  general:\n    level: DEBUG\n", "log.general.level"},
		{"short-key-right", "logs: is the chart's key",
			"k3s", "traefik", traefik, "", "logs:\n  general:\n    level: DEBUG\n", ""},
		{"subchart-typo", "rke2-whereabout.enabled does nothing: the dependency's key is rke2-whereabouts",
			"rke2", "rke2-multus", multus, injected, "rke2-whereabout:\n  enabled: true\n", "rke2-whereabout.enabled"},
		{"subchart-right", "rke2-whereabouts.enabled is the condition of the dependency",
			"rke2", "rke2-multus", multus, injected, "rke2-whereabouts:\n  enabled: true\n", ""},
		{"subchart-default-typo", "a typo inside the subchart's values is found against its defaults",
			"rke2", "rke2-multus", multus, injected, "rke2-whereabouts:\n  image:\n    pullPolicyy: Always\n", "rke2-whereabouts.image.pullPolicyy"},
		{"rke2-injected-globals", "RKE2 injects global.clusterCIDR into every chart (canal has only clusterCIDRv4): the user cannot change it",
			"rke2", "rke2-canal", canal, injected, "", ""},
		{"rke2-user-global-typo", "the same near miss written by the user in a HelmChartConfig is reported",
			"rke2", "rke2-canal", canal, injected, "global:\n  clusterCIDRv5: 10.42.0.0/16\n", "global.clusterCIDRv5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			dir := "/var/lib/rancher/" + tc.product + "/server/manifests/"
			if tc.product == "rke2" {
				afero.WriteFile(fs, "/usr/local/lib/systemd/system/rke2-server.service", []byte("[Service]\nExecStart=/usr/local/bin/rke2 server\n"), 0o644)
			} else {
				afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			}
			afero.WriteFile(fs, dir+tc.chart+".yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: "+tc.chart+"\n  namespace: kube-system\nspec:\n  chart: "+tc.chart+"\n"+tc.set), 0o644)
			if tc.config != "" {
				afero.WriteFile(fs, dir+tc.chart+"-config.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: "+tc.chart+"\n  namespace: kube-system\nspec:\n  valuesContent: |-\n    "+strings.ReplaceAll(strings.TrimSuffix(tc.config, "\n"), "\n", "\n    ")+"\n"), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := charts.Inspect(charts.Options{Node: fs, Res: res, Name: tc.chart, ChartFile: tc.chart + ".tgz", ChartData: tgz(t, tc.chart, tc.archive)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range rep.Diagnostics {
				if d.Code == "values-unknown-path" {
					got = append(got, d.Key)
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("%s: want no values-unknown-path, got %v", tc.reason, got)
			case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
				t.Errorf("%s: want values-unknown-path for %s, got %v", tc.reason, tc.want, got)
			}
			if tc.product == "rke2" {
				var b bytes.Buffer
				chartsreport.Text(&b, rep, report.NewRedactor(res, false), true)
				for _, bad := range []string{"k3s's", "k3s applies", "k3s re-applies"} {
					if strings.Contains(b.String(), bad) {
						t.Errorf("RKE2's report says %q:\n%s", bad, b.String())
					}
				}
			}
		})
	}
}
