package values

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/k3sconf/k3sconf/provenance"
)

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		keys         []string
		path         string
	}{
		{"plain", "keys joined by dots", []string{"a", "b"}, "a.b"},
		{"dot", "a dot inside a key is escaped as --set writes it", []string{"deployment", "podAnnotations", "prometheus.io/port"}, `deployment.podAnnotations.prometheus\.io/port`},
		{"backslash", "a backslash is escaped too, so the path splits back", []string{`a\b`, "c"}, `a\\b.c`},
		{"trailing-backslash", "a key ending in a backslash", []string{`a\`, "b"}, `a\\.b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ""
			for _, k := range tc.keys {
				p = JoinPath(p, k)
			}
			if p != tc.path {
				t.Errorf("%s: JoinPath = %q, want %q", tc.reason, p, tc.path)
			}
			if diff := cmp.Diff(tc.keys, SplitPath(p)); diff != "" {
				t.Errorf("%s: SplitPath mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
	if !isAncestor(`a\\`, `a\\.b`) || isAncestor(`a\`, `a\.b`) {
		t.Error(`isAncestor must stop at key boundaries: a\\ is an ancestor of a\\.b, a\ is not one of a\.b`)
	}
}

// TestSetArg is helm-controller's chart.go args for spec.set: typedVal and escapeComma.
func TestSetArg(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		arg          SetArg
		flag, want   string
	}{
		{"int", "an IntOrString integer is typed", SetArg{Key: "replicas", Value: "3", Int: true}, "--set", "replicas=3"},
		{"string-number", "a quoted number is a string: --set-string", SetArg{Key: "port", Value: "8080"}, "--set-string", "port=8080"},
		{"true", "true, false and null in any case go to --set even as strings", SetArg{Key: "enabled", Value: "True"}, "--set", "enabled=True"},
		{"null", "null deletes", SetArg{Key: "a", Value: "NULL"}, "--set", "a=NULL"},
		{"empty", "an empty string is --set-string", SetArg{Key: "r", Value: ""}, "--set-string", "r="},
		{"comma", "an unescaped comma gets a backslash", SetArg{Key: "cidr", Value: "10.42.0.0/16,fd42::/48"}, "--set-string", `cidr=10.42.0.0/16\,fd42::/48`},
		{"escaped-comma", "an escaped comma stays", SetArg{Key: "a", Value: `x\,y`}, "--set-string", `a=x\,y`},
		{"double-backslash", "a comma after an escaped backslash is unescaped, so it gets one", SetArg{Key: "a", Value: `x\\,y`}, "--set-string", `a=x\\\,y`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, a := tc.arg.Arg()
			if f != tc.flag || a != tc.want {
				t.Errorf("%s: got %s %s, want %s %s", tc.reason, f, a, tc.flag, tc.want)
			}
		})
	}
}

// TestDecodeMajors: Helm 3 reads the first document of a values file, Helm 4 merges them all.
func TestDecodeMajors(t *testing.T) {
	// (z, not y: yaml.v2 reads the key y as the boolean true, so Helm sees "true".)
	text := []byte("a: 1\nb: {x: 1}\n---\nb: {z: 2}\nc: yes\n")
	v3, err := decode(text, 3)
	if err != nil {
		t.Fatal(err)
	}
	v4, err := decode(text, 4)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"a": 1.0, "b": map[string]any{"x": 1.0}}, v3); diff != "" {
		t.Errorf("helm 3 mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"a": 1.0, "b": map[string]any{"x": 1.0, "z": 2.0}, "c": true}, v4); diff != "" {
		t.Errorf("helm 4 mismatch (-want +got):\n%s", diff)
	}
}

// TestProvenance: the outcome and reason of each assignment.
func TestProvenance(t *testing.T) {
	ch := &Chart{File: "chart.tgz", Values: map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "b": "d"}}
	in := Input{Major: 4, Layers: []Layer{
		{Kind: HelmChartValuesContent, File: "hc.yaml", Text: []byte("a:\n  x: 5\nb: e\n")},
		{Kind: HelmChartConfigValuesContent, File: "cfg.yaml", Text: []byte("a:\n  x: null\nb: f\n")},
	}, Set: []SetArg{{Key: "b", Value: "g"}}}
	res := Compute(ch, in)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	type row struct {
		Kind    Kind
		Outcome provenance.Outcome
	}
	got := map[string][]row{}
	deleted := map[string]bool{}
	for _, l := range res.Leaves {
		deleted[l.Name] = l.Deleted
		for _, a := range l.History {
			got[l.Name] = append(got[l.Name], row{a.Source.Kind, a.Outcome})
		}
	}
	want := map[string][]row{
		"a.x": {{ChartDefault, provenance.Overridden}, {HelmChartValuesContent, provenance.Deleted}, {HelmChartConfigValuesContent, provenance.Applied}},
		"a.y": {{ChartDefault, provenance.Applied}},
		"b":   {{ChartDefault, provenance.Overridden}, {HelmChartValuesContent, provenance.Overridden}, {HelmChartConfigValuesContent, provenance.Overridden}, {Set, provenance.Applied}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history mismatch (-want +got):\n%s", diff)
	}
	if !deleted["a.x"] || deleted["a.y"] {
		t.Errorf("a.x is deleted by the HelmChartConfig's null, a.y is not: %v", deleted)
	}
	if diff := cmp.Diff(map[string]any{"a": map[string]any{"y": 2.0}, "b": "g"}, res.Values); diff != "" {
		t.Errorf("values mismatch (-want +got):\n%s", diff)
	}
	want2 := []string{"--values", "values-0-000-HelmChart-ValuesContent.yaml", "--values", "values-1-000-HelmChartConfig-ValuesContent.yaml", "--set-string", "b=g"}
	if diff := cmp.Diff(want2, res.Args); diff != "" {
		t.Errorf("args mismatch (-want +got):\n%s", diff)
	}
}

// FuzzParseSet: the --set parser never panics, whatever the argument and the values under it.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"a.b=1", `k\.x[0].y={a,b}`, "a[1][2]=x,b=", "a=", "[0]=1", "a.=1", `a\`, "a[x]=1", "a={1,2", ".a=1"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, arg string, str bool) {
		data := map[string]any{"a": "scalar", "l": []any{1.0, map[string]any{"x": 1.0}}, "m": map[string]any{"n": nil}}
		tr := &tracker{owner: map[string]*Assignment{}, hist: map[string][]*Assignment{}}
		_ = parseSet(arg, data, str, tr, Source{Source: provenance.Source{Kind: Set}})
	})
}
