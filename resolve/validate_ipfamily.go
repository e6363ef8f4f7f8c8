package resolve

import (
	"fmt"
	"net"
	"strings"

	"github.com/k3sconf/k3sconf/profile"
)

// families is which IP versions a list of CIDRs or addresses holds, and the version of
// its first item (k3s's ClusterCIDR, ServiceCIDR and NodeIP are the first of each list).
type families struct {
	v4, v6, first6, any bool
}

func familiesOf(items []string, cidr bool) (families, bool) {
	var f families
	for _, it := range items {
		for _, s := range strings.Split(it, ",") {
			var ip net.IP
			if cidr {
				p, _, err := net.ParseCIDR(s)
				if err != nil {
					return f, false // k3s refuses it earlier (server-flag-invalid)
				}
				ip = p
			} else if ip = net.ParseIP(s); ip == nil {
				return f, false
			}
			six := ip.To4() == nil
			if !f.any {
				f.first6, f.any = six, true
			}
			f.v4, f.v6 = f.v4 || !six, f.v6 || six
		}
	}
	return f, true
}

func (f families) dual() bool { return f.v4 && f.v6 }

// checkIPFamilies makes the agent part's network checks on a server (pkg/agent/run.go run,
// 314e3f56d and d90ba3035): cluster-cidr and service-cidr of one IP version (their first
// items alike, both dual-stack or neither), and node addresses for every version the
// cluster uses. k3s has started the server part by then and exits with the error. Agents
// take cluster-cidr from their server, so they are not judged here (fleet, which sees the
// server too, judges them: agent-ip-family-mismatch); nor is a server that runs no agent part. When node-ip is unset, k3s detects the node's addresses: from d90ba3035 on it
// adds an IPv6 address where the host has an IPv6 route (not judged: the host decides);
// before it (v1.24.0 to v1.24.3, v1.23.7 to v1.23.9) it took the one IPv4 address of the
// default route, so a dual-stack cluster-cidr without node-ip stopped k3s
// (k3s-io/k3s#5918, #5943).
func (r *resolver) checkIPFamilies(restart string) {
	if r.res.Command != "server" || r.boolValue("disable-agent") {
		return
	}
	ck, sk := r.res.Key("cluster-cidr"), r.res.Key("service-cidr")
	if ck == nil || ck.Source == nil {
		return // the defaults follow the node's addresses in current k3s
	}
	cluster, ok := familiesOf(r.listValue("cluster-cidr"), true)
	if !ok || !cluster.any {
		return
	}
	list := func(items []string) string {
		var out []string
		for _, it := range items {
			out = append(out, strings.Split(it, ",")...)
		}
		return "[" + strings.Join(out, " ") + "]"
	}
	if sk != nil && sk.Source != nil && r.check("ip-family-service") != nil {
		if service, ok := familiesOf(r.listValue("service-cidr"), true); ok && service.any &&
			(service.first6 != cluster.first6 || service.dual() != cluster.dual()) {
			r.refuse("ip-family-mismatch", refusal{rule: "ip-family-service", key: "service-cidr",
				msg:  fmt.Sprintf("cluster-cidr: %s and service-cidr: %s, must share the same IP version (IPv4, IPv6 or dual-stack)", list(r.listValue("cluster-cidr")), list(r.listValue("service-cidr"))),
				hint: "give service-cidr the same IP versions as cluster-cidr, in the same order (both dual-stack, IPv4 first or IPv6 first in both), " + restart,
				pos:  r.keyPos("service-cidr")})
			return
		}
	}
	nk := r.res.Key("node-ip")
	if nk == nil || nk.Source == nil || len(r.listValue("node-ip")) == 0 {
		if cluster.dual() && r.check("ip-family-node-strict") != nil {
			r.refuse("ip-family-mismatch", refusal{rule: "ip-family-node-strict", key: "cluster-cidr",
				msg:     fmt.Sprintf("cluster-cidr: %s and node-ip: [<the address of the default route>], must share the same IP version (IPv4, IPv6 or dual-stack)", list(r.listValue("cluster-cidr"))),
				why:     fmt.Sprintf("cluster-cidr is dual-stack and node-ip is not set; %s %s detects one IPv4 address only", r.p.Program, releaseName(r.res.Version)),
				hint:    "set node-ip to the node's IPv4 and IPv6 addresses (node-ip: <ipv4>,<ipv6>), or upgrade (the detection finds both from v1.24.4 and v1.23.10), " + restart,
				assumes: "the host's default route is IPv4",
				pos:     r.keyPos("cluster-cidr")})
		}
		return
	}
	node, ok := familiesOf(r.listValue("node-ip"), false)
	if !ok || !node.any {
		return // node-ip-invalid says it
	}
	strict := r.check("ip-family-node-strict") != nil
	bad := (cluster.v6 && !node.v6) || (cluster.v4 && !node.v4)
	if strict {
		bad = bad || node.dual() != cluster.dual()
	}
	rule := "ip-family-node-strict"
	if !strict {
		if r.check("ip-family-node") == nil {
			return
		}
		rule = "ip-family-node"
	}
	if bad {
		hint := "list in node-ip an address of every IP version cluster-cidr uses (node-ip: <ipv4>,<ipv6> for dual-stack), " + restart
		if strict && node.dual() && !cluster.dual() {
			hint = fmt.Sprintf("%s %s wants node-ip of the same IP versions as cluster-cidr: make cluster-cidr and service-cidr dual-stack, or give node-ip one address; %s", r.p.Program, releaseName(r.res.Version), restart)
		}
		r.refuse("ip-family-mismatch", refusal{rule: rule, key: "node-ip",
			msg:  fmt.Sprintf("cluster-cidr: %s and node-ip: %s, must share the same IP version (IPv4, IPv6 or dual-stack)", list(r.listValue("cluster-cidr")), list(r.listValue("node-ip"))),
			hint: hint, pos: r.keyPos("node-ip")})
	}
}

// NodeIPFamilyCheck says whether the agent part of a release compares node-ip with the
// cluster's cluster-cidr (pkg/agent/run.go run: the checks ip-family-node and
// ip-family-node-strict of checkRules), and whether strictly (v1.24.0 to v1.24.3 and v1.23.7
// to v1.23.9: a dual-stack node-ip with a single-stack cluster fails too). An agent makes it
// with the cluster-cidr its server sends; fleet, which sees both, judges agents with it.
// "" is the newest release.
func NodeIPFamilyCheck(version string) (checked, strict bool) {
	beh, err := profile.K3s().Behaviour(version)
	if err != nil {
		return false, false
	}
	strict = ruleByID("ip-family-node-strict").applies(beh)
	return strict || ruleByID("ip-family-node").applies(beh), strict
}
