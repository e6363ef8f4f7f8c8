package runs_test

import (
	"github.com/k3sconf/k3sconf/internal/runsreport"
	"github.com/k3sconf/k3sconf/kubespray/runs"
)

// The renderer for this package's own tests (render_test.go): set before any test runs.
func init() {
	runs.Renderers.Text = runsreport.Text
	runs.Renderers.JSON = runsreport.JSON
	runs.Renderers.VarLine = runsreport.VarLine
}
