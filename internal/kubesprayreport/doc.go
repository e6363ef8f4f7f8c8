// Package kubesprayreport renders `k3sconf kubespray explain` and `k3sconf kubespray where`:
// the text and the --json documents (docs/schema/kubespray-explain.schema.json and
// kubespray-where.schema.json). Explain's values are redacted in the [kubespray.Report]
// before anything here reads them; where prints names and positions from the checkout,
// escaped.
//
// It is internal: a library user reads the [kubespray.Report] (its [kubespray.Explained]
// variables, each a provenance entry, with [kubespray.Report.TypeName] and
// [kubespray.Explained.SourceReason]) and the [kubespray.Use]s of [kubespray.Where] with
// [kubespray.Answers].
package kubesprayreport
