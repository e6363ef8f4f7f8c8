package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/k3sconf/k3sconf/internal/startgc"
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
	gcMaxPercent = startgc.Percent // 400, set already while the packages initialise
	// gcBoundedPercent is the ceiling of a command whose heap stays far below the budget
	// (smallHeapGC): the percentage at which Go's smallest heap goal, 4 MiB*p/100, is the
	// budget.
	gcBoundedPercent = gcBudget / (4 << 20) * 100
)

// gcPercent is the GOGC that keeps the heap goal, live*(1+p/100), within the budget,
// between gcMinPercent and ceiling.
func gcPercent(live uint64, ceiling int) int {
	if live == 0 {
		return ceiling
	}
	p := int((gcBudget*100)/live) - 100
	return min(max(p, gcMinPercent), ceiling)
}

// gcState is the live heap at the last collection, the ceiling of the percentage and
// whether adviseHugePages is allocating its range, read and set under its lock (tuneGC's
// finalizer, smallHeapGC and adviseHugePages all choose).
var gcState struct {
	sync.Mutex
	live     uint64
	ceiling  int
	advising bool
}

// chooseGCPercent sets the percentage from the last live heap and the ceiling, or turns
// the collector off while adviseHugePages allocates its range (the collection it runs
// next frees the range: one started by the allocation itself would be for nothing); the
// caller holds gcState's lock.
func chooseGCPercent() {
	p := gcPercent(gcState.live, gcState.ceiling)
	if gcState.advising {
		p = -1
	}
	debug.SetGCPercent(p)
}

// gcAdvising marks the start and end of adviseHugePages' allocation (see chooseGCPercent);
// nothing when the environment chose the collector's settings.
func gcAdvising(on bool) {
	if !gcTuned {
		return
	}
	gcState.Lock()
	defer gcState.Unlock()
	gcState.advising = on
	chooseGCPercent()
}

// smallHeapGC raises the ceiling of the percentage to gcBoundedPercent for a command whose
// heap stays well within the budget: kubespray explain and where (explain of ten variables
// on kubespray's own tree allocates about 31 MB). Such a command collects once its heap
// reaches the budget instead of at Go's smallest goal for GOGC=400, 16 MiB: that
// collection, of about 10 MB of live data, was 9 % of that explain's instructions, for
// nothing (docs/performance.md). The heap goal stays within the budget, and after a
// collection the percentage is chosen by the same rule.
func smallHeapGC() {
	if !gcTuned {
		return
	}
	gcState.Lock()
	defer gcState.Unlock()
	gcState.ceiling = gcBoundedPercent
	chooseGCPercent()
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
	gcState.ceiling = gcMaxPercent
	chooseGCPercent()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.SetFinalizer(sentinel, func(*[16]byte) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				gcState.Lock()
				gcState.live = sample[0].Value.Uint64()
				chooseGCPercent()
				gcState.Unlock()
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
