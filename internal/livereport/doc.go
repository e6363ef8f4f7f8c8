// Package livereport renders a [live.Status] for `k3sconf status`: the one-screen text and
// the --json document (docs/json.md, docs/schema/status.schema.json). Values are redacted
// with every resolution's secrets at once (today's, the running process's and the node
// annotation's), so a secret only the running process has is hidden too.
//
// It is internal: a library user reads the [live.Status] itself (its Drift, Stale and
// Diagnostics, and [live.Status.Value] for a key's running value, redacted).
package livereport
