package values

import (
	"strings"
)

// JoinPath appends a key to a dotted path. A dot or backslash inside a key is escaped with
// a backslash, as --set writes it (`a\.b` is the key "a.b").
func JoinPath(prefix, key string) string {
	k := strings.NewReplacer(`\`, `\\`, `.`, `\.`).Replace(key)
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// SplitPath is the inverse of [JoinPath].
func SplitPath(p string) []string {
	if p == "" {
		return nil
	}
	var parts []string
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case c == '.':
			parts = append(parts, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, b.String())
}

// isAncestor reports whether path a is a strict ancestor of path b.
func isAncestor(a, b string) bool {
	if a == "" {
		return b != ""
	}
	if !strings.HasPrefix(b, a+".") {
		return false
	}
	// a must end on a key boundary: count trailing backslashes before the dot.
	n := 0
	for i := len(a) - 1; i >= 0 && a[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

// ancestors lists the strict ancestors of p, nearest last.
func ancestors(p string) []string {
	parts := SplitPath(p)
	var out []string
	cur := ""
	for _, k := range parts[:max(len(parts)-1, 0)] {
		cur = JoinPath(cur, k)
		out = append(out, cur)
	}
	return out
}

// leaves calls fn for every leaf under v at path p: scalars, nulls, lists and empty maps
// are leaves; a non-empty map is not.
func leaves(p string, v any, fn func(string, any)) {
	if m, ok := v.(map[string]any); ok && len(m) > 0 {
		for _, k := range sortedKeys(m) {
			leaves(JoinPath(p, k), m[k], fn)
		}
		return
	}
	fn(p, v)
}

// concatPath appends a dotted path (already escaped) to another.
func concatPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// Lookup is the value at a dotted path (SplitPath's syntax) of a values tree, and whether
// every key on the way is there.
func Lookup(m map[string]any, p string) (any, bool) {
	var cur any = m
	for _, k := range SplitPath(p) {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}
