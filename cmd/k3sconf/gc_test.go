package main

import "testing"

// TestGCPercent: the percentage keeps the heap goal within the budget where it can, and
// stays between Go's default and the maximum.
func TestGCPercent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		live   uint64
		want   int
		reason string
	}{
		{"nothing live", 0, gcMaxPercent, "no collection yet: collect rarely"},
		{"small", 4 << 20, gcMaxPercent, "4 MiB live: 5x is 20 MiB, well within 80 MiB"},
		{"quarter", 16 << 20, 400, "16 MiB * 5 = 80 MiB, exactly the budget"},
		{"half-way", 32 << 20, 150, "32 MiB * 2.5 = 80 MiB"},
		{"at the budget's half", 40 << 20, 100, "40 MiB * 2 = 80 MiB: Go's default"},
		{"large", 200 << 20, gcMinPercent, "never below Go's default: memory grows with the node instead of the collector running without pause"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcPercent(tc.live); got != tc.want {
				t.Errorf("gcPercent(%d) = %d, want %d (%s)", tc.live, got, tc.want, tc.reason)
			}
		})
	}
}
