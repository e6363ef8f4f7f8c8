package values

import (
	"fmt"
	"testing"
)

// namedCases are hand-written cases, each pinning one rule of Helm's merge; every
// disagreement the generated differential found is kept here too.
var namedCases = []helmCase{
	{name: "maps deep-merge", defaults: "a:\n  x: 1\n  y: 2\n", files: []string{"a:\n  y: 3\n  z: 4\n"}},
	{name: "a list replaces a list", defaults: "l: [1, 2, 3]\n", files: []string{"l: [9]\n"}},
	{name: "null deletes the default", defaults: "a:\n  x: 1\n  y: 2\n", files: []string{"a:\n  x: null\n"}},
	{name: "top-level null deletes a map default", defaults: "a:\n  x: 1\nb: 2\n", files: []string{"a: null\n"}},
	{name: "a later map undoes an earlier null", defaults: "a:\n  x: 1\n  y: 2\n", files: []string{"a: null\n", "a:\n  z: 3\n"}},
	{name: "nested null for a key the chart lacks stays null", defaults: "a:\n  x: 1\n", files: []string{"a:\n  q: null\n"}},
	{name: "top-level null for a key the chart lacks stays null", defaults: "a: 1\n", files: []string{"q: null\n"}},
	{name: "nested null for a key the chart lacks, under a key it has", defaults: "a:\n  x: 1\n", files: []string{"a:\n  x: 2\n  q: null\n"}},
	{name: "nested null over a null default stays null", defaults: "a:\n  x: null\n  y: 1\n", files: []string{"a:\n  x: null\n"}},
	{name: "top-level null over a null default is deleted", defaults: "x: null\ny: 1\n", files: []string{"x: null\n"}},
	{name: "yes and on are booleans, keys too", defaults: "a: 1\n", files: []string{"b: yes\nc: on\nyes: 1\n1.50: x\n"}},
	{name: "numbers from files are float64", defaults: "big: 12345678901234567890\n", files: []string{"n: 0x10\no: 012\ne: 1e3\n"}},
	{name: "a scalar replaces a map default at the top", defaults: "a:\n  x: 1\n", files: []string{"a: 5\n"}},
	{name: "a scalar over a nested map default warns and wins", defaults: "a:\n  b:\n    x: 1\n", files: []string{"a:\n  b: 5\n"}},
	{name: "a map over a nested scalar default wins", defaults: "a:\n  b: 5\n", files: []string{"a:\n  b:\n    x: 1\n"}},
	{name: "set typed and set-string", defaults: "a: 1\n", set: []SetArg{{Key: "n", Value: "8080", Int: true}, {Key: "s", Value: "8080"}, {Key: "b", Value: "True"}, {Key: "f", Value: "1.5"}, {Key: "e", Value: ""}}},
	{name: "every --set before every --set-string", defaults: "a: 1\n", set: []SetArg{{Key: "a", Value: "x"}, {Key: "a", Value: "2", Int: true}}},
	{name: "set escapes and lists", defaults: "a: 1\n", set: []SetArg{{Key: `k\.with\.dots`, Value: "v"}, {Key: "l[1]", Value: "3", Int: true}, {Key: "m.n", Value: "{a,b}"}}},
	{name: "set-string commas are escaped", defaults: "a: 1\n", set: []SetArg{{Key: "cidr", Value: "10.42.0.0/16,fd42::/48"}}},
	{name: "set null deletes", defaults: "a:\n  x: 1\n  y: 2\n", set: []SetArg{{Key: "a.x", Value: "null"}}},
	{name: "set over a scalar fails", defaults: "a: 1\n", files: []string{"a: 5\n"}, set: []SetArg{{Key: "a.b", Value: "1", Int: true}}},
	{name: "set over a scalar default is fine", defaults: "a: 5\n", set: []SetArg{{Key: "a.b", Value: "1", Int: true}}},
	{name: "set over a null from a file fails", defaults: "a: 1\n", files: []string{"a: null\n"}, set: []SetArg{{Key: "a.b", Value: "1", Int: true}}},
	{name: "set into a list element", defaults: "a: 1\n", files: []string{"l: [1, {x: 1}]\n"}, set: []SetArg{{Key: "l[1].y", Value: "2", Int: true}, {Key: "l[3]", Value: "z"}}},
	// Found by the generated differential: a value that ends the argument inside a new
	// list element still sets it (Helm's key() returns the reader's nil, not io.EOF).
	{name: "set ends inside a new list element", defaults: "b: 1\n", set: []SetArg{{Key: `Off[0].x\.y.b`, Value: "a,b"}}},
	{name: "set a leading zero stays a string", defaults: "a: 1\n", set: []SetArg{{Key: "z", Value: "0"}, {Key: "y", Value: "007"}}},
	{name: "values file that is a list fails", defaults: "a: 1\n", files: []string{"- 1\n"}},
	{name: "inf fails", defaults: "a: 1\n", files: []string{"a: .inf\n"}},
	{name: "multi-document values file", defaults: "a: 1\n", files: []string{"a: 2\n---\nb: 3\n"}},
	{name: "empty values file", defaults: "a: 1\n", files: []string{"# nothing\n"}},
	{name: "empty map does not clear", defaults: "a:\n  x: 1\n", files: []string{"a: {}\n"}},
	{name: "multi-document chart values.yaml", defaults: "a: 1\n---\nb: 2\n", files: []string{"c: 3\n"}},
	{name: "set a typed list", defaults: "a: 1\n", set: []SetArg{{Key: "l", Value: "{1,true,x}"}}},
	{name: "set an index far beyond the list", defaults: "a: 1\n", set: []SetArg{{Key: "l[5]", Value: "x"}}},
	{name: "set a negative index fails", defaults: "a: 1\n", set: []SetArg{{Key: "l[-1]", Value: "x"}}},
	{name: "set a non-numeric index fails", defaults: "a: 1\n", set: []SetArg{{Key: "l[x]", Value: "x"}}},
	{name: "set an escaped backslash in a key", defaults: "a: 1\n", set: []SetArg{{Key: `a\\b.c`, Value: "x"}}},
	{name: "set a key with a comma fails", defaults: "a: 1\n", set: []SetArg{{Key: "a,b", Value: "x"}}},
	{name: "a null key fails", defaults: "a: 1\n", files: []string{"~: 1\n"}},
	{name: "duplicate keys in a values file", defaults: "a: 1\n", files: []string{"b: 1\nb: 2\n"}},
	{name: "an anchor and a merge key", defaults: "a: 1\n", files: []string{"base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n"}},
	// Helm 4 reads a values file line by line and ends each line with a line break
	// (apimachinery YAMLReader), so a block scalar at the end of a file without one keeps
	// it under the clip indicator; Helm 3 reads the bytes as they are.
	{name: "block scalar at the end of a file without a final line break", defaults: "a: 1\n", files: []string{"cfg: |\n  timeout: 3600", "lit: |-\n  x", "keep: |+\n  y"}},
	{name: "CRLF line breaks in a block scalar", defaults: "a: 1\n", files: []string{"cfg: |\r\n  one\r\n  two\r\n"}},
	{name: "a document separator followed by content", defaults: "a: 1\n", files: []string{"--- {b: 2}\n"}},
	{name: "a separator with a comment, then an empty document", defaults: "a: 1\n", files: []string{"--- # first\nb: 2\n---\n---\nc: 3"}},
	{name: "traefik systemDefaultRegistry", defaults: "global:\n  systemDefaultRegistry: \"\"\nimage:\n  registry: docker.io\n", files: []string{"global:\n  systemDefaultRegistry: my.registry\n"}, set: []SetArg{{Key: "global.systemDefaultRegistry", Value: ""}}},
}

func TestNamedAgainstHelm(t *testing.T) {
	ran := 0
	for _, o := range oracles {
		helm, ok := o.binary(t)
		if !ok {
			continue
		}
		ran++
		for _, c := range namedCases {
			t.Run(fmt.Sprintf("%s/%s", o.name, c.name), func(t *testing.T) {
				compare(t, helm, o, c)
			})
		}
	}
	if ran == 0 {
		t.Skip("no helm binary: set K3SCONF_HELM3_19_0, K3SCONF_HELM3_19_5, K3SCONF_HELM3, K3SCONF_HELM4")
	}
}
