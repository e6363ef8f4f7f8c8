// Package fleetreport renders a [fleet.Report] for `k3sconf fleet`: the node × differing-key
// table with the findings, worst first, and the JSON document (docs/json.md,
// docs/schema/fleet.schema.json). The nodes' values are redacted when they are read, so
// nothing here sees a secret; secret keys show only what a finding says.
//
// It is internal: a library user reads the [fleet.Report] itself.
package fleetreport
