package main

import (
	"os"
	"strings"
	"testing"
)

// TestWantHugePages: the cases where the heap is advised, each with its reason.
func TestWantHugePages(t *testing.T) {
	const madvise, ovc = "always [madvise] never\n", "0\n"
	tests := []struct {
		godebug, thp, overcommit string
		ptrSize                  uintptr
		want                     bool
		reason                   string
	}{
		{"", madvise, ovc, 8, true, "the common setting: only advised memory gets huge pages"},
		{"", "[always] madvise never\n", ovc, 8, true, "every mapping gets them anyway: the advice changes nothing"},
		{"", "always madvise [never]\n", ovc, 8, false, "the kernel gives none"},
		{"", "", ovc, 8, false, "no THP in this kernel (no sysfs file)"},
		{"disablethp=1", madvise, ovc, 8, false, "Go's own switch against huge pages on its heap"},
		{"gctrace=1,disablethp=1", madvise, ovc, 8, false, "the switch among other settings"},
		{"disablethp=0", madvise, ovc, 8, true, "the switch turned off"},
		{"", madvise, "2\n", 8, false, "strict overcommit: the range would be charged at once"},
		{"", madvise, "1\n", 8, true, "overcommit always: nothing is charged"},
		{"", madvise, "", 8, true, "no overcommit setting to read: the kernel's default (heuristic)"},
		{"", madvise, ovc, 4, false, "a 32-bit address space has no room to spare"},
	}
	for _, tc := range tests {
		if got := wantHugePages(tc.godebug, tc.thp, tc.overcommit, tc.ptrSize); got != tc.want {
			t.Errorf("wantHugePages(%q, %q, %q, %d) = %v, want %v: %s", tc.godebug, tc.thp, tc.overcommit, tc.ptrSize, got, tc.want, tc.reason)
		}
	}
}

// advisedRanges counts the mappings of this process the kernel holds as advised for huge
// pages ("hg" among an smaps entry's VmFlags).
func advisedRanges(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok && strings.Contains(" "+f+" ", " hg ") {
			n++
		}
	}
	return n
}

// TestAdviseRange: the advice reaches the kernel, which marks a mapping of the heap "hg".
func TestAdviseRange(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(b), "[never]") {
		t.Skip("transparent huge pages are off on this kernel")
	}
	before := advisedRanges(t)
	adviseRange(8 << 20)
	if got := advisedRanges(t); got <= before {
		t.Errorf("after adviseRange: %d advised mappings, want more than %d", got, before)
	}
}
