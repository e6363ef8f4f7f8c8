package values

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestRealChartsAgainstHelm runs real chart archives (every *.tgz in the folder
// K3SCONF_REAL_CHARTS names: rke2-charts' rke2-multus, harvester-cloud-provider,
// rke2-cilium, k3s-charts' traefik…) through helm and Compute with the values RKE2 injects,
// every dependency enabled, and a null over a subchart's default. Each chart's templates
// are replaced by one that prints .Values, so what is compared is the values, not the
// manifests. Skipped without the folder: the archives are not in the repository.
func TestRealChartsAgainstHelm(t *testing.T) {
	dir := os.Getenv("K3SCONF_REAL_CHARTS")
	if dir == "" {
		t.Skip("K3SCONF_REAL_CHARTS is not set: no real chart archives to run")
	}
	archives, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	rke2 := []SetArg{
		{Key: "global.clusterCIDR", Value: "10.42.0.0/16"}, {Key: "global.clusterCIDRv4", Value: "10.42.0.0/16"},
		{Key: "global.clusterCIDRv6", Value: ""}, {Key: "global.clusterDNS", Value: "10.43.0.10"},
		{Key: "global.clusterDomain", Value: "cluster.local"}, {Key: "global.rke2DataDir", Value: "/var/lib/rancher/rke2"},
		{Key: "global.serviceCIDR", Value: "10.43.0.0/16"}, {Key: "global.systemDefaultIngressClass", Value: "ingress-nginx"},
		{Key: "global.systemDefaultRegistry", Value: "registry.example.com"}, {Key: "global.cattle.systemDefaultRegistry", Value: "registry.example.com"},
	}
	sortSet(rke2)
	ran := 0
	for _, o := range oracles {
		helm, ok := o.binary(t)
		if !ok {
			continue
		}
		ran++
		for _, a := range archives {
			data, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			tgz, err := valuesOnly(data)
			if err != nil {
				t.Fatalf("%s: %v", a, err)
			}
			ch, err := LoadChart(a, tgz, o.major)
			if err != nil {
				t.Fatalf("%s: %v", a, err)
			}
			var enable, nulls strings.Builder
			for _, r := range ch.Requirements {
				for _, c := range strings.Split(r.Condition, ",") {
					if c = strings.TrimSpace(c); c != "" {
						fmt.Fprintf(&enable, "%s: true\n", strings.ReplaceAll(c, ".", ":\n  "))
					}
				}
			}
			for _, s := range ch.Subcharts {
				for _, k := range sortedKeys(s.Values) {
					if k != "global" {
						fmt.Fprintf(&nulls, "%s:\n  %s: null\n", s.Name, k)
						break
					}
				}
			}
			var wrong string
			if ch.Schema != nil {
				var sch struct {
					Properties map[string]struct {
						Type any `json:"type"`
					} `json:"properties"`
				}
				if json.Unmarshal(ch.Schema, &sch) == nil {
					var ks []string
					for k, p := range sch.Properties {
						if p.Type == "boolean" {
							ks = append(ks, k)
						}
					}
					sort.Strings(ks)
					if len(ks) > 0 {
						wrong = ks[0] + ": notabool\n"
					}
				}
			}
			cases := []struct {
				name  string
				files []string
				set   []SetArg
			}{
				{"defaults", nil, nil},
				{"rke2 injected globals", nil, rke2},
				{"dependencies enabled", []string{enable.String()}, rke2},
				{"null over a subchart default", []string{enable.String(), nulls.String()}, nil},
			}
			if wrong != "" {
				cases = append(cases, struct {
					name  string
					files []string
					set   []SetArg
				}{"schema refuses a string for a boolean", []string{wrong}, nil})
			}
			for _, c := range cases {
				name := fmt.Sprintf("%s/%s/%s", o.name, filepath.Base(a), c.name)
				t.Run(name, func(t *testing.T) {
					compareReal(t, helm, o, tgz, c.files, c.set)
				})
			}
		}
	}
	if ran == 0 {
		t.Skip("no helm binary")
	}
}

func compareReal(t *testing.T, helm string, o oracle, tgz []byte, files []string, set []SetArg) {
	dir, err := os.MkdirTemp("", "helmreal")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	chart := filepath.Join(dir, "chart.tgz")
	os.WriteFile(chart, tgz, 0o644)
	// A current Kubernetes: v3's default (v1.20) fails charts' kubeVersion constraints.
	args := []string{"template", "rel", chart, "--kube-version", "1.35.0"}
	for _, s := range set {
		f, a := s.Arg()
		args = append(args, f, a)
	}
	in := Input{Major: o.major, Nulls: o.nulls, Set: set}
	for i, f := range files {
		p := filepath.Join(dir, fmt.Sprintf("values-%d.yaml", i))
		os.WriteFile(p, []byte(f), 0o644)
		args = append(args, "--values", p)
		in.Layers = append(in.Layers, Layer{Kind: HelmChartConfigValuesContent, File: p, Text: []byte(f)})
	}
	cmd := exec.Command(helm, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+dir, "HELM_CONFIG_HOME="+dir, "HELM_DATA_HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	herr := cmd.Run()
	ch, err := LoadChart("chart.tgz", tgz, o.major)
	if err != nil {
		t.Fatal(err)
	}
	res := Compute(ch, in)
	var oerr error
	if res.Err != nil {
		oerr = res.Err
	}
	for _, se := range res.SchemaErrors {
		if !se.Unchecked {
			oerr = se
		}
	}
	if (herr != nil) != (oerr != nil) {
		t.Fatalf("helm error %v (%s), k3sconf error %v", herr, stderr.String(), oerr)
	}
	if herr != nil {
		checkSchemaText(t, stderr.String(), res)
		return
	}
	var want string
	var charts []string
	lines := strings.Split(stdout.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# chart ") && i+1 < len(lines) {
			name := strings.TrimPrefix(l, "# chart ")
			charts = append(charts, name)
			if name == ch.Name && want == "" {
				want = lines[i+1]
			}
		}
	}
	got, _ := json.Marshal(res.Values)
	if want != string(got) {
		t.Errorf("values differ\nhelm:    %s\nk3sconf: %s", want, got)
	}
	ours := []string{ch.Name}
	for _, s := range res.Subcharts {
		ours = append(ours, s.Chart.Name)
	}
	sort.Strings(ours)
	sort.Strings(charts)
	if fmt.Sprint(ours) != fmt.Sprint(charts) {
		t.Errorf("rendered charts: helm %v, k3sconf %v", charts, ours)
	}
	for _, l := range res.Leaves {
		if !l.Deleted && !l.Replaced && l.Source == nil {
			t.Errorf("leaf %s has no source", l.Name)
		}
	}
}

// valuesOnly rewrites a chart archive (subcharts included) so that each chart's only
// template prints its name and .Values.
func valuesOnly(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		name := h.Name
		if strings.Contains(name, "/templates/") || strings.Contains(name, "/crds/") {
			continue
		}
		if strings.HasSuffix(name, ".tgz") && strings.Contains(name, "/charts/") {
			if b, err = valuesOnly(b); err != nil {
				return nil, err
			}
		}
		if strings.HasSuffix(name, "/Chart.yaml") {
			dir := strings.TrimSuffix(name, "Chart.yaml")
			tpl := []byte("# chart " + strings.TrimSuffix(filepath.Base(dir), "/") + "\n{{ toJson .Values }}\n")
			tw.WriteHeader(&tar.Header{Name: dir + "templates/values.yaml", Mode: 0o644, Size: int64(len(tpl)), Typeflag: tar.TypeReg})
			tw.Write(tpl)
		}
		h.Size = int64(len(b))
		tw.WriteHeader(h)
		tw.Write(b)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes(), nil
}

// checkSchemaText: each schema failure k3sconf reports is in helm's message as Helm prints
// it ("- at '/x': got string, want boolean" under the chart's name).
func checkSchemaText(t testing.TB, helmErr string, res *Result) {
	t.Helper()
	for _, se := range res.SchemaErrors {
		if se.Unchecked {
			continue
		}
		want := fmt.Sprintf("- at '%s': %s", se.Pointer, se.Message)
		if !strings.Contains(helmErr, se.Chart+":\n") || !strings.Contains(helmErr, want) {
			t.Errorf("helm's message lacks %q under %s:\n%s", want, se.Chart, helmErr)
		}
	}
}
