package resolve

import (
	"math/rand"
	"strings"
	"testing"
)

func TestComponentArgsNote(t *testing.T) {
	tests := []struct {
		name, reason string
		items        []string
		collapsed    bool
		want         string
	}{
		{"single", "one item per flag needs no note", []string{"max-pods=150"}, false, ""},
		{"repeated", "GetArgs keeps repeats in order (b6e71ef99); the component keeps the last", []string{"max-pods=100", "--max-pods=150"}, false,
			"--max-pods is passed 2 times (100, 150), in this order; a single-value flag of the component keeps the last (150)"},
		{"collapsed", "before v1.24 k3s kept only the last value (k3s-io/k3s#5374)", []string{"service-account-issuer=a", "service-account-issuer=b"}, true,
			"--service-account-issuer is given 2 times (a, b); k3s before v1.24 passes it once, with the last value (b)"},
		{"append", "flag+= appends to k3s's default", []string{"feature-gates+=Foo=true"}, false,
			"--feature-gates+= appends Foo=true to k3s's own value for --feature-gates"},
		{"prepend", "flag-= prepends", []string{"authorization-mode-=Webhook"}, false,
			"--authorization-mode-= puts Webhook before k3s's own value for --authorization-mode"},
		{"no-value", "a flag without = is passed as =true", []string{"protect-kernel-defaults", "protect-kernel-defaults"}, false,
			"--protect-kernel-defaults is passed 2 times (true, true), in this order; a single-value flag of the component keeps the last (true)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := componentArgsNote(tc.items, tc.collapsed); got != tc.want {
				t.Errorf("%s:\n got %q\nwant %q", tc.reason, got, tc.want)
			}
		})
	}
}

// TestComponentArgsNeedNote checks componentArgsNote's shortcut on generated lists (fixed
// seed): whenever the full table has a note to give, componentArgsNeedNote says so.
func TestComponentArgsNeedNote(t *testing.T) {
	parts := []string{"--", "a", "b", "max-pods", "+", "-", "=", "1", "x=y", "--a"}
	r := rand.New(rand.NewSource(1))
	withNote := 0
	for i := 0; i < 50000; i++ {
		items := make([]string, r.Intn(5))
		for j := range items {
			var b strings.Builder
			for n := r.Intn(4); n >= 0; n-- {
				b.WriteString(parts[r.Intn(len(parts))])
			}
			items[j] = b.String()
		}
		for _, collapsed := range []bool{false, true} {
			full := componentArgsTable(items, collapsed)
			if full != "" {
				withNote++
				if !componentArgsNeedNote(items) {
					t.Fatalf("%q: the table says %q, but componentArgsNeedNote says there is nothing to say", items, full)
				}
			}
		}
	}
	if withNote < 1000 {
		t.Fatalf("only %d generated lists have a note: the test does not exercise the shortcut", withNote)
	}
}
