package ansible

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/yamlalias"
	"github.com/k3sconf/k3sconf/output"
)

// PyYAML's implicit resolvers for YAML 1.1 (yaml/resolver.py, PyYAML 6.0 as Debian 12
// ships it, which Ansible's AnsibleLoader uses unchanged). A plain scalar is tried against
// these; anything else is a string.
var (
	reBool    = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	reFloat   = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	reInt     = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	reNull    = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reTS      = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	reTSParts = regexp.MustCompile(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$`)
)

// plainScalar types a plain (unquoted) scalar as PyYAML's resolver and SafeConstructor do.
// The first-character tables of the resolver are implied by the regexps. Most scalars of
// a playbook are names, paths and templates that no resolver can match: the checks below,
// the regexps' own necessary conditions (isNull, isBool; a number starts with a sign, a
// digit or a dot; a timestamp with four digits and a dash) answer them without running
// a regexp, which was a twentieth of explain's CPU time on kubespray (issue 28).
func plainScalar(s string) any {
	switch {
	case isNull(s):
		return nil
	case isBool(s):
		l := strings.ToLower(s)
		return l == "yes" || l == "true" || l == "on"
	case mayBeNumber(s) && reInt.MatchString(s):
		return yamlInt(s)
	case mayBeNumber(s) && reFloat.MatchString(s):
		return yamlFloat(s)
	case mayBeTimestamp(s) && reTS.MatchString(s):
		if d, ok := yamlTimestamp(s); ok {
			return d
		}
	}
	return s
}

// isNull is reNull.MatchString(s).
func isNull(s string) bool {
	switch s {
	case "~", "null", "Null", "NULL", "":
		return true
	}
	return false
}

// isBool is reBool.MatchString(s).
func isBool(s string) bool {
	switch s {
	case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// mayBeNumber: every match of reInt and reFloat starts with a sign, a digit or a dot.
func mayBeNumber(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == '-' || c == '+' || c == '.':
		return true
	default:
		return c >= '0' && c <= '9'
	}
}

// mayBeTimestamp: every match of reTS starts with four digits and a dash.
func mayBeTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlInt is SafeConstructor.construct_yaml_int: underscores dropped, a sign, 0b, 0x, a
// leading 0 for octal, and base-60 "1:30".
func yamlInt(s string) any {
	v := strings.ReplaceAll(s, "_", "")
	sign := int64(1)
	if strings.HasPrefix(v, "-") {
		sign = -1
	}
	v = strings.TrimLeft(v, "+-")
	n := new(big.Int)
	switch {
	case v == "0":
		return int64(0)
	case strings.HasPrefix(v, "0b"):
		n.SetString(v[2:], 2)
	case strings.HasPrefix(v, "0x"):
		n.SetString(v[2:], 16)
	case strings.HasPrefix(v, "0"):
		n.SetString(v[1:], 8)
	case strings.Contains(v, ":"):
		for _, d := range strings.Split(v, ":") {
			x, _ := strconv.ParseInt(d, 10, 64)
			n.Mul(n, big.NewInt(60))
			n.Add(n, big.NewInt(x))
		}
	default:
		n.SetString(v, 10)
	}
	if sign < 0 {
		n.Neg(n)
	}
	return bigOrInt(n)
}

func bigOrInt(n *big.Int) any {
	if n.IsInt64() {
		return n.Int64()
	}
	return n
}

// yamlFloat is SafeConstructor.construct_yaml_float.
func yamlFloat(s string) any {
	v := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if strings.HasPrefix(v, "-") {
		sign = -1
	}
	v = strings.TrimLeft(v, "+-")
	switch {
	case v == ".inf":
		return sign * math.Inf(1)
	case v == ".nan":
		return math.NaN()
	case strings.Contains(v, ":"):
		parts := strings.Split(v, ":")
		f := 0.0
		for _, p := range parts {
			x, _ := strconv.ParseFloat(p, 64)
			f = f*60 + x
		}
		return sign * f
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return s
	}
	return sign * f
}

func yamlTimestamp(s string) (Date, bool) {
	m := reTSParts.FindStringSubmatch(s)
	if m == nil {
		return Date{}, false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if m[4] == "" {
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
		if t.Day() != d || int(t.Month()) != mo {
			return Date{}, false
		}
		return Date{T: t}, true
	}
	h, _ := strconv.Atoi(m[4])
	mi, _ := strconv.Atoi(m[5])
	se, _ := strconv.Atoi(m[6])
	us := 0
	if m[7] != "" {
		frac := (m[7] + "000000")[:6]
		us, _ = strconv.Atoi(frac)
	}
	loc := time.UTC
	offset := false
	if m[8] != "" {
		offset = true
		if m[8] != "Z" {
			oh, _ := strconv.Atoi(m[10])
			om, _ := strconv.Atoi(m[11])
			secs := oh*3600 + om*60
			if m[9] == "-" {
				secs = -secs
			}
			loc = time.FixedZone("", secs)
		}
	}
	return Date{T: time.Date(y, time.Month(mo), d, h, mi, se, us*1000, loc), Time: true, Offset: offset}, true
}

// Entry is one top-level key of a vars file (or of an inventory's vars mapping) with its
// value and where the key is written.
type Entry struct {
	Name  string
	Value any
	// Raw is the scalar as written, for scalars.
	Raw string
	Pos diag.Position
	// SecretCopy: the value is (or holds) a YAML alias of an anchor under a secret key of
	// the same mapping or below it (internal/yamlalias), a secret whatever it spells.
	SecretCopy bool
}

// LoadVarsYAML reads a vars file (YAML or JSON) as Ansible's DataLoader.load_from_file
// does, returning its top-level keys in file order. An empty file (or one holding only
// null) gives no entries; a file whose top level is not a mapping is an error. A variable
// whose value k3sconf will not expand (a [LimitError]) is left out; the others are returned
// with the first such error.
func LoadVarsYAML(file string, data []byte) ([]Entry, error) {
	if es, ok := fastVars(file, data); ok {
		return es, nil
	}
	return loadVarsYAMLv3(file, data)
}

// loadVarsYAMLv3 is LoadVarsYAML through yaml.v3's node parse: every file fastVars
// declines.
func loadVarsYAMLv3(file string, data []byte) ([]Entry, error) {
	root, err := parseYAMLNode(file, data)
	if err != nil || root == nil {
		return nil, err
	}
	if root.Kind == yaml.ScalarNode && root.Tag != "!!str" && isNull(root.Value) && root.Style == 0 {
		return nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: root.Line, Column: root.Column},
			Msg: "expected a mapping of variable names to values (ansible: vars file must be a dictionary)"}
	}
	return mappingEntries(file, root)
}

// LimitError is a value k3sconf does not expand: YAML aliases that would multiply into more
// values than yaml.v2 allows (the rule of [yamlalias.Budget], the one k3s's own YAML reader
// applies), or an alias inside the value it names. It is k3sconf's limit, not Ansible's:
// PyYAML shares an aliased value instead of copying it, so ansible-playbook loads such a
// file (checked with ansible-core 2.14.18: a 478-byte file of ten anchors, each nine aliases
// to the one before, loads in 1.1 s and 57 MB; `ansible-inventory --host` renders the
// expansion and does not end in 60 s). The report is incomplete (exit 3).
type LimitError struct {
	Pos diag.Position
	Msg string
	// Names are the variables left out (the first is the one Pos and Msg are about), At
	// where each is set.
	Names []string
	At    []diag.Position
}

func (e *LimitError) Error() string {
	return e.Pos.String() + ": " + e.message()
}

// message is Msg with the variables left out after the first.
func (e *LimitError) message() string {
	if len(e.Names) > 1 {
		return e.Msg + fmt.Sprintf(" (and %d more variables of the file: %s)", len(e.Names)-1, strings.Join(e.Names[1:], ", "))
	}
	return e.Msg
}

// mappingEntries reads a mapping's keys as variables. Each variable's value is expanded
// with its own alias budget; one over it is left out and reported as a [LimitError] (the
// first, with a count of the rest), the others are read.
func mappingEntries(file string, n *yaml.Node) ([]Entry, error) {
	var out []Entry
	anchors := yamlalias.SecretAnchors(n, output.SecretName)
	var limit *LimitError
	// skip records a variable left out: the finding is at its key, naming it.
	skip := func(err error, k *yaml.Node) bool {
		le, ok := err.(*LimitError)
		if !ok {
			return false
		}
		if limit == nil {
			limit = &LimitError{Pos: diag.Position{File: file, Line: k.Line, Column: k.Column},
				Msg: fmt.Sprintf("%s: %s (at %d:%d)", k.Value, le.Msg, le.Pos.Line, le.Pos.Column)}
		}
		limit.Names = append(limit.Names, k.Value)
		limit.At = append(limit.At, diag.Position{File: file, Line: k.Line, Column: k.Column})
		return true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "<<" && k.Tag == "!!merge" {
			mv, err := newLoader(file).value(v, 0)
			if skip(err, k) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if m, ok := mv.(*Map); ok {
				// Keys merged from an anchor under a secret key copy the secret.
				copied := yamlalias.CopiesSecret(v, anchors)
				for _, it := range m.Items {
					out = append(out, Entry{Name: pyStr(it.Key), Value: it.Value, Pos: diag.Position{File: file, Line: k.Line, Column: k.Column}, SecretCopy: copied})
				}
			}
			continue
		}
		l := newLoader(file)
		kv, err := l.value(k, 0)
		if err == nil {
			var val any
			if val, err = l.value(v, 0); err == nil {
				e := Entry{Name: pyStr(kv), Value: val, Pos: diag.Position{File: file, Line: k.Line, Column: k.Column},
					SecretCopy: yamlalias.CopiesSecret(v, anchors)}
				if r := resolveAlias(v); r.Kind == yaml.ScalarNode {
					e.Raw = r.Value
				}
				out = append(out, e)
				continue
			}
		}
		if !skip(err, k) {
			return nil, err
		}
	}
	if limit != nil {
		return out, limit
	}
	return out, nil
}

// pyStr is str(key) for a dict key used as a variable name.
func pyStr(k any) string {
	if s, ok := k.(string); ok {
		return s
	}
	if d, ok := k.(Date); ok {
		return d.ISO()
	}
	return Repr(k)
}

func parseYAMLNode(file string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, nil
		}
		return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: yamlErrLine(err)}, Msg: "YAML: " + err.Error(), Err: err}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

var reYAMLLine = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	if m := reYAMLLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// loader converts the nodes of one value into Python-typed values as AnsibleLoader
// constructs them, counting alias expansions with yaml.v2's budget.
type loader struct {
	file   string
	budget yamlalias.Budget
	// open are the aliases being expanded: one met again names a value that contains itself.
	open map[*yaml.Node]bool
}

func newLoader(file string) *loader { return &loader{file: file} }

func (l *loader) pos(n *yaml.Node) diag.Position {
	return diag.Position{File: l.file, Line: n.Line, Column: n.Column}
}

func (l *loader) value(n *yaml.Node, depth int) (any, error) {
	if depth > 200 {
		return nil, &diag.ParseError{Pos: l.pos(n), Msg: "YAML nested too deeply"}
	}
	if l.budget.Step() {
		return nil, &LimitError{Pos: l.pos(n), Msg: "k3sconf does not expand this value: its YAML aliases multiply (" + yamlalias.Excessive + ", the limit k3s's YAML reader applies)"}
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		if l.open[n] {
			return nil, &LimitError{Pos: l.pos(n), Msg: fmt.Sprintf("k3sconf does not expand this value: alias *%s is inside the value it names (PyYAML builds a recursive value)", n.Value)}
		}
		if l.open == nil {
			l.open = map[*yaml.Node]bool{}
		}
		l.open[n] = true
		l.budget.Enter()
		v, err := l.value(n.Alias, depth)
		l.budget.Leave()
		delete(l.open, n)
		return v, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := l.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		m := &Map{}
		// Merge keys first (PyYAML flatten_mapping puts merged items before own items).
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				mv, err := l.value(v, depth+1)
				if err != nil {
					return nil, err
				}
				switch x := mv.(type) {
				case *Map:
					for _, it := range x.Items {
						m.Set(it.Key, it.Value)
					}
				case []any:
					// Earlier maps in the list win: apply in reverse.
					for j := len(x) - 1; j >= 0; j-- {
						if mm, ok := x[j].(*Map); ok {
							for _, it := range mm.Items {
								m.Set(it.Key, it.Value)
							}
						}
					}
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				continue
			}
			kv, err := l.value(k, depth+1)
			if err != nil {
				return nil, err
			}
			vv, err := l.value(v, depth+1)
			if err != nil {
				return nil, err
			}
			m.Set(kv, vv)
		}
		return m, nil
	}
	return nil, &diag.ParseError{Pos: l.pos(n), Msg: fmt.Sprintf("unsupported YAML node kind %v", n.Kind)}
}

func scalarValue(n *yaml.Node) any {
	switch n.Tag {
	case "!unsafe":
		return n.Value
	case "!vault", "!vault-encrypted":
		return "<vaulted>"
	case "!!str", "!!binary":
		if n.Style&yaml.TaggedStyle != 0 {
			return n.Value
		}
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value
	}
	// An explicit tag (!!int "1") is rare in vars files; yaml.v3 reports the resolved tag for
	// plain scalars, so only the plain text decides, as in PyYAML.
	if strings.HasPrefix(n.Tag, "!!") && n.Style&yaml.TaggedStyle != 0 {
		switch n.Tag {
		case "!!int":
			if reInt.MatchString(n.Value) {
				return yamlInt(n.Value)
			}
		case "!!float":
			if reFloat.MatchString(n.Value) || reInt.MatchString(n.Value) {
				return yamlFloat(n.Value)
			}
		case "!!bool":
			return plainScalar(n.Value)
		case "!!null":
			return nil
		}
		return n.Value
	}
	return plainScalar(n.Value)
}
