// Package render asks a Helm binary the user has to render a HelmChart's chart with exactly
// the values files and --set arguments the Helm job gets, and reports a failure as the job
// would meet it: a template that stops on a value of the wrong type (traefik 27's
// imageVersion on `image.tag: 2.11`: "wrong type for value; expected string; got float64"),
// a chart's own `fail` check (traefik's "All hostPort must match their respective
// containerPort when `hostNetwork` is enabled"), or the chart's values.schema.json.
//
// k3sconf does not link Helm's template engine: it would more than double the binary and
// its start-up (docs/values.md has the measurements). [Render] runs `helm template` only
// when the caller names the binary, in a scratch folder of its own, with no network: the
// HTTP proxies point at a closed local port, Helm's home folders at the scratch folder and
// KUBECONFIG at nothing, so neither a repository nor a cluster can be reached. The chart
// archive and the values files are written there and removed afterwards; the inspected
// node is never written.
//
// [Failure.Paths] are the .Values paths Helm's message names (`<$.Values.image.tag>`, a
// schema's `at '/image/tag'`), for the caller to point at the value's source.
package render
