package nodereport

import (
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// reason redacts why an assignment has its outcome. A reason k3sconf rendered from its own
// record of the config entry that replaced it (Assignment.Reason empty) quotes only that
// entry's key and position: only the distinctive secrets are looked for. Any other reason
// may quote input and goes through Scrub.
func reason(red *output.Redactor, a *resolve.Assignment) string {
	if !red.On() {
		return a.Why()
	}
	if a.Reason == "" {
		return red.Known(a.Why())
	}
	return red.Scrub(a.Reason)
}
