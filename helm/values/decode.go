package values

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// Decode reads one values file as Helm of the given major version does: Helm 3
// (pkg/cli/values/options.go MergeValues, and the chart loader for values.yaml) unmarshals
// the first YAML document with sigs.k8s.io/yaml; Helm 4 (pkg/chart/v2/loader LoadValues)
// splits the file into documents at lines starting with "---" (k8s.io/apimachinery
// util/yaml YAMLReader), unmarshals each and merges them in order.
func Decode(data []byte, major int) (map[string]any, error) {
	if major < 4 {
		m := map[string]any{}
		if err := yaml.Unmarshal(data, &m); err != nil {
			return nil, err
		}
		return m, nil
	}
	out := map[string]any{}
	for _, doc := range splitDocuments(data) {
		m := map[string]any{}
		if err := yaml.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("cannot unmarshal yaml document: %w", err)
		}
		out = mergeMaps(out, m)
	}
	return out, nil
}

// splitDocuments is apimachinery's YAMLReader: a line whose first three bytes are "---"
// and whose rest is blank or a comment ends a document; empty documents are dropped.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var buf bytes.Buffer
	r := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := r.ReadBytes('\n')
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest == "" || strings.HasPrefix(rest, "#") {
				if buf.Len() != 0 {
					docs = append(docs, bytes.Clone(buf.Bytes()))
					buf.Reset()
				}
				if err != nil {
					break
				}
				continue
			}
		}
		buf.Write(line)
		if err != nil {
			break
		}
	}
	if buf.Len() != 0 {
		docs = append(docs, bytes.Clone(buf.Bytes()))
	}
	return docs
}

// mergeMaps is how Helm merges values files (options.go mergeMaps, v4 loader.MergeMaps):
// a map merges into a map, anything else replaces. It builds a new top map.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if vm, ok := v.(map[string]any); ok {
			if bm, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(bm, vm)
				continue
			}
		}
		out[k] = v
	}
	return out
}
