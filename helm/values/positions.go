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

// maxCopySteps bounds the nodes secretCopies visits while following aliases: the text
// decoded within yaml.v2's alias budget first, so a real one never comes near.
const maxCopySteps = 1 << 20

// secretCopies finds the copies of a values text (each document Helm reads). Paths are
// Helm's leaves, so the copy is marked where the alias is: a key whose value is such an
// alias (and all under it), a list holding one at any depth (a list is one leaf), a key a
// merge key (`<<: *a`) brings in from a secret anchor. A map holding a copy is not a copy:
// its other keys are judged on their own (`mail: {login: *pw, from: server}` shows
// mail.from). An alias of a plain anchor is followed, as Helm expands it: a copy inside it
// is a copy at each place it is expanded.
func secretCopies(text []byte, major int) copies {
	if bytes.IndexByte(text, '*') < 0 {
		return nil // no alias
	}
	var out copies
	mark := func(p string) {
		if out == nil {
			out = copies{}
		}
		out[p] = true
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil || len(n.Content) == 0 {
			break
		}
		anchors := yamlalias.SecretAnchors(&n, output.SecretName)
		if len(anchors) > 0 {
			steps := 0
			var value func(v *yaml.Node, p string, depth int)
			var mapping func(m *yaml.Node, p string, depth int)
			// holds reports whether a list holds a copy at any depth.
			var holds func(v *yaml.Node, depth int) bool
			holds = func(v *yaml.Node, depth int) bool {
				if steps++; v == nil || depth > 1000 || steps > maxCopySteps {
					return false
				}
				if v.Kind == yaml.AliasNode {
					return anchors[v.Alias] || holds(v.Alias, depth+1)
				}
				for _, c := range v.Content {
					if holds(c, depth+1) {
						return true
					}
				}
				return false
			}
			value = func(v *yaml.Node, p string, depth int) {
				if steps++; v == nil || depth > 1000 || steps > maxCopySteps {
					return
				}
				switch v.Kind {
				case yaml.AliasNode:
					if anchors[v.Alias] {
						mark(p)
					} else {
						value(v.Alias, p, depth+1)
					}
				case yaml.SequenceNode:
					if holds(v, depth) {
						mark(p)
					}
				case yaml.MappingNode:
					mapping(v, p, depth)
				}
			}
			mapping = func(m *yaml.Node, p string, depth int) {
				explicit := map[string]bool{}
				for i := 0; i+1 < len(m.Content); i += 2 {
					if k := m.Content[i]; !isMerge(k) {
						explicit[KeyString(k)] = true
					}
				}
				for i := 0; i+1 < len(m.Content); i += 2 {
					k, v := m.Content[i], m.Content[i+1]
					if !isMerge(k) {
						value(v, JoinPath(p, KeyString(k)), depth+1)
						continue
					}
					// A merge key brings in the keys of one mapping or of a list of them;
					// the mapping's own keys win.
					srcs := []*yaml.Node{v}
					if v.Kind == yaml.SequenceNode {
						srcs = v.Content
					}
					for _, src := range srcs {
						secret := src.Kind == yaml.AliasNode && anchors[src.Alias]
						if src.Kind == yaml.AliasNode {
							src = src.Alias
						}
						if src == nil || src.Kind != yaml.MappingNode {
							continue
						}
						for j := 0; j+1 < len(src.Content); j += 2 {
							key := KeyString(src.Content[j])
							if explicit[key] {
								continue
							}
							if q := JoinPath(p, key); secret {
								mark(q)
							} else {
								value(src.Content[j+1], q, depth+1)
							}
						}
					}
				}
			}
			value(n.Content[0], "", 0)
		}
		if major < 4 {
			break
		}
	}
	return out
}

// isMerge reports whether k is YAML's merge key `<<`.
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "!!merge" || k.Tag == "")
}
