package values

import (
	"bytes"
	"strconv"

	"github.com/k3sconf/k3sconf/internal/yamlalias"
	"github.com/k3sconf/k3sconf/output"
	yaml2 "go.yaml.in/yaml/v2"
	"gopkg.in/yaml.v3"
)

// positions maps each path of a YAML values text to the line and column (1-based, inside
// the text) of its key, and "" to the document. Keys are converted as sigs.k8s.io/yaml
// converts yaml.v2's typed keys to JSON strings (yes → "true", 1.50 → "1.5"), so the
// paths are the ones Helm sees.
func positions(text []byte, major int) map[string][2]int {
	out := map[string][2]int{}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for doc := 0; ; doc++ {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			break
		}
		if len(n.Content) == 0 {
			continue
		}
		if _, ok := out[""]; !ok {
			out[""] = [2]int{n.Content[0].Line, n.Content[0].Column}
		}
		walkNode(n.Content[0], "", out)
		if major < 4 {
			break
		}
	}
	return out
}

// Positions locates every path of a YAML mapping node (spec.values in a manifest) at its
// key's line and column, with the keys Helm sees.
func Positions(n *yaml.Node) map[string][2]int {
	out := map[string][2]int{"": {n.Line, n.Column}}
	walkNode(n, "", out)
	return out
}

func walkNode(n *yaml.Node, p string, out map[string][2]int) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "<<" && k.Tag == "!!merge" {
			continue
		}
		q := JoinPath(p, KeyString(k))
		out[q] = [2]int{k.Line, k.Column}
		walkNode(v, q, out)
	}
}

// KeyString is the JSON key sigs.k8s.io/yaml makes of a YAML key node (yes → "true",
// 1.50 → "1.5"): the key Helm, and the API server for a manifest, sees.
func KeyString(k *yaml.Node) string {
	if k.Kind != yaml.ScalarNode || k.Style != 0 || k.Tag == "!!str" && k.Style != 0 {
		return k.Value
	}
	var v any
	if err := yaml2.Unmarshal([]byte(k.Value), &v); err != nil {
		return k.Value
	}
	switch t := v.(type) {
	case string:
		return t
	case int:
		return strconv.Itoa(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case uint64:
		return strconv.FormatUint(t, 10)
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s
	case bool:
		if t {
			return "true"
		}
		return "false"
	}
	return k.Value
}

// copies are the paths of a values text set through a YAML alias of an anchor under a
// secret key (internal/yamlalias.SecretAnchors, keys judged by output.SecretName), and
// everything under them.
type copies map[string]bool

// has reports whether p or one of its ancestors is a copy.
func (c copies) has(p string) bool {
	if len(c) == 0 {
		return false
	}
	q := ""
	for _, k := range SplitPath(p) {
		if q = JoinPath(q, k); c[q] {
			return true
		}
	}
	return false
}

// secretCopies finds the copies of a values text (each document Helm reads).
func secretCopies(text []byte, major int) copies {
	if bytes.IndexByte(text, '*') < 0 {
		return nil // no alias
	}
	var out copies
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil || len(n.Content) == 0 {
			break
		}
		anchors := yamlalias.SecretAnchors(&n, output.SecretName)
		var walk func(n *yaml.Node, p string, depth int)
		walk = func(n *yaml.Node, p string, depth int) {
			if n.Kind != yaml.MappingNode || depth > 1000 {
				return
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				q := JoinPath(p, KeyString(k))
				if yamlalias.CopiesSecret(v, anchors) {
					if out == nil {
						out = copies{}
					}
					out[q] = true
				}
				walk(v, q, depth+1)
			}
		}
		if len(anchors) > 0 {
			walk(n.Content[0], "", 0)
		}
		if major < 4 {
			break
		}
	}
	return out
}
