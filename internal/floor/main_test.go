package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRun: the floor reads a real node, a node without config, and fails on YAML that
// yaml.v2 rejects (so it really decodes what it reads).
func TestRun(t *testing.T) {
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "etc/rancher/k3s/config.yaml.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "etc/rancher/k3s/config.yaml.d/10.yaml"), []byte("a: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root, reason string
		wantErr            bool
	}{
		{"example", "../../examples/node", "the example node's files are valid YAML", false},
		{"empty", t.TempDir(), "no config file and no drop-in folder: nothing to read", false},
		{"invalid", bad, "an unclosed flow sequence is a yaml.v2 error", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := run(tc.root); (err != nil) != tc.wantErr {
				t.Errorf("run(%s) = %v, want error %v (%s)", tc.root, err, tc.wantErr, tc.reason)
			}
		})
	}
}
