package ansible

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnknown is returned by Eval and Template when an expression cannot be decided without
// running ansible: a fact, a lookup, a filter or construct the evaluator does not know.
var ErrUnknown = errors.New("cannot be decided without running ansible")

// Lookup finds a variable for the evaluator; ok is false for an undefined one.
type Lookup func(name string) (v any, ok bool)

// undefined is Jinja's Undefined: usable with `is defined` and `| default`, an error
// anywhere else.
type undefined struct{ name string }

// Eval evaluates a Jinja expression (a `when:` condition, the body of {{ }}) over the
// variables lookup gives. A looked-up string holding Jinja is templated in turn, as
// ansible's lazy templating does. It knows literals, names, attribute and subscript
// access, and/or/not, comparisons, in, ~, + and -, `x if c else y`, the filters default
// (d), bool, length, int, string, lower, upper, trim, replace, first, last and the tests defined,
// undefined, none, string, number. Anything else is ErrUnknown: the caller must treat the
// answer as unknown, never as false.
func Eval(expr string, lookup Lookup) (any, error) {
	return evalDepth(expr, lookup, 0)
}

func evalDepth(expr string, lookup Lookup, depth int) (any, error) {
	if depth > 20 {
		return nil, ErrUnknown
	}
	toks, err := jlex(expr)
	if err != nil {
		return nil, err
	}
	p := &jparser{toks: toks, lookup: lookup, depth: depth}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, ErrUnknown
	}
	if err := defined(v); err != nil {
		return nil, err
	}
	return v, nil
}

// Template renders a string the way ansible's templar does for the cases Eval knows: a
// string that is one {{ expr }} gives the expression's value (native type), text around
// expressions is concatenated; {% if %} blocks are rendered as text, other {% %}
// statements are ErrUnknown.
func Template(s string, lookup Lookup) (any, error) {
	return templateDepth(s, lookup, 0)
}

func templateDepth(s string, lookup Lookup, depth int) (any, error) {
	if !strings.Contains(s, "{{") && !strings.Contains(s, "{%") && !strings.Contains(s, "{#") {
		return s, nil
	}
	if strings.Contains(s, "{%") || strings.Contains(s, "{#") || strings.Contains(s, "{{-") || strings.Contains(s, "-}}") {
		// if/elif/else blocks and whitespace control (stmts.go); other statements and
		// comments are ErrUnknown there.
		return templateStmts(s, lookup, depth)
	}
	locs := reJinjaBlock.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 1 && locs[0][0] == 0 && locs[0][1] == len(s) {
		return evalDepth(s[locs[0][2]:locs[0][3]], lookup, depth+1)
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		b.WriteString(s[last:l[0]])
		v, err := evalDepth(s[l[2]:l[3]], lookup, depth+1)
		if err != nil {
			return nil, err
		}
		b.WriteString(pyStrOf(v))
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// Truthy is Python truthiness (Jinja's `if`).
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case Tuple:
		return len(x) > 0
	case *Map:
		return len(x.Items) > 0
	}
	return true
}

func pyStrOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	}
	return Repr(v)
}

type jtok struct {
	kind byte // 'n' name, 's' string, 'i' int, 'f' float, 'o' operator
	s    string
}

func jlex(s string) ([]jtok, error) {
	var out []jtok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			j := i + 1
			var b strings.Builder
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return nil, ErrUnknown
			}
			out = append(out, jtok{'s', b.String()})
			i = j + 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == '_') {
				j++
			}
			lit := strings.ReplaceAll(s[i:j], "_", "")
			if strings.Contains(lit, ".") {
				out = append(out, jtok{'f', lit})
			} else {
				out = append(out, jtok{'i', lit})
			}
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, jtok{'n', s[i:j]})
			i = j
		default:
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch two {
			case "==", "!=", "<=", ">=", "//", "**":
				out = append(out, jtok{'o', two})
				i += 2
				continue
			}
			if strings.IndexByte("()[]{},:.|<>+-*/~%", c) < 0 {
				return nil, ErrUnknown
			}
			out = append(out, jtok{'o', string(c)})
			i++
		}
	}
	return out, nil
}

type jparser struct {
	toks   []jtok
	i      int
	lookup Lookup
	depth  int
}

func (p *jparser) peek(kind byte, s string) bool {
	return p.i < len(p.toks) && p.toks[p.i].kind == kind && p.toks[p.i].s == s
}

func (p *jparser) accept(kind byte, s string) bool {
	if p.peek(kind, s) {
		p.i++
		return true
	}
	return false
}

func (p *jparser) expr() (any, error) {
	v, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.accept('n', "if") {
		c, err := p.or()
		if err != nil {
			return nil, err
		}
		var alt any = undefined{"(else)"}
		if p.accept('n', "else") {
			if alt, err = p.expr(); err != nil {
				return nil, err
			}
		}
		cb, err := truth(c)
		if err != nil {
			return nil, err
		}
		if cb {
			return v, nil
		}
		return alt, nil
	}
	return v, nil
}

func truth(v any) (bool, error) {
	if err := defined(v); err != nil {
		return false, err
	}
	return Truthy(v), nil
}

func (p *jparser) or() (any, error) {
	v, err := p.and()
	for err == nil && p.accept('n', "or") {
		var r any
		r, err = p.and()
		if err != nil {
			break
		}
		var b bool
		if b, err = truth(v); err == nil && !b {
			v = r
		}
	}
	return v, err
}

func (p *jparser) and() (any, error) {
	v, err := p.not()
	for err == nil && p.accept('n', "and") {
		var r any
		r, err = p.not()
		if err != nil {
			break
		}
		var b bool
		if b, err = truth(v); err == nil && b {
			v = r
		}
	}
	return v, err
}

func (p *jparser) not() (any, error) {
	if p.accept('n', "not") {
		v, err := p.not()
		if err != nil {
			return nil, err
		}
		b, err := truth(v)
		return !b, err
	}
	return p.compare()
}

func (p *jparser) compare() (any, error) {
	v, err := p.concat()
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		switch {
		case p.accept('o', "=="):
			op = "=="
		case p.accept('o', "!="):
			op = "!="
		case p.accept('o', "<"):
			op = "<"
		case p.accept('o', ">"):
			op = ">"
		case p.accept('o', "<="):
			op = "<="
		case p.accept('o', ">="):
			op = ">="
		case p.accept('n', "in"):
			op = "in"
		case p.peek('n', "not") && p.i+1 < len(p.toks) && p.toks[p.i+1] == jtok{'n', "in"}:
			p.i += 2
			op = "not in"
		default:
			return v, nil
		}
		r, err := p.concat()
		if err != nil {
			return nil, err
		}
		if v, err = compareOp(op, v, r); err != nil {
			return nil, err
		}
	}
}

func defined(v any) error {
	if _, ok := v.(unknownValue); ok {
		return ErrUnknown
	}
	if u, ok := v.(undefined); ok {
		return fmt.Errorf("%w: %s is undefined", ErrUnknown, u.name)
	}
	return nil
}

func compareOp(op string, a, b any) (any, error) {
	if err := defined(a); err != nil {
		return nil, err
	}
	if err := defined(b); err != nil {
		return nil, err
	}
	switch op {
	case "==":
		return pyEqual(a, b), nil
	case "!=":
		return !pyEqual(a, b), nil
	case "in", "not in":
		in := false
		switch c := b.(type) {
		case []any:
			for _, x := range c {
				in = in || pyEqual(a, x)
			}
		case Tuple:
			for _, x := range c {
				in = in || pyEqual(a, x)
			}
		case *Map:
			_, in = c.Get(a)
		case string:
			s, ok := a.(string)
			if !ok {
				return nil, ErrUnknown
			}
			in = strings.Contains(c, s)
		default:
			return nil, ErrUnknown
		}
		return in == (op == "in"), nil
	}
	fa, oka := numeric(a)
	fb, okb := numeric(b)
	if oka && okb {
		switch op {
		case "<":
			return fa < fb, nil
		case ">":
			return fa > fb, nil
		case "<=":
			return fa <= fb, nil
		case ">=":
			return fa >= fb, nil
		}
	}
	sa, oka := a.(string)
	sb, okb := b.(string)
	if oka && okb {
		switch op {
		case "<":
			return sa < sb, nil
		case ">":
			return sa > sb, nil
		case "<=":
			return sa <= sb, nil
		case ">=":
			return sa >= sb, nil
		}
	}
	return nil, ErrUnknown
}

func pyEqual(a, b any) bool {
	if _, ok := a.(string); ok {
		return a == b
	}
	if _, ok := b.(string); ok {
		return false
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return PyJSON(a) == PyJSON(b) && TypeName(a) == TypeName(b) || func() bool {
		na, oka := numeric(a)
		nb, okb := numeric(b)
		return oka && okb && na == nb
	}()
}

func (p *jparser) concat() (any, error) {
	v, err := p.add()
	for err == nil && p.accept('o', "~") {
		var r any
		if r, err = p.add(); err != nil {
			break
		}
		if err = defined(v); err == nil {
			err = defined(r)
		}
		v = pyStrOf(v) + pyStrOf(r)
	}
	return v, err
}

func (p *jparser) add() (any, error) {
	v, err := p.unary()
	for err == nil {
		op := ""
		if p.accept('o', "+") {
			op = "+"
		} else if p.accept('o', "-") {
			op = "-"
		} else {
			break
		}
		var r any
		if r, err = p.unary(); err != nil {
			break
		}
		switch a := v.(type) {
		case int64:
			bi, ok := r.(int64)
			if !ok {
				return nil, ErrUnknown
			}
			if op == "+" {
				v = a + bi
			} else {
				v = a - bi
			}
		case string:
			bs, ok := r.(string)
			if !ok || op != "+" {
				return nil, ErrUnknown
			}
			v = a + bs
		case []any:
			bl, ok := r.([]any)
			if !ok || op != "+" {
				return nil, ErrUnknown
			}
			v = append(append([]any(nil), a...), bl...)
		default:
			return nil, ErrUnknown
		}
	}
	return v, err
}

func (p *jparser) unary() (any, error) {
	if p.accept('o', "-") {
		v, err := p.unary()
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			return -x, nil
		case float64:
			return -x, nil
		}
		return nil, ErrUnknown
	}
	v, err := p.primary()
	if err != nil {
		return nil, err
	}
	return p.postfix(v)
}

func (p *jparser) postfix(v any) (any, error) {
	for {
		switch {
		case p.accept('o', "."):
			if p.i >= len(p.toks) || p.toks[p.i].kind != 'n' {
				return nil, ErrUnknown
			}
			name := p.toks[p.i].s
			p.i++
			if p.peek('o', "(") {
				return nil, ErrUnknown // a method call
			}
			v = p.item(v, name)
		case p.accept('o', "["):
			k, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.accept('o', "]") {
				return nil, ErrUnknown
			}
			if err := defined(k); err != nil {
				return nil, err
			}
			v = p.item(v, k)
		case p.accept('o', "|"):
			if p.i >= len(p.toks) || p.toks[p.i].kind != 'n' {
				return nil, ErrUnknown
			}
			name := p.toks[p.i].s
			p.i++
			var args []any
			if p.accept('o', "(") {
				for !p.accept('o', ")") {
					a, err := p.expr()
					if err != nil {
						return nil, err
					}
					args = append(args, a)
					if !p.accept('o', ",") && !p.peek('o', ")") {
						return nil, ErrUnknown
					}
				}
			}
			var err error
			if v, err = p.filter(name, v, args); err != nil {
				return nil, err
			}
		case p.accept('n', "is"):
			neg := p.accept('n', "not")
			if p.i >= len(p.toks) || p.toks[p.i].kind != 'n' {
				return nil, ErrUnknown
			}
			name := p.toks[p.i].s
			p.i++
			var r bool
			if _, ok := v.(unknownValue); ok {
				return nil, ErrUnknown
			}
			_, undef := v.(undefined)
			switch name {
			case "defined":
				r = !undef
			case "undefined":
				r = undef
			default:
				if undef {
					return nil, defined(v)
				}
				switch name {
				case "none":
					r = v == nil
				case "string":
					_, r = v.(string)
				case "number":
					_, r = numeric(v)
					if _, b := v.(bool); b {
						r = false
					}
				default:
					return nil, ErrUnknown
				}
			}
			v = r != neg
		default:
			return v, nil
		}
	}
}

// item is Jinja's getattr/getitem on a dict or list; missing is undefined.
func (p *jparser) item(v, k any) any {
	switch c := v.(type) {
	case *Map:
		if x, ok := c.Get(k); ok {
			return p.lazy(x)
		}
	case []any:
		if i, ok := k.(int64); ok {
			if i < 0 {
				i += int64(len(c))
			}
			if i >= 0 && i < int64(len(c)) {
				return p.lazy(c[i])
			}
		}
	}
	return undefined{fmt.Sprint(k)}
}

// lazy templates a string holding Jinja when it is reached (ansible templates a variable's
// value, and the values inside it, when used). An error is kept as undefined-like unknown.
func (p *jparser) lazy(x any) any {
	s, ok := x.(string)
	if !ok || !IsTemplated(s) {
		return x
	}
	v, err := templateDepth(s, p.lookup, p.depth+1)
	if err != nil {
		return unknownValue{}
	}
	return v
}

// unknownValue is a value that could not be computed: any use of it is ErrUnknown.
type unknownValue struct{}

// Unknown is what a [Lookup] gives for a variable that is set but whose value is not known
// before the run (a set_fact that may run, a registered result): any use of it, even
// `is defined`, is ErrUnknown.
var Unknown any = unknownValue{}

func (p *jparser) primary() (any, error) {
	if p.i >= len(p.toks) {
		return nil, ErrUnknown
	}
	t := p.toks[p.i]
	p.i++
	var v any
	switch t.kind {
	case 's':
		v = t.s
	case 'i':
		n, err := strconv.ParseInt(t.s, 10, 64)
		if err != nil {
			return nil, ErrUnknown
		}
		v = n
	case 'f':
		f, err := strconv.ParseFloat(t.s, 64)
		if err != nil {
			return nil, ErrUnknown
		}
		v = f
	case 'n':
		switch t.s {
		case "true", "True":
			v = true
		case "false", "False":
			v = false
		case "none", "None":
			v = nil
		case "lookup", "query", "q", "range", "dict", "hostvars", "vars":
			return nil, ErrUnknown
		case "ansible_facts":
			// Known only from facts the caller was given (a setup dump): never undefined.
			x, ok := p.lookup(t.s)
			if !ok {
				return nil, ErrUnknown
			}
			v = x
		default:
			if p.peek('o', "(") {
				return nil, ErrUnknown
			}
			x, ok := p.lookup(t.s)
			if !ok {
				v = undefined{t.s}
			} else {
				v = p.lazy(x)
			}
		}
	case 'o':
		switch t.s {
		case "(":
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if p.accept('o', ",") {
				return nil, ErrUnknown // a tuple
			}
			if !p.accept('o', ")") {
				return nil, ErrUnknown
			}
			v = x
		case "[":
			var l []any
			for !p.accept('o', "]") {
				x, err := p.expr()
				if err != nil {
					return nil, err
				}
				l = append(l, x)
				if !p.accept('o', ",") && !p.peek('o', "]") {
					return nil, ErrUnknown
				}
			}
			if l == nil {
				l = []any{}
			}
			v = l
		case "{":
			m := &Map{}
			for !p.accept('o', "}") {
				k, err := p.expr()
				if err != nil {
					return nil, err
				}
				if !p.accept('o', ":") {
					return nil, ErrUnknown
				}
				x, err := p.expr()
				if err != nil {
					return nil, err
				}
				m.Set(k, x)
				if !p.accept('o', ",") && !p.peek('o', "}") {
					return nil, ErrUnknown
				}
			}
			v = m
		default:
			return nil, ErrUnknown
		}
	}
	if _, ok := v.(unknownValue); ok {
		return nil, ErrUnknown
	}
	return v, nil
}

func (p *jparser) filter(name string, v any, args []any) (any, error) {
	if _, ok := v.(unknownValue); ok {
		return nil, ErrUnknown
	}
	switch name {
	case "default", "d":
		if len(args) == 0 {
			args = []any{""}
		}
		if _, undef := v.(undefined); undef {
			return args[0], nil
		}
		if len(args) > 1 && Truthy(args[1]) && !Truthy(v) {
			return args[0], nil
		}
		return v, nil
	}
	if err := defined(v); err != nil {
		return nil, err
	}
	switch name {
	case "bool":
		// ansible's bool filter (plugins/filter/core.py to_bool).
		switch x := v.(type) {
		case bool:
			return x, nil
		case nil:
			return false, nil
		case string:
			switch strings.ToLower(x) {
			case "yes", "on", "1", "true":
				return true, nil
			}
			return false, nil
		case int64:
			return x == 1, nil
		case float64:
			return x == 1, nil
		}
		return false, nil
	case "length", "count":
		switch x := v.(type) {
		case string:
			return int64(len([]rune(x))), nil
		case []any:
			return int64(len(x)), nil
		case *Map:
			return int64(len(x.Items)), nil
		}
	case "int":
		switch x := v.(type) {
		case int64:
			return x, nil
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case float64:
			return int64(x), nil
		case string:
			if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
				return n, nil
			}
		}
	case "string":
		return pyStrOf(v), nil
	case "lower", "upper", "trim":
		s, ok := v.(string)
		if !ok {
			break
		}
		switch name {
		case "lower":
			return strings.ToLower(s), nil
		case "upper":
			return strings.ToUpper(s), nil
		}
		return strings.TrimSpace(s), nil
	case "replace":
		// Jinja's replace(old, new): every occurrence, on a string.
		s, ok := v.(string)
		if !ok || len(args) != 2 {
			break
		}
		old, ok1 := args[0].(string)
		nw, ok2 := args[1].(string)
		if ok1 && ok2 {
			return strings.ReplaceAll(s, old, nw), nil
		}
	case "first", "last":
		if l, ok := v.([]any); ok && len(l) > 0 {
			if name == "first" {
				return l[0], nil
			}
			return l[len(l)-1], nil
		}
	}
	return nil, ErrUnknown
}
