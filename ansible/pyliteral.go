package ansible

import (
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PyLiteral is ansible's INI _parse_value (plugins/inventory/ini.py, 2.14): the text is
// given to Python 3.11's ast.literal_eval; when that fails (ValueError or SyntaxError) the
// text is kept as a string. So True, 1, 1_000, 0x1f, 1e3, 'a', [1, 2] and {'a': 1} are
// typed, while true, yes, 0644 (a SyntaxError in Python 3) and 1.2.3 stay strings.
func PyLiteral(s string) any {
	p := &pyParser{src: strings.TrimLeft(s, " \t")}
	if err := p.tokenize(); err {
		return s
	}
	v, ok := p.parseExpr(true)
	if !ok || p.pos != len(p.toks) {
		return s
	}
	return v
}

type pyTok struct {
	kind byte // 'n' number, 's' string, 'b' bytes, 'i' name, 'o' operator, 'f' f-string
	text string
	val  any
}

type pyParser struct {
	src  string
	toks []pyTok
	pos  int
}

// tokenize splits the source as Python's tokenizer does for the subset literal_eval can
// accept; anything else is reported as an error (a SyntaxError or a ValueError, both of
// which make ansible keep the raw text).
func (p *pyParser) tokenize() (bad bool) {
	s := p.src
	depth := 0
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '\n' || c == '\r':
			if depth == 0 {
				// A newline ends the expression; only trailing blank lines or comments may follow.
				rest := strings.TrimSpace(s[i:])
				for _, ln := range strings.Split(rest, "\n") {
					ln = strings.TrimSpace(ln)
					if ln != "" && !strings.HasPrefix(ln, "#") {
						return true
					}
				}
				return false
			}
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			n, v, ok := pyNumber(s[i:])
			if !ok {
				return true
			}
			p.toks = append(p.toks, pyTok{kind: 'n', text: s[i : i+n], val: v})
			i += n
		case c == '\'' || c == '"':
			n, v, ok := pyString(s[i:], "")
			if !ok {
				return true
			}
			p.toks = append(p.toks, pyTok{kind: 's', val: v})
			i += n
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(s) {
				r, w := utf8.DecodeRuneInString(s[j:])
				if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
					j += w
					continue
				}
				break
			}
			if j == i {
				return true
			}
			word := s[i:j]
			if j < len(s) && (s[j] == '\'' || s[j] == '"') {
				pre := strings.ToLower(word)
				switch pre {
				case "r", "u", "b", "br", "rb", "f", "fr", "rf":
					n, v, ok := pyString(s[j:], pre)
					if !ok {
						return true
					}
					kind := byte('s')
					if strings.Contains(pre, "b") {
						kind = 'b'
					}
					if strings.Contains(pre, "f") {
						kind = 'f'
					}
					p.toks = append(p.toks, pyTok{kind: kind, val: v, text: s[i : j+n]})
					i = j + n
					continue
				}
			}
			p.toks = append(p.toks, pyTok{kind: 'i', text: word})
			i = j
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			// Operators longer than one character are not literals; keep them whole so the
			// parser rejects them.
			op := string(c)
			for _, two := range []string{"**", "//", "==", "!=", "<=", ">=", "->", ":=", "<<", ">>"} {
				if strings.HasPrefix(s[i:], two) {
					op = two
				}
			}
			p.toks = append(p.toks, pyTok{kind: 'o', text: op})
			i += len(op)
		}
	}
	return depth != 0
}

// pyNumber scans a Python number literal (underscores between digits, 0x/0o/0b, floats,
// imaginary j) and returns its length and value.
func pyNumber(s string) (int, any, bool) {
	i := 0
	digits := func(ok func(byte) bool) bool {
		start := i
		for i < len(s) && (ok(s[i]) || s[i] == '_' && i > start && i+1 < len(s) && ok(s[i+1])) {
			i++
		}
		return i > start
	}
	dec := func(b byte) bool { return b >= '0' && b <= '9' }
	if len(s) > 1 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])) {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[1]|0x20]
		i = 2
		if i < len(s) && s[i] == '_' {
			i++
		}
		ok := digits(func(b byte) bool {
			v, err := strconv.ParseInt(string(b), 16, 8)
			return err == nil && int(v) < base
		})
		if !ok || i < len(s) && (isIdent(s[i]) || dec(s[i])) {
			return 0, nil, false
		}
		n, _ := new(big.Int).SetString(strings.ReplaceAll(s[2:i], "_", ""), base)
		return i, bigOrInt(n), true
	}
	intPart := digits(dec)
	isFloat := false
	if i < len(s) && s[i] == '.' {
		isFloat = true
		i++
		if i < len(s) && s[i] == '_' {
			return 0, nil, false
		}
		digits(dec)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits(dec) {
			i = j
		} else {
			isFloat = true
		}
	}
	_ = intPart
	text := strings.ReplaceAll(s[:i], "_", "")
	if i < len(s) && (s[i] == 'j' || s[i] == 'J') {
		i++
		if i < len(s) && (isIdent(s[i]) || dec(s[i])) {
			return 0, nil, false
		}
		return i, complexValue("(" + s[:i] + ")"), true
	}
	if i < len(s) && (isIdent(s[i]) || dec(s[i])) {
		return 0, nil, false
	}
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return 0, nil, false
		}
		return i, f, true
	}
	// Decimal integers: a leading zero is only allowed for zero itself (0644 is a
	// SyntaxError in Python 3).
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return 0, nil, false
	}
	n, _ := new(big.Int).SetString(text, 10)
	if n == nil {
		return 0, nil, false
	}
	return i, bigOrInt(n), true
}

func isIdent(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// pyString scans a quoted Python string (prefix already consumed) with its escapes.
func pyString(s, prefix string) (int, string, bool) {
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	raw := strings.Contains(prefix, "r")
	i := len(q)
	var b strings.Builder
	for i < len(s) {
		if strings.HasPrefix(s[i:], q) {
			return i + len(q), b.String(), true
		}
		c := s[i]
		if c == '\n' && len(q) == 1 {
			return 0, "", false
		}
		if c == '\\' && i+1 < len(s) {
			if raw {
				b.WriteString(s[i : i+2])
				i += 2
				continue
			}
			e := s[i+1]
			i += 2
			switch e {
			case '\n':
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte(7)
			case 'b':
				b.WriteByte(8)
			case 'f':
				b.WriteByte(12)
			case 'v':
				b.WriteByte(11)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if i+n > len(s) {
					return 0, "", false
				}
				v, err := strconv.ParseUint(s[i:i+n], 16, 32)
				if err != nil {
					return 0, "", false
				}
				b.WriteRune(rune(v))
				i += n
			case '0', '1', '2', '3', '4', '5', '6', '7':
				j := i - 1
				for j < len(s) && j < i+2 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i-1:j], 8, 32)
				b.WriteRune(rune(v))
				i = j
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		}
		b.WriteByte(c)
		i++
	}
	return 0, "", false
}

func (p *pyParser) peek() *pyTok {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

func (p *pyParser) isOp(op string) bool {
	t := p.peek()
	return t != nil && t.kind == 'o' && t.text == op
}

// parseExpr parses a literal; top allows a bare tuple "1, 2".
func (p *pyParser) parseExpr(top bool) (any, bool) {
	v, ok := p.parseAtom()
	if !ok {
		return nil, false
	}
	if top && p.isOp(",") {
		items := []any{v}
		for p.isOp(",") {
			p.pos++
			if p.peek() == nil {
				break
			}
			x, ok := p.parseAtom()
			if !ok {
				return nil, false
			}
			items = append(items, x)
		}
		return Tuple(items), true
	}
	return v, true
}

func (p *pyParser) parseAtom() (any, bool) {
	t := p.peek()
	if t == nil {
		return nil, false
	}
	switch t.kind {
	case 'n':
		p.pos++
		return p.maybeComplex(t.val)
	case 's', 'b':
		// Adjacent literals concatenate; str and bytes cannot be mixed.
		kind := t.kind
		var b strings.Builder
		for t := p.peek(); t != nil && (t.kind == 's' || t.kind == 'b'); t = p.peek() {
			if t.kind != kind {
				return nil, false
			}
			b.WriteString(t.val.(string))
			p.pos++
		}
		if p.peek() != nil && p.peek().kind == 'f' {
			return nil, false
		}
		if kind == 'b' {
			return bytesValue("b" + pyStrRepr(b.String())), true
		}
		return b.String(), true
	case 'i':
		p.pos++
		switch t.text {
		case "True":
			return true, true
		case "False":
			return false, true
		case "None":
			return nil, true
		case "set":
			if p.isOp("(") && p.pos+1 < len(p.toks) && p.toks[p.pos+1].text == ")" {
				p.pos += 2
				return setValue("set()"), true
			}
		}
		return nil, false
	case 'o':
		switch t.text {
		case "-", "+":
			p.pos++
			nt := p.peek()
			if nt == nil || nt.kind != 'n' {
				// -(1) and --1 are UnaryOp on non-Constant: ValueError in literal_eval.
				return nil, false
			}
			p.pos++
			v := negate(nt.val, t.text == "-")
			return p.maybeComplex(v)
		case "(":
			p.pos++
			if p.isOp(")") {
				p.pos++
				return Tuple{}, true
			}
			first, ok := p.parseAtom()
			if !ok {
				return nil, false
			}
			if p.isOp(")") {
				p.pos++
				return first, true
			}
			items := []any{first}
			for p.isOp(",") {
				p.pos++
				if p.isOp(")") {
					break
				}
				x, ok := p.parseAtom()
				if !ok {
					return nil, false
				}
				items = append(items, x)
			}
			if !p.isOp(")") {
				return nil, false
			}
			p.pos++
			return Tuple(items), true
		case "[":
			p.pos++
			items := []any{}
			for !p.isOp("]") {
				x, ok := p.parseAtom()
				if !ok {
					return nil, false
				}
				items = append(items, x)
				if p.isOp(",") {
					p.pos++
					continue
				}
				if !p.isOp("]") {
					return nil, false
				}
			}
			p.pos++
			return items, true
		case "{":
			p.pos++
			if p.isOp("}") {
				p.pos++
				return &Map{}, true
			}
			first, ok := p.parseAtom()
			if !ok {
				return nil, false
			}
			if p.isOp(":") {
				m := &Map{}
				k := first
				for {
					if !p.isOp(":") {
						return nil, false
					}
					p.pos++
					v, ok := p.parseAtom()
					if !ok || !hashable(k) {
						return nil, false
					}
					m.Set(k, v)
					if p.isOp(",") {
						p.pos++
					}
					if p.isOp("}") {
						p.pos++
						return m, true
					}
					if k, ok = p.parseAtom(); !ok {
						return nil, false
					}
				}
			}
			// A set display.
			items := []string{Repr(first)}
			for p.isOp(",") {
				p.pos++
				if p.isOp("}") {
					break
				}
				x, ok := p.parseAtom()
				if !ok {
					return nil, false
				}
				items = append(items, Repr(x))
			}
			if !p.isOp("}") {
				return nil, false
			}
			p.pos++
			return setValue("{" + strings.Join(items, ", ") + "}"), true
		}
	}
	return nil, false
}

func hashable(k any) bool {
	switch k.(type) {
	case []any, *Map, setValue:
		return false
	}
	return true
}

// maybeComplex accepts "1+2j" / "1-2j": the only binary operation literal_eval allows (a
// real number and an imaginary one).
func (p *pyParser) maybeComplex(v any) (any, bool) {
	if (p.isOp("+") || p.isOp("-")) && p.pos+1 < len(p.toks) {
		nt := p.toks[p.pos+1]
		if c, ok := nt.val.(complexValue); ok && nt.kind == 'n' {
			if _, isC := v.(complexValue); !isC {
				op := p.peek().text
				p.pos += 2
				return complexValue("(" + Repr(v) + op + strings.Trim(string(c), "()") + ")"), true
			}
		}
	}
	return v, true
}

func negate(v any, neg bool) any {
	if !neg {
		return v
	}
	switch x := v.(type) {
	case int64:
		if x == -x && x != 0 {
			return new(big.Int).Neg(big.NewInt(x))
		}
		return -x
	case *big.Int:
		return bigOrInt(new(big.Int).Neg(x))
	case float64:
		return -x
	case complexValue:
		return complexValue("-" + string(x))
	}
	return v
}

// ShlexSplit is Python's shlex.split(s, comments=True) in POSIX mode, as ansible's INI
// parser applies it to a host line: quotes removed, backslash escapes outside single
// quotes, a '#' outside quotes starts a comment (even in the middle of a word).
// It returns each word with its byte offset in s, or ok=false for an unclosed quote.
func ShlexSplit(s string) (words []string, offsets []int, ok bool) {
	var cur strings.Builder
	in := false
	start := 0
	i := 0
	flush := func() {
		if in {
			words = append(words, cur.String())
			offsets = append(offsets, start)
		}
		cur.Reset()
		in = false
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
			i++
		case c == '#':
			flush()
			return words, offsets, true
		case c == '\'':
			if !in {
				in, start = true, i
			}
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			if !in {
				in, start = true, i
			}
			i++
			for {
				if i >= len(s) {
					return nil, nil, false
				}
				if s[i] == '"' {
					i++
					break
				}
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					cur.WriteByte(s[i+1])
					i += 2
					continue
				}
				cur.WriteByte(s[i])
				i++
			}
		case c == '\\':
			if !in {
				in, start = true, i
			}
			if i+1 >= len(s) {
				return nil, nil, false
			}
			cur.WriteByte(s[i+1])
			i += 2
		default:
			if !in {
				in, start = true, i
			}
			cur.WriteByte(c)
			i++
		}
	}
	flush()
	return words, offsets, true
}
