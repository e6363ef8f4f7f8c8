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
	gcTuned = true
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

// gcTuned is set when tuneGC chose the collector's settings (GOGC and GOMEMLIMIT unset).
var gcTuned bool

// collectAfterResolve collects once when the resolution is done, if the heap has grown
// past the budget. Then the parse's working data (the parsed files, the config tokens, the
// merge records) is garbage and only the result is live (35 of 82 MB on 2,000 drop-ins of
// flow lists), while the heap goal was set earlier from a larger live heap: without this
// collection the rendering grows the heap further on top of the garbage (peak RSS 111–118
// MB there, 102 MB with it; docs/performance.md). A node below the budget (the
// 2,000-drop-in node of block lists ends resolving at 46 MB) is not collected.
func collectAfterResolve() {
	if !gcTuned {
		return
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 && collectNow(sample[0].Value.Uint64()) {
		runtime.GC()
	}
}

// collectNow: the heap's objects, live or garbage, fill the budget.
func collectNow(heapObjects uint64) bool { return heapObjects >= gcBudget }
