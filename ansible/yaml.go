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
// The first-character tables of the resolver are implied by the regexps.
func plainScalar(s string) any {
	switch {
	case reNull.MatchString(s):
		return nil
	case reBool.MatchString(s):
		l := strings.ToLower(s)
		return l == "yes" || l == "true" || l == "on"
	case reInt.MatchString(s):
		return yamlInt(s)
	case reFloat.MatchString(s):
		return yamlFloat(s)
	case reTS.MatchString(s):
		if d, ok := yamlTimestamp(s); ok {
			return d
		}
	}
	return s
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
}

// LoadVarsYAML reads a vars file (YAML or JSON) as Ansible's DataLoader.load_from_file
// does, returning its top-level keys in file order. An empty file (or one holding only
// null) gives no entries; a file whose top level is not a mapping is an error.
func LoadVarsYAML(file string, data []byte) ([]Entry, error) {
	root, err := parseYAMLNode(file, data)
	if err != nil || root == nil {
		return nil, err
	}
	if root.Kind == yaml.ScalarNode && root.Tag != "!!str" && reNull.MatchString(root.Value) && root.Style == 0 {
		return nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: root.Line, Column: root.Column},
			Msg: "expected a mapping of variable names to values (ansible: vars file must be a dictionary)"}
	}
	return mappingEntries(file, root)
}

func mappingEntries(file string, n *yaml.Node) ([]Entry, error) {
	var out []Entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "<<" && k.Tag == "!!merge" {
			mv, err := nodeValue(file, v)
			if err != nil {
				return nil, err
			}
			if m, ok := mv.(*Map); ok {
				for _, it := range m.Items {
					out = append(out, Entry{Name: pyStr(it.Key), Value: it.Value, Pos: diag.Position{File: file, Line: k.Line, Column: k.Column}})
				}
			}
			continue
		}
		kv, err := nodeValue(file, k)
		if err != nil {
			return nil, err
		}
		val, err := nodeValue(file, v)
		if err != nil {
			return nil, err
		}
		e := Entry{Name: pyStr(kv), Value: val, Pos: diag.Position{File: file, Line: k.Line, Column: k.Column}}
		if r := resolveAlias(v); r.Kind == yaml.ScalarNode {
			e.Raw = r.Value
		}
		out = append(out, e)
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

// nodeValue converts a node into a Python-typed value as AnsibleLoader constructs it.
func nodeValue(file string, n *yaml.Node) (any, error) {
	return nodeValueDepth(file, n, 0)
}

func nodeValueDepth(file string, n *yaml.Node, depth int) (any, error) {
	if depth > 200 {
		return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: n.Line, Column: n.Column}, Msg: "YAML nested too deeply"}
	}
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValueDepth(file, c, depth+1)
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
				mv, err := nodeValueDepth(file, v, depth+1)
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
			kv, err := nodeValueDepth(file, k, depth+1)
			if err != nil {
				return nil, err
			}
			vv, err := nodeValueDepth(file, v, depth+1)
			if err != nil {
				return nil, err
			}
			m.Set(kv, vv)
		}
		return m, nil
	}
	return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: n.Line, Column: n.Column}, Msg: fmt.Sprintf("unsupported YAML node kind %v", n.Kind)}
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
