package compose

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/sources"
)

// lookupFunc finds a variable for interpolation.
type lookupFunc = func(name string) (string, bool)

// unsetVar is a variable that interpolation needed and did not find.
type unsetVar struct {
	name     string
	required string // the :? / ? message, when the syntax requires the variable
	// invalid holds a reference compose-go's template grammar rejects ("${VAR:default}",
	// "${}", an unclosed "${VAR"); compose then refuses the whole file.
	invalid string
}

// interpolate expands $VAR, ${VAR}, ${VAR:-def}, ${VAR-def}, ${VAR:?err}, ${VAR?err},
// ${VAR:+alt}, ${VAR+alt} and $$ as compose does. Defaults are interpolated too.
func interpolate(s string, look lookupFunc) (string, []unsetVar) {
	var b strings.Builder
	var unset []unsetVar
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			// A "$" that starts no reference is a literal in compose-go v2 (docker compose
			// v2): its pattern's "invalid" group follows "${" only.
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '$':
			b.WriteByte('$')
			i++
		case n == '{':
			end := matchBrace(s, i+1)
			if end < 0 {
				unset = append(unset, unsetVar{invalid: s[i:]})
				b.WriteString(s[i:])
				return b.String(), unset
			}
			expr := s[i+2 : end]
			if !validBraced(expr) {
				unset = append(unset, unsetVar{invalid: s[i : end+1]})
				b.WriteString(s[i : end+1])
				i = end
				continue
			}
			v, u := expand(expr, look)
			unset = append(unset, u...)
			b.WriteString(v)
			i = end
		case isNameStart(n):
			j := i + 1
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			name := s[i+1 : j]
			v, ok := look(name)
			if !ok {
				unset = append(unset, unsetVar{name: name})
			}
			b.WriteString(v)
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), unset
}

// validBraced is compose-go's braced substitution (compose-spec/compose-go v2.16.0
// template/template.go: substitutionBraced "[_a-z][_a-z0-9]*(?::?[-+?](.*))?", matched
// case-insensitively, and "${" followed by anything else is the "invalid" group): a name,
// then nothing or one of :- - :? ? :+ + and any text.
func validBraced(expr string) bool {
	if expr == "" || !isNameStart(expr[0]) {
		return false
	}
	j := 1
	for j < len(expr) && isNameChar(expr[j]) {
		j++
	}
	op := strings.TrimPrefix(expr[j:], ":")
	return j == len(expr) || (op != "" && strings.IndexByte("-+?", op[0]) >= 0)
}

// matchBrace finds the '}' closing the '{' at open as compose-go v2.16.0 does: its pattern's
// braced group is greedy (up to the last '}' of the string), then getFirstBraceClosingIndex
// cuts the match at the '}' that balances the braces, skipping the character after each '{'
// (so "${A:-{}" keeps its '}' inside the default).
func matchBrace(s string, open int) int {
	last := strings.LastIndexByte(s[open:], '}')
	if last < 0 {
		return -1
	}
	last += open
	depth := 0
	for i := open; i <= last; i++ {
		if s[i] == '}' {
			depth--
			if depth == 0 {
				return i
			}
		}
		if s[i] == '{' {
			depth++
			i++
		}
	}
	return last
}

func expand(expr string, look lookupFunc) (string, []unsetVar) {
	j := 0
	for j < len(expr) && isNameChar(expr[j]) {
		j++
	}
	name, op := expr[:j], expr[j:]
	val, ok := look(name)
	arg := func(prefix string) (string, []unsetVar) {
		return interpolate(strings.TrimPrefix(op, prefix), look)
	}
	switch {
	case op == "":
		if !ok {
			return "", []unsetVar{{name: name}}
		}
		return val, nil
	case strings.HasPrefix(op, ":-"):
		if !ok || val == "" {
			return arg(":-")
		}
	case strings.HasPrefix(op, "-"):
		if !ok {
			return arg("-")
		}
	case strings.HasPrefix(op, ":?"):
		if !ok || val == "" {
			msg, _ := arg(":?")
			return "", []unsetVar{{name: name, required: msg}}
		}
	case strings.HasPrefix(op, "?"):
		if !ok {
			msg, _ := arg("?")
			return "", []unsetVar{{name: name, required: msg}}
		}
	case strings.HasPrefix(op, ":+"):
		if ok && val != "" {
			return arg(":+")
		}
		return "", nil
	case strings.HasPrefix(op, "+"):
		if ok {
			return arg("+")
		}
		return "", nil
	}
	return val, nil
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool { return isNameStart(c) || (c >= '0' && c <= '9') }

// parseDotEnv reads a .env or env_file file: NAME=value lines, '#' comments, an optional
// `export ` prefix, single quotes literal, double quotes with \n \t \" \\ escapes, and an
// unquoted value ending at " #". A bare NAME takes the value from the shell, if set.
func parseDotEnv(file string, data []byte, look lookupFunc) ([]sources.EnvAssignment, []diag.Diagnostic) {
	var out []sources.EnvAssignment
	var ds []diag.Diagnostic
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := sc.Text()
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimPrefix(t, "export ")
		name, val, hasEq := strings.Cut(t, "=")
		name = strings.TrimSpace(name)
		pos := diag.Position{File: file, Line: line, Column: 1}
		if name == "" || strings.ContainsAny(name, " \t") {
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "compose-env-file-syntax", Pos: pos,
				Message: fmt.Sprintf("compose cannot read line %d of %s: %q is not NAME=value", line, file, raw),
				Hint:    "write NAME=value, one per line"})
			continue
		}
		if !hasEq {
			if v, ok := look(name); ok {
				out = append(out, sources.EnvAssignment{Name: name, Value: v, Raw: raw, Pos: pos})
			}
			continue
		}
		val = strings.TrimLeft(val, " \t")
		switch {
		case strings.HasPrefix(val, "'"):
			if end := strings.Index(val[1:], "'"); end >= 0 {
				val = val[1 : end+1]
			}
		case strings.HasPrefix(val, `"`):
			if s, err := strconv.Unquote(firstDoubleQuoted(val)); err == nil {
				val = s
			}
		default:
			if k := strings.Index(val, " #"); k >= 0 {
				val = val[:k]
			}
			val = strings.TrimSpace(val)
		}
		out = append(out, sources.EnvAssignment{Name: name, Value: val, Raw: raw, Pos: pos})
	}
	return out, ds
}

// firstDoubleQuoted returns the leading "…" of s, escapes included.
func firstDoubleQuoted(s string) string {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[:i+1]
		}
	}
	return s
}

// splitCommand splits a string command the way compose does (shell words, no expansion).
func splitCommand(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0:
				i++
				cur.WriteByte(s[i])
			default:
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
