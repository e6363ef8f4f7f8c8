// Command k3sconf explains a k3s or RKE2 node's effective configuration: the value of every
// flag, where it came from (file:line:column), and why every other setting lost.
//
//	k3sconf [--root DIR] [--product k3s|rke2] [--command server|agent|etcd-snapshot]
//	        [--unit PATH] [--config PATH] [--k3s-version V] [--json | -o json|yaml]
//	        [--show-secrets] show | explain KEY… | args | sources | check | status |
//	        components | values CHART | compose [FILE] | fleet | kubespray … | version
//
// Exit codes, the same rule for every command (docs/exit-codes.md): 0 ok; 1 the node has a
// problem (k3s or systemd would refuse it, check found errors, a pending restart, an unknown
// key, a compose node that loses its identity); 2 usage; 3 k3sconf could not read some of
// its input, so the report is incomplete (3 wins over 1). --json documents are described
// in docs/json.md, with a JSON Schema each in docs/schema;
// `k3sconf help COMMAND` teaches each command and docs/cli.md has the reference, generated
// from the command tree (spf13/cobra; cli.go) by go generate.
package main
