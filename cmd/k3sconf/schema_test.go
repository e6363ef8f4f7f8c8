package main

// The published JSON Schemas (docs/schema/*.schema.json, draft 2020-12) hold every JSON
// document k3sconf writes: every golden JSON file of the repository, and the --json output
// of every command on every golden scenario node and example node. The validator is
// github.com/santhosh-tekuri/jsonschema/v6, a complete draft 2020-12 implementation
// (tests only).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/k3sconf/k3sconf/internal/golden"
)

const schemaDir = "../../docs/schema"

// documents are the documents that have a schema, by the envelope's "document".
var documents = []string{"show", "explain", "check", "args", "sources", "components", "status", "compose", "version", "fleet", "kubespray explain", "kubespray where", "kubespray runs", "values"}

// loadSchemas compiles docs/schema/<document>.schema.json for every document, with the
// shared definitions of common.schema.json.
func loadSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	paths, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas in %s (%v)", schemaDir, err)
	}
	ids := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if want := filepath.Base(p); !strings.HasSuffix(id, "/docs/schema/"+want) {
			t.Fatalf("%s: $id %q does not end in /docs/schema/%s", p, id, want)
		}
		if err := c.AddResource(id, doc); err != nil {
			t.Fatal(err)
		}
		// The file of document "kubespray explain" is kubespray-explain.schema.json.
		ids[strings.ReplaceAll(strings.TrimSuffix(filepath.Base(p), ".schema.json"), "-", " ")] = id
	}
	// Every schema file compiles, those of other documents (fleet, kubespray) included.
	out := map[string]*jsonschema.Schema{}
	for d, id := range ids {
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("compile %s: %v", id, err)
		}
		out[d] = s
	}
	for _, d := range documents {
		if out[d] == nil {
			t.Fatalf("no schema for document %q in %s", d, schemaDir)
		}
	}
	return out
}

// validate checks one JSON document against the schema its envelope names.
func validate(t *testing.T, schemas map[string]*jsonschema.Schema, what string, data []byte, wantDoc string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: not one JSON value: %v\n%s", what, err, data)
		return
	}
	obj, _ := v.(map[string]any)
	doc, _ := obj["document"].(string)
	if doc != wantDoc {
		t.Errorf("%s: document %q, want %q", what, doc, wantDoc)
		return
	}
	if err := schemas[doc].Validate(v); err != nil {
		t.Errorf("%s: does not validate against docs/schema/%s.schema.json:\n%v", what, doc, err)
	}
	// JSON Schema cannot say in which order fields come; the envelope comes first.
	if got := firstKeys(t, data, 4); strings.Join(got, " ") != "schemaVersion product command document" {
		t.Errorf("%s: the document starts with %v, want the envelope schemaVersion, product, command, document", what, got)
	}
}

// firstKeys returns the first n field names of the JSON object data, in order.
func firstKeys(t *testing.T, data []byte, n int) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for len(keys) < n && dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

// TestGoldenJSONValidates: every golden JSON output in the repository against its schema.
func TestGoldenJSONValidates(t *testing.T) {
	schemas := loadSchemas(t)
	n := 0
	for glob, want := range map[string]map[string]string{
		"../../testdata/scenarios/*.txtar":  {"want/show.json": "show", "want/rke2/show.json": "show"},
		"../../testdata/components/*.txtar": {"want/components.json": "components"},
		"../../testdata/compose/*.txtar":    {"want/compose.json": "compose"},
		"../../testdata/values/*.txtar":     {"want/values.json": "values"},
	} {
		paths, _ := filepath.Glob(glob)
		if len(paths) == 0 {
			t.Fatalf("no archives match %s", glob)
		}
		for _, p := range paths {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if doc, ok := want[f.Name]; ok {
					validate(t, schemas, p+": "+f.Name, f.Data, doc)
					n++
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("validated %d golden JSON files; the testdata has more than 50", n)
	}
}

// scenarioNode writes a golden scenario's node/ files into a folder for --root, and returns
// the global flags its comment asks for.
func scenarioNode(t *testing.T, ar *txtar.Archive) (root string, flags, explain []string) {
	t.Helper()
	root = t.TempDir()
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, "node/")
		if !ok {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "command":
			flags = append(flags, "--command", v)
		case "version":
			flags = append(flags, "--k3s-version", v)
		case "unit":
			flags = append(flags, "--unit", v)
		case "config":
			flags = append(flags, "--config", v)
		case "explain":
			explain = strings.Fields(v)
		}
	}
	return root, flags, explain
}

// nodeCommands are the commands run on each node, with the document each writes. explain
// asks for the scenario's keys, node-name (the identity) and a key no command has.
func nodeCommands(explain []string) [][]string {
	ex := append(append([]string{"explain"}, explain...), "node-name", "token", "no-such-key")
	return [][]string{{"show"}, ex, {"check"}, {"args"}, {"sources"}, {"components"}, {"status"}}
}

// TestCommandJSONValidates: the --json output of every command on every golden scenario
// and example node validates against its schema, whatever the exit code.
func TestCommandJSONValidates(t *testing.T) {
	schemas := loadSchemas(t)
	type node struct {
		name, root     string
		flags, explain []string
	}
	var nodes []node
	for _, ex := range []string{"node", "rke2-node"} {
		nodes = append(nodes, node{name: "examples/" + ex, root: filepath.Join("..", "..", "examples", ex)})
	}
	golden.Archives(t, "../../testdata/scenarios/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
		root, flags, explain := scenarioNode(t, ar)
		runAll(t, schemas, p, root, flags, explain)
	})
	for _, n := range nodes {
		t.Run(n.name, func(t *testing.T) { runAll(t, schemas, n.name, n.root, n.flags, n.explain) })
	}
	// A node with a running process (status_test.go): process, stale files, drift, and
	// explain's running values; with --node-json the annotation too.
	t.Run("live", func(t *testing.T) {
		root := statusNode(t, true)
		nodeJSON := []string{"--node-json", "../../live/testdata/node.json"}
		for _, c := range [][]string{{"status"}, {"explain", "disable", "node-label"}, append([]string{"status"}, nodeJSON...)} {
			_, out, _ := runCLI(append([]string{"--root", root, "--json"}, c...)...)
			validate(t, schemas, "live node: "+strings.Join(c, " "), []byte(out), c[0])
			if c[0] == "explain" && !strings.Contains(out, `"running":`) {
				t.Errorf("explain on a running node has no running values: %s", out)
			}
		}
	})
	t.Run("compose", func(t *testing.T) {
		golden.Archives(t, "../../testdata/compose/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
			dir := t.TempDir()
			file := ""
			for _, f := range ar.Files {
				rel, ok := strings.CutPrefix(f.Name, "project/")
				if !ok {
					continue
				}
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range strings.Split(string(ar.Comment), "\n") {
				if v, ok := strings.CutPrefix(l, "file: project/"); ok {
					file = filepath.Join(dir, filepath.FromSlash(strings.TrimSpace(v)))
				}
			}
			code, out, errOut := runCLI("compose", "--json", file)
			if code == exitUsage || code == exitInput {
				t.Fatalf("compose %s: exit %d: %s", file, code, errOut)
			}
			validate(t, schemas, p, []byte(out), "compose")
		})
	})
}

func runAll(t *testing.T, schemas map[string]*jsonschema.Schema, what, root string, flags, explain []string) {
	t.Helper()
	for _, c := range nodeCommands(explain) {
		args := append(append([]string{"--root", root, "--json"}, flags...), c...)
		code, out, errOut := runCLI(args...)
		if code == exitUsage {
			t.Errorf("%s: k3sconf %s: usage error: %s", what, strings.Join(args, " "), errOut)
			continue
		}
		validate(t, schemas, what+": "+c[0], []byte(out), c[0])
	}
}

// TestSchemasCanFail: the schemas are tight: a document with a field renamed, removed,
// added or of the wrong type fails. Each case edits a real show/check/args document.
func TestSchemasCanFail(t *testing.T) {
	schemas := loadSchemas(t)
	root := filepath.Join("..", "..", "examples", "node")
	get := func(cmd ...string) map[string]any {
		_, out, _ := runCLI(append([]string{"--root", root, "--json"}, cmd...)...)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	cases := []struct {
		name, reason, doc string
		cmd               []string
		edit              func(m map[string]any)
	}{
		{name: "schemaVersion-1", reason: "a schemaVersion 1 document is not this contract", doc: "show", cmd: []string{"show"},
			edit: func(m map[string]any) { m["schemaVersion"] = 1 }},
		{name: "no-envelope", reason: "the envelope is required", doc: "show", cmd: []string{"show"},
			edit: func(m map[string]any) { delete(m, "product") }},
		{name: "unknown-field", reason: "documents are closed: no field the schema does not name", doc: "show", cmd: []string{"show"},
			edit: func(m map[string]any) { m["Keys"] = m["keys"] }},
		{name: "command-not-subcommand", reason: "a node document's command is the product's subcommand", doc: "check", cmd: []string{"check"},
			edit: func(m map[string]any) { m["command"] = "check" }},
		{name: "go-field-name", reason: "sources use lowerCamelCase, not Go's field names", doc: "sources", cmd: []string{"sources"},
			edit: func(m map[string]any) {
				s := m["sources"].([]any)[0].(map[string]any)
				s["Role"] = s["role"]
				delete(s, "role")
			}},
		{name: "bare-args", reason: "args are objects with value and source", doc: "args", cmd: []string{"args"},
			edit: func(m map[string]any) { m["args"] = []any{"server"} }},
		{name: "bad-outcome", reason: "history outcomes are a closed set", doc: "explain", cmd: []string{"explain", "write-kubeconfig-mode"},
			edit: func(m map[string]any) {
				k := m["keys"].(map[string]any)["write-kubeconfig-mode"].(map[string]any)
				k["history"].([]any)[0].(map[string]any)["outcome"] = "lost"
			}},
		{name: "key-source-without-line", reason: "a value from a file names its line", doc: "show", cmd: []string{"show"},
			edit: func(m map[string]any) {
				for _, k := range m["keys"].(map[string]any) {
					src := k.(map[string]any)["source"].(map[string]any)
					if src["kind"] != "default" {
						delete(src, "line")
						return
					}
				}
				t.Fatal("examples/node sets no key")
			}},
		{name: "negative-errors", reason: "counts are not negative", doc: "check", cmd: []string{"check"},
			edit: func(m map[string]any) { m["errors"] = -1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := get(tc.cmd...)
			check := func() error {
				b, _ := json.Marshal(m)
				v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
				return schemas[tc.doc].Validate(v)
			}
			if err := check(); err != nil {
				t.Fatalf("the unedited document does not validate: %v", err)
			}
			tc.edit(m)
			if check() == nil {
				t.Errorf("%s: the edited document validates", tc.reason)
			}
		})
	}
}
