package charts_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/report"
)

// dashboardPassword is what the valuesSecrets Secret of testdata/values/release-*.txtar
// holds, and what real Helm stored in the releases made with it.
const dashboardPassword = "s3cr3t-dashboard-pw"

func renderRelease(t *testing.T, name string, show bool, edit func(afero.Fs)) (string, *charts.Report) {
	t.Helper()
	ar, err := txtar.ParseFile("../../testdata/values/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	s, err := parseComment(string(ar.Comment))
	if err != nil {
		t.Fatal(err)
	}
	fs := node(t, ar, "")
	if edit != nil {
		edit(fs)
	}
	rep, res, err := inspect(t, fs, ar, s, "")
	if err != nil {
		t.Fatal(err)
	}
	red := report.NewRedactor(res, show)
	var text bytes.Buffer
	chartsreport.Text(&text, rep, red, true)
	js, err := json.Marshal(chartsreport.JSON(rep, nodereport.EnvelopeOf(res, "values"), red, true))
	if err != nil {
		t.Fatal(err)
	}
	return text.String() + "\n" + string(js), rep
}

// TestReleaseSecretsRedacted: values read from a valuesSecrets Secret in --objects, and the
// values a release Secret holds, are REDACTED in text and JSON whatever their key, and shown
// with --show-secrets.
func TestReleaseSecretsRedacted(t *testing.T) {
	for _, name := range []string{"release-in-effect", "release-failed", "release-pending", "release-drifted"} {
		out, _ := renderRelease(t, name, false, nil)
		if strings.Contains(out, dashboardPassword) {
			t.Errorf("%s: the Secret's value is in the output", name)
		}
		if !strings.Contains(out, output.Redacted) {
			t.Errorf("%s: nothing REDACTED", name)
		}
		shown, _ := renderRelease(t, name, true, nil)
		if !strings.Contains(shown, dashboardPassword) {
			t.Errorf("%s: --show-secrets does not show the Secret's value", name)
		}
	}
}

// TestReleaseOnlyValueRedacted: without the valuesSecrets entry, the release still has the
// password it was installed with; the report names the path and hides the value.
func TestReleaseOnlyValueRedacted(t *testing.T) {
	drop := func(fs afero.Fs) {
		p := "/var/lib/rancher/k3s/server/manifests/traefik-config.yaml"
		data, err := afero.ReadFile(fs, p)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(data, []byte("  valuesSecrets:"))
		if err := afero.WriteFile(fs, p, data[:i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, rep := renderRelease(t, "release-in-effect", false, drop)
	if rep.ReleaseStatus() == nil || rep.ReleaseStatus().State != "drifted" {
		t.Fatalf("state: %+v", rep.ReleaseStatus())
	}
	if !strings.Contains(out, "also has dashboard.password = \"REDACTED\"") || strings.Contains(out, dashboardPassword) {
		t.Errorf("the release's own password: want the path with REDACTED, never the value:\n%s", out)
	}
	shown, _ := renderRelease(t, "release-in-effect", true, drop)
	if !strings.Contains(shown, dashboardPassword) {
		t.Errorf("--show-secrets hides the release's value")
	}
}
