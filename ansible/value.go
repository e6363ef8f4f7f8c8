package ansible

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// A value is what Python holds after Ansible loaded it: nil (None), bool, int64, *big.Int
// (an int beyond 64 bits), float64, string, Date, []any (list), Tuple, *Map (dict).

// Tuple is a Python tuple (an INI value such as (1, 2)); to_json renders it as a list.
type Tuple []any

// Date is a YAML 1.1 timestamp: a datetime.date, or a datetime.datetime when Time is set.
type Date struct {
	T    time.Time
	Time bool
	// Offset is true when the timestamp had a time zone (Python: an aware datetime).
	Offset bool
}

// MapItem is one key of a dict, in the order written.
type MapItem struct {
	Key   any
	Value any
}

// Map is a Python dict: insertion order, a later assignment of a key replaces the value in
// place (the key keeps its first position).
type Map struct {
	Items []MapItem
}

// Set assigns key, keeping the first position of an existing key as a Python dict does.
func (m *Map) Set(k, v any) {
	for i := range m.Items {
		if pyEqualKey(m.Items[i].Key, k) {
			m.Items[i].Value = v
			return
		}
	}
	m.Items = append(m.Items, MapItem{k, v})
}

// Get returns the value of key k.
func (m *Map) Get(k any) (any, bool) {
	for _, it := range m.Items {
		if pyEqualKey(it.Key, k) {
			return it.Value, true
		}
	}
	return nil, false
}

// pyEqualKey compares dict keys as Python does for the types a loader produces
// (True == 1, 1 == 1.0).
func pyEqualKey(a, b any) bool {
	// Most keys are strings: equal only to the same string (the rule below says so too,
	// without formatting both).
	if as, ok := a.(string); ok {
		bs, ok := b.(string)
		return ok && as == bs
	}
	if _, ok := b.(string); ok {
		return false
	}
	na, oka := numeric(a)
	nb, okb := numeric(b)
	if oka && okb {
		return na == nb
	}
	return fmt.Sprintf("%T:%v", a, a) == fmt.Sprintf("%T:%v", b, b)
}

func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// TypeName is the Python type name of a value as Ansible's type_debug filter reports it,
// with Ansible's YAML subclasses folded in (AnsibleUnicode is "str", AnsibleMapping
// "dict", AnsibleSequence "list").
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case Tuple:
		// A tuple (an INI value such as (1, 2)) is a list by the time a task sees it:
		// Templar.template rebuilds every sequence as a list (found by the differential
		// test, TestTupleIsListWhenTemplated).
		return "list"
	case *Map:
		return "dict"
	case Date:
		if x.Time {
			return "datetime"
		}
		return "date"
	case complexValue:
		return "complex"
	case bytesValue:
		return "bytes"
	case setValue:
		return "set"
	}
	return fmt.Sprintf("%T", v)
}

// complexValue, bytesValue and setValue are Python literals an INI value can hold that
// JSON cannot render (ansible's to_json fails on them); they are kept as written.
type complexValue string
type bytesValue string
type setValue string

// JSONable reports whether Python's json.dumps (with Ansible's encoder) can render v.
func JSONable(v any) bool {
	switch x := v.(type) {
	case complexValue, bytesValue, setValue:
		return false
	case []any:
		for _, e := range x {
			if !JSONable(e) {
				return false
			}
		}
	case Tuple:
		for _, e := range x {
			if !JSONable(e) {
				return false
			}
		}
	case *Map:
		for _, it := range x.Items {
			switch it.Key.(type) {
			case nil, bool, int64, *big.Int, float64, string:
			default:
				return false
			}
			if !JSONable(it.Value) {
				return false
			}
		}
	}
	return true
}

// PyJSON renders v exactly as Python's json.dumps does with Ansible's encoder and default
// settings (ensure_ascii, ", " and ": " separators, float repr, dates as isoformat). It is
// what `{{ v | to_json }}` prints, which the differential tests compare byte for byte.
func PyJSON(v any) string {
	var b strings.Builder
	writePyJSON(&b, v)
	return b.String()
}

func writePyJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		b.WriteString(pyFloatJSON(x))
	case string:
		writePyString(b, x)
	case Date:
		writePyString(b, x.ISO())
	case []any:
		writePyList(b, x)
	case Tuple:
		writePyList(b, x)
	case *Map:
		b.WriteByte('{')
		for i, it := range x.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyString(b, pyJSONKey(it.Key))
			b.WriteString(": ")
			writePyJSON(b, it.Value)
		}
		b.WriteByte('}')
	default:
		writePyString(b, Repr(v))
	}
}

func writePyList(b *strings.Builder, x []any) {
	b.WriteByte('[')
	for i, e := range x {
		if i > 0 {
			b.WriteString(", ")
		}
		writePyJSON(b, e)
	}
	b.WriteByte(']')
}

// pyJSONKey is how json.dumps turns a non-string dict key into a string.
func pyJSONKey(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		return pyFloatJSON(x)
	}
	return Repr(k)
}

func writePyString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r > 0x7e {
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(b, `\u%04x`, r)
				}
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// pyFloatJSON is float.__repr__ as json.dumps writes it (Infinity, NaN for the specials).
func pyFloatJSON(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	return pyFloatRepr(f)
}

// pyFloatRepr is Python's repr(float): the shortest round-trip digits, positional when
// the decimal exponent is in [-4, 16), scientific otherwise.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp >= -4 && exp < 16 {
		if exp >= 0 {
			if len(digits) <= exp+1 {
				out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
			} else {
				out = digits[:exp+1] + "." + digits[exp+1:]
			}
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		out = fmt.Sprintf("%se%s%02d", m, sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// ISO is Python's date.isoformat / datetime.isoformat.
func (d Date) ISO() string {
	if !d.Time {
		return d.T.Format("2006-01-02")
	}
	s := d.T.Format("2006-01-02T15:04:05")
	if us := d.T.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if d.Offset {
		_, off := d.T.Zone()
		sign := '+'
		if off < 0 {
			sign = '-'
			off = -off
		}
		s += fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
	}
	return s
}

// Repr renders a value as Python's repr does, for text output: 'a', True, None, [1, 'x'],
// {'k': 1}, datetime.date(2024, 1, 2).
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		b.WriteString(pyFloatRepr(x))
	case string:
		b.WriteString(pyStrRepr(x))
	case Date:
		if x.Time {
			fmt.Fprintf(b, "datetime.datetime(%s)", x.ISO())
		} else {
			fmt.Fprintf(b, "datetime.date(%d, %d, %d)", x.T.Year(), x.T.Month(), x.T.Day())
		}
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Map:
		b.WriteByte('{')
		for i, it := range x.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, it.Key)
			b.WriteString(": ")
			writeRepr(b, it.Value)
		}
		b.WriteByte('}')
	case complexValue:
		b.WriteString(string(x))
	case bytesValue:
		b.WriteString(string(x))
	case setValue:
		b.WriteString(string(x))
	default:
		fmt.Fprint(b, v)
	}
}

func pyStrRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// ToJSONValue converts a value to what encoding/json renders like Python's json.dumps
// (for k3sconf's own --json output): dates become ISO strings, tuples lists, dicts ordered
// maps rendered in key order by OrderedJSON.
func ToJSONValue(v any) any {
	switch x := v.(type) {
	case *big.Int:
		return x.String()
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return pyFloatJSON(x)
		}
		return x
	case Date:
		return x.ISO()
	case Tuple:
		return ToJSONValue([]any(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ToJSONValue(e)
		}
		return out
	case *Map:
		return orderedJSON{x}
	case complexValue, bytesValue, setValue:
		return Repr(x)
	}
	return v
}

// orderedJSON marshals a dict in its key order.
type orderedJSON struct{ m *Map }

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, it := range o.m.Items {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := jsonMarshal(pyJSONKey(it.Key))
		b.Write(k)
		b.WriteByte(':')
		v, err := jsonMarshal(ToJSONValue(it.Value))
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}
