package values

import "testing"

// TestSecretCopies: a path set through an alias of an anchor under a secret key is a copy,
// and so is every path under it; an alias of a plain anchor is not.
func TestSecretCopies(t *testing.T) {
	text := []byte("auth:\n  password: &pw server\nmail:\n  login: *pw\nplain: &p hello\nother: *p\nusers: [admin, *pw]\nnested:\n  db_password:\n    v: &n x\nref:\n  m: {k: *n}\n")
	c := secretCopies(text, 3)
	cases := []struct {
		path, reason string
		want         bool
	}{
		{"mail.login", "an alias of auth.password's anchor", true},
		{"users", "a list with such an alias among its items", true},
		{"ref.m", "a map with such an alias among its values", true},
		{"ref.m.k", "a path under a copy", true},
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
}
