package charts_test

// Scenarios: testdata/values/*.txtar are servers with golden outputs (want/values.txt,
// want/values.json; `go test ./helm/charts -run Golden -update` rewrites them), and
// testdata/values/diagnostics/<code>.txtar hold, for one values-* code, a server that
// triggers it (trigger/…) and one with the fix applied (clean/…). Comment options, one per
// line: `chart: NAME` (default traefik), `namespace: NS`, `want: SEVERITY POSITION`
// (diagnostics), `objects: FILE` (an archive file given as --objects), `chartfile: FILE`
// (--chart). Files chart/NAME/… (or trigger/chart/…, clean/chart/…) are packed into
// /var/lib/rancher/k3s/server/static/charts/NAME.tgz, where k3s stages its charts.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/values/*.txtar")

type scenario struct {
	desc, chart, namespace, objects, chartFile string
	helm                                       string
	render                                     bool
	sev                                        diag.Severity
	pos                                        diag.Position
	hasWant                                    bool
}

func parseComment(c string) (scenario, error) {
	s := scenario{chart: "traefik"}
	for i, l := range strings.Split(strings.TrimSpace(c), "\n") {
		k, v, ok := strings.Cut(l, ":")
		v = strings.TrimSpace(v)
		if i == 0 || !ok || strings.ContainsAny(k, " \t") {
			if i == 0 || s.desc == "" {
				s.desc += l
			}
			continue
		}
		switch k {
		case "chart":
			s.chart = v
		case "namespace":
			s.namespace = v
		case "objects":
			s.objects = v
		case "chartfile":
			s.chartFile = v
		case "render":
			s.render = v == "true"
		case "want":
			sev, p, _ := strings.Cut(v, " ")
			s.sev, s.hasWant = diag.Severity(sev), true
			parts := strings.Split(p, ":")
			s.pos.File = parts[0]
			if len(parts) > 1 {
				s.pos.Line, _ = strconv.Atoi(parts[1])
			}
			if len(parts) > 2 {
				s.pos.Column, _ = strconv.Atoi(parts[2])
			}
		default:
			return s, fmt.Errorf("unknown option %q", k)
		}
	}
	return s, nil
}

// pack builds NAME.tgz archives from the files under prefix+"chart/NAME/".
func pack(t *testing.T, ar *txtar.Archive, prefix string) map[string][]byte {
	t.Helper()
	charts := map[string][]txtar.File{}
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, prefix+"chart/")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rel, "/")
		charts[name] = append(charts[name], txtar.File{Name: rel, Data: f.Data})
	}
	out := map[string][]byte{}
	for name, files := range charts {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		for _, f := range files {
			if err := tw.WriteHeader(&tar.Header{Name: f.Name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write(f.Data)
		}
		tw.Close()
		zw.Close()
		out[name] = buf.Bytes()
	}
	return out
}

// node loads prefix/… as the node, with the packed charts staged as k3s stages them.
func node(t *testing.T, ar *txtar.Archive, prefix string) afero.Fs {
	t.Helper()
	fs, _, err := golden.LoadFiles(ar, prefix+"node/")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"", prefix} {
		for name, data := range pack(t, ar, src) {
			if err := afero.WriteFile(fs, "/var/lib/rancher/k3s/server/static/charts/"+name+".tgz", data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if prefix == "" {
			break
		}
	}
	return fs
}

func fileData(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func inspect(t *testing.T, fs afero.Fs, ar *txtar.Archive, s scenario, prefix string) (*charts.Report, *resolve.Result, error) {
	t.Helper()
	res, err := resolve.Resolve(resolve.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	o := charts.Options{Node: fs, Res: res, Name: s.chart, Namespace: s.namespace, Helm: s.helm}
	if s.objects != "" {
		o.ObjectsFile, o.ObjectsData = s.objects, fileData(ar, prefix+s.objects)
		if o.ObjectsData == nil {
			o.ObjectsData = fileData(ar, s.objects)
		}
	}
	if s.render {
		// helm template with the real helm: K3SCONF_HELM4 (.ci/run builds it).
		if o.HelmBinary = os.Getenv("K3SCONF_HELM4"); o.HelmBinary == "" {
			t.Skip("render: true needs a helm binary: set K3SCONF_HELM4")
		}
	}
	if s.chartFile != "" {
		o.ChartFile, o.ChartData = s.chartFile, fileData(ar, s.chartFile)
		if o.ChartData == nil {
			o.ChartData = pack(t, ar, "")[strings.TrimSuffix(filepath.Base(s.chartFile), ".tgz")]
		}
	}
	rep, err := charts.Inspect(o)
	return rep, res, err
}

func TestGolden(t *testing.T) {
	golden.Archives(t, "../../testdata/values/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
		s, err := parseComment(string(ar.Comment))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var inputs []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") {
				inputs = append(inputs, f)
			}
		}
		fs := node(t, ar, "")
		rep, res, err := inspect(t, fs, ar, s, "")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		red := report.NewRedactor(res, false)
		var text bytes.Buffer
		chartsreport.Text(&text, rep, red, false)
		js, err := json.MarshalIndent(chartsreport.JSON(rep, nodereport.EnvelopeOf(res, "values"), red, false), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{"want/values.txt": text.String(), "want/values.json": string(js) + "\n"}
		golden.Check(t, p, ar, inputs, got, []string{"want/values.txt", "want/values.json"}, *update, s.desc, "go test ./helm/charts -run Golden -update")
	})
}

func TestDiagnosticScenarios(t *testing.T) {
	golden.Archives(t, "../../testdata/values/diagnostics/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
		code := strings.TrimSuffix(filepath.Base(p), ".txtar")
		s, err := parseComment(string(ar.Comment))
		if err != nil || !s.hasWant {
			t.Fatalf("%s: %v (a want: line is required)", p, err)
		}
		for _, which := range []string{"trigger", "clean"} {
			fs := node(t, ar, which+"/")
			rep, _, err := inspect(t, fs, ar, s, which+"/")
			if err != nil {
				t.Fatalf("%s: %s: %v", p, which, err)
			}
			var found []diag.Diagnostic
			for _, d := range rep.Diagnostics {
				if d.Code == code {
					found = append(found, d)
				}
			}
			if which == "clean" {
				if len(found) > 0 {
					t.Errorf("%s: clean node: want no %s, got %v", p, code, found)
				}
				continue
			}
			ok := false
			for _, d := range found {
				ok = ok || (d.Severity == s.sev && d.Pos == s.pos)
			}
			if !ok {
				t.Errorf("%s: trigger node: want %s %s at %s; got %v", p, s.sev, code, s.pos, rep.Diagnostics)
			}
		}
	})
}

// TestEveryCodeHasAScenario keeps the values-* codes this package emits and the archives
// in step, both ways.
func TestEveryCodeHasAScenario(t *testing.T) {
	emitted := map[string]bool{}
	for _, f := range []string{"inspect.go", "findings.go", "release.go", "../../internal/helmrelease/compare.go"} {
		data, err := afero.ReadFile(afero.NewOsFs(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(data), `Code: "`)[1:] {
			emitted[part[:strings.Index(part, `"`)]] = true
		}
	}
	paths, _ := filepath.Glob("../../testdata/values/diagnostics/*.txtar")
	have := map[string]bool{}
	for _, p := range paths {
		have[strings.TrimSuffix(filepath.Base(p), ".txtar")] = true
	}
	var codes []string
	for c := range emitted {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		if !have[c] {
			t.Errorf("%s is emitted but testdata/values/diagnostics/%s.txtar does not exist", c, c)
		}
	}
	for c := range have {
		if !emitted[c] {
			t.Errorf("testdata/values/diagnostics/%s.txtar names a code nothing emits", c)
		}
	}
}
