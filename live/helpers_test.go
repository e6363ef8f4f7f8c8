package live

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// statLine builds a /proc/<pid>/stat line with the given ppid (field 4) and start time
// (field 22); the other fields are plausible constants.
func statLine(pid int, comm string, ppid int, startTicks uint64) string {
	f := []string{"S", fmt.Sprint(ppid), fmt.Sprint(pid), fmt.Sprint(pid), "0", "-1", "4194560", "100", "0", "0", "0",
		"50", "20", "0", "0", "20", "0", "40", "0", fmt.Sprint(startTicks), "900000000", "20000"}
	return fmt.Sprintf("%d (%s) %s 0 0 0\n", pid, comm, strings.Join(f, " "))
}

func writeProcStat(t *testing.T, fsys afero.Fs, btime int64) {
	t.Helper()
	must(t, afero.WriteFile(fsys, "/proc/stat", []byte(fmt.Sprintf("cpu  1 2 3 4\nintr 0\nctxt 1\nbtime %d\nprocesses 9\n", btime)), 0o444))
}

func writeProc(t *testing.T, fsys afero.Fs, pid, ppid int, ticks uint64, cmdline, environ string) {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d", pid)
	must(t, afero.WriteFile(fsys, dir+"/cmdline", []byte(cmdline), 0o444))
	must(t, afero.WriteFile(fsys, dir+"/stat", []byte(statLine(pid, "k3s-server", ppid, ticks)), 0o444))
	must(t, afero.WriteFile(fsys, dir+"/environ", []byte(environ), 0o400))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Argument words are compared as multisets: a flag given twice on one side and once on the
// other is a difference, order is not.
func TestMultisetDiff(t *testing.T) {
	tests := []struct {
		a, b, onlyA, onlyB []string
		why                string
	}{
		{[]string{"--a", "--b"}, []string{"--b", "--a"}, nil, nil, "order does not matter"},
		{[]string{"--x", "--x"}, []string{"--x"}, []string{"--x"}, nil, "a repeat on one side is a difference"},
		{[]string{"--x"}, []string{"--y", "--x"}, nil, []string{"--y"}, "words only in b"},
		{nil, nil, nil, nil, "nothing to compare"},
	}
	for _, tt := range tests {
		onlyA, onlyB := multisetDiff(tt.a, tt.b)
		if !reflect.DeepEqual(onlyA, tt.onlyA) || !reflect.DeepEqual(onlyB, tt.onlyB) {
			t.Errorf("multisetDiff(%q, %q) = %q, %q; want %q, %q (%s)", tt.a, tt.b, onlyA, onlyB, tt.onlyA, tt.onlyB, tt.why)
		}
	}
}
