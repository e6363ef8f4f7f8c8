// Package runsreport renders a [runs.Report] for `k3sconf kubespray runs`: each run's
// verdict, what the last run did per host and, with --var, whether the variable's change
// was applied; the text and the --json document (docs/schema/kubespray-runs.schema.json).
// Names taken from a log pass k3sconf's control-character escaper; the report is redacted
// before it is rendered ([runs.Report.Redact]).
//
// It is internal: a library user reads the [runs.Report] itself.
package runsreport
