package sources

import (
	"strings"

	"github.com/k3sconf/k3sconf/diag"
)

// parseFast reads the shape nearly every real k3s config file has, without a YAML library:
// a block mapping at column 1 of plain keys, each with a one-line plain or quoted scalar or
// a block sequence of such scalars, plus comments and blank lines. It returns ok false
// ("declined") for anything else, and ParseConfig then takes the full yaml.v3 path.
//
// Why: the yaml.v3 node parse plus yaml.v2's typing of the nodes cost as much as k3s's own
// yaml.v2 decode of the file (docs/performance.md); for this subset the positions, raw text
// and values can be read off the lines directly. Exactness is kept by declining, never by
// guessing: the result for an accepted file is the one parseConfig gives
// (TestFastPathMatchesYAMLv3 compares them on generated files, every YAML file under
// testdata/ and the fuzz corpora; FuzzFastPath keeps comparing).
//
// The scanning rules are libyaml's (gopkg.in/yaml.v2 v2.4.0 scannerc.go, the same in
// yaml.v3 v3.0.1): a plain scalar may not start with an indicator character (except '-'
// followed by a non-blank), ends at " #" or the line end, and is continued by a following
// line indented deeper than its mapping's or sequence's indentation; ": " or a ':' at the
// end inside it is a mapping value indicator. Those constructs are declined, as are tabs, CR,
// bytes outside printable ASCII (column counting and NEL/LS/PS line breaks), document
// markers and directives (except one "---" line before the first key), anchors, aliases,
// tags, flow collections other than one-line sequences of scalars, block scalars,
// multi-line or escaped quoted scalars, empty (null) values and keys longer than libyaml's
// simple-key limit.
func parseFast(path string, text []byte) (cf *ConfigFile, diags []diag.Diagnostic, ok bool) {
	// keys bounds the number of entries: lines that start with a key's first byte.
	keys := 0
	for i, c := range text {
		if (c < 0x20 && c != '\n') || c >= 0x7f {
			return nil, nil, false
		}
		if (i == 0 || text[i-1] == '\n') && isAlnum(c) {
			keys++
		}
	}
	s := string(text)
	p := fastParser{s: s, path: path, keys: keys}
	entries, ok := p.run()
	if !ok {
		return nil, nil, false
	}
	cf = &ConfigFile{Path: path, Entries: entries}
	if len(entries) == 0 {
		// As the yaml.v3 path: a document without content has nil entries.
		cf.Entries = nil
		return cf, nil, true
	}
	d := &decoder{path: path}
	d.duplicates(entries)
	return cf, d.diags, true
}

type fastParser struct {
	s    string
	path string
	keys int // at least the number of entries
	off  int // start of the next line
	line int // 1-based number of the line at off
	// peekOff and peekLine are off and line after the line peekContent returned last.
	peekOff, peekLine int
}

// next returns the next line (without its "\n") and its number, or ok false at the end.
func (p *fastParser) next() (l string, n int, ok bool) {
	if p.off >= len(p.s) {
		return "", 0, false
	}
	rest := p.s[p.off:]
	i := strings.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
		p.off = len(p.s)
	} else {
		p.off += i + 1
	}
	p.line++
	return rest[:i], p.line, true
}

// peekContent returns the next line holding neither only blanks nor only a comment, with
// its indentation, without consuming it; the lines skipped before it are consumed.
func (p *fastParser) peekContent() (l string, n, indent int, ok bool) {
	for {
		save, saveLine := p.off, p.line
		l, n, ok = p.next()
		if !ok {
			return "", 0, 0, false
		}
		indent = 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		if indent == len(l) || l[indent] == '#' {
			continue
		}
		p.peekOff, p.peekLine = p.off, p.line
		p.off, p.line = save, saveLine
		return l, n, indent, true
	}
}

// consume moves past the line peekContent returned last, without reading it again.
func (p *fastParser) consume() {
	p.off, p.line = p.peekOff, p.peekLine
}

func (p *fastParser) pos(line, col int) diag.Position {
	return diag.Position{File: p.path, Line: line, Column: col}
}

func (p *fastParser) run() ([]ConfigEntry, bool) {
	var entries []ConfigEntry
	// A "---" line before the first key starts the (only) document, as many hand-written
	// files do; any other marker, and text after this one, is declined.
	if l, _, _, ok := p.peekContent(); ok && strings.TrimRight(l, " ") == "---" {
		p.consume()
	}
	started := false
	for {
		l, n, indent, ok := p.peekContent()
		if !ok {
			break
		}
		if indent != 0 {
			return nil, false
		}
		p.consume()
		if !started {
			started = true
			entries = make([]ConfigEntry, 0, p.keys)
		}
		e, ok := p.entry(l, n)
		if !ok {
			return nil, false
		}
		entries = append(entries, e)
	}
	return entries, true
}

// isKeyByte is the set of bytes accepted in a plain key: what k3s flag names use, and
// nothing that is a YAML indicator.
func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '+' || c == '/'
}

// entry reads one top-level "key: value" line at column 1 (and, for a sequence, the lines
// of its items).
func (p *fastParser) entry(l string, n int) (ConfigEntry, bool) {
	var e ConfigEntry
	if !isAlnum(l[0]) {
		return e, false
	}
	k := 1
	for k < len(l) && isKeyByte(l[k]) {
		k++
	}
	// libyaml refuses a simple key longer than 1024 characters.
	if k > 1000 || k == len(l) || l[k] != ':' || (k+1 < len(l) && l[k+1] != ' ') {
		return e, false
	}
	raw := l[:k]
	// A key that cannot be anything but a string (resolveKind 0, as most flag names) is
	// its own text; ToString of it is the same, without boxing it first.
	key := raw
	if resolveKind(raw[0]) != 0 {
		key = ToString(plainValue(raw))
	}
	e.RawKey = raw
	e.Key = strings.TrimSuffix(key, "+")
	e.Append = strings.HasSuffix(key, "+")
	e.KeyPos = p.pos(n, 1)

	c := k + 1
	for c < len(l) && l[c] == ' ' {
		c++
	}
	if c < len(l) && l[c] != '#' {
		// A scalar on the key's line. Nothing may follow it on deeper-indented lines (a
		// continued plain scalar, or an error).
		if l[c] == '[' {
			if !p.flowSequence(&e, l, n, c) {
				return e, false
			}
		} else {
			v, ok := scalarAt(l, c)
			if !ok {
				return e, false
			}
			e.Value, e.Type, e.Raw, e.Quoted = v.value, v.typ, v.raw, v.quoted
			e.ValuePos = p.pos(n, c+1)
		}
		if _, _, indent, ok := p.peekContent(); ok && indent != 0 {
			return e, false
		}
		return e, true
	}
	// Nothing (or a comment) after the colon: the value is a block sequence on the
	// following lines, or null (declined).
	sl, sn, seqIndent, ok := p.peekContent()
	if !ok || !isItem(sl, seqIndent) {
		return e, false
	}
	e.Type = "seq"
	e.Raw = firstLine(sl[seqIndent:])
	e.ValuePos = p.pos(sn, seqIndent+1)
	var values []any
	for {
		il, in, indent, ok := p.peekContent()
		if !ok {
			break
		}
		if indent != seqIndent {
			if indent == 0 {
				break // the next key
			}
			return e, false
		}
		if !isItem(il, indent) {
			if indent == 0 {
				break
			}
			return e, false
		}
		p.consume()
		c := indent + 1
		for c < len(il) && il[c] == ' ' {
			c++
		}
		if c == len(il) || il[c] == '#' {
			return e, false // a null item
		}
		v, ok := scalarAt(il, c)
		if !ok {
			return e, false
		}
		values = append(values, v.value)
		e.Items = append(e.Items, ConfigItem{Value: v.value, Raw: v.raw, Type: v.typ, Quoted: v.quoted, Pos: p.pos(in, c+1)})
	}
	if values == nil {
		values = []any{}
	}
	e.Value = values
	return e, true
}

// flowSequence reads a flow sequence of scalars that opens at byte c and closes on the same
// line ("[a, 'b', 1]"), as yaml.v3 and yaml.v2 read it: each item a plain scalar without
// flow indicators, ':' or '#', or a quoted scalar without escapes; items separated by ","
// and blanks; no empty item and no trailing comma. Anything else is declined.
func (p *fastParser) flowSequence(e *ConfigEntry, l string, n, c int) bool {
	// Sized from the commas (an upper bound of the items, quoted commas included): grown by
	// append, the two slices were a tenth of all allocation on a node of flow lists.
	size := strings.Count(l[c:], ",") + 1
	values := make([]any, 0, size)
	items := make([]ConfigItem, 0, size)
	i := c + 1
	skip := func() {
		for i < len(l) && l[i] == ' ' {
			i++
		}
	}
	skip()
	if i < len(l) && l[i] == ']' {
		i++
	} else {
		for {
			if i >= len(l) {
				return false
			}
			start := i
			var v fastScalar
			switch l[i] {
			case '\'', '"':
				q := l[i]
				end := -1
				for j := i + 1; j < len(l); j++ {
					if l[j] == '\\' && q == '"' {
						return false
					}
					if l[j] == q {
						if q == '\'' && j+1 < len(l) && l[j+1] == '\'' {
							j++
							continue
						}
						end = j
						break
					}
				}
				if end < 0 {
					return false
				}
				body := l[i+1 : end]
				if q == '\'' {
					body = strings.ReplaceAll(body, "''", "'")
				}
				v = fastScalar{value: body, typ: "str", raw: l[i : end+1], quoted: true}
				i = end + 1
			default:
				j := i
				for j < len(l) && l[j] != ',' && l[j] != ']' {
					switch l[j] {
					case '[', '{', '}', ':', '#', '\'', '"':
						return false
					}
					j++
				}
				text := strings.TrimRight(l[i:j], " ")
				if text == "" || !plainStart(l, i) || l[i] == '-' && len(text) == 1 {
					return false
				}
				sv, ok := scalarAt(text, 0)
				if !ok {
					return false
				}
				v = sv
				i = i + len(text)
			}
			values = append(values, v.value)
			items = append(items, ConfigItem{Value: v.value, Raw: v.raw, Type: v.typ, Quoted: v.quoted, Pos: p.pos(n, start+1)})
			skip()
			if i >= len(l) {
				return false
			}
			if l[i] == ']' {
				i++
				break
			}
			if l[i] != ',' {
				return false
			}
			i++
			skip()
			if i >= len(l) || l[i] == ']' || l[i] == ',' {
				return false // a trailing comma or an empty item
			}
		}
	}
	if !restIsBlank(l, i) {
		return false
	}
	e.Value, e.Type, e.Raw, e.Quoted = values, "seq", l[c:i], false
	e.ValuePos = p.pos(n, c+1)
	e.Items = items
	return true
}

// isItem reports whether a line is a block sequence entry at indent: "- " or "-" at the end.
func isItem(l string, indent int) bool {
	return indent < len(l) && l[indent] == '-' && (indent+1 == len(l) || l[indent+1] == ' ')
}

// fastScalar is one scalar read by the fast path, decoded as yaml.v2 decodes it.
type fastScalar struct {
	value  any
	typ    string
	raw    string
	quoted bool
}

// plainValue is the value of an untagged plain scalar, as decoder.scalar gives it.
func plainValue(text string) any {
	rtag, out, err := resolveScalar("", text)
	if err != nil || out == nil {
		return nil
	}
	if rtag == tagTimestamp {
		return text
	}
	return out
}

// scalarAt reads the scalar starting at byte c of the line and checks that only blanks or
// a comment follow it.
func scalarAt(l string, c int) (fastScalar, bool) {
	var v fastScalar
	switch q := l[c]; q {
	case '\'', '"':
		end := -1
		hasEscape := false
		for i := c + 1; i < len(l); i++ {
			if l[i] == '\\' && q == '"' {
				return v, false
			}
			if l[i] == q {
				if q == '\'' && i+1 < len(l) && l[i+1] == '\'' {
					hasEscape = true
					i++
					continue
				}
				end = i
				break
			}
		}
		if end < 0 {
			return v, false // continued on the next line, or not closed
		}
		if !restIsBlank(l, end+1) {
			return v, false
		}
		body := l[c+1 : end]
		if hasEscape {
			body = strings.ReplaceAll(body, "''", "'")
		}
		v.value, v.typ, v.raw, v.quoted = body, "str", l[c:end+1], true
		return v, true
	}
	if !plainStart(l, c) {
		return v, false
	}
	end := len(l)
	for i := c + 1; i < len(l); i++ {
		switch l[i] {
		case '#':
			if l[i-1] == ' ' {
				end = i
			}
		case ':':
			if i+1 == len(l) || l[i+1] == ' ' {
				return v, false
			}
		}
		if end != len(l) {
			break
		}
	}
	for end > c && l[end-1] == ' ' {
		end--
	}
	text := l[c:end]
	if resolveKind(text[0]) == 0 {
		// resolvePlain's first test: nothing but a string can start with this byte.
		v.value, v.typ, v.raw = text, "str", text
		return v, true
	}
	rtag, out, err := resolveScalar("", text)
	if err != nil {
		return v, false
	}
	switch {
	case out == nil:
		v.value, v.typ = nil, "null"
	case rtag == tagTimestamp:
		v.value, v.typ = text, "timestamp"
	case rtag == tagMerge:
		return v, false
	default:
		v.value, v.typ = out, typeName(rtag)
	}
	v.raw = text
	return v, true
}

// plainStart reports whether a plain scalar may start at byte c: libyaml's check in
// yaml_parser_fetch_next_token, narrowed to block context ('?' and ':' starts declined).
func plainStart(l string, c int) bool {
	switch l[c] {
	case '-':
		return c+1 < len(l) && l[c+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// restIsBlank reports whether only blanks, optionally followed by a comment after a blank,
// come from byte i on.
func restIsBlank(l string, i int) bool {
	j := i
	for j < len(l) && l[j] == ' ' {
		j++
	}
	return j == len(l) || (j > i && l[j] == '#')
}
