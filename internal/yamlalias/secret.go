package yamlalias

import "gopkg.in/yaml.v3"

// SecretAnchors finds the anchored nodes of a document that hold a secret by structure:
// an anchor on the value of a key that secret says is secret (`agent-token: &a x`), on an
// item of such a key's list, or on anything inside such a value, at any depth. An alias of
// one of them (`node-name: *a`) copies a secret, whatever its value looks like: a common
// word too, which no content rule can tell from prose. Aliases are not followed (an alias
// inside a secret value names its own anchor, judged where that anchor is).
func SecretAnchors(doc *yaml.Node, secret func(key string) bool) map[*yaml.Node]bool {
	var found map[*yaml.Node]bool
	var visit func(n *yaml.Node, under bool, depth int)
	visit = func(n *yaml.Node, under bool, depth int) {
		if n == nil || depth > 10000 {
			return
		}
		if under && n.Anchor != "" {
			if found == nil {
				found = map[*yaml.Node]bool{}
			}
			found[n] = true
		}
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				visit(c, under, depth+1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				visit(v, under || (k.Kind == yaml.ScalarNode && secret(k.Value)), depth+1)
			}
		}
	}
	visit(doc, false, 0)
	return found
}

// CopiesSecret reports whether n is an alias of one of anchors (from [SecretAnchors]), or a
// sequence with such an alias among its items, or a mapping with one among its values.
func CopiesSecret(n *yaml.Node, anchors map[*yaml.Node]bool) bool {
	if len(anchors) == 0 || n == nil {
		return false
	}
	switch n.Kind {
	case yaml.AliasNode:
		return anchors[n.Alias]
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.AliasNode && anchors[c.Alias] {
				return true
			}
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if c := n.Content[i]; c.Kind == yaml.AliasNode && anchors[c.Alias] {
				return true
			}
		}
	}
	return false
}
