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
		{"small", 4 << 20, gcMaxPercent, "4 MiB live: 5x is 20 MiB, well within the budget"},
		{"a fifth", gcBudget / 5, 400, "live*5 is the budget"},
		{"a quarter", gcBudget / 4, 300, "live*4 is the budget"},
		{"two fifths", gcBudget * 2 / 5, 150, "live*2.5 is the budget"},
		{"half", gcBudget / 2, 100, "live*2 is the budget: Go's default"},
		{"large", 200 << 20, gcMinPercent, "never below Go's default: memory grows with the node instead of the collector running without pause"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcPercent(tc.live); got != tc.want {
				t.Errorf("gcPercent(%d) = %d, want %d (%s)", tc.live, got, tc.want, tc.reason)
			}
		})
	}
}

// TestCollectNow: the collection after resolving runs only once the heap fills the budget.
func TestCollectNow(t *testing.T) {
	for _, tc := range []struct {
		heap   uint64
		want   bool
		reason string
	}{
		{46 << 20, false, "2,000 drop-ins of block lists end resolving at 46 MB: left to the percentage rule"},
		{gcBudget - 1, false, "just below the budget"},
		{gcBudget, true, "the budget is full"},
		{82 << 20, true, "2,000 drop-ins of flow lists end resolving at 82 MB, 35 MB of it live"},
	} {
		if got := collectNow(tc.heap); got != tc.want {
			t.Errorf("collectNow(%d) = %v, want %v (%s)", tc.heap, got, tc.want, tc.reason)
		}
	}
}
