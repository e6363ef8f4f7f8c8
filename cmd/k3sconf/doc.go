// Command k3sconf explains a k3s or RKE2 node's effective configuration: the value of every
// flag, where it came from (file:line:column), and why every other setting lost.
//
//	k3sconf [--root DIR] [--product k3s|rke2] [--command server|agent|etcd-snapshot]
//	        [--unit PATH] [--config PATH] [--k3s-version V] [--json] [--show-secrets]
//	        show | explain KEY… | args | sources | check | status | components | compose [FILE]
//
// Exit codes: 0 ok; 1 problems found (check, status, compose) or an unknown key (explain);
// 2 usage; 3 a node file cannot be read or parsed. `k3sconf --help` and `k3sconf help COMMAND`
// teach the rest; docs/cli.md has the reference.
package main
