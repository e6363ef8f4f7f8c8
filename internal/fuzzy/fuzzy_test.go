package fuzzy

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b   string
		want   int
		reason string
	}{
		{"kublet-arg", "kubelet-arg", 1, "S15's typo is one insertion away"},
		{"", "abc", 3, "from nothing, every byte is an insertion"},
		{"token", "token", 0, "the same name"},
		{"base", "server", 5, "unrelated words are far apart"},
	}
	for _, tc := range tests {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d: %s", tc.a, tc.b, got, tc.want, tc.reason)
		}
	}
}
