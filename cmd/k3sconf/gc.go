package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// GC tuning. k3sconf is a short-lived process: most of what it allocates while parsing is
// garbage at once, and what stays (the result) grows with the node. Go's default (GOGC=100)
// lets the heap reach twice the live data; collecting less often saves a fifth of the CPU
// time on a 2,000-drop-in node, but a fixed higher GOGC lets a large node's heap reach four
// or five times its live data, and a fixed memory limit makes the collector run without
// pause once the live data passes it. So the percentage is chosen after every collection:
// as high as gcMaxPercent while the heap goal stays within gcBudget, never lower than Go's
// default. Small nodes rarely collect at all; large ones collect as Go's default does, and
// their memory stays proportional to the node (docs/performance.md).
const (
	gcBudget     = 64 << 20
	gcMinPercent = 100
	gcMaxPercent = 400
)

// gcPercent is the GOGC that keeps the heap goal, live*(1+p/100), within the budget,
// between gcMinPercent and gcMaxPercent.
func gcPercent(live uint64) int {
	if live == 0 {
		return gcMaxPercent
	}
	p := int((gcBudget*100)/live) - 100
	return min(max(p, gcMinPercent), gcMaxPercent)
}

// tuneGC sets the first percentage and re-chooses it after each collection (a finalizer on
// an unreachable object runs once per cycle that frees it). GOGC or GOMEMLIMIT in the
// environment win.
func tuneGC() {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if gogc || limit {
		return
	}
	debug.SetGCPercent(gcMaxPercent)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.SetFinalizer(sentinel, func(*[16]byte) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				debug.SetGCPercent(gcPercent(sample[0].Value.Uint64()))
			}
			arm()
		})
	}
	arm()
}
