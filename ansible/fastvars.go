package ansible

import (
	"strings"
	"unicode/utf8"

	"github.com/k3sconf/k3sconf/diag"
)

// fastVars reads the shape nearly every vars file of a playbook has — kubespray's roles'
// defaults and vars, an inventory's group_vars — without yaml.v3: block mappings of plain
// keys and block sequences (a sequence may sit at its key's own indentation), whose
// scalars are one-line plain, single-quoted or double-quoted (with the common escapes),
// plus `[]`, `{}`, comments, blank lines and one leading "---". It returns ok false
// ("declined") for anything else, and LoadVarsYAML takes the yaml.v3 path.
//
// Why: yaml.v3's node parse of the ~470 kB of vars files a kubespray explain loads was a
// sixth of its CPU time and most of its allocations (issue 28). Exactness is kept by
// declining, never by guessing: for an accepted file the entries are the ones the yaml.v3
// path gives (TestFastVarsMatchesYAMLv3 compares them on every YAML file of a kubespray
// checkout, the package's test data and generated files; FuzzFastVars keeps comparing).
//
// The scanning rules are libyaml's (gopkg.in/yaml.v3 v3.0.1 scannerc.go): a plain
// scalar may not start with an indicator character ('-' only when a non-blank follows),
// ends at " #" or the line's end (trailing blanks dropped), and a following line indented
// deeper would continue it; ": " or a ':' at its end would be a mapping value indicator.
// Those continuations and indicators are declined, as are tabs, CR and other control
// bytes, invalid UTF-8, characters libyaml does not print or reads as line breaks (NEL,
// LS, PS, BOM), document markers and directives (except one "---" line before the
// content), anchors, aliases, tags, flow collections other than `[]` and `{}`, block
// scalars, multi-line quoted scalars, rarer escapes, keys that are not plain names, a
// value on the line after its key, empty sequence entries, and a root that is not a
// mapping at column 1.
func fastVars(file string, data []byte) ([]Entry, bool) {
	if !fastVarsBytes(data) {
		return nil, false
	}
	raw := strings.SplitAfter(string(data), "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1] // the end of the last line, not a line
	}
	p := fastVarsParser{lines: contentLines(string(data)), raw: raw}
	if len(p.lines) == 0 || p.lines[0].indent != 0 {
		return nil, false
	}
	var out []Entry
	ok := p.mapping(0, 0, func(key any, kl fastLine, val any, raw string, scalar bool) {
		e := Entry{Name: pyStr(key), Value: val, Pos: diag.Position{File: file, Line: kl.no, Column: 1}}
		if scalar {
			e.Raw = raw
		}
		out = append(out, e)
	})
	if !ok || p.at != len(p.lines) {
		return nil, false
	}
	return out, true
}

// fastVarsBytes: every byte is printable ASCII or a line feed, or part of valid UTF-8
// that libyaml prints and does not read as a line break.
func fastVarsBytes(data []byte) bool {
	ascii := true
	for _, c := range data {
		if c >= 0x80 {
			ascii = false
			continue
		}
		if (c < 0x20 && c != '\n') || c == 0x7f {
			return false
		}
	}
	if ascii {
		return true
	}
	if !utf8.Valid(data) {
		return false
	}
	for _, r := range string(data) {
		if r < 0x80 {
			continue
		}
		// libyaml's is_printable, without NEL (0x85, a line break) and the BOM.
		if !(r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF || r >= 0x10000 && r <= 0x10FFFF) {
			return false
		}
		if r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}

// fastLine is a line that holds content: its 1-based number, its indentation and the
// text after it.
type fastLine struct {
	no     int
	indent int
	text   string
}

// contentLines splits s into its content lines, dropping blank and comment lines and one
// "---" before the first content line; nil when another line is a document marker or a
// directive.
func contentLines(s string) []fastLine {
	out := []fastLine{}
	no := 0
	marker := false
	for len(s) > 0 {
		var l string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			l, s = s[:i], s[i+1:]
		} else {
			l, s = s, ""
		}
		no++
		t := strings.TrimLeft(l, " ")
		if t == "" || t[0] == '#' {
			continue
		}
		indent := len(l) - len(t)
		if indent == 0 && (l[0] == '%' || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...")) {
			if l == "---" && len(out) == 0 && !marker {
				marker = true
				continue
			}
			return nil
		}
		out = append(out, fastLine{no: no, indent: indent, text: t})
	}
	return out
}

type fastVarsParser struct {
	lines []fastLine
	// raw are all the lines, each with its "\n" (the last may lack it): a block scalar's
	// content is read from them.
	raw   []string
	at    int // the next line
	depth int
}

func (p *fastVarsParser) peek() (fastLine, bool) {
	if p.at >= len(p.lines) {
		return fastLine{}, false
	}
	return p.lines[p.at], true
}

// mapping reads a block mapping whose keys sit at column indent, starting with the line
// at p.at whose text from offset off is its first key (off > 0 for a mapping that starts
// on a sequence entry's line). Each entry goes to add.
func (p *fastVarsParser) mapping(indent, off int, add func(key any, kl fastLine, val any, raw string, scalar bool)) bool {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 100 {
		return false
	}
	first := true
	for {
		l, ok := p.peek()
		if !ok {
			return true
		}
		text := l.text
		if first {
			text = text[off:]
		} else {
			if l.indent < indent {
				return true
			}
			if l.indent > indent {
				return false
			}
		}
		first = false
		key, rest, ok := splitKey(text)
		if !ok {
			return false
		}
		p.at++
		val, raw, scalar, ok := p.value(indent, rest, true)
		if !ok {
			return false
		}
		add(key, l, val, raw, scalar)
	}
}

// splitKey reads `name:` or a one-line quoted name followed by ':', and what follows;
// the ':' is followed by a blank or the line's end. A plain name is short and made of
// name bytes; key is its value (a plain name typed as any plain scalar is).
func splitKey(text string) (key any, rest string, ok bool) {
	if text != "" && (text[0] == '\'' || text[0] == '"') {
		var s, after string
		if text[0] == '\'' {
			s, after, ok = singleQuoted(text)
		} else {
			s, after, ok = doubleQuoted(text)
		}
		if !ok || len(text)-len(after) > 1000 || after == "" || after[0] != ':' || len(after) > 1 && after[1] != ' ' {
			return nil, "", false
		}
		return s, after[1:], true
	}
	i := 0
	for i < len(text) && isKeyByte(text[i], i == 0) {
		i++
	}
	if i == 0 || i > 1000 || i >= len(text) || text[i] != ':' {
		return nil, "", false
	}
	rest = text[i+1:]
	if rest != "" && rest[0] != ' ' {
		return nil, "", false
	}
	return plainScalar(text[:i]), rest, true
}

func isKeyByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		return true
	case c == '-' || c == '.' || c == '/':
		return !first
	}
	return false
}

// value reads what follows a key's ':' (or a sequence entry's "- ") at indentation
// indent: a scalar or empty collection on the same line, else the block on the lines
// below (a mapping or sequence indented deeper; for a mapping's value also a sequence at
// the key's own indentation), else null.
func (p *fastVarsParser) value(indent int, rest string, inMapping bool) (val any, raw string, scalar, ok bool) {
	t := strings.TrimLeft(rest, " ")
	if t != "" && (t[0] == '|' || t[0] == '>') {
		s, ok := p.blockScalar(indent, t)
		if !ok {
			return nil, "", false, false
		}
		if l, more := p.peek(); more && l.indent > indent {
			return nil, "", false, false
		}
		return s, s, true, true
	}
	if t != "" && !(t[0] == '#' && len(t) < len(rest)) {
		val, raw, scalar, ok = inlineValue(t)
		if !ok {
			return nil, "", false, false
		}
		// A deeper line would continue a plain scalar or be an error.
		if l, more := p.peek(); more && l.indent > indent {
			return nil, "", false, false
		}
		return val, raw, scalar, true
	}
	l, more := p.peek()
	switch {
	case more && l.indent > indent:
		if isEntry(l.text) {
			v, ok := p.sequence(l.indent)
			return v, "", false, ok
		}
		if _, _, isKey := splitKey(l.text); !isKey {
			return nil, "", false, false // a scalar on its own line, or something rarer
		}
		m := &Map{}
		ok := p.mapping(l.indent, 0, func(key any, _ fastLine, v any, _ string, _ bool) { m.Set(key, v) })
		return m, "", false, ok
	case more && l.indent == indent && inMapping && isEntry(l.text):
		v, ok := p.sequence(indent)
		return v, "", false, ok
	}
	// Nothing: null, as yaml.v3 gives an empty plain scalar.
	return nil, "", true, true
}

// blockScalar reads a literal (|) or folded (>) scalar whose header t ends the line
// before p.at, in a block at indentation parent, as libyaml does
// (yaml_parser_scan_block_scalar and _breaks, yaml.v3 v3.0.1 scannerc.go): the content's
// indentation is that of its first non-empty line (at least parent+1), a line indented
// less ends it, folding joins two lines that do not start with a blank by a space, and
// the chomping indicator (- strip, + keep, none clip) decides the final line breaks.
// Declined: an indentation indicator, an empty scalar, blank lines before the content
// holding more spaces than its first line, a file that ends without a line break inside
// the scalar.
func (p *fastVarsParser) blockScalar(parent int, t string) (string, bool) {
	literal := t[0] == '|'
	chomp := 0
	h := t[1:]
	if h != "" && (h[0] == '-' || h[0] == '+') {
		chomp = 1
		if h[0] == '-' {
			chomp = -1
		}
		h = h[1:]
	}
	if !lineEnd(h) || h != "" && h[0] != ' ' {
		return "", false // an indentation indicator, or text after the header
	}
	r := p.lines[p.at-1].no // the raw index of the line after the header
	// The content's indentation: blank lines first, then the first non-empty line.
	maxBlank := 0
	for r < len(p.raw) && strings.TrimLeft(strings.TrimSuffix(p.raw[r], "\n"), " ") == "" {
		maxBlank = max(maxBlank, len(strings.TrimSuffix(p.raw[r], "\n")))
		r++
	}
	if r >= len(p.raw) {
		return "", false
	}
	first := strings.TrimSuffix(p.raw[r], "\n")
	indent := len(first) - len(strings.TrimLeft(first, " "))
	if indent <= parent || maxBlank > indent {
		return "", false
	}
	var b strings.Builder
	for i := p.lines[p.at-1].no; i < r; i++ {
		b.WriteByte('\n') // the leading blank lines: trailing breaks of nothing
	}
	var leadingBreak, trailingBreaks string
	leadingBlank := false
	for r < len(p.raw) {
		l := p.raw[r]
		if !strings.HasSuffix(l, "\n") {
			return "", false
		}
		l = l[:len(l)-1]
		if len(l) < indent || strings.TrimLeft(l[:indent], " ") != "" {
			break // indented less: the scalar ends (a blank line is a break, below)
		}
		trailingBlank := l[indent] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak == "\n" {
			if trailingBreaks == "" {
				b.WriteByte(' ')
			}
		} else {
			b.WriteString(leadingBreak)
		}
		b.WriteString(trailingBreaks)
		leadingBreak, trailingBreaks = "\n", ""
		leadingBlank = trailingBlank
		b.WriteString(l[indent:])
		r++
		// Blank lines (up to the indentation) are breaks.
		for r < len(p.raw) {
			bl := p.raw[r]
			if !strings.HasSuffix(bl, "\n") {
				return "", false
			}
			bl = bl[:len(bl)-1]
			if len(bl) > indent || strings.TrimLeft(bl, " ") != "" {
				break
			}
			trailingBreaks += "\n"
			r++
		}
	}
	if chomp != -1 {
		b.WriteString(leadingBreak)
	}
	if chomp == 1 {
		b.WriteString(trailingBreaks)
	}
	// The content lines the scalar took are not entries.
	for p.at < len(p.lines) && p.lines[p.at].no <= r {
		p.at++
	}
	return b.String(), true
}

// isEntry: the text starts a block sequence entry ("- …"; a lone "-" is declined later).
func isEntry(text string) bool {
	return text == "-" || strings.HasPrefix(text, "- ")
}

// sequence reads a block sequence whose entries sit at column indent.
func (p *fastVarsParser) sequence(indent int) ([]any, bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 100 {
		return nil, false
	}
	out := []any{}
	for {
		l, more := p.peek()
		if !more || l.indent < indent {
			return out, true
		}
		if l.indent > indent {
			return nil, false
		}
		if !isEntry(l.text) {
			// A key at the sequence's own indentation ends an indentless sequence: the
			// mapping above reads it (it checks its own indentation).
			if _, _, isKey := splitKey(l.text); isKey {
				return out, true
			}
			return nil, false
		}
		body := strings.TrimLeft(l.text[1:], " ")
		if body == "" || body[0] == '#' || body[0] == '-' && (len(body) == 1 || body[1] == ' ') {
			return nil, false // an empty entry, or a nested sequence on the entry's line
		}
		off := len(l.text) - len(body)
		if _, _, isKey := splitKey(body); isKey {
			m := &Map{}
			if !p.mapping(indent+off, off, func(key any, _ fastLine, v any, _ string, _ bool) { m.Set(key, v) }) {
				return nil, false
			}
			out = append(out, m)
			continue
		}
		p.at++
		v, _, _, ok := p.value(indent, body, false)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
}

// inlineValue reads a scalar, `[]` or `{}` that fills the rest of the line (a comment
// after a blank may follow); raw is the scalar's value as yaml.v3 gives it.
func inlineValue(t string) (val any, raw string, scalar, ok bool) {
	switch t[0] {
	case '\'':
		s, rest, ok := singleQuoted(t)
		if !ok || !lineEnd(rest) {
			return nil, "", false, false
		}
		return s, s, true, true
	case '"':
		s, rest, ok := doubleQuoted(t)
		if !ok || !lineEnd(rest) {
			return nil, "", false, false
		}
		return s, s, true, true
	case '[':
		v, rest, ok := flowSequence(t)
		if !ok || !lineEnd(rest) {
			return nil, "", false, false
		}
		return v, "", false, true
	case '{':
		if len(t) < 2 || t[1] != '}' || !lineEnd(t[2:]) {
			return nil, "", false, false
		}
		return &Map{}, "", false, true
	case '-', ':':
		// A plain scalar may start so when a non-blank follows (block context).
		if len(t) == 1 || t[1] == ' ' {
			return nil, "", false, false
		}
	case '?', ',', ']', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, "", false, false
	}
	s := t
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, " ")
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return nil, "", false, false
	}
	return plainScalar(s), s, true, true
}

// flowSequence reads a one-line flow sequence of scalars at the start of t: `[]`, or
// quoted scalars and plain ones without flow indicators, quotes, '#' or ':', separated
// by commas (no trailing comma); rest is what follows the ']'.
func flowSequence(t string) (v []any, rest string, ok bool) {
	v = []any{}
	t = strings.TrimLeft(t[1:], " ")
	if strings.HasPrefix(t, "]") {
		return v, t[1:], true
	}
	for {
		var item any
		switch {
		case t == "":
			return nil, "", false
		case t[0] == '\'':
			s, after, ok := singleQuoted(t)
			if !ok {
				return nil, "", false
			}
			item, t = s, after
		case t[0] == '"':
			s, after, ok := doubleQuoted(t)
			if !ok {
				return nil, "", false
			}
			item, t = s, after
		default:
			i := strings.IndexAny(t, ",[]{}#:'\"")
			if i < 0 || t[i] != ',' && t[i] != ']' {
				return nil, "", false
			}
			s := strings.TrimRight(t[:i], " ")
			if s == "" || s[0] == '-' || s[0] == '?' || strings.ContainsAny(s[:1], "&*!|>%@`") {
				return nil, "", false
			}
			item, t = plainScalar(s), t[i:]
		}
		v = append(v, item)
		t = strings.TrimLeft(t, " ")
		switch {
		case strings.HasPrefix(t, "]"):
			return v, t[1:], true
		case strings.HasPrefix(t, ","):
			t = strings.TrimLeft(t[1:], " ")
			if t == "" || t[0] == ']' || t[0] == ',' {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
	}
}

// lineEnd: only blanks, or blanks and a comment, follow.
func lineEnd(rest string) bool {
	t := strings.TrimLeft(rest, " ")
	return t == "" || t[0] == '#' && len(t) < len(rest)
}

// singleQuoted reads a one-line single-quoted scalar at the start of t (” is a quote).
func singleQuoted(t string) (s, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		if t[i] != '\'' {
			b.WriteByte(t[i])
			continue
		}
		if i+1 < len(t) && t[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), t[i+1:], true
	}
	return "", "", false
}

// doubleQuoted reads a one-line double-quoted scalar at the start of t, with the escapes
// that stay within ASCII (libyaml's table, yaml.v3 scannerc.go
// yaml_parser_scan_flow_scalar); any other escape (\N, \x, \u …, a tab) is declined.
func doubleQuoted(t string) (s, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch c {
		case '"':
			return b.String(), t[i+1:], true
		case '\\':
			if i+1 >= len(t) {
				return "", "", false
			}
			i++
			switch t[i] {
			case '0':
				b.WriteByte(0)
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'e':
				b.WriteByte(0x1b)
			case ' ', '"', '\'', '\\':
				b.WriteByte(t[i])
			default:
				return "", "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}
