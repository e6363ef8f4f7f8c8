package dnslabel

import "strings"

// From lower-cases s, turns every character other than a-z and 0-9 into '-', and trims
// dashes from both ends. The result is empty when s has no letter or digit; callers choose
// their own fallback, since an empty name means different things to each.
func From(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
