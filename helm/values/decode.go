package values

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// decode reads one values file as Helm of the given major version does: Helm 3
// (pkg/cli/values/options.go MergeValues, and the chart loader for values.yaml) unmarshals
// the first YAML document with sigs.k8s.io/yaml; Helm 4 (pkg/chart/v2/loader LoadValues)
// splits the file into documents with k8s.io/apimachinery's YAMLReader (v0.35.1), which
// reads line by line and ends every line with a line break (the last one too, and "\r\n"
// becomes "\n"), unmarshals each and merges them in order. So a file that ends inside a
// block scalar without a final line break ("3600" as the last line of `|-` valuesContent)
// gives Helm 4 "…3600\n" under the clip indicator `|`, and Helm 3 "…3600".
func decode(data []byte, major int) (map[string]any, error) {
	if major < 4 {
		m := map[string]any{}
		if err := yaml.Unmarshal(data, &m); err != nil {
			return nil, err
		}
		return m, nil
	}
	out := map[string]any{}
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("error reading yaml document: %w", err)
	}
	for _, doc := range docs {
		m := map[string]any{}
		if err := yaml.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("cannot unmarshal yaml document: %w", err)
		}
		out = mergeMaps(out, m)
	}
	return out, nil
}

// readLine is apimachinery's LineReader.Read: one line without its line break ("\n" or
// "\r\n"), then "\n"; io.EOF once the input is used up.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf bytes.Buffer
	prefix := true
	var err error
	for prefix && err == nil {
		var line []byte
		line, prefix, err = r.ReadLine()
		buf.Write(line)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), err
}

// splitDocuments is apimachinery's YAMLReader: a line starting with "---" ends a document
// when what follows is blank or a comment, and is an error otherwise ("invalid Yaml document
// separator"); the separator line starts the next document when the current one is empty.
func splitDocuments(data []byte) ([][]byte, error) {
	var docs [][]byte
	var buf bytes.Buffer
	r := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := readLine(r)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("invalid Yaml document separator: %s", rest)
			}
			if buf.Len() != 0 {
				docs = append(docs, bytes.Clone(buf.Bytes()))
				buf.Reset()
				if err != nil {
					return docs, nil
				}
				continue
			}
			if err != nil {
				return docs, nil
			}
		}
		if err != nil {
			if buf.Len() != 0 {
				docs = append(docs, bytes.Clone(buf.Bytes()))
			}
			return docs, nil
		}
		buf.Write(line)
	}
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
