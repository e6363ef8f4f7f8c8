// Package componentsreport renders a [components.Report] for `k3sconf components`: the
// disable list with its sources, one block per component, the findings, and the JSON
// document (docs/json.md), every value through the caller's redactor. [DiagnosticDocs] is
// the findings in the JSON shape every document shares, which the values document uses
// too.
//
// It is internal: a library user reads the [components.Report] itself.
package componentsreport
