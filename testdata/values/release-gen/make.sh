#!/usr/bin/env bash
# Makes the release Secrets of testdata/values/release-*.txtar with Helm's own code:
# relgen (main.go here) runs helm.sh/helm/v3 v3.20.2's action.Install and action.Upgrade
# with the Secrets storage driver over a client-go fake clientset, given the values files and
# --set-string helm-controller gives the job (the mount names of chart.go), and the
# helmcharts.helm.cattle.io/configHash label klipper-helm's entry adds with --labels. It
# prints the Secrets as `kubectl get secrets -o json` does. The Jobs are written by this
# script in the shape helm-controller v0.17.7's job() gives them (pod template annotation,
# CONFIG_HASH and EXPECTED_RELEASE_REVISION env, the job controller's conditions).
set -euo pipefail
G=${RELGEN:-./relgen}
C=chart/traefik
H1=$(printf one | sha256sum | tr a-f A-F | cut -c1-64)
H2=$(printf two | sha256sum | tr a-f A-F | cut -c1-64)
H3=$(printf three | sha256sum | tr a-f A-F | cut -c1-64)
w() { mkdir -p "$(dirname "$1")"; cat > "$1"; }
w v/chart.yaml <<'V'
image:
  repository: "rancher/mirrored-library-traefik"
  tag: "3.7.8"
V
w v/debug.yaml <<'V'
logs:
  general:
    level: DEBUG
V
w v/secret.yaml <<'V'
dashboard:
  password: "s3cr3t-dashboard-pw"
V
set1=(--set-string global.systemDefaultRegistry=)
job() { # name hash63 full-hash expected-revision condition-json
  jq -n --arg n "$1" --arg h "$2" --arg f "$3" --arg r "$4" --argjson st "$5" '{
    apiVersion: "batch/v1", kind: "Job",
    metadata: {name: $n, namespace: "kube-system", creationTimestamp: "2026-11-30T10:00:00Z",
      labels: {"helmcharts.helm.cattle.io/chart": "traefik"}},
    spec: {backoffLimit: 1000, suspend: false, template: {
      metadata: {annotations: {"helmcharts.helm.cattle.io/configHash": ("SHA256=" + $f)},
        labels: {"helmcharts.helm.cattle.io/chart": "traefik"}},
      spec: {containers: [{name: "helm", image: "rancher/klipper-helm:v0.13.3-build20260727", args: ["install"],
        env: [{name: "NAME", value: "traefik"}, {name: "EXPECTED_RELEASE_REVISION", value: $r}, {name: "CONFIG_HASH", value: $h}]}]}}},
    status: $st}'
}
complete='{"conditions":[{"type":"Complete","status":"True","lastProbeTime":"2026-11-30T10:01:00Z","lastTransitionTime":"2026-11-30T10:01:00Z"}],"startTime":"2026-11-30T10:00:01Z","completionTime":"2026-11-30T10:01:00Z","succeeded":1}'
failed='{"conditions":[{"type":"FailureTarget","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit","lastProbeTime":"2026-11-30T10:05:00Z","lastTransitionTime":"2026-11-30T10:05:00Z"},{"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit","lastProbeTime":"2026-11-30T10:05:00Z","lastTransitionTime":"2026-11-30T10:05:00Z"}],"startTime":"2026-11-30T10:00:01Z","failed":2}'
running='{"conditions":[],"startTime":"2026-11-30T10:00:01Z","active":1,"failed":1}'
values_secret() {
  jq -n --arg d "$(base64 -w0 v/secret.yaml)" '{apiVersion: "v1", kind: "Secret", type: "Opaque",
    metadata: {name: "traefik-dashboard", namespace: "kube-system"}, data: {"values.yaml": $d}}'
}
list() { # secrets.json extra-items...
  local s=$1; shift
  jq --slurpfile extra <(for x in "$@"; do echo "$x"; done) '.items += $extra' "$s"
}
mkdir -p out

# in effect: revision 1 from the HelmChart alone, revision 2 with the HelmChartConfig and
# its valuesSecret; the job that made revision 2 completed.
rm -f st.json
$G -state st.json -chart $C -hash "${H1:0:63}" -f v/chart.yaml "${set1[@]}" install
$G -state st.json -chart $C -hash "${H2:0:63}" -f v/chart.yaml -f v/debug.yaml -f v/secret.yaml "${set1[@]}" upgrade
$G -state st.json emit > s.json
list s.json "$(job helm-install-traefik "${H2:0:63}" "$H2" 1 "$complete")" "$(values_secret)" > out/in-effect.json

# failed: revision 1 from the HelmChart alone; the upgrade to the HelmChartConfig's values
# failed in Helm (revision 2, failed) and the job gave up.
rm -f st.json
$G -state st.json -chart $C -hash "${H1:0:63}" -f v/chart.yaml "${set1[@]}" install
$G -state st.json -chart $C -hash "${H2:0:63}" -fail "timed out waiting for the condition" -f v/chart.yaml -f v/debug.yaml -f v/secret.yaml "${set1[@]}" upgrade || true
$G -state st.json emit > s.json
list s.json "$(job helm-install-traefik "${H2:0:63}" "$H2" 1 "$failed")" "$(values_secret)" > out/failed.json

# pending: revision 1 from the HelmChart alone; the job for the HelmChartConfig is running.
rm -f st.json
$G -state st.json -chart $C -hash "${H1:0:63}" -f v/chart.yaml "${set1[@]}" install
$G -state st.json emit > s.json
list s.json "$(job helm-install-traefik "${H2:0:63}" "$H2" 1 "$running")" "$(values_secret)" > out/pending.json

# drifted: revision 1 has the HelmChartConfig of then (DEBUG); the manifests now say
# otherwise and the job that ran last is the one for revision 1's configuration.
rm -f st.json
$G -state st.json -chart $C -hash "${H3:0:63}" -f v/chart.yaml -f v/debug.yaml -f v/secret.yaml "${set1[@]}" install
$G -state st.json emit > s.json
list s.json "$(job helm-install-traefik "${H3:0:63}" "$H3" 0 "$complete")" "$(values_secret)" > out/drifted.json
rm -f st.json s.json
