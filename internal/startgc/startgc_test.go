package startgc

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestPercentSetAtInit: with GOGC and GOMEMLIMIT unset, the percentage is Percent once the
// package is initialised; set, Go's own settings are left.
func TestPercentSetAtInit(t *testing.T) {
	got := debug.SetGCPercent(100)
	debug.SetGCPercent(got)
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if !gogc && !limit && got != Percent {
		t.Errorf("percentage %d after init, want %d", got, Percent)
	}
	if gogc || limit {
		t.Logf("GOGC or GOMEMLIMIT set: percentage %d, left to Go", got)
	}
}
