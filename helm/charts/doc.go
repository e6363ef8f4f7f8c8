// Package charts answers "I set it in a HelmChartConfig — why didn't it take effect?"
// for one HelmChart of a k3s server: every value the chart is installed with, where it came
// from (file:line:column in the manifest, positions inside valuesContent mapped to the
// manifest's lines) and every other assignment with the reason it lost.
//
// [Inspect] finds the HelmChart and the HelmChartConfig of the same name and namespace among
// the objects k3s applies from the server's manifests folder ([components.Inspect] walks it
// as k3s's deploy controller does) and, with --objects, among the objects the cluster has
// (kubectl get helmcharts,helmchartconfigs -A -o json; they win over the files for the same
// kind, namespace and name). It reads the chart's defaults from spec.chartContent, from the
// archive k3s stages in <data-dir>/server/static/charts for
// https://%{KUBERNETES_API}%/static/charts/NAME.tgz, or from --chart, turns the objects into
// the values files and --set arguments helm-controller gives the Helm job, and merges them
// with [values.Compute].
//
// Findings (codes "values-*") are claims about what the Helm job does with the values: a
// path the chart's defaults do not have (with did-you-mean), a map given where the default
// is a scalar or the reverse, valuesContent that does not parse, spec.set values the API
// server or Helm refuse, a string where a number was meant (or the reverse), an upgrade
// with no values (Helm reuses the release's), and edits to a manifest k3s rewrites at every
// start. With --objects the Helm release the cluster has is compared with the values
// (internal/helmrelease; [Report.ReleaseStatus]), and with [Options].HelmBinary the chart is
// rendered by that helm (helm/internal/render); both are internal.
//
// The [Report] holds the values unredacted. What `k3sconf values` prints, text and --json,
// is rendered from it by internal/chartsreport, which redacts every value as data first.
package charts
