package values

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The --set parser, written from Helm's pkg/strvals/parser.go (v3.20.2; v4.1.4 differs
// only in error wrapping): keys run to '=', '[', ',' or '.'; every backslash escapes the
// next character; `{a,b}` is a list; `k[i]` indexes a list (growing it with nulls);
// `a.b` over a value that is not a map (a scalar, a list or null) fails — Helm's type
// assertion panics and the parser reports it. Values typed by --set: true/false (any case)
// booleans, null deletes, 0 and integers without a leading zero int64, anything else a
// string; --set-string keeps the string.

const (
	maxIndex       = 65536
	maxNestedLevel = 30
)

var errNotList = errors.New("not a list")

type setParser struct {
	rs  []rune
	i   int
	str bool
	t   *tracker
	src Source
}

func (s *setParser) read() (rune, bool) {
	if s.i >= len(s.rs) {
		return 0, false
	}
	r := s.rs[s.i]
	s.i++
	return r, true
}

func (s *setParser) unread() { s.i-- }

// until reads up to a stop rune, unescaping; ok is false at the end of input.
func (s *setParser) until(stop string) ([]rune, rune, bool) {
	var v []rune
	for {
		r, ok := s.read()
		if !ok {
			return v, 0, false
		}
		if strings.ContainsRune(stop, r) {
			return v, r, true
		}
		if r == '\\' {
			n, ok := s.read()
			if !ok {
				return v, 0, false
			}
			v = append(v, n)
			continue
		}
		v = append(v, r)
	}
}

func (s *setParser) typed(v []rune) any {
	val := string(v)
	if s.str {
		return val
	}
	switch {
	case strings.EqualFold(val, "true"):
		return true
	case strings.EqualFold(val, "false"):
		return false
	case strings.EqualFold(val, "null"):
		return nil
	case val == "0":
		return int64(0)
	}
	if len(val) != 0 && val[0] != '0' {
		if n, err := strconv.ParseInt(val, 10, 64); err == nil {
			return n
		}
	}
	return val
}

func parseSet(arg string, data map[string]any, str bool, t *tracker, src Source) error {
	s := &setParser{rs: []rune(arg), str: str, t: t, src: src}
	for {
		err := s.key(data, "", 0)
		if err == nil {
			continue
		}
		if err == io.EOF {
			return nil
		}
		return err
	}
}

func (s *setParser) set(data map[string]any, p, key string, v any) {
	if key == "" {
		return
	}
	data[key] = v
	s.t.replace(JoinPath(p, key), v, s.src)
}

func (s *setParser) key(data map[string]any, p string, level int) error {
	for {
		k, last, ok := s.until("=[,.")
		key := string(k)
		switch {
		case !ok:
			if len(k) == 0 {
				return io.EOF
			}
			return fmt.Errorf("key %q has no value", key)
		case last == '[':
			idx, err := s.index()
			if err != nil {
				return fmt.Errorf("error parsing index: %w", err)
			}
			list := []any{}
			if cur, ok := data[key]; ok {
				l, isList := cur.([]any)
				if !isList {
					return fmt.Errorf("unable to parse key: interface conversion: interface {} is %s, not []interface {}", goType(cur))
				}
				list = l
			}
			list, err = s.listItem(list, idx, level)
			s.set(data, p, key, list)
			return err
		case last == '=':
			vl, err := s.valList()
			switch err {
			case nil:
				s.set(data, p, key, vl)
				return nil
			case io.EOF:
				s.set(data, p, key, "")
				return io.EOF
			case errNotList:
				// Helm returns the reader's error here, nil even at the end of the input.
				v, _, _ := s.until(",")
				s.set(data, p, key, s.typed(v))
				return nil
			default:
				return err
			}
		case last == ',':
			s.set(data, p, key, "")
			return fmt.Errorf("key %q has no value (cannot end with ,)", key)
		case last == '.':
			level++
			if level > maxNestedLevel {
				return fmt.Errorf("value name nested level is greater than maximum supported nested level of %d", maxNestedLevel)
			}
			inner := map[string]any{}
			if cur, ok := data[key]; ok {
				m, isMap := cur.(map[string]any)
				if !isMap {
					return fmt.Errorf("unable to parse key: interface conversion: interface {} is %s, not map[string]interface {}", goType(cur))
				}
				inner = m
			}
			err := s.key(inner, JoinPath(p, key), level)
			if err == nil && len(inner) == 0 {
				return fmt.Errorf("key map %q has no value", key)
			}
			if len(inner) != 0 && key != "" {
				data[key] = inner
			}
			return err
		}
	}
}

func goType(v any) string {
	switch v.(type) {
	case nil:
		return "nil"
	case string:
		return "string"
	case bool:
		return "bool"
	case float64:
		return "float64"
	case int64:
		return "int64"
	case []any:
		return "[]interface {}"
	case map[string]any:
		return "map[string]interface {}"
	}
	return fmt.Sprintf("%T", v)
}

// strconv.Atoi of everything up to ']'.
func (s *setParser) index() (int, error) {
	v, _, ok := s.until("]")
	if !ok {
		return 0, io.EOF
	}
	return strconv.Atoi(string(v))
}

func setIndex(list []any, i int, v any) ([]any, error) {
	if i < 0 {
		return list, fmt.Errorf("negative %d index not allowed", i)
	}
	if i > maxIndex {
		return list, fmt.Errorf("index of %d is greater than maximum supported index of %d", i, maxIndex)
	}
	if len(list) <= i {
		n := make([]any, i+1)
		copy(n, list)
		list = n
	}
	list[i] = v
	return list, nil
}

func (s *setParser) listItem(list []any, i, level int) ([]any, error) {
	if i < 0 {
		return list, fmt.Errorf("negative %d index not allowed", i)
	}
	k, last, ok := s.until("[.=")
	switch {
	case len(k) > 0:
		return list, fmt.Errorf("unexpected data at end of array index: %q", string(k))
	case !ok:
		return list, io.EOF
	case last == '=':
		vl, err := s.valList()
		switch err {
		case nil:
			return setIndex(list, i, vl)
		case io.EOF:
			return setIndex(list, i, "")
		case errNotList:
			v, _, _ := s.until(",")
			return setIndex(list, i, s.typed(v))
		default:
			return list, err
		}
	case last == '[':
		next, err := s.index()
		if err != nil {
			return list, fmt.Errorf("error parsing index: %w", err)
		}
		var cur []any
		if len(list) > i && list[i] != nil {
			l, isList := list[i].([]any)
			if !isList {
				return list, fmt.Errorf("unable to parse key: interface conversion: interface {} is %s, not []interface {}", goType(list[i]))
			}
			cur = l
		}
		l2, err := s.listItem(cur, next, level)
		if err != nil {
			return list, err
		}
		return setIndex(list, i, l2)
	default: // '.'
		inner := map[string]any{}
		if len(list) > i {
			m, isMap := list[i].(map[string]any)
			if !isMap {
				m = map[string]any{}
				list[i] = m
			}
			inner = m
		}
		// Values set inside a list element are part of the list leaf.
		sub := &tracker{owner: map[string]*Assignment{}, hist: map[string][]*Assignment{}}
		saved := s.t
		s.t = sub
		err := s.key(inner, "", level)
		s.t = saved
		if err != nil {
			return list, err
		}
		return setIndex(list, i, inner)
	}
}

// valList reads `{a,b}`; errNotList when the value does not start with '{'.
func (s *setParser) valList() ([]any, error) {
	r, ok := s.read()
	if !ok {
		return []any{}, io.EOF
	}
	if r != '{' {
		s.unread()
		return []any{}, errNotList
	}
	list := []any{}
	for {
		rs, last, ok := s.until(",}")
		if !ok {
			return list, errors.New("list must terminate with '}'")
		}
		if last == '}' {
			if r, ok := s.read(); ok && r != ',' {
				s.unread()
			}
			return append(list, s.typed(rs)), nil
		}
		list = append(list, s.typed(rs))
	}
}
