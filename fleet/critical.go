package fleet

import (
	"fmt"
	"math/big"
	"net"
	"slices"
	"strings"

	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/resolve"
)

// The comparison k3s makes when a server joins, per release. Sources: k3s-io/k3s (full
// history read in the manuelbuil/k3s fork at 66a14f0e8, 2026-07-28):
//
//   - pkg/cluster/bootstrap.go compareConfig, added by 1b3187ea0 "Check HA network
//     parameters" (k3s-io/k3s#4579; merged to main 2021-12-08 as 1e0696628; backports
//     #4674 release-1.22, #4675 release-1.21, #4676 release-1.20, validated on
//     v1.22.4-rc1+k3s2, v1.21.7-rc1+k3s2 and v1.20.13-rc1+k3s2): reflect.DeepEqual of the
//     two CriticalControlArgs, "critical configuration value mismatch";
//   - 588d15db8 (2021-12-17, before those releases) took Disables, Skips and
//     DisableKubeProxy out of the struct; NoCoreDNS stayed until 13c633da1 but nothing
//     ever set it, so it never differed;
//   - 13c633da1 "Add Secrets Encryption to CriticalArgs" (#6409, main 2022-11-04;
//     backport #6446 release-1.24, release note "K3s now indicates specifically which
//     cluster-level configuration flags are out of sync"): EncryptSecrets joins, the
//     comparison becomes go-test/deep v1.0.7's Equal with one "critical configuration
//     mismatched: <cli tag or deep path>" warning per difference, and the error "critical
//     configuration value mismatch between servers";
//   - 96162c07c (main 2022-06-30): an empty egress-selector-mode from the other server
//     (a release without the field) takes the joining server's value; aea3703f6 (main
//     2025-04-07) does the same for secrets-encryption-provider.
//
// The other fields entered the struct with their flags (111c1669f flannel-ipv6-masq,
// 9d7230496 egress-selector-mode, f2585c167 flannel-external-ip — v1.25.3+k3s1 reports
// commit f2585c16 —, 15ee88964 and 941119640 multi-cluster-cidr in and out, 37e9b87f6
// embedded-registry, ff679fb3a supervisor-metrics). Their first releases below are
// derived from the date of their merge to main and the backports named in release
// notes; a node whose release predates a field does not compare it, and its own JSON
// lacks it, which the other side reads as the zero value.
var (
	compareCheck = since{23, map[int]patchRev{22: {4, 2}, 21: {7, 2}, 20: {13, 2}}}
	logsFields   = since{26, map[int]patchRev{25: {4, 1}, 24: {8, 1}, 23: {14, 1}}}
)

type fieldKind int

const (
	kIPList fieldKind = iota
	kNetList
	kIP
	kNet
	kBool
	kString
)

// critField is one field of k3s's CriticalControlArgs, in declaration order (the order
// deep reports differences in).
type critField struct {
	name string // Go field name
	tag  string // its cli tag (what k3s logs)
	flag string // the k3sconf key that sets it
	kind fieldKind
	in   func(release) bool
	// fillFromLocal: an empty value on the other server takes the joining server's.
	fillFromLocal bool
}

func always(release) bool { return true }

var critFields = []critField{
	{name: "ClusterDNSs", tag: "cluster-dns", flag: "cluster-dns", kind: kIPList, in: always},
	{name: "ClusterIPRanges", tag: "cluster-cidr", flag: "cluster-cidr", kind: kNetList, in: always},
	{name: "ClusterDNS", tag: "cluster-dns", flag: "cluster-dns", kind: kIP, in: always},
	{name: "ClusterDomain", tag: "cluster-domain", flag: "cluster-domain", kind: kString, in: always},
	{name: "ClusterIPRange", tag: "cluster-cidr", flag: "cluster-cidr", kind: kNet, in: always},
	{name: "DisableCCM", tag: "disable-cloud-controller", flag: "disable-cloud-controller", kind: kBool, in: always},
	{name: "DisableHelmController", tag: "disable-helm-controller", flag: "disable-helm-controller", kind: kBool, in: always},
	{name: "DisableNPC", tag: "disable-network-policy", flag: "disable-network-policy", kind: kBool, in: always},
	{name: "DisableServiceLB", tag: "disable-service-lb", flag: "disable", kind: kBool, in: always},
	{name: "EncryptSecrets", tag: "secrets-encryption", flag: "secrets-encryption", kind: kBool, in: logsFields.has},
	{name: "MultiClusterCIDR", tag: "multi-cluster-cidr", flag: "multi-cluster-cidr", kind: kBool,
		in: func(r release) bool { return since{27, nil}.has(r) && until{since{29, nil}}.has(r) }},
	{name: "EncryptProvider", tag: "secrets-encryption-provider", flag: "secrets-encryption-provider", kind: kString, in: since{33, nil}.has, fillFromLocal: true},
	{name: "EmbeddedRegistry", tag: "embedded-registry", flag: "embedded-registry", kind: kBool,
		in: since{30, map[int]patchRev{29: {1, 1}, 28: {6, 1}, 27: {10, 1}, 26: {13, 1}}}.has},
	{name: "FlannelBackend", tag: "flannel-backend", flag: "flannel-backend", kind: kString, in: always},
	{name: "FlannelIPv6Masq", tag: "flannel-ipv6-masq", flag: "flannel-ipv6-masq", kind: kBool, in: since{24, nil}.has},
	{name: "FlannelExternalIP", tag: "flannel-external-ip", flag: "flannel-external-ip", kind: kBool, in: since{26, map[int]patchRev{25: {3, 1}}}.has},
	{name: "EgressSelectorMode", tag: "egress-selector-mode", flag: "egress-selector-mode", kind: kString,
		in: since{25, map[int]patchRev{24: {1, 1}, 23: {7, 1}, 22: {10, 1}}}.has, fillFromLocal: true},
	{name: "ServiceIPRange", tag: "service-cidr", flag: "service-cidr", kind: kNet, in: always},
	{name: "ServiceIPRanges", tag: "service-cidr", flag: "service-cidr", kind: kNetList, in: always},
	{name: "SupervisorMetrics", tag: "supervisor-metrics", flag: "supervisor-metrics", kind: kBool,
		in: since{31, map[int]patchRev{30: {2, 1}, 29: {6, 1}, 28: {11, 1}}}.has},
}

// critValue is one field's value on one server.
type critValue struct {
	ips  []net.IP
	nets []*net.IPNet
	b    bool
	s    string
	// zero: the server's release lacks the field (the other side reads the zero value).
	zero bool
}

func (v critValue) String() string {
	switch {
	case v.ips != nil:
		var out []string
		for _, ip := range v.ips {
			out = append(out, ip.String())
		}
		return strings.Join(out, ",")
	case v.nets != nil:
		var out []string
		for _, n := range v.nets {
			out = append(out, n.String())
		}
		return strings.Join(out, ",")
	case v.s != "":
		return v.s
	}
	return fmt.Sprint(v.b)
}

// Critical is a server's CriticalControlArgs as k3s computes them from its flags
// (k3s-io/k3s pkg/cli/server/server.go run; for RKE2 also rancher/rke2 pkg/cli/defaults
// and pkg/rke2/rke2.go, which force some of them).
type Critical struct {
	values map[string]critValue
	// Notes say what was assumed (a default that depends on the node's address).
	Notes []string
	// Error is why the values could not be computed (k3s would not start).
	Error string
	rel   release
	rke2  bool
}

// computeCritical derives n's critical values.
func computeCritical(n *Node) *Critical {
	rke2 := n.Product == "rke2"
	c := &Critical{values: map[string]critValue{}, rel: parseRelease(n.Release), rke2: rke2}
	// Defaults follow the node's first address family (util.GetDefaultAddresses): IPv4
	// 10.42.0.0/16 and 10.43.0.0/16, IPv6-only fd00:42::/56 and fd00:43::/112.
	v6 := false
	first := firstNonEmpty(first(keyList(n, "node-ip")), first(n.Addresses))
	if ip := net.ParseIP(first); ip != nil && ip.To4() == nil {
		v6 = true
	}
	if first == "" && (len(keyList(n, "cluster-cidr")) == 0 || len(keyList(n, "service-cidr")) == 0) {
		c.Notes = append(c.Notes, "no node-ip: the default cluster-cidr and service-cidr are taken as IPv4 (k3s picks IPv6 ones on an IPv6-only host)")
	}
	cidrs := func(key, def4, def6 string) []*net.IPNet {
		items := splitItems(keyList(n, key), false)
		if len(items) == 0 {
			items = []string{def4}
			if v6 {
				items = []string{def6}
			}
		}
		var out []*net.IPNet
		for _, it := range items {
			_, p, err := net.ParseCIDR(it)
			if err != nil {
				c.Error = fmt.Sprintf("invalid %s %s: k3s refuses to start", key, it)
				continue
			}
			p.IP = p.IP.To16() // ipsTo16Bytes, and what JSON gives the other side
			out = append(out, p)
		}
		return out
	}
	clusterNets := cidrs("cluster-cidr", "10.42.0.0/16", "fd00:42::/56")
	serviceNets := cidrs("service-cidr", "10.43.0.0/16", "fd00:43::/112")
	var dns []net.IP
	if items := splitItems(keyList(n, "cluster-dns"), false); len(items) > 0 {
		for _, it := range items {
			ip := net.ParseIP(it)
			if ip == nil {
				c.Error = fmt.Sprintf("invalid cluster-dns address %s: k3s refuses to start", it)
				continue
			}
			dns = append(dns, ip.To16())
		}
	} else {
		for _, sn := range serviceNets {
			dns = append(dns, indexedIP(sn, 10))
		}
	}
	c.values["ClusterDNSs"] = critValue{ips: dns}
	c.values["ClusterIPRanges"] = critValue{nets: clusterNets}
	if len(dns) > 0 {
		c.values["ClusterDNS"] = critValue{ips: dns[:1]}
	}
	if len(clusterNets) > 0 {
		c.values["ClusterIPRange"] = critValue{nets: clusterNets[:1]}
	}
	if len(serviceNets) > 0 {
		c.values["ServiceIPRange"] = critValue{nets: serviceNets[:1]}
	}
	c.values["ServiceIPRanges"] = critValue{nets: serviceNets}
	c.values["ClusterDomain"] = critValue{s: keyString(n, "cluster-domain", "cluster.local")}
	disabled := splitItems(keyList(n, "disable"), true)
	c.values["DisableCCM"] = critValue{b: keyBool(n, "disable-cloud-controller")}
	c.values["DisableHelmController"] = critValue{b: keyBool(n, "disable-helm-controller")}
	c.values["DisableNPC"] = critValue{b: keyBool(n, "disable-network-policy")}
	// Only servicelb of the disable items is critical (server.go: Skips["servicelb"]).
	c.values["DisableServiceLB"] = critValue{b: slices.Contains(disabled, "servicelb")}
	c.values["EncryptSecrets"] = critValue{b: keyBool(n, "secrets-encryption")}
	c.values["MultiClusterCIDR"] = critValue{b: keyBool(n, "multi-cluster-cidr")}
	c.values["EncryptProvider"] = critValue{s: keyString(n, "secrets-encryption-provider", "aescbc")}
	c.values["EmbeddedRegistry"] = critValue{b: keyBool(n, "embedded-registry")}
	c.values["FlannelBackend"] = critValue{s: keyString(n, "flannel-backend", "vxlan")}
	c.values["FlannelIPv6Masq"] = critValue{b: keyBool(n, "flannel-ipv6-masq")}
	c.values["FlannelExternalIP"] = critValue{b: keyBool(n, "flannel-external-ip")}
	c.values["EgressSelectorMode"] = critValue{s: keyString(n, "egress-selector-mode", "agent")}
	c.values["SupervisorMetrics"] = critValue{b: keyBool(n, "supervisor-metrics")}
	if rke2 {
		// rancher/rke2 pkg/cli/defaults/defaults.go: DisableNPC = true, FlannelBackend =
		// "none"; pkg/rke2/rke2.go Server: secrets-encryption forced on, every k3s
		// packaged component disabled unless enable-<item> (so servicelb follows
		// enable-servicelb); pkg/cli/cmds/root.go validateCloudProvider: a bundled cloud
		// provider with a CPI chart sets disable-cloud-controller.
		c.values["DisableNPC"] = critValue{b: true}
		c.values["FlannelBackend"] = critValue{s: "none"}
		c.values["FlannelIPv6Masq"] = critValue{}
		c.values["FlannelExternalIP"] = critValue{}
		c.values["EncryptSecrets"] = critValue{b: true}
		c.values["DisableServiceLB"] = critValue{b: !keyBool(n, "enable-servicelb") || slices.Contains(disabled, "servicelb")}
		switch keyString(n, "cloud-provider-name", "") {
		case "rancher-vsphere", "harvester":
			c.values["DisableCCM"] = critValue{b: true}
		}
	}
	for _, f := range critFields {
		if !f.in(c.rel) {
			c.values[f.name] = critValue{zero: true}
		}
	}
	return c
}

// indexedIP is k8s.io/utils/net GetIndexedIP: the network address plus index, 16 bytes.
func indexedIP(n *net.IPNet, index int64) net.IP {
	b := new(big.Int).SetBytes(n.IP.To16())
	b.Add(b, big.NewInt(index))
	out := b.Bytes()
	out = append(make([]byte, 16), out...)
	return net.IP(out[len(out)-16:])
}

// FieldDiff is one critical field that differs between a joining server and the server it
// joins.
type FieldDiff struct {
	Field  string `json:"field"`
	Flag   string `json:"flag"`
	Local  string `json:"joining"`
	Remote string `json:"existing"`
}

// diff describes one differing field in the words of the flag that sets it.
func (c *Critical) diff(f critField, lv, rv critValue) FieldDiff {
	d := FieldDiff{Field: f.name, Flag: f.flag, Local: lv.String(), Remote: rv.String()}
	if f.name == "DisableServiceLB" {
		word := func(v critValue) string {
			if v.b {
				return "servicelb disabled"
			}
			return "servicelb deployed"
		}
		d.Local, d.Remote = word(lv), word(rv)
		if c.rke2 {
			d.Flag = "enable-servicelb"
		}
	}
	if c.rke2 {
		switch f.name {
		case "DisableNPC", "FlannelBackend", "EncryptSecrets", "FlannelIPv6Masq", "FlannelExternalIP":
			d.Flag += " (RKE2 forces it)"
		}
	}
	return d
}

// compareCritical compares as compareConfig does on the joining server (local, in its
// release) against the server it joins (remote). It returns the differing fields and,
// for releases that log them, k3s's warning lines.
func compareCritical(local, remote *Critical) (diffs []FieldDiff, logLines []string) {
	if !compareCheck.has(local.rel) {
		return nil, nil
	}
	var paths []string
	for _, f := range critFields {
		if !f.in(local.rel) {
			continue // the joining server's struct has no such field
		}
		lv := local.values[f.name]
		rv := remote.values[f.name]
		if rv.zero {
			rv = critValue{}
		}
		if f.fillFromLocal && rv.s == "" {
			rv = lv
		}
		p := deepPaths(f, lv, rv)
		if len(p) == 0 {
			continue
		}
		diffs = append(diffs, local.diff(f, lv, rv))
		paths = append(paths, p...)
	}
	if !logsFields.has(local.rel) {
		return diffs, nil
	}
	// go-test/deep stops after MaxDiff (10) differences.
	if len(paths) > 10 {
		paths = paths[:10]
	}
	for _, p := range paths {
		logLines = append(logLines, "critical configuration mismatched: "+p)
	}
	return diffs, logLines
}

// deepPaths are go-test/deep v1.0.7's difference paths for one field, reduced as
// compareConfig reduces them: a path that is the field name itself is logged as the
// field's cli tag, any deeper path as it is ("ClusterDNSs.slice[0].slice[15]"). Checked
// against deep v1.0.7 itself (see fleet's tests).
func deepPaths(f critField, a, b critValue) []string {
	var out []string
	bytesDiff := func(prefix string, x, y []byte) {
		n := max(len(x), len(y))
		for i := 0; i < n; i++ {
			if i >= len(x) || i >= len(y) || x[i] != y[i] {
				out = append(out, fmt.Sprintf("%s.slice[%d]", prefix, i))
			}
		}
	}
	netDiff := func(prefix string, x, y *net.IPNet) {
		bytesDiff(prefix+".IP", x.IP, y.IP)
		bytesDiff(prefix+".Mask", x.Mask, y.Mask)
	}
	switch f.kind {
	case kBool:
		if a.b != b.b {
			out = append(out, f.tag)
		}
	case kString:
		if a.s != b.s {
			out = append(out, f.tag)
		}
	case kIP:
		switch {
		case len(a.ips) == 0 && len(b.ips) == 0:
		case len(a.ips) == 0 || len(b.ips) == 0:
			out = append(out, f.tag)
		default:
			bytesDiff(f.name, a.ips[0], b.ips[0])
		}
	case kNet:
		switch {
		case len(a.nets) == 0 && len(b.nets) == 0:
		case len(a.nets) == 0 || len(b.nets) == 0:
			out = append(out, f.tag)
		default:
			netDiff(f.name, a.nets[0], b.nets[0])
		}
	case kIPList:
		if (a.ips == nil) != (b.ips == nil) {
			return []string{f.tag}
		}
		for i := 0; i < max(len(a.ips), len(b.ips)); i++ {
			p := fmt.Sprintf("%s.slice[%d]", f.name, i)
			if i >= len(a.ips) || i >= len(b.ips) {
				out = append(out, p)
				continue
			}
			bytesDiff(p, a.ips[i], b.ips[i])
		}
	case kNetList:
		if (a.nets == nil) != (b.nets == nil) {
			return []string{f.tag}
		}
		for i := 0; i < max(len(a.nets), len(b.nets)); i++ {
			p := fmt.Sprintf("%s.slice[%d]", f.name, i)
			if i >= len(a.nets) || i >= len(b.nets) {
				out = append(out, p)
				continue
			}
			netDiff(p, a.nets[i], b.nets[i])
		}
	}
	return out
}

// key helpers over a node's redacted keys (the JSON shapes: string, bool, number, list).

func keyValue(n *Node, name string) (any, *provenance.Entry[resolve.Assignment]) {
	k := n.Keys[name]
	if k == nil {
		return nil, nil
	}
	return k.Value, k
}

func keyList(n *Node, name string) []string {
	v, _ := keyValue(n, name)
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil
		}
		return []string{x}
	case []string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}

func keyString(n *Node, name, def string) string {
	v, _ := keyValue(n, name)
	switch x := v.(type) {
	case string:
		if x != "" {
			return x
		}
	case nil:
	default:
		return fmt.Sprint(x)
	}
	return def
}

func keyBool(n *Node, name string) bool {
	v, _ := keyValue(n, name)
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x == "true"
	}
	return false
}

// splitItems is k3s's util.SplitStringSlice (comma split, no trimming); trim adds the
// TrimSpace server.go applies to disable items. Empty items are dropped.
func splitItems(vs []string, trim bool) []string {
	var out []string
	for _, v := range vs {
		for _, it := range strings.Split(v, ",") {
			if trim {
				it = strings.TrimSpace(it)
			}
			if it != "" {
				out = append(out, it)
			}
		}
	}
	return out
}

func first(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}
