// Package startgc sets the collector's percentage to the CLI's first one (cmd/k3sconf's
// tuneGC, GOGC=400) while the program's packages are still being initialised. Go's first
// heap goal is 4 MiB, and the packages' initialisation allocates about 3 MB (most of it
// santhosh-tekuri/jsonschema compiling its meta-schemas): in five of six runs of kubespray
// explain a collection started at the end of it, with its stop-the-world pauses, for a
// heap of 1 MB live. A package is initialised once its imports are, the first in the
// order of import paths among those ready (the Go specification, "Package
// initialization"): this one imports only os and runtime/debug, so it comes before the
// packages that allocate (github.com/santhosh-tekuri/… sorts after it). GOGC or GOMEMLIMIT
// in the environment win, as in tuneGC. Only the CLI imports it.
package startgc

import (
	"os"
	"runtime/debug"
)

// Percent is the percentage set: cmd/k3sconf's gcMaxPercent.
const Percent = 400

func init() {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if !gogc && !limit {
		debug.SetGCPercent(Percent)
	}
}
