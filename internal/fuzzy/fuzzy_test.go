package fuzzy

import (
	"math/rand"
	"testing"
)

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

// TestDistanceBelow: the bounded distance is the full one cut at the limit, on generated
// pairs (short and long, near and far) and every limit up to one past the distance.
func TestDistanceBelow(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcd-"[rng.Intn(5)]
		}
		return string(b)
	}
	for round := 0; round < 3000; round++ {
		a, b := word(rng.Intn(12)), word(rng.Intn(12))
		if round%10 == 0 {
			a, b = word(60+rng.Intn(10)), word(60+rng.Intn(10)) // past the stack buffer
		}
		d := Distance(a, b)
		for limit := 0; limit <= d+1; limit++ {
			if got, want := DistanceBelow(a, b, limit), min(d, limit); got != want {
				t.Fatalf("DistanceBelow(%q, %q, %d) = %d, want %d (Distance %d)", a, b, limit, got, want, d)
			}
		}
	}
}
