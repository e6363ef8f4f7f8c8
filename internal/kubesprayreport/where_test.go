package kubesprayreport

import "testing"

// TestPrintable: a control character in a name from the checkout (an escape sequence, a
// newline) is escaped, so where's text stays one line per item and cannot drive the
// terminal; a clean string is kept as it is.
func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want, reason string }{
		{"a\x1b[31mb\nc", `a\x1b[31mb\nc`, "an escape sequence and a newline are quoted"},
		{"roles/a/tasks/main.yml:1:3", "roles/a/tasks/main.yml:1:3", "nothing to escape"},
		{"dé\u0085", `dé\u0085`, "a C1 control character is quoted, other non-ASCII kept"},
	} {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q (%s)", tc.in, got, tc.want, tc.reason)
		}
	}
}
