package yamlalias

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCopiesSecret: an alias copies a secret when its anchor sits under a secret key, at
// any depth, whatever the value; not when the anchor is under a plain key.
func TestCopiesSecret(t *testing.T) {
	secret := func(k string) bool { return strings.HasSuffix(k, "token") || strings.HasSuffix(k, "password") }
	cases := []struct {
		name, reason, doc, key string
		want                   bool
	}{
		{"scalar", "the issue's case: a common word anchored on agent-token", "agent-token: &a server\nnode-name: *a\n", "node-name", true},
		{"plain-anchor", "an anchor on a plain key is no secret", "cluster-domain: &a server\nnode-name: *a\n", "node-name", false},
		{"list-item", "an alias as one item of a list", "agent-token: &a server\nnode-label: [x, *a]\n", "node-label", true},
		{"item-anchor", "an anchor on an item of a secret key's list", "registry_password: [&a server]\nnode-name: *a\n", "node-name", true},
		{"nested", "an anchor on a value deep under a secret key", "auth:\n  password: &p server\nuser:\n  login: *p\n", "user", true},
		{"inside-secret-map", "an anchor anywhere inside a secret key's value", "db_password:\n  v: &p x\nplain: *p\n", "plain", true},
		{"no-alias", "a plain value that equals the secret is no alias", "agent-token: server\nnode-name: server\n", "node-name", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			anchors := SecretAnchors(&doc, secret)
			var got bool
			root := doc.Content[0]
			for i := 0; i+1 < len(root.Content); i += 2 {
				if root.Content[i].Value == tc.key {
					got = CopiesSecret(root.Content[i+1], anchors)
				}
			}
			if got != tc.want {
				t.Errorf("%s: CopiesSecret(%s) = %v, want %v", tc.reason, tc.key, got, tc.want)
			}
		})
	}
}
