package values

import (
	"strings"
	"testing"
)

// TestSecretCopies: a path set through an alias of an anchor under a secret key is a copy,
// and so is every path under it; an alias of a plain anchor is not.
func TestSecretCopies(t *testing.T) {
	text := []byte("auth:\n  password: &pw server\nconn: &cr {user: u}\nmail:\n  login: *pw\n  from: server\nplain: &p hello\nother: *p\n" +
		"users: [admin, *pw]\ndeep: [[a, {b: *pw}]]\nnested:\n  db_password:\n    v: &n x\nref:\n  m: {k: *n, j: shown}\n" +
		"holder: &h {inner: *pw, name: h}\nexpanded: *h\nsecretmap:\n  api_token: &tm {a: x, b: y}\nmerged:\n  <<: *tm\n  b: own\n  c: own\n" +
		"credcopy: *cr\n")
	c := secretCopies(text, 3)
	cases := []struct {
		path, reason string
		want         bool
	}{
		{"mail.login", "an alias of auth.password's anchor", true},
		{"users", "a list with such an alias among its items", true},
		{"deep", "a list holding such an alias at any depth (a list is one leaf)", true},
		{"ref.m.k", "an alias inside a map, at its own path", true},
		{"holder.inner", "an alias inside a plain anchor's map", true},
		{"expanded.inner", "the same copy where an alias of that plain map expands it", true},
		{"merged.a", "a key a merge key brings in from a secret anchor", true},
		{"mail.from", "a sibling of a copy, the same word: a map holding a copy is not a copy", false},
		{"ref.m.j", "a sibling of a copy in a flow map", false},
		{"expanded.name", "a plain key of an expanded plain map", false},
		{"merged.b", "a key the mapping sets itself over the merge", false},
		{"merged.c", "a key only the mapping sets", false},
		{"credcopy", "an alias of a plain anchor (its keys are judged by their own names)", false},
		{"other", "an alias of an anchor under a plain key", false},
		{"auth.password", "the anchor itself is under its own secret name, not a copy", false},
		{"plain", "a plain value", false},
	}
	for _, tc := range cases {
		if got := c.has(tc.path); got != tc.want {
			t.Errorf("%s (%s): has = %v, want %v", tc.path, tc.reason, got, tc.want)
		}
	}
	if secretCopies([]byte("a: 1\nb: &x 2\n"), 3) != nil {
		t.Error("a text without an alias has no copies")
	}
	// Helm 4 reads every document; Helm 3 the first.
	two := []byte("a: &pw x\n---\nauth:\n  password: &q y\nlogin: *q\n")
	if secretCopies(two, 3).has("login") || !secretCopies(two, 4).has("login") {
		t.Error("a copy in a second document: Helm 4 reads it, Helm 3 does not")
	}
}

// TestChartDefaultCopies: a chart's own values.yaml (and a subchart's) copies a secret by
// YAML alias the same way a user's values text does: the default set through the alias is
// a copy whatever it spells, so the output hides it by structure, not by its value (issue
// 25: `password: &pw server`, `login: *pw` printed "server").
func TestChartDefaultCopies(t *testing.T) {
	text := []byte("auth:\n  password: &pw server\nmail:\n  login: *pw\n  from: server\nplain: &p hello\nother: *p\nusers: [admin, *pw]\nover: *pw\n")
	subText := []byte("db:\n  token: &t server\n  user: *t\n  name: server\n")
	chart := func(name string, text []byte) *Chart {
		v, err := decode(text, 3)
		if err != nil {
			t.Fatal(err)
		}
		return &Chart{Name: name, Version: "0.1.0", File: "app.tgz", Values: v, Text: text}
	}
	for _, major := range []int{3, 4} {
		ch := chart("app", text)
		sub := chart("sub", subText)
		sub.Inner = "charts/sub"
		ch.Subcharts, ch.Dependencies = []*Chart{sub}, true
		res := Compute(ch, Input{Major: major, Layers: []Layer{{Kind: HelmChartValuesContent, File: "hc.yaml", Text: []byte("over: admin\n")}}})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		copyAt := map[string]bool{}
		for _, l := range res.Leaves {
			for _, a := range l.History {
				if a.Source.Kind == ChartDefault {
					copyAt[l.Name] = a.SecretCopy
				}
			}
		}
		cases := []struct {
			path, reason string
			want         bool
		}{
			{"mail.login", "the issue's case: an alias of auth.password's anchor in the chart's defaults", true},
			{"users", "a list with such an alias among its items", true},
			{"over", "a copy a user's value overrides: its default is still a copy in the history", true},
			{"sub.db.user", "a subchart's values.yaml, its path under the subchart's name", true},
			{"mail.from", "the same word, no alias: a look-alike is no copy", false},
			{"sub.db.name", "the same word in a subchart, no alias", false},
			{"other", "an alias of an anchor under a plain key", false},
			{"auth.password", "the anchor itself: hidden by its own name, not a copy", false},
		}
		for _, tc := range cases {
			got, ok := copyAt[tc.path]
			if !ok {
				t.Errorf("helm %d: %s: no chart default in the leaves", major, tc.path)
			} else if got != tc.want {
				t.Errorf("helm %d: %s (%s): SecretCopy = %v, want %v", major, tc.path, tc.reason, got, tc.want)
			}
		}
	}
}

// TestSchemaErrorSecretNotQuoted: values.schema.json's messages quote the value they
// refuse ("'zebra' does not match pattern"); for a secret (a copy by YAML alias, or a
// secret name) the message says REDACTED instead, as Helm's text would print the secret
// in a sentence no word rule reads as a value. A plain value is still quoted (issue 25).
func TestSchemaErrorSecretNotQuoted(t *testing.T) {
	text := []byte("auth:\n  password: &pw zebra\ncopy: *pw\nplain: zebra\n")
	v, err := decode(text, 4)
	if err != nil {
		t.Fatal(err)
	}
	schema := `{"type": "object", "properties": {
		"copy": {"type": "string", "pattern": "^[0-9]+$"},
		"plain": {"type": "string", "pattern": "^[0-9]+$"},
		"auth": {"type": "object", "properties": {"password": {"type": "string", "pattern": "^[0-9]+$"}}}}}`
	ch := &Chart{Name: "app", Version: "0.1.0", File: "app.tgz", Values: v, Text: text, Schema: []byte(schema)}
	res := Compute(ch, Input{Major: 4})
	got := map[string]string{}
	for _, se := range res.SchemaErrors {
		got[se.Path] = se.Message
	}
	for _, tc := range []struct {
		path, reason string
		hidden       bool
	}{
		{"copy", "a copy of auth.password by alias, refused by a pattern", true},
		{"auth.password", "a secret name, refused by a pattern", true},
		{"plain", "the same word at a plain key: quoted", false},
	} {
		m, ok := got[tc.path]
		switch {
		case !ok:
			t.Errorf("%s: no schema error (%v)", tc.path, got)
		case tc.hidden && (strings.Contains(m, "zebra") || !strings.Contains(m, "REDACTED")):
			t.Errorf("%s (%s): %q, want REDACTED for the value", tc.path, tc.reason, m)
		case !tc.hidden && !strings.Contains(m, "zebra"):
			t.Errorf("%s (%s): %q, want the value quoted", tc.path, tc.reason, m)
		}
	}
}
