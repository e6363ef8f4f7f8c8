// Package nodereport renders a [resolve.Result] for the k3sconf command: the JSON documents
// of the output contract (show, args, sources, check, explain; docs/json.md) and the text of
// `show`, `args`, `sources`, `explain` and `check`, plus the salted fingerprints of a show
// document's fleet block.
//
// It is internal: a library user reads the [resolve.Result] itself and redacts what it
// prints with package report's redactor. Every renderer here goes through that one
// [output.Redactor], so secrets never reach the output unless the caller asks for them.
package nodereport
