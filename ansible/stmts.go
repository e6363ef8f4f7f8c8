package ansible

import (
	"regexp"
	"strings"
)

// templateStmts renders a template with {% if %}/{% elif %}/{% else %}/{% endif %} blocks
// (kubespray's `{%- if containerd_use_systemd_cgroup -%}systemd{%- else -%}cgroupfs{%- endif -%}`)
// and {{ }} expressions, with Jinja's whitespace control: a '-' inside the delimiter strips
// the whitespace on that side. Any other statement ({% for %}, {% set %}, ...) or a
// comment is ErrUnknown. The result is text, as Jinja renders it.
func templateStmts(s string, lookup Lookup, depth int) (any, error) {
	toks, err := stmtTokens(s)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	i, err := renderStmts(toks, 0, lookup, depth, &b, true)
	if err != nil {
		return nil, err
	}
	if i != len(toks) {
		return nil, ErrUnknown // an elif/else/endif without its if
	}
	return b.String(), nil
}

type stmtTok struct {
	kind byte // 't' text, 'e' {{ expr }}, 's' {% stmt %}
	s    string
}

var reDelim = regexp.MustCompile(`(?s)\{\{(-?)(.*?)(-?)\}\}|\{%(-?)(.*?)(-?)%\}|\{#`)

// stmtTokens splits a template into text, expressions and statements, applying the
// whitespace control of each delimiter to the text beside it.
func stmtTokens(s string) ([]stmtTok, error) {
	var toks []stmtTok
	last := 0
	trimNext := false
	for _, m := range reDelim.FindAllStringSubmatchIndex(s, -1) {
		if s[m[0]:m[1]] == "{#" {
			return nil, ErrUnknown
		}
		text := s[last:m[0]]
		if trimNext {
			text = strings.TrimLeft(text, " \t\r\n")
		}
		var trimBefore, trimAfter bool
		var kind byte
		var body string
		if m[2] >= 0 {
			kind, body = 'e', s[m[4]:m[5]]
			trimBefore, trimAfter = m[3] > m[2], m[7] > m[6]
		} else {
			kind, body = 's', s[m[10]:m[11]]
			trimBefore, trimAfter = m[9] > m[8], m[13] > m[12]
		}
		if trimBefore {
			text = strings.TrimRight(text, " \t\r\n")
		}
		if text != "" {
			toks = append(toks, stmtTok{'t', text})
		}
		toks = append(toks, stmtTok{kind, strings.TrimSpace(body)})
		trimNext = trimAfter
		last = m[1]
	}
	text := s[last:]
	if trimNext {
		text = strings.TrimLeft(text, " \t\r\n")
	}
	if text != "" {
		toks = append(toks, stmtTok{'t', text})
	}
	return toks, nil
}

// renderStmts renders toks from i until an elif/else/endif at this level (returned
// unconsumed) or the end; emit false evaluates nothing (a branch not taken).
func renderStmts(toks []stmtTok, i int, lookup Lookup, depth int, b *strings.Builder, emit bool) (int, error) {
	for i < len(toks) {
		t := toks[i]
		switch t.kind {
		case 't':
			if emit {
				b.WriteString(t.s)
			}
			i++
		case 'e':
			if emit {
				v, err := evalDepth(t.s, lookup, depth+1)
				if err != nil {
					return i, err
				}
				b.WriteString(pyStrOf(v))
			}
			i++
		case 's':
			word, rest, _ := strings.Cut(t.s, " ")
			switch word {
			case "elif", "else", "endif":
				return i, nil
			case "if":
			default:
				return i, ErrUnknown
			}
			// if / elif ... / else / endif: the first true branch is rendered.
			taken := false
			cond := strings.TrimSpace(rest)
			i++
			for {
				take := false
				if emit && !taken {
					if cond == "" {
						take = true // else
					} else {
						v, err := evalDepth(cond, lookup, depth+1)
						if err != nil {
							return i, err
						}
						take = Truthy(v)
					}
				}
				var err error
				if i, err = renderStmts(toks, i, lookup, depth, b, take); err != nil {
					return i, err
				}
				taken = taken || take
				if i >= len(toks) {
					return i, ErrUnknown // no endif
				}
				w, r, _ := strings.Cut(toks[i].s, " ")
				i++
				switch w {
				case "endif":
				case "elif":
					cond = strings.TrimSpace(r)
					continue
				case "else":
					cond = ""
					continue
				}
				break
			}
		}
	}
	return i, nil
}
