package live

import (
	"io"

	"github.com/k3sconf/k3sconf/output"
)

// This package's tests read `k3sconf status` as it prints it. The renderer is
// internal/livereport, which imports this package, so a test of this package cannot import
// it: renderers_test.go (package live_test, which can) sets Renderers in its init. Tests
// only.
var Renderers struct {
	Text func(io.Writer, *Status, *output.Redactor, bool)
	JSON func(*Status, *output.Redactor, bool) any
}
