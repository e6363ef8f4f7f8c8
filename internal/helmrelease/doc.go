// Package helmrelease reads what a cluster says about a Helm release that helm-controller
// manages, and compares it with the values k3sconf computed for the HelmChart: "I set it —
// is it in effect?"
//
// Its input is the objects of `kubectl get … -o json` (the --objects document): the release
// Secrets Helm's storage driver writes (type helm.sh/release.v1, labels owner=helm,
// name, status, version, and the helmcharts.helm.cattle.io/configHash label klipper-helm adds
// with --labels), the helm-install-NAME and helm-delete-NAME Jobs helm-controller creates
// (their conditions, the config hash on their pod template, EXPECTED_RELEASE_REVISION), and
// any other Secret, which [Objects.SecretData] hands to a HelmChart's valuesSecrets.
// [Collect] gathers them from the document's nodes.
//
// A release Secret's data.release is, as kubectl prints it, base64 of Helm's own encoding:
// base64 of gzipped JSON (helm pkg/storage/driver/util.go encodeRelease). [Decode] undoes
// both layers with bounds: the Secret's text, the gunzipped JSON ([MaxRelease]), so a gzip
// bomb is refused with a finding at the Secret's position instead of filling memory.
//
// [Compare] takes the user-supplied values k3sconf computed (what Helm stores as the
// release's config) and says, for the release as a whole and for each leaf path, whether the
// newest deployed revision has them ("in effect"), whether a job is still to run or has
// failed ("pending"), or whether the manifests changed after the last upgrade and no job has
// run since ("drifted"), with the reasoning helm-controller itself uses (pkg/controllers/
// chart/chart.go: latestRelease, jobComplete, jobFailed, the config hash).
//
// Nothing here prints a value: [Status.Note] and [Status.Doc] take the caller's redaction,
// since a release's values hold secrets like any other values.
package helmrelease
