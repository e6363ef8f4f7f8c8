package ansible

import "testing"

// TestEntriesSecretCopy: a variable set through a YAML alias of an anchor under a secret
// key is a copy of the secret (Entry.SecretCopy), and so is one a merge key brings in
// from such an anchor; an alias of a plain anchor, and the same word written again, are
// not (issue 25).
func TestEntriesSecretCopy(t *testing.T) {
	es, err := LoadVarsYAML("vars.yml", []byte("registry_password: &rp zebra\nmirror_login: *rp\nsame_word: zebra\n"+
		"plain: &p hello\nplain_copy: *p\nvault_creds_token: &vc {login: zebra, user: u}\n<<: *vc\nlist_copy: [a, *rp]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range es {
		got[e.Name] = e.SecretCopy
	}
	for _, tc := range []struct {
		name, reason string
		want         bool
	}{
		{"mirror_login", "an alias of registry_password's anchor", true},
		{"list_copy", "a list holding such an alias", true},
		{"login", "a key a merge key brings in from an anchor under a secret key", true},
		{"user", "every key of that anchor: the whole value is under the secret key", true},
		{"same_word", "the same word, no alias", false},
		{"plain_copy", "an alias of a plain anchor", false},
		{"registry_password", "the anchor itself: hidden by its own name", false},
	} {
		if v, ok := got[tc.name]; !ok || v != tc.want {
			t.Errorf("%s (%s): SecretCopy = %v (present %v), want %v", tc.name, tc.reason, v, ok, tc.want)
		}
	}
}
