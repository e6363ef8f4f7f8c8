// Package chartsreport renders a [charts.Report] for `k3sconf values`: the text (explain's
// layout: every leaf path a user layer touched with its source and every assignment) and
// the --json document (docs/json.md, docs/schema/values.schema.json). Every value is redacted
// as data before it is formatted (output.Redactor.Data: by its nearest key, by content, a
// Secret's values file whole), and the redactor learns the secret strings first, so a
// message or an argument quoting one is scrubbed too; text and JSON print the same redacted
// values.
//
// It is internal: a library user reads the [charts.Report] (its values.Result, a
// provenance entry per leaf path, and its diag.Diagnostics).
package chartsreport
