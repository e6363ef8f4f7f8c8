// Package composereport renders a [compose.Report] for `k3sconf compose`: the text for
// people, ending with the compose lines that fix the file, and the JSON document
// (docs/json.md), every value through the one redactor ([NewRedactor]: the tokens of every
// node's command and environment).
//
// It is internal: a library user reads the [compose.Report] itself (and
// [compose.FixYAML] for the fix).
package composereport
