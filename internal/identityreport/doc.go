// Package identityreport renders an [identity.Identity] for `k3sconf explain node-name`:
// the text block and the JSON form, after [Redact] has passed every string that quotes
// input through the caller's redactor (a node-name that copies a secret is hidden in both).
//
// It is internal: a library user reads the [identity.Identity] itself.
package identityreport
