package charts_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/golden"
)

// End to end against the real helm (K3SCONF_HELM3, K3SCONF_HELM4; .ci/run builds them):
// every scenario node — the golden servers and both nodes of every diagnostic scenario —
// read from its manifests as k3sconf reads them, then rendered by `helm template` with the
// values files and --set arguments the Helm job gets, and .Values compared with k3sconf's.
// K3SCONF_TRAEFIK_CHART names a real traefik chart archive (the one k3s stages in
// server/static/charts): the traefik scenario is then run on it too.

// helmJobs are the --helm choices and the binaries of those releases.
var helmJobs = []struct{ helm, env string }{{"3.19", "K3SCONF_HELM3_19_0"}, {"3.19.5", "K3SCONF_HELM3_19_5"}, {"3", "K3SCONF_HELM3"}, {"4", "K3SCONF_HELM4"}}

func helmFor(t *testing.T, env string) (string, bool) {
	p := os.Getenv(env)
	if p == "" {
		if os.Getenv("K3SCONF_REQUIRE_HELM") != "" {
			t.Fatalf("%s is not set but K3SCONF_REQUIRE_HELM is", env)
		}
		t.Logf("%s is not set: the end-to-end check against it is skipped", env)
		return "", false
	}
	return p, true
}

// renderChart gives the chart a template printing .Values as JSON (the archive's own
// templates are replaced: only the values matter) and runs helm template.
func helmValues(t *testing.T, helm string, rep *charts.Report) (string, error) {
	dir, err := os.MkdirTemp("", "helmchart")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	chart := filepath.Join(dir, "chart")
	if err := os.MkdirAll(filepath.Join(chart, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	meta := fmt.Sprintf("apiVersion: v2\nname: %s\nversion: %s\n", rep.ChartName, rep.ChartVersion)
	os.WriteFile(filepath.Join(chart, "Chart.yaml"), []byte(meta), 0o644)
	os.WriteFile(filepath.Join(chart, "values.yaml"), defaultsText(t, rep), 0o644)
	os.WriteFile(filepath.Join(chart, "templates", "values.yaml"), []byte("{{ toJson .Values }}\n"), 0o644)
	args := []string{"template", "rel", chart}
	for _, s := range rep.Input.Set {
		f, a := s.Arg()
		args = append(args, f, a)
	}
	for i, l := range rep.Input.Layers {
		if l.Text == nil {
			continue
		}
		p := filepath.Join(dir, fmt.Sprintf("values-%d.yaml", i))
		os.WriteFile(p, l.Text, 0o644)
		args = append(args, "--values", p)
	}
	cmd := exec.Command(helm, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+dir, "HELM_CONFIG_HOME="+dir, "HELM_DATA_HOME="+dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, errb.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "{") {
			return line, nil
		}
	}
	return "", fmt.Errorf("no JSON in %q", out.String())
}

func defaultsText(t *testing.T, rep *charts.Report) []byte {
	if rep.ChartData == nil {
		return nil
	}
	b, err := charts.ValuesYAML(rep.ChartData)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkAgainstHelm(t *testing.T, helm, what string, rep *charts.Report) {
	if !rep.HasDefaults {
		return // nothing to render: the scenario is about a chart that cannot be read
	}
	if r := rep.Result; len(r.Subcharts) > 0 || len(r.Disabled) > 0 || (r.Err != nil && r.Err.Dependencies) {
		// This harness renders a chart of the parent's defaults alone; a chart with
		// dependencies is compared with the real helm, subcharts and all, by helm/values'
		// dependency differential and real-chart test (docs/values.md, "How it is tested").
		t.Logf("%s: has dependencies, compared with helm by helm/values instead", what)
		return
	}
	want, herr := helmValues(t, helm, rep)
	if (herr != nil) != (rep.Result.Err != nil) {
		t.Errorf("%s: helm error %v, k3sconf error %v", what, herr, rep.Result.Err)
		return
	}
	if herr != nil {
		return
	}
	got, _ := json.Marshal(rep.Result.Values)
	if want != string(got) {
		t.Errorf("%s: values differ\nhelm:    %s\nk3sconf: %s", what, want, got)
	}
}

func TestScenariosAgainstHelm(t *testing.T) {
	ran := 0
	defer func() {
		if ran == 0 {
			t.Skip("no helm binary: set K3SCONF_HELM3_19_0, K3SCONF_HELM3_19_5, K3SCONF_HELM3, K3SCONF_HELM4")
		}
	}()
	for _, job := range helmJobs {
		helm, ok := helmFor(t, job.env)
		if !ok {
			continue
		}
		ran++
		for _, glob := range []string{"../../testdata/values/*.txtar", "../../testdata/values/diagnostics/*.txtar"} {
			golden.Archives(t, glob, func(t *testing.T, p string, ar *txtar.Archive) {
				s, _ := parseComment(string(ar.Comment))
				s.helm = job.helm
				prefixes := []string{""}
				if strings.Contains(p, "diagnostics") {
					prefixes = []string{"trigger/", "clean/"}
				}
				for _, pre := range prefixes {
					rep, _, err := inspect(t, node(t, ar, pre), ar, s, pre)
					if err != nil {
						t.Fatal(err)
					}
					checkAgainstHelm(t, helm, fmt.Sprintf("%s %s(--helm %s)", p, pre, job.helm), rep)
				}
			})
		}
		if real := os.Getenv("K3SCONF_TRAEFIK_CHART"); real != "" {
			data, err := os.ReadFile(real)
			if err != nil {
				t.Fatal(err)
			}
			ar, err := txtar.ParseFile("../../testdata/values/traefik.txtar")
			if err != nil {
				t.Fatal(err)
			}
			s, _ := parseComment(string(ar.Comment))
			s.helm = job.helm
			fs := node(t, ar, "")
			o := s
			o.chartFile = real
			ar.Files = append(ar.Files, txtar.File{Name: real, Data: data})
			rep, _, err := inspect(t, fs, ar, o, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("real chart %s: %s %s, %d leaves", real, rep.ChartName, rep.ChartVersion, len(rep.Result.Leaves))
			checkAgainstHelm(t, helm, "traefik with "+real, rep)
		}
	}
}
