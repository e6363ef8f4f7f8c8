package main

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

// Huge pages for the heap (issue 25). On a large node the heap grows to about 60 MB while
// resolving, and every 4 KB page of it is first touched through a page fault: 15,000 of
// them on the 2,000-drop-in node of two-item flow lists, a fifth of the process's CPU time
// on the virtual machine k3sconf is measured on (docs/performance.md), where a fault costs
// microseconds. Go maps its heap as it grows and does not ask for transparent huge pages,
// and under the kernel's common THP setting, "madvise", only memory advised with
// MADV_HUGEPAGE gets them.
//
// So adviseHugePages, run once at start on its own goroutine, grows the heap by gcBudget
// (the most the GC tuning lets the heap reach) with one allocation, advises that range
// MADV_HUGEPAGE and frees it. Go allocates from its lowest free addresses, so the heap then
// grows into the advised range, a 2 MB page per fault. Nothing is touched here (fresh
// memory from the kernel needs no zeroing), so RSS grows only as the heap does, rounded up
// to 2 MB pages. The advice is only advice: where the kernel has no huge page to give, pages
// come 4 KB at a time as before. Output never depends on it.
//
// Nothing is done under GODEBUG=disablethp=1 (Go's own switch to keep huge pages off its
// heap), when the kernel's THP setting is "never", under strict overcommit or in a 32-bit
// process (wantHugePages). A program embedding the library gets
// neither this nor the GC tuning (gc.go) unless it does the same.
func adviseHugePages() {
	thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	overcommit, _ := os.ReadFile("/proc/sys/vm/overcommit_memory")
	if !wantHugePages(os.Getenv("GODEBUG"), string(thp), string(overcommit), unsafe.Sizeof(uintptr(0))) {
		return
	}
	gcAdvising(true)
	adviseRange(gcBudget)
	gcAdvising(false)
	// Free the range now, so the heap's next allocations take it (the collector was off
	// while it was allocated: a collection started by the allocation would have seen it
	// in use, and cost a second one).
	runtime.GC()
}

// wantHugePages: not under GODEBUG=disablethp=1; only when the kernel's THP setting (the
// text of /sys/kernel/mm/transparent_hugepage/enabled, "always [madvise] never") is known
// and not "never"; and not where the range could cost what it saves: in a 32-bit address
// space (ptrSize 4), or under strict overcommit (vm.overcommit_memory 2), where mapping
// the range takes its 64 MiB from the commit limit at once, for a small node too.
func wantHugePages(godebug, thp, overcommit string, ptrSize uintptr) bool {
	for _, kv := range strings.Split(godebug, ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return false
		}
	}
	if ptrSize < 8 || strings.TrimSpace(overcommit) == "2" {
		return false
	}
	return strings.Contains(thp, "[always]") || strings.Contains(thp, "[madvise]")
}

// adviseRange allocates n bytes in chunks of 4 MiB and advises the 2 MB pages of the range
// they span MADV_HUGEPAGE; the chunks are garbage when it returns. Go clears an allocation
// that overlaps memory the heap used before, the whole of it: in chunks, only a chunk at
// the edge of the heap in use is cleared, not n bytes (the rest is fresh from the kernel).
func adviseRange(n int) {
	const hugePage, chunk = 2 << 20, 4 << 20
	var lo, hi uintptr
	chunks := make([][]byte, 0, n/chunk+1)
	for got := 0; got < n; got += chunk {
		c := make([]byte, chunk)
		chunks = append(chunks, c)
		start := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
		if lo == 0 || start < lo {
			lo = start
		}
		hi = max(hi, start+chunk)
	}
	begin := (lo + hugePage - 1) &^ (hugePage - 1)
	end := hi &^ (hugePage - 1)
	if begin < end && end-begin <= uintptr(2*n) {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, begin, end-begin, syscall.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(chunks)
}
