package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestValuesSchemaCanFail: the values schema rejects what the document must never hold, so
// the golden documents validating against it means something.
func TestValuesSchemaCanFail(t *testing.T) {
	schemas := loadSchemas(t)
	ar, err := txtar.ParseFile("../../testdata/values/traefik.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var good []byte
	for _, f := range ar.Files {
		if f.Name == "want/values.json" {
			good = f.Data
		}
	}
	if good == nil {
		t.Fatal("traefik.txtar has no want/values.json")
	}
	validate(t, schemas, "traefik values", good, "values")
	if err := schemas["values"].Validate(mustUnmarshal(t, good)); err != nil {
		t.Fatalf("the golden document does not validate: %v", err)
	}
	for _, tc := range []struct {
		name, reason string
		mutate       func(d map[string]any)
	}{
		{"unknown-kind", "a source kind outside the eight layers", func(d map[string]any) {
			v := d["values"].(map[string]any)["ports.web.port"].(map[string]any)
			v["source"].(map[string]any)["kind"] = "helmchart"
		}},
		{"no-history", "every value has its history", func(d map[string]any) {
			delete(d["values"].(map[string]any)["ports.web.port"].(map[string]any), "history")
		}},
		{"bad-outcome", "outcomes are applied, overridden, deleted or replaced", func(d map[string]any) {
			h := d["values"].(map[string]any)["ports.web.port"].(map[string]any)["history"].([]any)
			h[0].(map[string]any)["outcome"] = "lost"
		}},
		{"extra-field", "the document is closed", func(d map[string]any) { d["extra"] = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d map[string]any
			if err := json.Unmarshal(good, &d); err != nil {
				t.Fatal(err)
			}
			tc.mutate(d)
			bad, _ := json.Marshal(d)
			if err := schemas["values"].Validate(mustUnmarshal(t, bad)); err == nil {
				t.Errorf("%s: the schema accepts it (%s)", tc.name, tc.reason)
			}
		})
	}
}

func mustUnmarshal(t *testing.T, b []byte) any {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCompleteCharts: `values <TAB>` offers the HelmCharts of the node in --namespace.
func TestCompleteCharts(t *testing.T) {
	root := t.TempDir()
	m := filepath.Join(root, "var/lib/rancher/k3s/server/manifests")
	os.MkdirAll(filepath.Join(root, "etc/systemd/system"), 0o755)
	os.MkdirAll(m, 0o755)
	os.WriteFile(filepath.Join(root, "etc/systemd/system/k3s.service"), []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	chart := func(name, ns string) string {
		return "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\nspec:\n  chart: x\n"
	}
	os.WriteFile(filepath.Join(m, "apps.yaml"), []byte(chart("app", "kube-system")+"---\n"+chart("other", "apps")), 0o644)
	for _, tc := range []struct {
		name, reason string
		words        []string
		want         []string
	}{
		{"kube-system", "the default namespace", []string{"--root", root, "values", ""}, []string{"app"}},
		{"namespace", "--namespace chooses", []string{"--root", root, "--namespace", "apps", "values", ""}, []string{"other"}},
		{"paths", "nothing after the chart", []string{"--root", root, "values", "app", ""}, nil},
	} {
		got := complete(tc.words)
		if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: __complete %q (-want +got):\n%s(%s)", tc.name, tc.words, diff, tc.reason)
		}
	}
}
