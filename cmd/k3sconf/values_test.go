package main

import (
	"encoding/json"
	"strings"
	"testing"

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
