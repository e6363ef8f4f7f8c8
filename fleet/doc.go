// Package fleet compares the nodes of one cluster the way k3s (and RKE2) compare a server
// with the cluster it joins, and reports what else differs between them with
// consequences: packaged components, tls-san, data store settings, agents' server URLs,
// secrets, releases and node names.
//
// Nodes come from three kinds of input, which may be mixed ([Load]):
//
//   - `kubectl get nodes -o json`: each Node's <program>.io/node-args annotation (the argv
//     the node last started with, config-file values spliced in, secrets written as
//     "********") and node-env annotation, resolved with the CLI layer of the node's release
//     (status.nodeInfo.kubeletVersion) by [live.ResolveAnnotations]; the control-plane
//     label gives the role;
//   - node folders as `--root` takes them (a support bundle, a mounted disk), resolved with
//     [resolve.Resolve] over [k3sconf.Node];
//   - documents written by `k3sconf --json show` on each node; a folder holding such
//     documents counts as its documents.
//
// # The critical values
//
// A server that joins a cluster with embedded etcd asks the server at its --server URL for
// its configuration (GET /v1-k3s/config) and refuses to start when its own
// CriticalControlArgs differ (k3s-io/k3s pkg/cluster/bootstrap.go compareConfig, called
// from bootstrap: "failed to validate server configuration: critical configuration value
// mismatch between servers"). [Critical] computes each server's CriticalControlArgs as
// pkg/cli/server/server.go does (defaults filled in: 10.42.0.0/16, 10.43.0.0/16, the
// service range's tenth address for cluster-dns; CIDRs masked by net.ParseCIDR; disable
// items split on commas and trimmed, of which only servicelb counts) and compares them as
// compareConfig does for the joining server's release: the fields of the joining
// server's struct only, the other server's missing fields as zero values, an empty
// egress-selector-mode or secrets-encryption-provider on the other side taking the
// joining server's value. Releases that log which fields differ (k3s-io/k3s 13c633da1,
// go-test/deep v1.0.7) get the exact "critical configuration mismatched: …" lines.
// See docs/fleet.md for the per-release table and its sources.
//
// Secrets are never printed. Node folders are compared in memory; show documents carry
// HMAC fingerprints made with the collector's salt (the document's fleet block); documents made with
// different salts cannot be compared and fleet says so. A program reads the [Report]'s
// findings and nodes ([Node.Display] is a value as fleet prints it); the command's table
// and JSON document are internal (internal/fleetreport).
package fleet
