package resolve

import (
	"testing"

	"github.com/k3sconf/k3sconf/diag"
)

// TestReplacerReason: the sentence built in one allocation is the one the merge's words
// make, for every shape of position and both kinds of key (each case says which).
func TestReplacerReason(t *testing.T) {
	old := func(rp *replacer) string {
		head := "replaced by " + rp.k.rawKey + ": at " + rp.pos.String()
		s := head + ": a later config file wins"
		if rp.list {
			s = head + ": a key without '+' replaces the earlier value, lists included (write " + rp.k.key + "+: there to append)"
		}
		if rp.k.program != "" {
			s = k3sWord.ReplaceAllString(s, rp.k.program+"$1")
		}
		return s
	}
	k := &replKey{rawKey: "node-label:", key: "node-label"}
	rke2 := &replKey{rawKey: "tls-san:", key: "tls-san", program: "rke2"}
	for _, tc := range []struct {
		name, reason string
		rp           replacer
	}{
		{"scalar", "file:line:column", replacer{k: k, pos: diag.Position{File: "/etc/rancher/k3s/config.yaml.d/10.yaml", Line: 3, Column: 13}}},
		{"list", "a key without + replacing a list", replacer{k: k, pos: diag.Position{File: "/c.yaml", Line: 12345, Column: 1}, list: true}},
		{"no-column", "a column of 0 is left out", replacer{k: k, pos: diag.Position{File: "/c.yaml", Line: 7}}},
		{"file-only", "a line of 0 leaves out the column too", replacer{k: k, pos: diag.Position{File: "/c.yaml", Column: 9}}},
		{"rke2", "another product's name replaces k3s's", replacer{k: rke2, pos: diag.Position{File: "/etc/rancher/rke2/config.yaml", Line: 1, Column: 10}, list: true}},
	} {
		if got, want := tc.rp.reason(), old(&tc.rp); got != want {
			t.Errorf("%s (%s):\n got %q\nwant %q", tc.name, tc.reason, got, want)
		}
	}
}
