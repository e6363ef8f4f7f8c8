package findings

import (
	"slices"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/resolve"
)

// noData are status codes that say the running state could not be learnt, or is simply
// not there (k3s stopped before a restart is the normal moment to run check). They are
// status's business, not findings about the node's configuration.
var noData = map[string]bool{
	"live-systemd-unavailable": true,
	"live-no-proc":             true,
	"live-not-running":         true,
	"live-start-unknown":       true,
	"live-argv-hidden":         true,
	"live-annotation-missing":  true,
	// identity: the node's files hold no host name; only a note about missing data.
	"identity-hostname-unknown": true,
}

// All returns the findings about the node whose resolution is res, read from node: the
// resolver's, then (for a server) the components', the node identity's (what `explain
// node-name` says; root is where the node's files are on this machine, "/" for this
// machine itself), then status's when st is not nil. A finding reported by two sources
// with the same code, position and message appears once.
func All(node afero.Fs, res *resolve.Result, st *live.Status, root string) diag.Diagnostics {
	out := append([]diag.Diagnostic{}, res.Diagnostics...)
	seen := map[key]bool{}
	for _, d := range out {
		seen[keyOf(d)] = true
	}
	add := func(ds []diag.Diagnostic) {
		// Grown once per face: components may add thousands (a disable item each).
		out = slices.Grow(out, len(ds))
		for _, d := range ds {
			if !seen[keyOf(d)] {
				seen[keyOf(d)] = true
				out = append(out, d)
			}
		}
	}
	if res.Command == "server" {
		add(components.Inspect(node, res).Diagnostics)
	}
	if res.Command == "server" || res.Command == "agent" {
		add(withoutNoData(identity.Derive(node, res, root).Diagnostics))
	}
	if st != nil {
		add(withoutNoData(st.Diagnostics))
	}
	return out
}

func withoutNoData(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if !noData[d.Code] {
			out = append(out, d)
		}
	}
	return out
}

type key struct {
	code, msg string
	pos       diag.Position
}

func keyOf(d diag.Diagnostic) key { return key{d.Code, d.Message, d.Pos} }
