// Package values computes the values a HelmChart is installed with, the way k3s's Helm
// controller and Helm compute them, and keeps, for every leaf, the value in force, where it
// came from and every other assignment with the reason it lost.
//
// The layers, lowest first, are those of k3s-io/helm-controller v0.17.7
// (pkg/controllers/chart/chart.go, commit 21a911f8): the chart's values.yaml; the
// HelmChart's spec.valuesContent (mounted as values-0-000-HelmChart-ValuesContent.yaml),
// spec.values (values-0-001-HelmChart-Values.yaml) and each key of spec.valuesSecrets
// (values-0-002-…, …); then the HelmChartConfig of the same name and namespace, in the same
// order (values-1-…). k3s-io/klipper-helm's entry script passes every /config/*.yaml as
// --values in glob order, and the HelmChart's spec.set as --set (typedVal: integers,
// true/false/null in any case) or --set-string (everything else, commas escaped), keys
// sorted. Helm (pkg/cli/values/options.go, v3.20.2 and v4.1.4) merges the files first
// (maps deep-merge, anything else replaces), then every --set, then every --set-string,
// whatever their order on the command line, and finally coalesces the result with the
// chart's defaults (pkg/chartutil/coalesce.go in v3, pkg/chart/common/util/coalesce.go in
// v4): a null deletes the key and the default under it, decided on the final user values.
//
// [Compute] runs those steps on a [Chart] and its [Input] and returns a [Result]. Values
// files are read as Helm reads them, with sigs.k8s.io/yaml (YAML 1.1 through yaml.v2, then
// JSON: numbers are float64, yes/on are booleans, keys too). Helm 3 reads the first YAML
// document of a values file; Helm 4 (klipper-helm v0.11.0 and later ship Helm v4.1.4) reads
// every document and merges them in order. That, and nothing else in the steps above,
// differs between the two majors.
//
// Values from Secrets are named, never read: a valuesSecrets key is a layer with no
// content, and the report says its values are not shown.
package values
