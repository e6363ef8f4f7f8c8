// Package diag holds what every other k3sconf package reports with: a [Position] in a file on
// the node, a [Diagnostic] (a finding with a severity, a stable code, a message and a hint)
// and a [ParseError] for input that cannot be read at all.
//
// Readers in package sources return diagnostics for what they notice; package resolve adds
// its own and keeps them all in one list, so that `k3sconf check`, `explain` and `show --json`
// print the same findings.
package diag
