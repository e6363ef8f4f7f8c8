package ansible

import (
	"regexp"
	"sort"
	"strings"
)

var (
	reJinjaBlock = regexp.MustCompile(`(?s)\{\{(.*?)\}\}|\{%(.*?)%\}`)
	reJinjaTok   = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\S`)
	jinjaWords   = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true,
		"true": true, "false": true, "none": true, "True": true, "False": true, "None": true, "for": true, "endfor": true,
		"endif": true, "elif": true, "set": true, "loop": true, "range": true, "lookup": true, "query": true, "q": true,
		"dict": true, "list": true, "omit": true}
)

// IsTemplated reports whether a value holds Jinja ({{ }} or {% %}).
func IsTemplated(v any) bool {
	s, ok := v.(string)
	return ok && (strings.Contains(s, "{{") || strings.Contains(s, "{%"))
}

// Refs lists the variable names a Jinja string uses, in order of first use: names that
// are not filters or tests (after | or is), attributes (after .), keywords or literals.
// It is a tokenizer, not a Jinja parser: enough to show the variables one level down.
func Refs(v any) []string {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range reJinjaBlock.FindAllStringSubmatch(s, -1) {
		body := m[1] + m[2]
		toks := reJinjaTok.FindAllString(body, -1)
		for i, t := range toks {
			if t == "" || !(t[0] == '_' || t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z') || jinjaWords[t] {
				continue
			}
			if i > 0 && (toks[i-1] == "|" || toks[i-1] == "." || toks[i-1] == "is") {
				continue
			}
			if i > 1 && toks[i-1] == "not" && toks[i-2] == "is" {
				continue
			}
			if i+1 < len(toks) && toks[i+1] == "=" && (i+2 >= len(toks) || toks[i+2] != "=") {
				continue // keyword argument
			}
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// sortedKeys is used by callers listing variables.
func sortedKeys[M ~map[string]V, V any](m M) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Names returns the variable names of a result, sorted.
func (r *Result) Names() []string { return sortedKeys(r.Vars) }
