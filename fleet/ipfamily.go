package fleet

import (
	"fmt"
	"net"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/resolve"
)

// ipVersions is which IP versions a list of CIDRs or addresses holds; ok is false when an
// item does not parse (the node's own check reports it).
func ipVersions(items []string, cidr bool) (v4, v6, ok bool) {
	for _, s := range items {
		var ip net.IP
		if cidr {
			p, _, err := net.ParseCIDR(s)
			if err != nil {
				return false, false, false
			}
			ip = p
		} else if ip = net.ParseIP(s); ip == nil {
			return false, false, false
		}
		if ip.To4() != nil {
			v4 = true
		} else {
			v6 = true
		}
	}
	return v4, v6, v4 || v6
}

// agentIPFamilies makes the agent part's node-ip check for agents, which a node's own files
// cannot: an agent compares its node-ip with the cluster-cidr its server sends
// (k3s-io/k3s pkg/agent/config/config.go get: AgentConfig.ClusterCIDRs from the server's
// ControlConfig; pkg/agent/run.go run: "cluster-cidr: […] and node-ip: […], must share the
// same IP version"), and exits when the node lacks an IP version the cluster uses (v1.24.0
// to v1.24.3 and v1.23.7 to v1.23.9 also when the node has a version the cluster does not).
// The server is the one the agent's server URL names, else every server when they agree;
// only a server's explicit cluster-cidr counts (its default follows its own addresses), and
// only an agent's explicit node-ip (without one k3s detects the host's addresses).
func (a *analysis) agentIPFamilies() {
	for _, n := range a.agents {
		checked, strict := resolve.NodeIPFamilyCheck(n.Release)
		if !checked || keyBool(n, "disable-agent") {
			continue
		}
		nodeIPs := splitItems(keyList(n, "node-ip"), false)
		if len(nodeIPs) == 0 {
			continue
		}
		nv4, nv6, ok := ipVersions(nodeIPs, false)
		if !ok {
			continue
		}
		srv, cidrs := a.agentClusterCIDR(n)
		if srv == nil {
			continue
		}
		cv4, cv6, ok := ipVersions(cidrs, true)
		if !ok {
			continue
		}
		bad := (cv4 && !nv4) || (cv6 && !nv6)
		if strict {
			bad = bad || (nv4 && nv6) != (cv4 && cv6)
		}
		if !bad {
			continue
		}
		msg := fmt.Sprintf("agent %s starts, then exits when its agent part compares its node-ip with the cluster-cidr of server %s: \"cluster-cidr: [%s] and node-ip: [%s], must share the same IP version (IPv4, IPv6 or dual-stack)\" (k3s-io/k3s pkg/agent/run.go run)",
			n.Name, srv.Name, strings.Join(cidrs, " "), strings.Join(nodeIPs, " "))
		hint := fmt.Sprintf("list in the agent's node-ip an address of every IP version cluster-cidr uses (node-ip: <ipv4>,<ipv6> for dual-stack), then restart %s", agentService(n))
		if strict && nv4 && nv6 && !(cv4 && cv6) {
			hint = fmt.Sprintf("%s wants node-ip of the same IP versions as cluster-cidr: give the agent one address of the cluster's version, or make the cluster dual-stack; then restart %s", releaseOr(n.Release), agentService(n))
		}
		f := newFinding(diag.Error, "agent-ip-family-mismatch", msg, hint)
		f.set(n, "node-ip", strings.Join(nodeIPs, ","))
		f.set(srv, "cluster-cidr", strings.Join(cidrs, ","))
		a.add(f)
	}
}

// agentClusterCIDR is the server whose cluster-cidr an agent gets, and that cluster-cidr
// (items split on commas): the server the agent's URL names, else the servers' when they
// all set the same one.
func (a *analysis) agentClusterCIDR(n *Node) (*Node, []string) {
	explicit := func(s *Node) []string {
		if k := s.Keys["cluster-cidr"]; k == nil || k.Source == nil {
			return nil
		}
		return splitItems(keyList(s, "cluster-cidr"), false)
	}
	if s := a.joinTarget(n); s != nil {
		if c := explicit(s); len(c) > 0 {
			return s, c
		}
		return nil, nil
	}
	var srv *Node
	var cidrs []string
	for _, s := range a.servers {
		c := explicit(s)
		if len(c) == 0 || (srv != nil && strings.Join(c, ",") != strings.Join(cidrs, ",")) {
			return nil, nil
		}
		if srv == nil {
			srv, cidrs = s, c
		}
	}
	return srv, cidrs
}

func agentService(n *Node) string {
	if n.Product == "rke2" {
		return "rke2-agent"
	}
	return "k3s-agent"
}

func releaseOr(r string) string {
	if r == "" {
		return "the newest release"
	}
	return r
}
