package fleet_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/internal/fleetreport"
	"github.com/k3sconf/k3sconf/internal/golden"
)

// TestJSONMatchesSchema checks every scenario's document against docs/schema/fleet.schema.json
// with a small validator for the keywords the schema uses (type, required,
// additionalProperties, properties, items, const, enum), and that the envelope fields come
// first, in order.
func TestJSONMatchesSchema(t *testing.T) {
	data, err := os.ReadFile("../docs/schema/fleet.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if codes := schemaCodes(schema); !slices.Equal(codes, fleet.Codes) {
		t.Errorf("schema codes %v, want fleet.Codes %v", codes, fleet.Codes)
	}
	golden.Archives(t, filepath.Join(scenarioDir, "*.txtar"), func(t *testing.T, p string, ar *txtar.Archive) {
		t.Chdir(t.TempDir())
		extract(t, ar)
		for _, side := range []string{"trigger", "clean"} {
			b, err := json.Marshal(fleetreport.JSON(runFleet(t, side)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(`{"schemaVersion":2,"product":`)) || !bytes.Contains(b, []byte(`,"command":"fleet","document":"fleet",`)) {
				t.Errorf("%s %s: envelope fields not first: %.120s", p, side, b)
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if err := validate(schema, doc, "$"); err != nil {
				t.Errorf("%s %s: %v", p, side, err)
			}
		}
	})
}

func schemaCodes(schema map[string]any) []string {
	f := schema["properties"].(map[string]any)["findings"].(map[string]any)["items"].(map[string]any)
	var out []string
	for _, c := range f["properties"].(map[string]any)["code"].(map[string]any)["enum"].([]any) {
		out = append(out, c.(string))
	}
	return out
}

func validate(s map[string]any, v any, at string) error {
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return fmt.Errorf("%s: %v, want %v", at, v, c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return x == v }) {
		return fmt.Errorf("%s: %v not in %v", at, v, e)
	}
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object", at)
		}
		for _, r := range asList(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				return fmt.Errorf("%s: %s is required", at, r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		for k, x := range m {
			if ps, ok := props[k].(map[string]any); ok {
				if err := validate(ps, x, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unexpected property %s", at, k)
				}
			case map[string]any:
				if err := validate(ap, x, at+"."+k); err != nil {
					return err
				}
			}
		}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %T", at, v)
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, x := range l {
				if err := validate(it, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: want a string, got %T", at, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want a boolean", at)
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			return fmt.Errorf("%s: want an integer", at)
		}
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
