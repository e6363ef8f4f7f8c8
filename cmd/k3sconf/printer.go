package main

import (
	"bytes"
	"encoding/json"
	"io"

	"gopkg.in/yaml.v3"
)

// outputFormat is -o's value for standard output ("yaml", "json" or "").
func outputFormat(w io.Writer) string {
	if o, ok := w.(*stdoutWriter); ok {
		return o.format
	}
	return ""
}

// writeYAML writes v as YAML: the --json document itself, encoded as JSON (so every field,
// its name, its order and its redaction are the JSON's) and re-encoded as YAML 1.2 block
// style. Strings that YAML would read as something else (yes, 0644, null, a number) are
// quoted, so a YAML parser reads back the JSON's values.
func writeYAML(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(buf.Bytes(), &doc); err != nil {
		return err
	}
	blockStyle(&doc)
	ye := yaml.NewEncoder(w)
	ye.SetIndent(2)
	if err := ye.Encode(&doc); err != nil {
		return err
	}
	return ye.Close()
}

// blockStyle drops the flow style and quoting JSON's syntax gave every node: the encoder
// then chooses block style, and quotes a string only where plain YAML would change it.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
