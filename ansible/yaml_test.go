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

// TestResolverPrefilters checks that the checks plainScalar runs before the resolver's
// regexps never turn away a scalar a regexp matches (isNull and isBool are the regexps
// themselves), over every string of up to four characters from an alphabet of the
// characters the regexps name and the resolver's own examples, and that they do turn
// away names, templates and paths (the scalars they are there to skip).
func TestResolverPrefilters(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if reNull.MatchString(s) != isNull(s) {
			t.Errorf("%q: reNull %v, isNull %v", s, reNull.MatchString(s), isNull(s))
		}
		if reBool.MatchString(s) != isBool(s) {
			t.Errorf("%q: reBool %v, isBool %v", s, reBool.MatchString(s), isBool(s))
		}
		if (reInt.MatchString(s) || reFloat.MatchString(s)) && !mayBeNumber(s) {
			t.Errorf("%q: a number the prefilter turns away", s)
		}
		if reTS.MatchString(s) && !mayBeTimestamp(s) {
			t.Errorf("%q: a timestamp the prefilter turns away", s)
		}
	}
	alphabet := []string{"", "0", "1", "7", "9", "_", "-", "+", ".", ":", "e", "E", "x", "b", "a", "T", "Z", " ", "~", "n"}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, a := range alphabet[1:] {
			walk(prefix+a, n-1)
		}
	}
	walk("", 4)
	for _, s := range []string{
		"yes", "Yes", "YES", "no", "NO", "on", "Off", "true", "FALSE", "null", "Null", "NULL", "~",
		"0b1010_0111", "-0b1", "0o17", "017", "-0x_0A_74_AE", "685_230", "+685230", "190:20:30", "1:5:7",
		"6.8523015e+5", "685.230_15e+03", "685_230.15", ".5", "-.inf", "+.INF", ".NaN", "190:20:30.15",
		"2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-12-14", "2001-1-2 3:04:05Z",
		"2001-12-14\t21:59:43.10Z", "1234-5", "9999-99-99",
	} {
		check(s)
	}
	for _, s := range []string{"kube_version", "{{ bin_dir }}/kubelet", "/etc/kubernetes", "v1.31.4", "Yess", "abc-12-12", "x1"} {
		if isNull(s) || isBool(s) || mayBeNumber(s) || mayBeTimestamp(s) {
			t.Errorf("%q: the prefilters should turn it away", s)
		}
	}
	for _, s := range []string{"1.5", "-1", ".inf", "2001-12-14"} {
		if !mayBeNumber(s) && !mayBeTimestamp(s) {
			t.Errorf("%q: the prefilters should let it through", s)
		}
	}
}
