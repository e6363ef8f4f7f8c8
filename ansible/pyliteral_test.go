package ansible

import "testing"

// TestPyLiteral pins ast.literal_eval as Python 3.11 gives it (what ansible's INI parser
// uses), checked with python3 on Debian 12.
func TestPyLiteral(t *testing.T) {
	cases := []struct{ name, in, want, typ string }{
		{"lowercase false stays a string", "false", `"false"`, "str"},
		{"True", "True", "true", "bool"},
		{"int", "1", "1", "int"},
		{"underscore int", "1_000", "1000", "int"},
		{"octal with leading zero is a syntax error", "0644", `"0644"`, "str"},
		{"0o", "0o644", "420", "int"},
		{"exponent", "1e3", "1000.0", "float"},
		{"quoted", "'a b'", `"a b"`, "str"},
		{"list", "[1, 'x']", `[1, "x"]`, "list"},
		{"dict", "{'a': 1}", `{"a": 1}`, "dict"},
		{"tuple", "1, 2", "[1, 2]", "list"},
		{"comment", "1 # c", "1", "int"},
		{"None", "None", "null", "NoneType"},
		{"negative", "-5", "-5", "int"},
		{"name", "yes", `"yes"`, "str"},
		{"version", "1.2.3", `"1.2.3"`, "str"},
		{"concat", "'a' 'b'", `"ab"`, "str"},
		{"empty", "", `""`, "str"},
		{"dup key", "{1: 'a', True: 'b'}", `{"1": "b"}`, "dict"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := PyLiteral(c.in)
			if got := PyJSON(v); got != c.want {
				t.Errorf("%q: %s, want %s", c.in, got, c.want)
			}
			if got := TypeName(v); got != c.typ {
				t.Errorf("%q: type %s, want %s", c.in, got, c.typ)
			}
		})
	}
}

// TestTupleIsListWhenTemplated keeps the first disagreement the differential test found:
// an INI value (1,2) is a Python tuple, but a task sees a list (type_debug: list).
func TestTupleIsListWhenTemplated(t *testing.T) {
	v := PyLiteral("(1,2)")
	if _, ok := v.(Tuple); !ok {
		t.Fatalf("(1,2) parsed as %T, want Tuple", v)
	}
	if got := TypeName(v); got != "list" {
		t.Errorf("type %s, want list", got)
	}
}
