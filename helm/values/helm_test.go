package values

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The differential against the real helm binary. K3SCONF_HELM3 and K3SCONF_HELM4 name
// helm v3.20.2 and v4.1.4 binaries (.ci/run builds them from the Go module proxy); without
// them the tests skip, unless K3SCONF_REQUIRE_HELM is set, as CI sets it.

// oracle is one real helm release and the Input settings that model it.
type oracle struct {
	name, env string
	major     int
	nulls     NullRule
}

// oracles are the Helm releases of the Helm job images, one per behaviour: v3.19.0
// (klipper-helm v0.9.9; v3.18.4 to v3.19.4 alike), v3.19.5 (v0.9.13, v0.9.14), v3.20.2
// (v0.9.16 to v0.10.x; v3.20.1 in v0.9.15 alike), v4.1.4 (v0.11.0 and later).
var oracles = []oracle{
	{"helm v3.19.0", "K3SCONF_HELM3_19_0", 3, NullIfInDefaults},
	{"helm v3.19.5", "K3SCONF_HELM3_19_5", 3, NullAlways},
	{"helm v3.20.2", "K3SCONF_HELM3", 3, NullUnlessDefaultNull},
	{"helm v4.1.4", "K3SCONF_HELM4", 4, NullUnlessDefaultNull},
}

// binary returns the oracle's helm binary; without it the test is skipped, or fails when
// K3SCONF_REQUIRE_HELM is set (CI).
func (o oracle) binary(t testing.TB) (string, bool) {
	t.Helper()
	p := os.Getenv(o.env)
	if p == "" {
		if os.Getenv("K3SCONF_REQUIRE_HELM") != "" {
			t.Fatalf("%s is not set but K3SCONF_REQUIRE_HELM is: CI must run the Helm differential", o.env)
		}
		t.Logf("%s is not set: the differential against %s is skipped (.ci/run builds helm from the module proxy and sets it)", o.env, o.name)
		return "", false
	}
	return p, true
}

// helmCase is one chart and what the Helm job passes to helm.
type helmCase struct {
	name     string
	defaults string // values.yaml
	files    []string
	set      []SetArg
}

// chartArchive builds a chart .tgz whose only template prints .Values as JSON.
func chartArchive(t testing.TB, name, values string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(p, data string) {
		if err := tw.WriteHeader(&tar.Header{Name: name + "/" + p, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	add("Chart.yaml", "apiVersion: v2\nname: "+name+"\nversion: 0.1.0\n")
	add("values.yaml", values)
	add("templates/values.yaml", "{{ toJson .Values }}\n")
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// runHelm renders the chart with helm template, the values files and --set arguments in the
// order the Helm job gives them (klipper-helm entry: the install arguments with --set
// first, then every /config/*.yaml as --values). It returns .Values as JSON, or the error.
func runHelm(t testing.TB, helm, dir string, c helmCase, tgz []byte) (string, error) {
	t.Helper()
	chart := filepath.Join(dir, "chart.tgz")
	if err := os.WriteFile(chart, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"template", "rel", chart}
	for _, s := range c.set {
		f, a := s.Arg()
		args = append(args, f, a)
	}
	for i, f := range c.files {
		p := filepath.Join(dir, fmt.Sprintf("values-%d.yaml", i))
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--values", p)
	}
	cmd := exec.Command(helm, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+dir, "HELM_CONFIG_HOME="+dir, "HELM_DATA_HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "{") {
			return line, nil
		}
	}
	return "", fmt.Errorf("no JSON in helm's output: %q", stdout.String())
}

// ours computes the same case with the engine.
func ours(t testing.TB, c helmCase, tgz []byte, o oracle) (string, *Result, error) {
	ch, err := LoadChart("chart.tgz", tgz, o.major)
	if err != nil {
		return "", nil, err
	}
	in := Input{Major: o.major, Nulls: o.nulls}
	for i, f := range c.files {
		in.Layers = append(in.Layers, Layer{Kind: HelmChartValuesContent, File: fmt.Sprintf("values-%d.yaml", i), Text: []byte(f)})
	}
	in.Set = c.set
	res := Compute(ch, in)
	if res.Err != nil {
		return "", res, res.Err
	}
	b, err := json.Marshal(res.Values)
	if err != nil {
		return "", res, err
	}
	return string(b), res, nil
}

// compare runs one case on helm and on the engine and reports any difference.
func compare(t testing.TB, helm string, o oracle, c helmCase) bool {
	major := o.name
	t.Helper()
	// Not t.TempDir: its name holds the test's, and helm splits --values at commas.
	dir, err := os.MkdirTemp("", "helmcase")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	tgz := chartArchive(t, "c", c.defaults)
	want, herr := runHelm(t, helm, dir, c, tgz)
	got, res, oerr := ours(t, c, tgz, o)
	if oerr == nil {
		// Provenance must agree with the values: every leaf in force has a source whose
		// value is the leaf's, and every leaf of .Values is reported.
		n := 0
		leaves("", res.Values, func(p string, v any) {
			if p != "" {
				n++
			}
		})
		shown := 0
		for _, l := range res.Leaves {
			if l.Deleted || l.Replaced {
				continue
			}
			shown++
			if l.Source == nil || !reflect.DeepEqual(l.Source.Value, l.Value) {
				t.Errorf("%s (%s): leaf %s = %v has source %+v\ncase: %s", c.name, major, l.Name, l.Value, l.Source, describeCase(c))
				return false
			}
		}
		if shown != n {
			t.Errorf("%s (%s): %d leaves in .Values, %d reported\ncase: %s", c.name, major, n, shown, describeCase(c))
			return false
		}
	}
	if (herr != nil) != (oerr != nil) {
		t.Errorf("%s (%s): helm error %v, k3sconf error %v\ncase: %s", c.name, major, herr, oerr, describeCase(c))
		return false
	}
	if herr == nil && want != got {
		t.Errorf("%s (%s): values differ\nhelm:    %s\nk3sconf: %s\ncase: %s", c.name, major, want, got, describeCase(c))
		return false
	}
	return true
}

func describeCase(c helmCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n--- values.yaml\n%s", c.defaults)
	for i, f := range c.files {
		fmt.Fprintf(&b, "\n--- file %d\n%s", i, f)
	}
	for _, s := range c.set {
		f, a := s.Arg()
		fmt.Fprintf(&b, "\n%s %s", f, a)
	}
	return b.String()
}
