package main

import (
	"runtime/debug"
	"testing"
)

// TestGCPercent: the percentage keeps the heap goal within the budget where it can, and
// stays between Go's default and the ceiling (gcMaxPercent, or gcBoundedPercent for a
// command whose heap stays small).
func TestGCPercent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		live    uint64
		ceiling int
		want    int
		reason  string
	}{
		{"nothing live", 0, gcMaxPercent, gcMaxPercent, "no collection yet: collect rarely"},
		{"small", 4 << 20, gcMaxPercent, gcMaxPercent, "4 MiB live: 5x is 20 MiB, well within the budget"},
		{"a fifth", gcBudget / 5, gcMaxPercent, 400, "live*5 is the budget"},
		{"a quarter", gcBudget / 4, gcMaxPercent, 300, "live*4 is the budget"},
		{"two fifths", gcBudget * 2 / 5, gcMaxPercent, 150, "live*2.5 is the budget"},
		{"half", gcBudget / 2, gcMaxPercent, 100, "live*2 is the budget: Go's default"},
		{"large", 200 << 20, gcMaxPercent, gcMinPercent, "never below Go's default: memory grows with the node instead of the collector running without pause"},
		{"bounded, nothing live", 0, gcBoundedPercent, 1600, "Go's smallest goal, 4 MiB*16, is the budget"},
		{"bounded, 1 MiB", 1 << 20, gcBoundedPercent, 1600, "the rule asks 6300; at the ceiling the goal is Go's smallest, 4 MiB*16: the budget"},
		{"bounded, 8 MiB", 8 << 20, gcBoundedPercent, 700, "live*8 is the budget"},
		{"bounded, a fifth", gcBudget / 5, gcBoundedPercent, 400, "above a fifth of the budget live, the same as the node face"},
		{"bounded, large", 200 << 20, gcBoundedPercent, gcMinPercent, "never below Go's default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcPercent(tc.live, tc.ceiling); got != tc.want {
				t.Errorf("gcPercent(%d, %d) = %d, want %d (%s)", tc.live, tc.ceiling, got, tc.want, tc.reason)
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

// TestGCChoice: the percentage set is the rule's for the last live heap and the ceiling;
// smallHeapGC raises the ceiling only where the CLI tunes the collector (GOGC and
// GOMEMLIMIT unset); the collector is off while adviseHugePages allocates its range.
func TestGCChoice(t *testing.T) {
	prev := debug.SetGCPercent(100)
	savedTuned := gcTuned
	gcState.Lock()
	savedLive, savedCeiling, savedAdvising := gcState.live, gcState.ceiling, gcState.advising
	gcState.Unlock()
	t.Cleanup(func() {
		gcTuned = savedTuned
		gcState.Lock()
		gcState.live, gcState.ceiling, gcState.advising = savedLive, savedCeiling, savedAdvising
		gcState.Unlock()
		debug.SetGCPercent(prev)
	})
	current := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	set := func(live uint64, ceiling int) {
		gcState.Lock()
		gcState.live, gcState.ceiling, gcState.advising = live, ceiling, false
		gcState.Unlock()
	}

	gcTuned = false
	set(1<<20, gcMaxPercent)
	debug.SetGCPercent(250)
	smallHeapGC()
	gcAdvising(true)
	if got := current(); got != 250 {
		t.Errorf("GOGC from the environment: percentage %d, want 250 left alone", got)
	}

	gcTuned = true
	set(1<<20, gcMaxPercent)
	smallHeapGC()
	if got := current(); got != gcBoundedPercent {
		t.Errorf("smallHeapGC with 1 MiB live: percentage %d, want %d", got, gcBoundedPercent)
	}
	gcAdvising(true)
	if got := current(); got != -1 {
		t.Errorf("while advising: percentage %d, want -1 (off)", got)
	}
	gcAdvising(false)
	if got := current(); got != gcBoundedPercent {
		t.Errorf("after advising: percentage %d, want %d", got, gcBoundedPercent)
	}
	set(gcBudget/2, gcBoundedPercent)
	gcAdvising(false)
	if got := current(); got != gcMinPercent {
		t.Errorf("half the budget live: percentage %d, want %d", got, gcMinPercent)
	}
}
