package live_test

import (
	"github.com/k3sconf/k3sconf/internal/livereport"
	"github.com/k3sconf/k3sconf/live"
)

// The renderer for this package's own tests (render_test.go): set before any test runs.
func init() {
	live.Renderers.Text = livereport.Text
	live.Renderers.JSON = livereport.JSON
}
