// Package components reports the packaged components of a k3s server (coredns, servicelb,
// traefik, local-storage, metrics-server, runtimes, and k3s's own ccm and rolebindings
// manifests) and every user AddOn in the server's manifests folder, each enabled, disabled
// or skipped, with the reasons — the answer to "why is traefik back?".
//
// [Inspect] takes the node's files and a [resolve.Result] for `k3s server`. It reads the
// effective `disable` list the way k3s does (pkg/cli/server/server.go: every item split on
// commas and trimmed) and keeps, for each item, the assignments that contributed it; then it
// walks <data-dir>/server/manifests as k3s's deploy controller does (pkg/deploy/controller.go):
// subfolders included, `<file>.skip` matched by file name, disable items matched against a
// file's name without its last extension or against a subfolder, AddOn names taken from the
// file name up to its first dot. Manifests are read as multi-document YAML to match
// HelmChartConfig objects to HelmCharts by name and namespace.
//
// Every finding is a [diag.Diagnostic] whose code starts with "component-". The rules k3s
// follows that no file on disk can show — packaged manifests are rewritten at every start, so
// local edits are lost; `disable` must match on every server — are stated in the reasons.
//
// The command's text and JSON document of a [Report] are internal
// (internal/componentsreport); [DisableItem.Where] is where an item came from as they
// print it.
package components
