package ansible

import (
	"strings"
	"testing"
)

// TestPlainScalarPyYAML pins PyYAML 6.0's typing of plain scalars (checked with
// python3 -c 'import yaml; yaml.safe_load(...)' on Debian 12).
func TestPlainScalarPyYAML(t *testing.T) {
	cases := []struct{ name, in, want, typ string }{
		{"octal", "0644", "420", "int"},
		{"yes", "yes", "true", "bool"},
		{"y is a string", "y", `"y"`, "str"},
		{"on", "on", "true", "bool"},
		{"underscore", "1_000", "1000", "int"},
		{"exponent without dot is a string", "1e3", `"1e3"`, "str"},
		{"exponent with sign", "1.5e+3", "1500.0", "float"},
		{"exponent without sign", "1.0e3", `"1.0e3"`, "str"},
		{"date", "2001-01-01", `"2001-01-01"`, "date"},
		{"datetime", "2001-1-1 1:02:03", `"2001-01-01T01:02:03"`, "datetime"},
		{"sexagesimal", "1:30", "90", "int"},
		{"hex", "0x1F", "31", "int"},
		{"binary", "0b11", "3", "int"},
		{"leading dot", ".5", "0.5", "float"},
		{"08 is not octal", "08", `"08"`, "str"},
		{"0o17 is a string", "0o17", `"0o17"`, "str"},
		{"NO", "NO", "false", "bool"},
		{"tilde", "~", "null", "NoneType"},
		{"minus zero", "-0", "0", "int"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es, err := LoadVarsYAML("f.yml", []byte("v: "+c.in+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if got := PyJSON(es[0].Value); got != c.want {
				t.Errorf("%s: value %s, want %s", c.in, got, c.want)
			}
			if got := TypeName(es[0].Value); got != c.typ {
				t.Errorf("%s: type %s, want %s", c.in, got, c.typ)
			}
		})
	}
}

// TestDuplicateKeys: PyYAML (through AnsibleConstructor) warns about a repeated key and
// keeps the last value; yaml.v3 would refuse such a document when decoding into a map, so
// the loader reads nodes. Both assignments stay in the history; the later one wins.
func TestDuplicateKeys(t *testing.T) {
	es, err := LoadVarsYAML("f.yml", []byte("a: 1\na: 2\nb: {x: 1, x: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name+"="+PyJSON(e.Value)+"@"+e.Pos.String())
	}
	want := []string{"a=1@f.yml:1:1", "a=2@f.yml:2:1", `b={"x": 2}@f.yml:3:1`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
