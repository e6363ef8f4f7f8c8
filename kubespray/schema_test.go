package kubespray

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJSONSchemas validates both --json documents against docs/schema/*.schema.json with
// python3's jsonschema module; skipped where it is missing.
func TestJSONSchemas(t *testing.T) {
	t.Parallel() // python3 jsonschema: overlaps the package's other subprocesses
	if exec.Command("python3", "-c", "import jsonschema").Run() != nil {
		t.Skip("python3 with jsonschema not available (apt-get install python3-jsonschema)")
	}
	r := explain(t, Options{Host: "node2", Vars: []string{"dns_domain", "kubeconfig_localhost", "nope", "kube_apiserver_admission_plugins_needs_configuration", "containerd_debug_level", "containerd_version"},
		Extra: []string{`{"registry_password": "x"}`}})
	uses, err := Where(tree, "containerd_version")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, doc := range map[string]any{"kubespray-explain": JSON(r), "kubespray-where": WhereJSON("containerd_version", uses)} {
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		schema := filepath.Join("..", "docs", "schema", name+".schema.json")
		out, err := exec.Command("python3", "-c", "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))", p, schema).CombinedOutput()
		if err != nil {
			t.Errorf("%s does not match %s: %v\n%s", name, schema, err, out)
		}
	}
}
