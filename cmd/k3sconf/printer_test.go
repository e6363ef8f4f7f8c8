package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestOutputFormats: -o json prints the bytes --json prints, and -o yaml the same document
// as YAML (same values, same key order), for commands of each kind; -o takes only json or
// yaml.
func TestOutputFormats(t *testing.T) {
	for _, args := range [][]string{
		{"--root", exampleNode, "show"},
		{"--root", exampleNode, "explain", "write-kubeconfig-mode", "token"},
		{"--root", exampleNode, "check"},
		{"--root", exampleNode, "sources"},
		{"version"},
		{"fleet", exampleNode},
	} {
		name := strings.Join(args, " ")
		runOut := func(extra ...string) (string, int) {
			var out, errb bytes.Buffer
			code := run(append(append([]string{}, args...), extra...), &out, &errb)
			if code == exitUsage {
				t.Fatalf("k3sconf %s %s: usage error: %s", name, strings.Join(extra, " "), errb.String())
			}
			return out.String(), code
		}
		asJSON, code := runOut("--json")
		if o, c := runOut("-o", "json"); o != asJSON || c != code {
			t.Errorf("k3sconf %s -o json differs from --json (exit %d, %d)", name, c, code)
		}
		asYAML, c := runOut("-o", "yaml")
		if c != code {
			t.Errorf("k3sconf %s -o yaml: exit %d, --json exit %d", name, c, code)
		}
		var fromJSON, fromYAML any
		if err := json.Unmarshal([]byte(asJSON), &fromJSON); err != nil {
			t.Fatalf("%s --json: %v", name, err)
		}
		if err := yaml.Unmarshal([]byte(asYAML), &fromYAML); err != nil {
			t.Fatalf("%s -o yaml: %v\n%s", name, err, asYAML)
		}
		// JSON numbers are float64, YAML's int: compare through JSON.
		b, err := json.Marshal(fromYAML)
		if err != nil {
			t.Fatal(err)
		}
		var yamlAsJSON any
		_ = json.Unmarshal(b, &yamlAsJSON)
		if diff := cmp.Diff(fromJSON, yamlAsJSON); diff != "" {
			t.Errorf("k3sconf %s: -o yaml is not the --json document (-json +yaml):\n%s", name, diff)
		}
		if !strings.HasPrefix(asYAML, "schemaVersion: 2\n") {
			t.Errorf("k3sconf %s -o yaml does not start with the envelope in order:\n%.200s", name, asYAML)
		}
	}
}

// TestWriteYAMLQuoting: strings that plain YAML would read as another type stay strings.
func TestWriteYAMLQuoting(t *testing.T) {
	doc := map[string]any{"mode": "0644", "yes": "yes", "null": "null", "n": "12", "list": []string{"on", "~", ""}, "num": 3, "esc": "a\x1bb"}
	var buf bytes.Buffer
	if err := writeYAML(&buf, doc); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := yaml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"mode": "0644", "yes": "yes", "null": "null", "n": "12", "list": []any{"on", "~", ""}, "num": 3, "esc": "a\x1bb"}
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("YAML read back (-want +got):\n%s\n%s", diff, buf.String())
	}
	if bytes.ContainsRune(buf.Bytes(), 0x1b) {
		t.Errorf("a raw ESC in the YAML: %q", buf.String())
	}
}
