package resolve

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/profile"
)

// Phases say when one of k3s's own checks stops the node (diag.Diagnostic.Phase).
const (
	// PhaseStart: k3s refuses to start; it exits with the message before it serves anything.
	PhaseStart = "refuses-to-start"
	// PhaseAfterStart: k3s starts (the supervisor, on a server the apiserver) and then
	// shuts down when an in-process component it started fails (the kubelet's flags).
	PhaseAfterStart = "starts-then-stops"
	// PhaseRetry: k3s starts and never gets ready: it logs the message and retries for
	// ever (systemd sees a running unit).
	PhaseRetry = "retries-forever"
)

// checkRule is one of k3s's checks after parsing, as data: the code that makes it, at which
// commit, and from which release it is made. The checks in validate.go look their rule up
// by id, so the release range of every check is in this one table.
type checkRule struct {
	id string
	// source is file:line in k3s-io/k3s (read in the manuelbuil/k3s mirror) at commit
	// 66a14f0e8 (main, 2026-07-28) unless it names another repository or commit.
	source string
	// since is the first release that makes the check ("" for every modelled release,
	// v1.22.4 on). until, when set, is the first release that no longer makes it.
	since, until string
	// commit is the change that brought the check, with the date it reached main.
	commit string
	phase  string
	// message is k3s's message ("…" for what varies), for docs/checks.md.
	message string
	// backports are the older minor lines that got the change, minor → first patch.
	backports map[int]int
	// untilBackports are the older minor lines where the check went away earlier than
	// until, minor → first patch without it.
	untilBackports map[int]int
	// agentPart: the check is made by the server's agent part after the server part
	// started (pkg/agent/run.go run), not by the kubelet.
	agentPart bool
	// at is the k3s commit source is read at when the code is gone from 66a14f0e8.
	at string
	// removal names a removal row of profile/data/flag-releases.tsv: the check is k3s's
	// refusal of a deprecated flag, made from the row's fatal_from until its removal (since
	// and until come from the row, so the releases are in one place), and source is read at
	// the commit before the removal, not at 66a14f0e8.
	removal string
}

// removalAt is the k3s commit the removed flags' checks are read at: the parent of
// d72377579 "Remove deprecated flags in v1.26".
const removalAt = "d72377579^"

func init() {
	for i := range checkRules {
		c := &checkRules[i]
		if c.removal == "" {
			continue
		}
		for _, rm := range profile.K3s().FlagRemovals() {
			if rm.Name == c.removal {
				c.since, c.until = vString(rm.FatalFrom), vString(rm.Until)
				c.message = rm.Fatal
				c.commit = rm.Source
			}
		}
		if c.until == "" {
			panic("resolve: no removal row " + c.removal) // TestCheckRules
		}
	}
}

func vString(v profile.Version) string { return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch) }

// march2025 are the March 2025 releases that carry d694dd1db's backports (k3s-io/k3s#11943,
// release-1.29 validated 2025-03-13; rancher/rke2#7895-#7897): v1.31.7, v1.30.11 (released
// 2025-03-25, docs.k3s.io release notes) and v1.29.15, beside v1.32.3 on main.
var march2025 = map[int]int{31: 7, 30: 11, 29: 15}

// The first release of a change is derived from main's history, because the mirror has
// neither tags nor release branches: a commit reaches the patch release after the
// k3s-io/kubernetes version main's go.mod names when it lands (d694dd1db landed on
// 2025-03-05 with v1.32.2-k3s1 there, and is first in v1.32.3). Backports to older minor
// lines are not modelled unless a rule names them.
var checkRules = []checkRule{
	// pkg/cli/agent/agent.go Run
	{id: "agent-token", message: "--token is required", source: "pkg/cli/agent/agent.go:83", phase: PhaseStart},
	{id: "agent-server", message: "--server is required", source: "pkg/cli/agent/agent.go:87", phase: PhaseStart},
	// pkg/agent/run.go Run → createProxyAndValidateToken
	{id: "agent-rootless-node-ip", message: "invalid IP[N]: …", source: "pkg/agent/run.go:305 (k8s.io/utils/net IsDualStackIPStrings)", phase: PhaseStart},
	{id: "agent-node-ip", message: "failed to get node name and addresses: invalid node-ip: invalid ip format '…'", source: "pkg/agent/run.go:333", since: "v1.34.2", commit: "a7d3c8559 (2025-09-16, main on v1.34.1)", phase: PhaseStart},
	{id: "agent-node-ip-retry", message: "Waiting to retrieve agent configuration; server is not ready: invalid node-ip: invalid ip format '…'", source: "pkg/agent/config/config.go get (before a7d3c8559)", until: "v1.34.2", phase: PhaseRetry},
	{id: "agent-lb-port", message: "listen tcp: address N: invalid port", source: "pkg/agent/loadbalancer/loadbalancer.go:48 (net.Listen)", phase: PhaseStart},
	{id: "agent-server-url", message: "parse \"…\": first path segment in URL cannot contain colon (or another url.Parse error)", source: "pkg/agent/loadbalancer/loadbalancer.go:61, pkg/agent/proxy/apiproxy.go:60", phase: PhaseStart},
	{id: "agent-join-token", message: "Failed to validate connection to cluster at …: invalid token CA hash length | invalid token format | token must not be empty | only https:// URLs are supported, invalid scheme: …", source: "pkg/agent/run.go:349 → pkg/clientaccess/token.go:239,251,367,371", phase: PhaseRetry},
	// removed flags (profile/data/flag-releases.tsv): the commands' Before, then Run
	{id: "disable-selinux", removal: "disable-selinux", source: "pkg/cli/cmds/agent.go:210 CheckSELinuxFlags (server and agent Before)", phase: PhaseStart},
	{id: "agent-cluster-secret", removal: "cluster-secret", source: "pkg/cli/agent/agent.go:49", phase: PhaseStart},
	{id: "agent-no-flannel", removal: "no-flannel", source: "pkg/agent/config/config.go:518 get", phase: PhaseStart},
	{id: "cluster-secret", removal: "cluster-secret", source: "pkg/cli/server/server.go:95", phase: PhaseStart},
	{id: "no-deploy", removal: "no-deploy", source: "pkg/cli/server/server.go:356", phase: PhaseStart},
	{id: "no-flannel", removal: "no-flannel", source: "pkg/agent/config/config.go:518 get (the server's agent part)", phase: PhaseAfterStart},
	// pkg/cli/server/server.go run, in its order
	{id: "rootless-node-ip", message: "invalid IP[N]: …", source: "pkg/cli/server/server.go:114 (k8s.io/utils/net IsDualStackIPStrings)", phase: PhaseStart},
	{id: "reconcile-interval", message: "etcd-snapshot-reconcile-interval must be greater than 0s", source: "pkg/cli/server/server.go:206", since: "v1.32.3", backports: march2025, commit: "d694dd1db (2025-03-05, main on v1.32.2)", phase: PhaseStart},
	{id: "s3-timeout", message: "etcd-s3-timeout must be greater than 0s", source: "pkg/cli/server/server.go:216", since: "v1.32.3", backports: march2025, commit: "d694dd1db (2025-03-05, main on v1.32.2)", phase: PhaseStart},
	{id: "restore-path", message: "invalid flag use; --cluster-reset required with --cluster-reset-restore-path", source: "pkg/cli/server/server.go:246", commit: "866dc94ce (2020-08)", phase: PhaseStart},
	{id: "disable-etcd-server", message: "invalid flag use; --server is required with --disable-etcd", source: "pkg/cli/server/server.go:258", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "datastore-disable-apiserver", message: "invalid flag use; cannot use --disable-apiserver with --datastore-endpoint", source: "pkg/cli/server/server.go:262", since: "v1.29.4", commit: "3f649e3bc (2024-03-27, main on v1.29.3)", phase: PhaseStart},
	{id: "datastore-disable-etcd", message: "invalid flag use; cannot use --disable-etcd with --datastore-endpoint", source: "pkg/cli/server/server.go:266", since: "v1.29.4", commit: "3f649e3bc (2024-03-27, main on v1.29.3)", phase: PhaseStart},
	{id: "node-ip", message: "invalid node-ip: invalid ip format '…'", source: "pkg/cli/server/server.go:294 (pkg/util GetHostnameAndIPs)", phase: PhaseStart},
	{id: "cluster-cidr", message: "invalid cluster-cidr …: …", source: "pkg/cli/server/server.go:316", phase: PhaseStart},
	{id: "service-cidr", message: "invalid service-cidr …: …", source: "pkg/cli/server/server.go:331", phase: PhaseStart},
	{id: "node-port-range", message: "invalid port range …: …", source: "pkg/cli/server/server.go:341 (k8s.io/apimachinery/pkg/util/net ParsePortRange)", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "service-cidr-size", message: "the service cluster IP range must be at least 8 IP addresses", source: "pkg/cli/server/server.go:345 (k8s.io/kubernetes pkg/controlplane/apiserver/options ServiceIPRange)", phase: PhaseStart},
	{id: "cluster-dns-default", message: "cannot configure default cluster-dns address: can't generate IP with index 10 from subnet. subnet too small. subnet: \"…\"", source: "pkg/cli/server/server.go:359 (k8s.io/utils/net GetIndexedIP)", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "cluster-dns", message: "invalid cluster-dns address …", source: "pkg/cli/server/server.go:367", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "egress-selector-mode", message: "invalid egress-selector-mode …", source: "pkg/cli/server/server.go:670", since: "v1.24.1", commit: "9d7230496 (2022-05-18, main on v1.24.0)", phase: PhaseStart},
	{id: "tls-min-version", message: "invalid tls-min-version: unknown tls version \"…\"", source: "pkg/cli/server/server.go:409 (k8s.io/component-base/cli/flag TLSVersion)", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "tls-arg-no-value", message: "server panicked: runtime error: index out of range [1] with length 1", source: "pkg/cli/server/server.go:88 recover, pkg/util/args.go:17 ArgValue", since: "v1.36.2", commit: "ad2fa9df0 (2026-05-28, main on v1.36.1) added the recover", phase: PhaseStart},
	{id: "tls-arg-no-value-panic", message: "panic: runtime error: index out of range [1] with length 1", source: "pkg/util/args.go:17 ArgValue (no recover in run before ad2fa9df0)", until: "v1.36.2", phase: PhaseStart},
	{id: "tls-cipher-suites", message: "invalid tls-cipher-suites: Cipher suite … not supported or doesn't exist", source: "pkg/cli/server/server.go:439 (k8s.io/component-base/cli/flag TLSCipherSuites)", commit: "2705431d9 (2021-04)", phase: PhaseStart},
	{id: "helm-controller-arg", message: "failed to parse helm-controller-arg: invalid job-resources JSON: … | invalid --job-tolerations JSON: … | cannot start with thread count of N, …", source: "pkg/cli/server/server.go:451 (k3s-io/helm-controller v0.17.7 pkg/config/types.go:25 GetControllerConfig)", since: "v1.36.3", commit: "9b575c4e5 (2026-06-29, main on v1.36.2)", phase: PhaseStart},
	{id: "cluster-reset-server", message: "cannot perform cluster-reset while server URL is set - remove server from configuration before resetting", source: "pkg/cli/server/server.go:486", since: "v1.28.3", commit: "b6ab24c4f (2023-09-26, main on v1.28.2)", phase: PhaseStart},
	{id: "cluster-reset-restore-token", message: "…/server/token does not exist, please pass --token to complete the restoration", source: "pkg/cli/server/server.go:505", commit: "03485632e (2021-11-17)", phase: PhaseStart},
	// pkg/cluster: the datastore and the join
	{id: "join-token-required", message: "preparing server: failed to bootstrap cluster data: failed to check if bootstrap data has been initialized: token is required to join a cluster", source: "pkg/cluster/bootstrap.go:124 (reached only with a managed datastore: pkg/cluster/managed.go:99)", phase: PhaseStart},
	{id: "join-token-format", message: "… failed to validate token: invalid token CA hash length | invalid token format", source: "pkg/cluster/bootstrap.go:131 → pkg/clientaccess/token.go:239,251", phase: PhaseStart},
	{id: "join-url", message: "… failed to validate token: Invalid server url, failed to parse: … | only https:// URLs are supported, invalid scheme: …", source: "pkg/cluster/bootstrap.go:131 → pkg/clientaccess/token.go:367,371", phase: PhaseStart},
	{id: "server-ignored", message: "(no message: k3s starts alone on kine/sqlite)", source: "pkg/cluster/managed.go:99 (no managed datastore without a token: kine on sqlite)", phase: PhaseStart},
	// pkg/agent/run.go run: the agent part of a server (after the server part started)
	{id: "ip-family-service", message: "cluster-cidr: […] and service-cidr: […], must share the same IP version (IPv4, IPv6 or dual-stack)", source: "pkg/agent/run.go:82", since: "v1.24.0", backports: map[int]int{23: 7},
		commit: "314e3f56d (#5492, 2022-05-03; rancher/rke2 v1.24.1+rke2r1's k3s 491aa11e1068 has it, v1.23.6+rke2r2's 3d425e5d2030 not; the release-1.23 backport validated on v1.23.6+k3s-2f22703c, k3s-io/k3s#5491)", phase: PhaseAfterStart, agentPart: true},
	{id: "ip-family-node-strict", message: "cluster-cidr: […] and node-ip: […], must share the same IP version (IPv4, IPv6 or dual-stack)", source: "pkg/agent/run.go run at 314e3f56d (node-ip autodetected as one IPv4 address)", since: "v1.24.0", until: "v1.24.4", backports: map[int]int{23: 7}, untilBackports: map[int]int{23: 10},
		commit: "314e3f56d (#5492) until d90ba3035 (#5918, 2022-07-29: rancher/rke2 v1.24.4+rke2r1's k3s 7d6982d1fab6 has it, v1.24.3+rke2r1's 4f4cf18fb6a4 not; the release-1.23 backport k3s-io/k3s#5943 was reproduced on v1.23.9+k3s1 and validated on the 1.23 branch for v1.23.10)", phase: PhaseAfterStart, agentPart: true},
	{id: "ip-family-node", message: "cluster-cidr: […] and node-ip: […], must share the same IP version (IPv4, IPv6 or dual-stack)", source: "pkg/agent/run.go:87", since: "v1.24.4", backports: map[int]int{23: 10},
		commit: "d90ba3035 (#5918, 2022-07-29)", phase: PhaseAfterStart, agentPart: true},
	// pkg/cluster/bootstrap.go Bootstrap → reconcileEtcd on a restart (RKE2: etcd is a
	// static pod that still runs). Read at 1d22b6971fbf (rancher/rke2 v1.30.1+rke2r1's k3s).
	{id: "etcd-arg-temporary", message: "Failed to reconcile with temporary etcd: listen tcp …: bind: address already in use", source: "pkg/cluster/bootstrap.go:65 reconcileEtcd → pkg/etcd/etcd.go StartEmbeddedTemporary (the etcd-arg items, pkg/daemons/executor/executor.go ToConfigFile)", at: "1d22b6971fbf",
		since: "v1.27.2", backports: map[int]int{26: 5, 25: 10, 24: 14}, until: "v1.35.1", untilBackports: map[int]int{34: 4, 33: 8, 32: 12},
		commit: "e61fde93c (k3s-io/k3s#7371, 2023-04-27: rancher/rke2 v1.27.2+rke2r1's k3s cbe8d33c9395 has it, v1.27.1+rke2r1's 944f811dc534 not; backports k3s-io/k3s#7486 validated on v1.26.4+k3s-e8d9ed79, #7487 on v1.25.9+k3s-938c984d, #7488, all in the May 2023 releases; rancher/rke2#4479 hit it on v1.25.11) until d38b4b30c (k3s-io/k3s#13368, 2025-12-18, main on v1.35.0: no temporary etcd; it fixes k3s-io/k3s#13371, whose backport issues #13505 to #13508 for release-1.35 to release-1.32 (2026-01-26) put it in the February 2026 releases: rancher/rke2 v1.35.1+rke2r1, v1.34.4+rke2r1, v1.33.8+rke2r1 and v1.32.12+rke2r1 name k3s commits of 2026-02-11, their predecessors of December 2025 and January 2026)", phase: PhaseStart},
	// the kubelet k3s runs in-process (pkg/executor/embed/embed.go:209: "kubelet exited")
	{id: "kubelet-node-ip", message: "bad --node-ip \"…\": must contain either a single IP or a dual-stack pair of IPs | dual-stack node IP cannot include '0.0.0.0' or '::'", source: "pkg/executor/embed/embed.go:209 (k8s.io/component-helpers/node/util ParseNodeIPArgument)", phase: PhaseAfterStart},
	{id: "kubelet-node-label", message: "invalid argument \"…\" for \"--node-labels\" flag: malformed pair, expect string=string", source: "pkg/executor/embed/embed.go:209 (k8s.io/component-base/cli/flag MapStringString)", phase: PhaseAfterStart},
	// pkg/cli/etcdsnapshot/etcd_snapshot.go
	{id: "snapshot-save-args", message: "this command does not take any arguments", source: "pkg/cli/etcdsnapshot/etcd_snapshot.go:113", commit: "e998cd110 (2021-05)", phase: PhaseStart},
	{id: "snapshot-delete-names", message: "no snapshots given for removal", source: "pkg/cli/etcdsnapshot/etcd_snapshot.go:158", commit: "e998cd110 (2021-05)", phase: PhaseStart},
	{id: "snapshot-ls-format", message: "invalid output format: …", source: "pkg/cli/etcdsnapshot/etcd_snapshot.go:214", since: "v1.23.5", commit: "40a46e141 (2022-02-25, main on v1.23.4)", phase: PhaseStart},
	{id: "snapshot-token", message: "open …/server/token: no such file or directory", source: "pkg/cli/etcdsnapshot/etcd_snapshot.go:84", since: "v1.29.4", commit: "fe465cc83 (2024-04-09 on main; rancher/rke2 v1.29.4+rke2r1 names k3s 94e29e2ef5d7, which has it, v1.29.3+rke2r1 names bba3e3c66b22, which does not)", phase: PhaseStart},
	{id: "snapshot-join-token", message: "invalid token CA hash length | invalid token format | only https:// URLs are supported, invalid scheme: …", source: "pkg/cli/etcdsnapshot/etcd_snapshot.go:90 → pkg/clientaccess/token.go:239,251,367,371", since: "v1.29.4", commit: "fe465cc83 (2024-04-09 on main; rancher/rke2 v1.29.4+rke2r1 names k3s 94e29e2ef5d7, which has it, v1.29.3+rke2r1 names bba3e3c66b22, which does not)", phase: PhaseStart},
}

// rule finds a check's rule; a missing id is a bug in validate.go (TestCheckRules).
func ruleByID(id string) *checkRule {
	for i := range checkRules {
		if checkRules[i].id == id {
			return &checkRules[i]
		}
	}
	return nil
}

// releases renders the rule's release range for messages and JSON.
func (c *checkRule) releases() string {
	switch {
	case c.since != "" && c.until != "" && (len(c.backports) > 0 || len(c.untilBackports) > 0):
		var bs, ends []string
		for minor := 40; minor > 0; minor-- {
			p, ok := c.backports[minor]
			u, uok := c.untilBackports[minor]
			switch {
			case ok && uok:
				bs = append(bs, fmt.Sprintf("v1.%d.%d to before v1.%d.%d", minor, p, minor, u))
			case ok:
				bs = append(bs, fmt.Sprintf("v1.%d.%d on", minor, p))
			case uok:
				ends = append(ends, fmt.Sprintf("v1.%d.%d", minor, u))
			}
		}
		s := c.since + " to before " + c.until
		if len(bs) > 0 {
			s += " (and " + strings.Join(bs, ", ") + ")"
		}
		if len(ends) > 0 {
			s += "; not from " + strings.Join(ends, ", ")
		}
		return s
	case c.since != "" && c.until != "":
		return c.since + " to before " + c.until
	case c.since != "" && len(c.backports) > 0:
		var bs []string
		for minor := 40; minor > 0; minor-- {
			if p, ok := c.backports[minor]; ok {
				bs = append(bs, fmt.Sprintf("v1.%d.%d", minor, p))
			}
		}
		return "since " + c.since + " (backported: " + strings.Join(bs, ", ") + ")"
	case c.since != "":
		return "since " + c.since
	case c.until != "":
		return "before " + c.until
	}
	return "every modelled release (" + profile.OldestModelled + " on)"
}

// applies reports whether the modelled release makes the check.
func (c *checkRule) applies(beh profile.Behaviour) bool {
	if beh.Version == "newest" {
		return c.until == ""
	}
	v, err := profile.ParseVersion(beh.Version)
	if err != nil {
		return true
	}
	if c.since != "" {
		s, _ := profile.ParseVersion(c.since)
		if p, ok := c.backports[v.Minor]; v.Less(s) && !(ok && v.Major == 1 && v.Patch >= p) {
			return false
		}
	}
	if c.until != "" {
		u, _ := profile.ParseVersion(c.until)
		if !v.Less(u) {
			return false
		}
		if p, ok := c.untilBackports[v.Minor]; ok && v.Major == 1 && v.Patch >= p {
			return false
		}
	}
	return true
}
