package sources

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/k3sconf/k3sconf/diag"
)

// renderArgs turns the entries of one file into k3s's "--key=value" args, as readConfigFile
// in k3s pkg/configfilearg/parser.go does (first-seen key order, "key+" appends).
func renderArgs(entries []ConfigEntry) []string {
	seen := map[string]bool{}
	var order []string
	values := map[string]any{}
	for _, e := range entries {
		if !seen[e.Key] {
			seen[e.Key] = true
			order = append(order, e.Key)
		}
		if old, ok := values[e.Key]; ok && e.Append {
			values[e.Key] = append(ToSlice(old), ToSlice(e.Value)...)
		} else {
			values[e.Key] = e.Value
		}
	}
	var args []string
	for _, k := range order {
		prefix := "--"
		if len(k) == 1 {
			prefix = "-"
		}
		if l, ok := values[k].([]any); ok {
			for _, v := range l {
				args = append(args, prefix+k+"="+ToString(v))
			}
			continue
		}
		args = append(args, prefix+k+"="+ToString(values[k]))
	}
	return args
}

// TestParseConfigMatchesYAMLv2 checks values and args against gopkg.in/yaml.v2 v2.4.0.
//
// The expectations were produced by running the real yaml.v2 v2.4.0 (yaml.Unmarshal into a
// yaml.MapSlice, as k3s does) on each input in a throwaway module outside this repository,
// and rendering the args with k3s's readConfigFile logic. wantValues is
// fmt.Sprintf("%T %#v") of each top-level value, with yaml.MapSlice/MapItem renamed to
// this package's types. wantErr says that yaml.v2 returned an error (fatal for k3s).
func TestParseConfigMatchesYAMLv2(t *testing.T) {
	tests := []struct {
		name, reason, in string
		wantErr          bool
		wantArgs         []string
		wantValues       []string
	}{
		{name: "write-kubeconfig-mode:_0644", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "write-kubeconfig-mode: 0644\n", wantErr: false, wantArgs: []string{"--write-kubeconfig-mode=420"}, wantValues: []string{"int 420"}},
		{name: "k:_644", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 644\n", wantErr: false, wantArgs: []string{"-k=644"}, wantValues: []string{"int 644"}},
		{name: "k:_0600", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 0600\n", wantErr: false, wantArgs: []string{"-k=384"}, wantValues: []string{"int 384"}},
		{name: "k:_\"0644\"", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: \"0644\"\n", wantErr: false, wantArgs: []string{"-k=0644"}, wantValues: []string{"string \"0644\""}},
		{name: "k:_0o644", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 0o644\n", wantErr: false, wantArgs: []string{"-k=420"}, wantValues: []string{"int 420"}},
		{name: "k:_0x1F", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 0x1F\n", wantErr: false, wantArgs: []string{"-k=31"}, wantValues: []string{"int 31"}},
		{name: "k:_0b101", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 0b101\n", wantErr: false, wantArgs: []string{"-k=5"}, wantValues: []string{"int 5"}},
		{name: "k:_1_000", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 1_000\n", wantErr: false, wantArgs: []string{"-k=1000"}, wantValues: []string{"int 1000"}},
		{name: "k:_12345678901234567890", reason: "k3s-semantics.md §1.6 table: integers in YAML 1.1 (leading 0 is octal)", in: "k: 12345678901234567890\n", wantErr: false, wantArgs: []string{"-k=12345678901234567890"}, wantValues: []string{"uint64 0xab54a98ceb1f0ad2"}},
		{name: "k:_yes", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: yes\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_y", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: y\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_on", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: on\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_True", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: True\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_no", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: no\n", wantErr: false, wantArgs: []string{"-k=false"}, wantValues: []string{"bool false"}},
		{name: "k:_n", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: n\n", wantErr: false, wantArgs: []string{"-k=false"}, wantValues: []string{"bool false"}},
		{name: "k:_Off", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: Off\n", wantErr: false, wantArgs: []string{"-k=false"}, wantValues: []string{"bool false"}},
		{name: "k:_YES", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: YES\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_yEs", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: yEs\n", wantErr: false, wantArgs: []string{"-k=yEs"}, wantValues: []string{"string \"yEs\""}},
		{name: "k:_Y", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: Y\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_N", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: N\n", wantErr: false, wantArgs: []string{"-k=false"}, wantValues: []string{"bool false"}},
		{name: "k:_FALSE", reason: "k3s-semantics.md §1.6/§8: YAML 1.1 booleans", in: "k: FALSE\n", wantErr: false, wantArgs: []string{"-k=false"}, wantValues: []string{"bool false"}},
		{name: "k:_null", reason: "null and empty values render as --key=", in: "k: null\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"<nil> <nil>"}},
		{name: "k:_~", reason: "null and empty values render as --key=", in: "k: ~\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"<nil> <nil>"}},
		{name: "k:", reason: "null and empty values render as --key=", in: "k:\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"<nil> <nil>"}},
		{name: "k:_NULL", reason: "null and empty values render as --key=", in: "k: NULL\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"<nil> <nil>"}},
		{name: "k:_nULL", reason: "null and empty values render as --key=", in: "k: nULL\n", wantErr: false, wantArgs: []string{"-k=nULL"}, wantValues: []string{"string \"nULL\""}},
		{name: "k:_\"\"", reason: "null and empty values render as --key=", in: "k: \"\"\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"string \"\""}},
		{name: "k:_''", reason: "null and empty values render as --key=", in: "k: ''\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"string \"\""}},
		{name: "k:_2001-12-14", reason: "timestamps stay strings when yaml.v2 decodes into interface{}", in: "k: 2001-12-14\n", wantErr: false, wantArgs: []string{"-k=2001-12-14"}, wantValues: []string{"string \"2001-12-14\""}},
		{name: "k:_2001-12-14T21:59:43.10-05:00", reason: "timestamps stay strings when yaml.v2 decodes into interface{}", in: "k: 2001-12-14T21:59:43.10-05:00\n", wantErr: false, wantArgs: []string{"-k=2001-12-14T21:59:43.10-05:00"}, wantValues: []string{"string \"2001-12-14T21:59:43.10-05:00\""}},
		{name: "k:_2001-12-14_21:59:43.10", reason: "timestamps stay strings when yaml.v2 decodes into interface{}", in: "k: 2001-12-14 21:59:43.10\n", wantErr: false, wantArgs: []string{"-k=2001-12-14 21:59:43.10"}, wantValues: []string{"string \"2001-12-14 21:59:43.10\""}},
		{name: "k:_2001-12-14_21:59:43.10_-5", reason: "timestamps stay strings when yaml.v2 decodes into interface{}", in: "k: 2001-12-14 21:59:43.10 -5\n", wantErr: false, wantArgs: []string{"-k=2001-12-14 21:59:43.10 -5"}, wantValues: []string{"string \"2001-12-14 21:59:43.10 -5\""}},
		{name: "k:_[a,_1,_yes,_null,_0644,_1.0]", reason: "lists emit one arg per element, rendered with ToString", in: "k: [a, 1, yes, null, 0644, 1.0]\n", wantErr: false, wantArgs: []string{"-k=a", "-k=1", "-k=true", "-k=", "-k=420", "-k=1"}, wantValues: []string{"[]interface {} []interface {}{\"a\", 1, true, interface {}(nil), 420, 1}"}},
		{name: "k:_[]", reason: "lists emit one arg per element, rendered with ToString", in: "k: []\n", wantErr: false, wantArgs: []string(nil), wantValues: []string{"[]interface {} []interface {}{}"}},
		{name: "k:_[null,_~,_'']", reason: "lists emit one arg per element, rendered with ToString", in: "k: [null, ~, '']\n", wantErr: false, wantArgs: []string{"-k=", "-k=", "-k="}, wantValues: []string{"[]interface {} []interface {}{interface {}(nil), interface {}(nil), \"\"}"}},
		{name: "a:_[[x,_y],_z]", reason: "lists emit one arg per element, rendered with ToString", in: "a: [[x, y], z]\n", wantErr: false, wantArgs: []string{"-a=x", "-a=z"}, wantValues: []string{"[]interface {} []interface {}{[]interface {}{\"x\", true}, \"z\"}"}},
		{name: "k:_[{a:_b}]", reason: "lists emit one arg per element, rendered with ToString", in: "k: [{a: b}]\n", wantErr: false, wantArgs: []string{"-k=[{a b}]"}, wantValues: []string{"[]interface {} []interface {}{sources.MapSlice{sources.MapItem{Key:\"a\", Value:\"b\"}}}"}},
		{name: "list:|-_a|-_b:_c|-_[x]|-_~", reason: "lists emit one arg per element, rendered with ToString", in: "list:\n- a\n- b: c\n- [x]\n- ~\n", wantErr: false, wantArgs: []string{"--list=a", "--list=[{b c}]", "--list=x", "--list="}, wantValues: []string{"[]interface {} []interface {}{\"a\", sources.MapSlice{sources.MapItem{Key:\"b\", Value:\"c\"}}, []interface {}{\"x\"}, interface {}(nil)}"}},
		{name: "k:_08", reason: "numbers that are not plain integers", in: "k: 08\n", wantErr: false, wantArgs: []string{"-k=8"}, wantValues: []string{"float64 8"}},
		{name: "k:_09", reason: "numbers that are not plain integers", in: "k: 09\n", wantErr: false, wantArgs: []string{"-k=9"}, wantValues: []string{"float64 9"}},
		{name: "k:_0x", reason: "numbers that are not plain integers", in: "k: 0x\n", wantErr: false, wantArgs: []string{"-k=0x"}, wantValues: []string{"string \"0x\""}},
		{name: "k:_-0b101", reason: "numbers that are not plain integers", in: "k: -0b101\n", wantErr: false, wantArgs: []string{"-k=-5"}, wantValues: []string{"int -5"}},
		{name: "k:_+12", reason: "numbers that are not plain integers", in: "k: +12\n", wantErr: false, wantArgs: []string{"-k=12"}, wantValues: []string{"int 12"}},
		{name: "k:_0o17", reason: "numbers that are not plain integers", in: "k: 0o17\n", wantErr: false, wantArgs: []string{"-k=15"}, wantValues: []string{"int 15"}},
		{name: "k:_1e3", reason: "numbers that are not plain integers", in: "k: 1e3\n", wantErr: false, wantArgs: []string{"-k=1000"}, wantValues: []string{"float64 1000"}},
		{name: "k:_.5", reason: "numbers that are not plain integers", in: "k: .5\n", wantErr: false, wantArgs: []string{"-k=0.5"}, wantValues: []string{"float64 0.5"}},
		{name: "k:_-.inf", reason: "numbers that are not plain integers", in: "k: -.inf\n", wantErr: false, wantArgs: []string{"-k=-Inf"}, wantValues: []string{"float64 -Inf"}},
		{name: "k:_.inf", reason: "numbers that are not plain integers", in: "k: .inf\n", wantErr: false, wantArgs: []string{"-k=+Inf"}, wantValues: []string{"float64 +Inf"}},
		{name: "k:_.nan", reason: "numbers that are not plain integers", in: "k: .nan\n", wantErr: false, wantArgs: []string{"-k=NaN"}, wantValues: []string{"float64 NaN"}},
		{name: "k:_1.0", reason: "numbers that are not plain integers", in: "k: 1.0\n", wantErr: false, wantArgs: []string{"-k=1"}, wantValues: []string{"float64 1"}},
		{name: "k:_1.10", reason: "numbers that are not plain integers", in: "k: 1.10\n", wantErr: false, wantArgs: []string{"-k=1.1"}, wantValues: []string{"float64 1.1"}},
		{name: "k:_1000000.0", reason: "numbers that are not plain integers", in: "k: 1000000.0\n", wantErr: false, wantArgs: []string{"-k=1e+06"}, wantValues: []string{"float64 1e+06"}},
		{name: "k:_1_000.5", reason: "numbers that are not plain integers", in: "k: 1_000.5\n", wantErr: false, wantArgs: []string{"-k=1000.5"}, wantValues: []string{"float64 1000.5"}},
		{name: "k:_9223372036854775808", reason: "numbers that are not plain integers", in: "k: 9223372036854775808\n", wantErr: false, wantArgs: []string{"-k=9223372036854775808"}, wantValues: []string{"uint64 0x8000000000000000"}},
		{name: "k:_18446744073709551616", reason: "numbers that are not plain integers", in: "k: 18446744073709551616\n", wantErr: false, wantArgs: []string{"-k=1.8446744073709552e+19"}, wantValues: []string{"float64 1.8446744073709552e+19"}},
		{name: "k:_-0", reason: "numbers that are not plain integers", in: "k: -0\n", wantErr: false, wantArgs: []string{"-k=0"}, wantValues: []string{"int 0"}},
		{name: "k:_1e400", reason: "numbers that are not plain integers", in: "k: 1e400\n", wantErr: false, wantArgs: []string{"-k=1e400"}, wantValues: []string{"string \"1e400\""}},
		{name: "k:_1:20", reason: "numbers that are not plain integers", in: "k: 1:20\n", wantErr: false, wantArgs: []string{"-k=1:20"}, wantValues: []string{"string \"1:20\""}},
		{name: "k:_+", reason: "numbers that are not plain integers", in: "k: +\n", wantErr: false, wantArgs: []string{"-k=+"}, wantValues: []string{"string \"+\""}},
		{name: "k:_.", reason: "numbers that are not plain integers", in: "k: .\n", wantErr: false, wantArgs: []string{"-k=."}, wantValues: []string{"string \".\""}},
		{name: "k:_\"__padded__\"", reason: "strings are trimmed by ToString, commas kept", in: "k: \"  padded  \"\n", wantErr: false, wantArgs: []string{"-k=padded"}, wantValues: []string{"string \"  padded  \""}},
		{name: "k:_a,b", reason: "strings are trimmed by ToString, commas kept", in: "k: a,b\n", wantErr: false, wantArgs: []string{"-k=a,b"}, wantValues: []string{"string \"a,b\""}},
		{name: "k:_\"a,b\"", reason: "strings are trimmed by ToString, commas kept", in: "k: \"a,b\"\n", wantErr: false, wantArgs: []string{"-k=a,b"}, wantValues: []string{"string \"a,b\""}},
		{name: "k:_\"\\t_x_\\n\"", reason: "strings are trimmed by ToString, commas kept", in: "k: \"\\t x \\n\"\n", wantErr: false, wantArgs: []string{"-k=x"}, wantValues: []string{"string \"\\t x \\n\""}},
		{name: "k:_{a:_b,_c:_1}", reason: "nested maps render as Go syntax", in: "k: {a: b, c: 1}\n", wantErr: false, wantArgs: []string{"-k=[{a b} {c 1}]"}, wantValues: []string{"sources.MapSlice sources.MapSlice{sources.MapItem{Key:\"a\", Value:\"b\"}, sources.MapItem{Key:\"c\", Value:1}}"}},
		{name: "k:_{}", reason: "nested maps render as Go syntax", in: "k: {}\n", wantErr: false, wantArgs: []string{"-k=[]"}, wantValues: []string{"sources.MapSlice sources.MapSlice(nil)"}},
		{name: "m:|__n:|____o:_1", reason: "nested maps render as Go syntax", in: "m:\n  n:\n    o: 1\n", wantErr: false, wantArgs: []string{"-m=[{false [{o 1}]}]"}, wantValues: []string{"sources.MapSlice sources.MapSlice{sources.MapItem{Key:false, Value:sources.MapSlice{sources.MapItem{Key:\"o\", Value:1}}}}"}},
		{name: "y:_1", reason: "keys go through YAML 1.1 typing and ToString", in: "y: 1\n", wantErr: false, wantArgs: []string{"--true=1"}, wantValues: []string{"int 1"}},
		{name: "yes:_1", reason: "keys go through YAML 1.1 typing and ToString", in: "yes: 1\n", wantErr: false, wantArgs: []string{"--true=1"}, wantValues: []string{"int 1"}},
		{name: "on:_x", reason: "keys go through YAML 1.1 typing and ToString", in: "on: x\n", wantErr: false, wantArgs: []string{"--true=x"}, wantValues: []string{"string \"x\""}},
		{name: "n:_0", reason: "keys go through YAML 1.1 typing and ToString", in: "n: 0\n", wantErr: false, wantArgs: []string{"--false=0"}, wantValues: []string{"int 0"}},
		{name: "123:_x", reason: "keys go through YAML 1.1 typing and ToString", in: "123: x\n", wantErr: false, wantArgs: []string{"--123=x"}, wantValues: []string{"string \"x\""}},
		{name: "1.0:_x", reason: "keys go through YAML 1.1 typing and ToString", in: "1.0: x\n", wantErr: false, wantArgs: []string{"-1=x"}, wantValues: []string{"string \"x\""}},
		{name: "~:_x", reason: "keys go through YAML 1.1 typing and ToString", in: "~: x\n", wantErr: false, wantArgs: []string{"--=x"}, wantValues: []string{"string \"x\""}},
		{name: "\"--token\":_x", reason: "keys go through YAML 1.1 typing and ToString", in: "\"--token\": x\n", wantErr: false, wantArgs: []string{"----token=x"}, wantValues: []string{"string \"x\""}},
		{name: "token=abc:_def", reason: "keys go through YAML 1.1 typing and ToString", in: "token=abc: def\n", wantErr: false, wantArgs: []string{"--token=abc=def"}, wantValues: []string{"string \"def\""}},
		{name: "?_[a,_b]|:_c", reason: "keys go through YAML 1.1 typing and ToString", in: "? [a, b]\n: c\n", wantErr: false, wantArgs: []string{"-a=c"}, wantValues: []string{"string \"c\""}},
		{name: "{a:_1}:_2", reason: "keys go through YAML 1.1 typing and ToString", in: "{a: 1}: 2\n", wantErr: false, wantArgs: []string{"--[{a 1}]=2"}, wantValues: []string{"int 2"}},
		{name: "t:_x", reason: "keys go through YAML 1.1 typing and ToString", in: "t: x\n", wantErr: false, wantArgs: []string{"-t=x"}, wantValues: []string{"string \"x\""}},
		{name: "d:_/x", reason: "keys go through YAML 1.1 typing and ToString", in: "d: /x\n", wantErr: false, wantArgs: []string{"-d=/x"}, wantValues: []string{"string \"/x\""}},
		{name: "a:_1|b:_&v_hello|c:_*v", reason: "anchors and aliases resolve; merge keys are dropped", in: "a: 1\nb: &v hello\nc: *v\n", wantErr: false, wantArgs: []string{"-a=1", "-b=hello", "-c=hello"}, wantValues: []string{"int 1", "string \"hello\"", "string \"hello\""}},
		{name: "base:_&b_{x:_1}|other:|__<<:_*b|__y:_2", reason: "anchors and aliases resolve; merge keys are dropped", in: "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n", wantErr: false, wantArgs: []string{"--base=[{x 1}]", "--other=[{true 2}]"}, wantValues: []string{"sources.MapSlice sources.MapSlice{sources.MapItem{Key:\"x\", Value:1}}", "sources.MapSlice sources.MapSlice{sources.MapItem{Key:true, Value:2}}"}},
		{name: "<<:_{a:_1}|b:_2", reason: "anchors and aliases resolve; merge keys are dropped", in: "<<: {a: 1}\nb: 2\n", wantErr: false, wantArgs: []string{"-b=2"}, wantValues: []string{"int 2"}},
		{name: "b:_2|<<:_[{a:_1},_{c:_2}]", reason: "anchors and aliases resolve; merge keys are dropped", in: "b: 2\n<<: [{a: 1}, {c: 2}]\n", wantErr: false, wantArgs: []string{"-b=2"}, wantValues: []string{"int 2"}},
		{name: "\"<<\":_x", reason: "anchors and aliases resolve; merge keys are dropped", in: "\"<<\": x\n", wantErr: false, wantArgs: []string{"--<<=x"}, wantValues: []string{"string \"x\""}},
		{name: "!_<<:_{a:_1}", reason: "anchors and aliases resolve; merge keys are dropped", in: "! <<: {a: 1}\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_&a|__b:_1|c:_*a", reason: "anchors and aliases resolve; merge keys are dropped", in: "a: &a\n  b: 1\nc: *a\n", wantErr: false, wantArgs: []string{"-a=[{b 1}]", "-c=[{b 1}]"}, wantValues: []string{"sources.MapSlice sources.MapSlice{sources.MapItem{Key:\"b\", Value:1}}", "sources.MapSlice sources.MapSlice{sources.MapItem{Key:\"b\", Value:1}}"}},
		{name: "<<:_1", reason: "merge keys are still checked before being dropped", in: "<<: 1\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "<<:_[1]", reason: "merge keys are still checked before being dropped", in: "<<: [1]\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_&x_1|<<:_*x", reason: "merge keys are still checked before being dropped", in: "a: &x 1\n<<: *x\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "key+:_x", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key+: x\n", wantErr: false, wantArgs: []string{"--key=x"}, wantValues: []string{"string \"x\""}},
		{name: "key:_x|key+:_y", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: x\nkey+: y\n", wantErr: false, wantArgs: []string{"--key=x", "--key=true"}, wantValues: []string{"string \"x\"", "bool true"}},
		{name: "key:_x|key:_y", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: x\nkey: y\n", wantErr: false, wantArgs: []string{"--key=true"}, wantValues: []string{"string \"x\"", "bool true"}},
		{name: "key:_a|key+:_null", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: a\nkey+: null\n", wantErr: false, wantArgs: []string{"--key=a"}, wantValues: []string{"string \"a\"", "<nil> <nil>"}},
		{name: "key:_a|key+:_''", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: a\nkey+: ''\n", wantErr: false, wantArgs: []string{"--key=a", "--key="}, wantValues: []string{"string \"a\"", "string \"\""}},
		{name: "key:_null|key+:_[x]", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: null\nkey+: [x]\n", wantErr: false, wantArgs: []string{"--key=x"}, wantValues: []string{"<nil> <nil>", "[]interface {} []interface {}{\"x\"}"}},
		{name: "key:_[a]|key+:_[b]|key:_c", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key: [a]\nkey+: [b]\nkey: c\n", wantErr: false, wantArgs: []string{"--key=c"}, wantValues: []string{"[]interface {} []interface {}{\"a\"}", "[]interface {} []interface {}{\"b\"}", "string \"c\""}},
		{name: "key++:_x", reason: "key+ appends, a plain key replaces (k3s pkg/configfilearg/parser.go)", in: "key++: x\n", wantErr: false, wantArgs: []string{"--key+=x"}, wantValues: []string{"string \"x\""}},
		{name: "k:_||__line1|__line2", reason: "block scalars are strings", in: "k: |\n  line1\n  line2\n", wantErr: false, wantArgs: []string{"-k=line1\nline2"}, wantValues: []string{"string \"line1\\nline2\\n\""}},
		{name: "k:_>|__folded|__text", reason: "block scalars are strings", in: "k: >\n  folded\n  text\n", wantErr: false, wantArgs: []string{"-k=folded text"}, wantValues: []string{"string \"folded text\\n\""}},
		{name: "k:_|-|__x", reason: "block scalars are strings", in: "k: |-\n  x\n", wantErr: false, wantArgs: []string{"-k=x"}, wantValues: []string{"string \"x\""}},
		{name: "k:_||__0644", reason: "block scalars are strings", in: "k: |\n  0644\n", wantErr: false, wantArgs: []string{"-k=0644"}, wantValues: []string{"string \"0644\\n\""}},
		{name: "k:_!!str_0644", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!str 0644\n", wantErr: false, wantArgs: []string{"-k=0644"}, wantValues: []string{"string \"0644\""}},
		{name: "k:_!!int_\"0644\"", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!int \"0644\"\n", wantErr: false, wantArgs: []string{"-k=420"}, wantValues: []string{"int 420"}},
		{name: "k:_!!bool_yes", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!bool yes\n", wantErr: false, wantArgs: []string{"-k=true"}, wantValues: []string{"bool true"}},
		{name: "k:_!!float_1", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!float 1\n", wantErr: false, wantArgs: []string{"-k=1"}, wantValues: []string{"float64 1"}},
		{name: "k:_!!null", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!null\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"<nil> <nil>"}},
		{name: "k:_!!timestamp_2001-12-14", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!timestamp 2001-12-14\n", wantErr: false, wantArgs: []string{"-k=2001-12-14"}, wantValues: []string{"string \"2001-12-14\""}},
		{name: "k:_!!binary_aGVsbG8=", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!binary aGVsbG8=\n", wantErr: false, wantArgs: []string{"-k=hello"}, wantValues: []string{"string \"hello\""}},
		{name: "k:_!foo_1", reason: "explicit tags as yaml.v2 resolves them", in: "k: !foo 1\n", wantErr: false, wantArgs: []string{"-k=1"}, wantValues: []string{"string \"1\""}},
		{name: "k:_!_yes", reason: "explicit tags as yaml.v2 resolves them", in: "k: ! yes\n", wantErr: false, wantArgs: []string{"-k=yes"}, wantValues: []string{"string \"yes\""}},
		{name: "k:_!!str", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!str\n", wantErr: false, wantArgs: []string{"-k="}, wantValues: []string{"string \"\""}},
		{name: "k:_!!seq_x", reason: "explicit tags as yaml.v2 resolves them", in: "k: !!seq x\n", wantErr: false, wantArgs: []string{"-k=x"}, wantValues: []string{"string \"x\""}},
		{name: "k:_!<tag:yaml.org,2002:int>_12", reason: "explicit tags as yaml.v2 resolves them", in: "k: !<tag:yaml.org,2002:int> 12\n", wantErr: false, wantArgs: []string{"-k=12"}, wantValues: []string{"int 12"}},
		{name: "k:_!!int_x", reason: "an explicit tag that does not fit is fatal", in: "k: !!int x\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!bool_x", reason: "an explicit tag that does not fit is fatal", in: "k: !!bool x\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!null_x", reason: "an explicit tag that does not fit is fatal", in: "k: !!null x\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!int", reason: "an explicit tag that does not fit is fatal", in: "k: !!int\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!float_18446744073709551615", reason: "an explicit tag that does not fit is fatal", in: "k: !!float 18446744073709551615\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!int_1.5", reason: "an explicit tag that does not fit is fatal", in: "k: !!int 1.5\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "k:_!!binary_'!!!'", reason: "an explicit tag that does not fit is fatal", in: "k: !!binary '!!!'\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "empty", reason: "empty files and top-level non-mappings", in: "", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "#_only_comment", reason: "empty files and top-level non-mappings", in: "# only comment\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "---", reason: "empty files and top-level non-mappings", in: "---\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "~", reason: "empty files and top-level non-mappings", in: "~\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "foo", reason: "empty files and top-level non-mappings", in: "foo\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "123", reason: "empty files and top-level non-mappings", in: "123\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "-_a", reason: "empty files and top-level non-mappings", in: "- a\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "[]", reason: "empty files and top-level non-mappings", in: "[]\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "abcdefghijklmnop", reason: "empty files and top-level non-mappings", in: "abcdefghijklmnop\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "2001-12-14", reason: "empty files and top-level non-mappings", in: "2001-12-14\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_1|---|b:_2", reason: "only the first document is read", in: "a: 1\n---\nb: 2\n", wantErr: false, wantArgs: []string{"-a=1"}, wantValues: []string{"int 1"}},
		{name: "a:_1|...|b:_2", reason: "only the first document is read", in: "a: 1\n...\nb: 2\n", wantErr: false, wantArgs: []string{"-a=1"}, wantValues: []string{"int 1"}},
		{name: "a:_1|---|TAB:_x", reason: "only the first document is read", in: "a: 1\n---\n\t: x\n", wantErr: false, wantArgs: []string{"-a=1"}, wantValues: []string{"int 1"}},
		{name: "a:_b:_c", reason: "syntax errors", in: "a: b: c\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_[1,_2", reason: "syntax errors", in: "a: [1, 2\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:|__-_b|_c:_d", reason: "syntax errors", in: "a:\n  - b\n c: d\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_1", reason: "syntax errors", in: "\ta: 1\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_'x", reason: "syntax errors", in: "a: 'x\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_*missing", reason: "syntax errors", in: "a: *missing\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_&x_[*x]", reason: "syntax errors", in: "a: &x [*x]\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "a:_1|-_b", reason: "syntax errors", in: "a: 1\n- b\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "[]:_1|b:_2", reason: "yaml.v2 does not take an empty flow collection as an implicit key", in: "[]: 1\nb: 2\n", wantErr: false, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "x:|__[]:_1", reason: "yaml.v2 does not take an empty flow collection as an implicit key", in: "x:\n  []: 1\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "x:_{[]:_1}", reason: "yaml.v2 does not take an empty flow collection as an implicit key", in: "x: {[]: 1}\n", wantErr: true, wantArgs: []string(nil), wantValues: []string(nil)},
		{name: "?_[]|:_1", reason: "yaml.v2 does not take an empty flow collection as an implicit key", in: "? []\n: 1\n", wantErr: false, wantArgs: []string{"--=1"}, wantValues: []string{"int 1"}},
		{name: "a:_1CR|b:_yes", reason: "encodings, line endings and comments", in: "a: 1\r\nb: yes\r\n", wantErr: false, wantArgs: []string{"-a=1", "-b=true"}, wantValues: []string{"int 1", "bool true"}},
		{name: "BOMa:_1", reason: "encodings, line endings and comments", in: "\ufeffa: 1\n", wantErr: false, wantArgs: []string{"-a=1"}, wantValues: []string{"int 1"}},
		{name: "a:_x_#c|b:_'y'_#_c", reason: "encodings, line endings and comments", in: "a: x #c\nb: 'y' # c\n", wantErr: false, wantArgs: []string{"-a=x", "-b=y"}, wantValues: []string{"string \"x\"", "string \"y\""}},
		{name: "a:_plain|__continued", reason: "encodings, line endings and comments", in: "a: plain\n  continued\n", wantErr: false, wantArgs: []string{"-a=plain continued"}, wantValues: []string{"string \"plain continued\""}},
		{name: "a:_'it''s'", reason: "encodings, line endings and comments", in: "a: 'it''s'\n", wantErr: false, wantArgs: []string{"-a=it's"}, wantValues: []string{"string \"it's\""}},
		{name: "k:_\"\\u00e9\"", reason: "encodings, line endings and comments", in: "k: \"\\u00e9\"\n", wantErr: false, wantArgs: []string{"-k=é"}, wantValues: []string{"string \"é\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cf, _, err := ParseConfig("/etc/rancher/k3s/config.yaml", []byte(tc.in))
			if tc.wantErr {
				var perr *diag.ParseError
				if !errors.As(err, &perr) {
					t.Fatalf("%s\nParseConfig(%q) error = %v, want a *diag.ParseError", tc.reason, tc.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nParseConfig(%q): unexpected error %v", tc.reason, tc.in, err)
			}
			var values []string
			for _, e := range cf.Entries {
				values = append(values, fmt.Sprintf("%T %#v", e.Value, e.Value))
			}
			if diff := cmp.Diff(tc.wantValues, values); diff != "" {
				t.Errorf("%s\nvalues of %q mismatch (-want +got):\n%s", tc.reason, tc.in, diff)
			}
			if diff := cmp.Diff(tc.wantArgs, renderArgs(cf.Entries)); diff != "" {
				t.Errorf("%s\nargs of %q mismatch (-want +got):\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

func pos(line, col int) diag.Position {
	return diag.Position{File: "/c.yaml", Line: line, Column: col}
}

func TestParseConfigEntries(t *testing.T) {
	tests := []struct {
		name, reason, in string
		want             []ConfigEntry
	}{
		{
			name:   "scalars",
			reason: "each entry keeps the key and value text, the resolved type and both positions",
			in:     "write-kubeconfig-mode: 0644\n\"token\": 'abc' # secret\nyes: !!str 12\nempty:\n",
			want: []ConfigEntry{
				{RawKey: "write-kubeconfig-mode", Key: "write-kubeconfig-mode", Value: 420, Raw: "0644", Type: "int", KeyPos: pos(1, 1), ValuePos: pos(1, 24)},
				{RawKey: `"token"`, Key: "token", Value: "abc", Raw: "'abc'", Type: "str", Quoted: true, KeyPos: pos(2, 1), ValuePos: pos(2, 10)},
				{RawKey: "yes", Key: "true", Value: "12", Raw: "!!str 12", Type: "str", KeyPos: pos(3, 1), ValuePos: pos(3, 6)},
				{RawKey: "empty", Key: "empty", Value: nil, Raw: "", Type: "null", KeyPos: pos(4, 1), ValuePos: pos(4, 7)},
			},
		},
		{
			name:   "append-and-list",
			reason: "a trailing + is removed once and sets Append; a sequence has one item per element",
			in:     "node-label+:\n  - a=b\n  - \"c=d\"\n  - 2001-12-14\ntls-san+: [x, ~]\n",
			want: []ConfigEntry{
				{RawKey: "node-label+", Key: "node-label", Append: true, Value: []any{"a=b", "c=d", "2001-12-14"}, Raw: "- a=b", Type: "seq", KeyPos: pos(1, 1), ValuePos: pos(2, 3),
					Items: []ConfigItem{
						{Value: "a=b", Raw: "a=b", Type: "str", Pos: pos(2, 5)},
						{Value: "c=d", Raw: `"c=d"`, Type: "str", Quoted: true, Pos: pos(3, 5)},
						{Value: "2001-12-14", Raw: "2001-12-14", Type: "timestamp", Pos: pos(4, 5)},
					}},
				{RawKey: "tls-san+", Key: "tls-san", Append: true, Value: []any{"x", nil}, Raw: "[x, ~]", Type: "seq", KeyPos: pos(5, 1), ValuePos: pos(5, 11),
					Items: []ConfigItem{
						{Value: "x", Raw: "x", Type: "str", Pos: pos(5, 12)},
						{Value: nil, Raw: "~", Type: "null", Pos: pos(5, 15)},
					}},
			},
		},
		{
			name:   "alias",
			reason: "an alias takes the anchored value; items point at the anchored sequence",
			in:     "a: &l [1, 2]\nb: *l\n",
			want: []ConfigEntry{
				{RawKey: "a", Key: "a", Value: []any{1, 2}, Raw: "&l [1, 2]", Type: "seq", KeyPos: pos(1, 1), ValuePos: pos(1, 4),
					Items: []ConfigItem{{Value: 1, Raw: "1", Type: "int", Pos: pos(1, 8)}, {Value: 2, Raw: "2", Type: "int", Pos: pos(1, 11)}}},
				{RawKey: "b", Key: "b", Value: []any{1, 2}, Raw: "*l", Type: "seq", KeyPos: pos(2, 1), ValuePos: pos(2, 4),
					Items: []ConfigItem{{Value: 1, Raw: "1", Type: "int", Pos: pos(1, 8)}, {Value: 2, Raw: "2", Type: "int", Pos: pos(1, 11)}}},
			},
		},
		{
			name:   "block-scalar-and-map",
			reason: "a block scalar's Raw holds its lines; a nested mapping decodes to a MapSlice",
			in:     "a: |\n  x\n  y\nb:\n  c: 1\n",
			want: []ConfigEntry{
				{RawKey: "a", Key: "a", Value: "x\ny\n", Raw: "|\n  x\n  y", Type: "str", KeyPos: pos(1, 1), ValuePos: pos(1, 4)},
				{RawKey: "b", Key: "b", Value: MapSlice{{Key: "c", Value: 1}}, Raw: "c: 1", Type: "map", KeyPos: pos(4, 1), ValuePos: pos(5, 3)},
			},
		},
		{
			name:   "crlf-and-bom",
			reason: "CRLF line endings and a UTF-8 byte order mark do not shift positions",
			in:     "\xef\xbb\xbfa: 1\r\nb: on\r\n",
			want: []ConfigEntry{
				{RawKey: "a", Key: "a", Value: 1, Raw: "1", Type: "int", KeyPos: pos(1, 1), ValuePos: pos(1, 4)},
				{RawKey: "b", Key: "b", Value: true, Raw: "on", Type: "bool", KeyPos: pos(2, 1), ValuePos: pos(2, 4)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cf, _, err := ParseConfig("/c.yaml", []byte(tc.in))
			if err != nil {
				t.Fatalf("%s\nunexpected error %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, cf.Entries, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nentries mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestParseConfigDiagnostics(t *testing.T) {
	tests := []struct {
		name, reason, in string
		want             []string
	}{
		{"merge-key", "yaml.v2 drops << when it decodes into a MapSlice", "base: &b {x: 1}\nother:\n  <<: *b\n<<: *b\n",
			[]string{"warning yaml-merge-key-dropped /c.yaml:3:3", "warning yaml-merge-key-dropped /c.yaml:4:1"}},
		{"extra-document", "yaml.Unmarshal reads only the first document", "a: 1\n---\nb: 2\n",
			[]string{"warning yaml-extra-document /c.yaml:2:1"}},
		{"document-end-marker", "content after ... is never read either", "a: 1\n...\nb: 2\n",
			[]string{"warning yaml-extra-document /c.yaml:2:1"}},
		{"empty-trailing-document", "an empty document after --- holds nothing to ignore", "a: 1\n---\n", nil},
		{"duplicate", "a repeated plain key replaces the earlier value", "a: 1\nb: 2\na: 3\na+: 4\n",
			[]string{"info yaml-duplicate-key /c.yaml:3:1"}},
		{"empty-flow-key", "yaml.v2 takes a leading []: as the whole document", "[]: 1\nb: 2\n",
			[]string{"warning yaml-empty-flow-key /c.yaml:1:1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags, err := ParseConfig("/c.yaml", []byte(tc.in))
			if err != nil {
				t.Fatalf("%s\nunexpected error %v", tc.reason, err)
			}
			var got []string
			for _, d := range diags {
				got = append(got, strings.SplitN(d.String(), ": ", 2)[0])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ndiagnostics mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, reason, in string
		want             diag.Position
		wantMsg          string
	}{
		{"bad-int-tag", "yaml.v2 fails an explicit tag that does not fit", "a: 1\nk: !!int x\n", pos(2, 4), "yaml: cannot decode !!str `x` as a !!int"},
		{"top-level-scalar", "a scalar document cannot become a MapSlice", "foo\n", pos(1, 1), "yaml: unmarshal errors: line 1: cannot unmarshal !!str `foo` into yaml.MapSlice"},
		{"top-level-sequence", "yaml.v2 decodes each element into a MapItem", "- a\n", pos(1, 3), "yaml: unmarshal errors: line 1: cannot unmarshal !!str `a` into yaml.MapItem"},
		{"parser-error", "a parser error's line is where the problem is", "a:\n  - b\n c: d\n", pos(3, 2), "yaml: line 2: did not find expected key"},
		{"scanner-error", "a tab cannot indent a block; the column is the tab's", "a: 1\n\tb: 2\n", pos(2, 1), "yaml: line 2: found a tab character that violates indentation"},
		{"unknown-anchor", "the alias is found in the text", "a: 1\nb: *nope\n", pos(2, 4), "yaml: unknown anchor 'nope' referenced"},
		{"recursive-alias", "an anchor cannot contain its alias", "a: &x [*x]\n", pos(1, 8), "yaml: anchor 'x' value contains itself"},
		{"merge-of-scalar", "the merged value is checked before it is dropped", "<<: 1\n", pos(1, 5), "yaml: map merge requires map or sequence of maps as the value"},
		{"alias-bomb", "yaml.v2 refuses excessive aliasing",
			"a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]\n",
			diag.Position{}, "yaml: document contains excessive aliasing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseConfig("/c.yaml", []byte(tc.in))
			var perr *diag.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("%s\nerror = %v, want a *diag.ParseError", tc.reason, err)
			}
			if perr.Msg != tc.wantMsg {
				t.Errorf("%s\nmessage = %q, want %q", tc.reason, perr.Msg, tc.wantMsg)
			}
			if !tc.want.IsZero() && perr.Pos != tc.want {
				t.Errorf("%s\nposition = %v, want %v", tc.reason, perr.Pos, tc.want)
			}
		})
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "a: 1\n", "k: [a, 1, yes, null, 0644, 1.0]\n", "a: &x {b: 1}\nc: *x\n<<: *x\n",
		"a: 1\n---\nb: 2\n", "[]: 1\n", "- key: a\n  value: b\n", "k: !!binary aGVsbG8=\n", "a: &x [*x]\n", "\xff\xfea\x00:\x00 \x001\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, _, err := ParseConfig("/c.yaml", data)
		if err != nil {
			var perr *diag.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("error %v (%T) is not a *diag.ParseError", err, err)
			}
			if cf != nil {
				t.Fatalf("both a result and an error")
			}
			return
		}
		if cf == nil {
			t.Fatalf("neither a result nor an error")
		}
		for _, e := range cf.Entries {
			_ = ToString(e.Value)
		}
	})
}
