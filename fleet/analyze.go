package fleet

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/report"
)

// codes are the finding codes fleet reports; each has a triggering and a clean fleet in
// testdata/fleet/<code>.txtar (and <code>--<variant>.txtar).
var codes = []string{
	"critical-mismatch", "critical-differs-unchecked", "product-differs", "component-differs",
	"tls-san-differs", "datastore-differs", "server-url-differs", "secret-differs",
	"secret-not-compared", "release-skew-servers", "release-skew-agent-newer",
	"duplicate-node-name", "duplicate-hostname", "fleet-node-incomplete",
	"separate-clusters", "agent-ip-family-mismatch",
}

// Finding is one thing the fleet's nodes disagree on.
type Finding struct {
	diag.Diagnostic
	// Keys are the flags involved; Nodes the nodes involved, in input order.
	Keys  []string
	Nodes []string
	// Values maps node → key → that node's value (secrets as "secret A", "secret B").
	Values map[string]map[string]string
	// Refused names the server k3s would refuse, for critical-mismatch; JoinTarget the
	// server it would be compared with; Fields the differing fields; LogLines what the
	// refused server logs (releases that log the fields).
	Refused, JoinTarget string
	Fields              []FieldDiff
	LogLines            []string
}

// Report is the analysis of a fleet.
type Report struct {
	Nodes    []*Node
	Inputs   []InputError
	Findings []*Finding
	// SaltIDs are the distinct salts the nodes' fingerprints were made with.
	SaltIDs []string
}

// Failed reports whether a server would be refused or a release skew is unsupported
// (any finding of severity error).
func (r *Report) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity == diag.Error {
			return true
		}
	}
	return false
}

// Incomplete reports whether some input could not be read, wholly or in part (a node
// folder with a file that cannot be read or parsed).
//
// A fleet of no node at all is incomplete too: nothing was there to compare (exit 3, as for
// a node command that finds no node).
func (r *Report) Incomplete() bool {
	if len(r.Inputs) > 0 || len(r.Nodes) == 0 {
		return true
	}
	for _, n := range r.Nodes {
		if n.Unreadable {
			return true
		}
	}
	return false
}

// Analyze compares the nodes.
func Analyze(nodes []*Node, inputs []InputError) *Report {
	uniqueNames(nodes)
	r := &Report{Nodes: nodes, Inputs: inputs}
	a := &analysis{r: r, crit: map[*Node]*Critical{}}
	for _, n := range nodes {
		if n.Role == "server" {
			a.servers = append(a.servers, n)
			a.crit[n] = computeCritical(n)
		} else {
			a.agents = append(a.agents, n)
		}
	}
	a.unreadable()
	a.products()
	a.critical()
	a.components()
	a.tlsSAN()
	a.datastore()
	a.separateClusters()
	a.serverURLs()
	a.agentIPFamilies()
	a.secrets()
	a.releases()
	a.identity()
	seen := map[string]bool{}
	for _, n := range nodes {
		if n.SaltID != "" && !seen[n.SaltID] {
			seen[n.SaltID] = true
			r.SaltIDs = append(r.SaltIDs, n.SaltID)
		}
	}
	sort.SliceStable(r.Findings, func(i, j int) bool {
		return r.Findings[i].Severity.Rank() > r.Findings[j].Severity.Rank()
	})
	return r
}

type analysis struct {
	r               *Report
	servers, agents []*Node
	crit            map[*Node]*Critical
}

func (a *analysis) add(f *Finding) { a.r.Findings = append(a.r.Findings, f) }

func newFinding(sev diag.Severity, code, msg, hint string) *Finding {
	return &Finding{Diagnostic: diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint}, Values: map[string]map[string]string{}}
}

func (f *Finding) set(n *Node, key, value string) {
	if f.Values[n.Name] == nil {
		f.Values[n.Name] = map[string]string{}
		f.Nodes = append(f.Nodes, n.Name)
	}
	f.Values[n.Name][key] = value
	if !slices.Contains(f.Keys, key) {
		f.Keys = append(f.Keys, key)
	}
}

// source is where the node's value of key comes from, for "change it here".
func source(n *Node, key string) string {
	k := n.Keys[key]
	if k == nil || k.Source == nil {
		return "not set in " + n.Input + ", so the default"
	}
	s := k.Source
	p := s.Pos.String()
	if p == "" {
		p = string(s.Kind)
	}
	if s.Name != "" && s.Kind == "env" {
		p += " " + s.Name
	}
	if n.Kind == KindNodeObject {
		// The annotation holds the spliced argv: it cannot tell the file the value came
		// from; `k3sconf explain KEY` on the node can.
		if s.Kind == "env" {
			return n.Product + ".io/node-env " + s.Name + " of node " + n.Name + " (its unit's environment; `k3sconf explain " + key + "` on it names the file)"
		}
		return n.Product + ".io/node-args of node " + n.Name + " (its unit or config file; `k3sconf explain " + key + "` on it names the line)"
	}
	if n.Kind == KindShow && !strings.HasPrefix(p, n.Input) {
		return p + " (as " + n.Input + " reports)"
	}
	return p
}

func sourcePos(n *Node, key string) diag.Position {
	k := n.Keys[key]
	if k == nil || k.Source == nil || n.Kind == KindNodeObject {
		return diag.Position{}
	}
	return k.Source.Pos
}

func (a *analysis) unreadable() {
	for _, n := range a.r.Nodes {
		if n.Error == "" {
			continue
		}
		f := newFinding(diag.Warning, "fleet-node-incomplete",
			fmt.Sprintf("%s (%s): %s", n.Name, n.Input, n.Error),
			"run `k3sconf check` on that node; its values are compared as far as they are known")
		f.set(n, "error", n.Error)
		a.add(f)
	}
}

// external reports whether a server uses an external datastore: any datastore-endpoint
// (kine for SQL, or external etcd) leaves k3s without managed etcd, and then
// bootstrap reads the datastore instead of comparing (pkg/cluster/bootstrap.go).
func external(n *Node) bool {
	return keyString(n, "datastore-endpoint", "") != ""
}

// joinTarget finds the server a joining server's --server URL points at, by its addresses
// and names; nil when none matches (a load balancer or a fixed registration address).
func (a *analysis) joinTarget(n *Node) *Node {
	host := urlHost(keyString(n, "server", ""))
	if host == "" {
		return nil
	}
	for _, s := range a.servers {
		if s == n {
			continue
		}
		if slices.Contains(addressesOf(s), host) {
			return s
		}
	}
	return nil
}

func urlHost(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return strings.ToLower(p.Hostname())
}

// addressesOf lists the names and addresses a server answers to.
func addressesOf(s *Node) []string {
	var out []string
	add := func(xs ...string) {
		for _, x := range xs {
			if x != "" {
				out = append(out, strings.ToLower(x))
			}
		}
	}
	if !s.nameSecret {
		add(s.NodeName) // a name that copies a secret is matched with no visible address
	}
	add(s.Hostname)
	add(s.Addresses...)
	add(splitItems(keyList(s, "node-ip"), true)...)
	add(splitItems(keyList(s, "node-external-ip"), true)...)
	add(keyString(s, "advertise-address", ""))
	add(splitItems(keyList(s, "tls-san"), true)...)
	return out
}

// critical reports the servers k3s would refuse on join.
func (a *analysis) critical() {
	if len(a.servers) < 2 {
		return
	}
	// The founder: a server with no --server URL (it initialised the cluster).
	var founder *Node
	for _, s := range a.servers {
		if keyString(s, "server", "") == "" {
			founder = s
			break
		}
	}
	if founder == nil {
		founder = a.servers[0]
	}
	for _, s := range a.servers {
		if s == founder {
			continue
		}
		target := a.joinTarget(s)
		how := "its --server URL points at it"
		if target == nil {
			target = founder
			how = "the server that initialised the cluster (its --server URL matches no server's address)"
			if keyString(s, "server", "") == "" {
				how = "the first server: this one has no --server URL, so it starts a cluster of its own"
			}
		}
		lc, rc := a.crit[s], a.crit[target]
		diffs, logs := compareCritical(lc, rc)
		if len(diffs) == 0 {
			// Without the check (before v1.22.4+k3s2) or for fields one release lacks,
			// the values may still differ: compare them plainly.
			if d := plainDiffs(lc, rc); len(d) > 0 {
				a.uncheckedCritical(s, target, d, "its release ("+firstNonEmpty(s.Release, "unknown")+") does not compare these fields when it joins")
			}
			continue
		}
		if external(s) || external(target) {
			a.uncheckedCritical(s, target, diffs, "with an external datastore k3s bootstraps from the datastore and does not compare")
			continue
		}
		flags := flagsOf(s, diffs)
		msg := fmt.Sprintf("%s would be refused when it joins %s (%s): its %s differ%s; k3s stops with \"failed to validate server configuration: %s\"",
			s.Name, target.Name, how, strings.Join(flags, ", "), plural(len(flags)), mismatchError(lc.rel))
		var fixes []string
		for _, fl := range flags {
			var theirs []string
			for _, d := range diffs {
				if d.Flag == fl && !slices.Contains(theirs, d.Remote) {
					theirs = append(theirs, d.Remote)
				}
			}
			fixes = append(fixes, fmt.Sprintf("%s on %s (%s; %s has %s)", fl, s.Name, source(s, strings.Fields(fl)[0]), target.Name, strings.Join(theirs, ", ")))
		}
		f := newFinding(diag.Error, "critical-mismatch", msg, "make them equal on every server: change "+strings.Join(fixes, "; "))
		f.Pos = sourcePos(s, flags[0])
		f.Refused, f.JoinTarget, f.Fields, f.LogLines = s.Name, target.Name, diffs, logs
		for _, d := range diffs {
			f.set(s, d.Flag, d.Local)
			f.set(target, d.Flag, d.Remote)
		}
		a.add(f)
	}
}

// products reports a fleet that mixes k3s and RKE2 servers.
func (a *analysis) products() {
	a.differing("product", diag.Error, "product-differs",
		"the servers run different products (k3s and RKE2): they cannot form one cluster",
		"run one product on every server", func(n *Node) string { return n.Product })
}

// flagsOf lists the flags to change for diffs. A cluster-dns the node does not set follows
// its service-cidr (server.go: the tenth address of each service range), so when
// service-cidr differs too, service-cidr is the one to change.
func flagsOf(s *Node, diffs []FieldDiff) []string {
	var flags []string
	for _, d := range diffs {
		if !slices.Contains(flags, d.Flag) {
			flags = append(flags, d.Flag)
		}
	}
	if k := s.Keys["cluster-dns"]; slices.Contains(flags, "service-cidr") && (k == nil || k.Source == nil) {
		flags = slices.DeleteFunc(flags, func(f string) bool { return f == "cluster-dns" })
	}
	return flags
}

func plural(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func mismatchError(r release) string {
	if logsFields.has(r) {
		return "critical configuration value mismatch between servers"
	}
	return "critical configuration value mismatch"
}

// plainDiffs compares every field both releases have, without k3s's release rules.
func plainDiffs(l, r *Critical) []FieldDiff {
	var out []FieldDiff
	for _, f := range critFields {
		lv, rv := l.values[f.name], r.values[f.name]
		if lv.zero || rv.zero {
			continue
		}
		if len(deepPaths(f, lv, rv)) > 0 {
			out = append(out, l.diff(f, lv, rv))
		}
	}
	return out
}

func (a *analysis) uncheckedCritical(s, target *Node, diffs []FieldDiff, why string) {
	flags := flagsOf(s, diffs)
	f := newFinding(diag.Warning, "critical-differs-unchecked",
		fmt.Sprintf("%s and %s differ in %s, which k3s requires to match on every server; it is not refused because %s, but the servers disagree about the cluster",
			s.Name, target.Name, strings.Join(flags, ", "), why),
		"make them equal: change "+strings.Join(flags, ", ")+" on "+s.Name+" ("+source(s, flags[0])+")")
	f.Pos = sourcePos(s, flags[0])
	f.JoinTarget = target.Name
	f.Fields = diffs
	for _, d := range diffs {
		f.set(s, d.Flag, d.Local)
		f.set(target, d.Flag, d.Remote)
	}
	a.add(f)
}

// Display is the node's value of key as fleet's findings and table print it: "(absent)"
// when the node has no such key, "(unset)" when it is empty. Secrets never appear: the
// node's values are redacted when it is read.
func (n *Node) Display(key string) string {
	k := n.Keys[key]
	if k == nil {
		return "(absent)"
	}
	v := report.FormatValue(k.Value)
	if v == "" || v == "[]" {
		return "(unset)"
	}
	return v
}

// k3sPackaged are k3s's disable items other than servicelb (critical already):
// pkg/cli/cmds/server.go DisableItems.
var k3sPackaged = []string{"coredns", "traefik", "local-storage", "metrics-server", "runtimes"}

// components reports servers that deploy different packaged components: the deploy
// controller of every server writes the manifests it does not disable, so a component
// disabled on some servers comes back whenever another one starts (user scenario S30,
// k3s-io/k3s#2598).
func (a *analysis) components() {
	if len(a.servers) < 2 {
		return
	}
	deployed := map[*Node]map[string]bool{}
	all := map[string]bool{}
	for _, s := range a.servers {
		if s.Product != a.servers[0].Product {
			return // product-differs says it
		}
		set := map[string]bool{}
		if s.Product == "rke2" {
			for _, c := range rke2Components(s) {
				set[c] = true
			}
		} else {
			disabled := splitItems(keyList(s, "disable"), true)
			for _, c := range k3sPackaged {
				if !slices.Contains(disabled, c) {
					set[c] = true
				}
			}
		}
		deployed[s] = set
		for c := range set {
			all[c] = true
		}
	}
	names := make([]string, 0, len(all))
	for c := range all {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		var with, without []*Node
		for _, s := range a.servers {
			if deployed[s][c] {
				with = append(with, s)
			} else {
				without = append(without, s)
			}
		}
		if len(without) == 0 || len(with) == 0 {
			continue
		}
		key := "disable"
		if a.servers[0].Product == "rke2" {
			key = rke2ComponentKey(c)
			base := strings.Fields(c)[0]
			for _, s := range without {
				if slices.Contains(splitItems(keyList(s, "disable"), true), base) {
					key = "disable"
				}
			}
		}
		base := strings.Fields(c)[0]
		fix := fmt.Sprintf("disable it on every server or on none: %s on %s (%s)", key, with[0].Name, source(with[0], key))
		if key == "disable" && a.servers[0].Product == "rke2" {
			// Packaged components are not synced between servers: each server's own
			// files decide, so the fix is on the servers, not on one (issue 29).
			fix = fmt.Sprintf("disable it on every server or on none: add %s to disable on %s, or remove it from disable on %s; then restart each server you changed", base, names2(with), names2(without))
		}
		f := newFinding(diag.Warning, "component-differs",
			fmt.Sprintf("%s is deployed by %s but not by %s: packaged components are not synced between servers, every server's deploy controller writes the manifests it does not disable, so %s comes back whenever %s starts",
				c, names2(with), names2(without), base, names2(with)),
			fix)
		f.Pos = sourcePos(with[0], key)
		for _, s := range a.servers {
			f.set(s, key, s.Display(key))
		}
		a.add(f)
	}
}

// rke2Components are the charts an RKE2 server deploys by the flags that choose them
// (rancher/rke2 pkg/cli/cmds/server.go validateCNI and disableExceptSelected,
// pkg/rke2/rke2.go, pkg/cli/cmds/root.go validateCloudProvider), less its disable list.
func rke2Components(s *Node) []string {
	var out []string
	disabled := splitItems(keyList(s, "disable"), true)
	add := func(c string) {
		if !slices.Contains(disabled, c) {
			out = append(out, c)
		}
	}
	cnis := splitItems(keyList(s, "cni"), true)
	if len(cnis) == 0 {
		cnis = []string{"canal"}
	}
	for _, c := range cnis {
		if c != "none" {
			add("rke2-" + c)
		}
	}
	ing := splitItems(keyList(s, "ingress-controller"), true)
	if len(ing) == 0 {
		// Unset: the release's default (profile's release facts: ingress-nginx before
		// v1.36, the flag's default from v1.31; from v1.36 traefik, or ingress-nginx where
		// its HelmChart is already deployed, a choice each server makes by itself). The
		// server's own disable list still applies: packaged components are not synced
		// between servers, each server's files decide (issue 29).
		if f := profile.RKE2().FactAt("default ingress-controller", s.Release); f != nil && f.Value[0] == "traefik" {
			add("rke2-traefik")
			if !slices.Contains(disabled, "rke2-ingress-nginx") {
				out = append(out, legacyIngressNginx)
			}
		} else {
			add("rke2-ingress-nginx")
		}
	} else {
		for _, c := range ing {
			if c != "none" {
				add("rke2-" + c)
			}
		}
	}
	for _, c := range []string{"rke2-coredns", "rke2-metrics-server", "rke2-snapshot-controller", "rke2-runtimeclasses"} {
		add(c)
	}
	if keyBool(s, "enable-servicelb") {
		out = append(out, "servicelb")
	}
	return out
}

// legacyIngressNginx is what an RKE2 v1.36 server without ingress-controller deploys besides
// (or instead of) traefik: rancher/rke2 003f022f8 keeps ingress-nginx where its HelmChart
// is already deployed, an upgraded cluster.
const legacyIngressNginx = "rke2-ingress-nginx (kept by default where its HelmChart is already deployed)"

func rke2ComponentKey(c string) string {
	switch {
	case c == "servicelb":
		return "enable-servicelb"
	case strings.Contains(c, "ingress") || strings.Contains(c, "traefik"):
		return "ingress-controller"
	case slices.Contains([]string{"rke2-canal", "rke2-calico", "rke2-cilium", "rke2-flannel", "rke2-multus"}, c):
		return "cni"
	}
	return "disable"
}

func names2(ns []*Node) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return strings.Join(out, ", ")
}

// tlsSAN reports servers with different tls-san lists: a client that reaches the
// cluster through a name only some servers' certificates carry fails when it lands on
// another.
func (a *analysis) tlsSAN() {
	a.differing("tls-san", diag.Warning, "tls-san-differs",
		"the servers' certificates carry different extra names (tls-san): a client that reaches the cluster by a name that only some servers carry fails TLS verification on the others",
		"give every server the same tls-san list", func(n *Node) string {
			items := splitItems(keyList(n, "tls-san"), true)
			sort.Strings(items)
			return strings.Join(slices.Compact(items), ",")
		})
}

// differing adds one finding when the servers' values (by value) are not all equal.
func (a *analysis) differing(key string, sev diag.Severity, code, msg, hint string, value func(*Node) string) {
	if len(a.servers) < 2 {
		return
	}
	vals := map[string][]*Node{}
	for _, s := range a.servers {
		v := value(s)
		vals[v] = append(vals[v], s)
	}
	if len(vals) < 2 {
		return
	}
	f := newFinding(sev, code, msg, hint)
	for _, s := range a.servers {
		f.set(s, key, orUnset(value(s)))
	}
	a.add(f)
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return s
}

// datastore reports servers that do not share one data store: embedded etcd next to an
// external datastore, or external datastores that differ (compared by fingerprint).
func (a *analysis) datastore() {
	if len(a.servers) < 2 {
		return
	}
	mode := func(s *Node) string {
		if !external(s) {
			return "embedded etcd"
		}
		return "external"
	}
	a.differing("datastore", diag.Error, "datastore-differs",
		"some servers use embedded etcd and others an external datastore: they are not one cluster",
		"use one datastore for every server: datastore-endpoint on all servers, or on none", mode)
	for _, key := range []string{"datastore-cafile", "datastore-certfile", "datastore-keyfile"} {
		a.differing(key, diag.Warning, "datastore-differs",
			"the servers reach the external datastore with different "+key+" settings",
			"use the same "+key+" on every server", func(n *Node) string {
				if !external(n) {
					return "(embedded etcd)"
				}
				return keyString(n, key, "")
			})
	}
}

// separateClusters reports servers that each start a cluster of their own: cluster-init
// (embedded etcd) with no server to join and no external datastore. k3s's server with
// --cluster-init and no --server initialises a new etcd cluster (pkg/etcd: a new member
// list with only itself), so two such servers are two clusters, whatever else they agree
// on. Only nodes read from their files count: the Node objects of one `kubectl get nodes`
// are in one cluster by definition (a server keeps its etcd membership when its data
// directory has one, whatever its flags say later).
func (a *analysis) separateClusters() {
	var founders []*Node
	for _, s := range a.servers {
		if s.Kind == KindNodeObject || external(s) || keyString(s, "server", "") != "" || !keyBool(s, "cluster-init") {
			continue
		}
		founders = append(founders, s)
	}
	if len(founders) < 2 {
		return
	}
	names := make([]string, len(founders))
	for i, n := range founders {
		names[i] = n.Name
	}
	f := newFinding(diag.Error, "separate-clusters",
		fmt.Sprintf("%d servers each start a cluster of their own (%s): cluster-init with no server to join, so each initialises its own embedded etcd; they are %d clusters, not one", len(founders), strings.Join(names, ", "), len(founders)),
		"keep cluster-init on one server and give the others server: https://<that server>:6443 (and the same token)")
	for _, n := range founders {
		f.set(n, "cluster-init", "true")
		f.set(n, "server", "")
	}
	a.add(f)
}

// serverURLs reports agents (and joining servers) whose --server URLs point at different
// addresses.
func (a *analysis) serverURLs() {
	urls := map[string][]*Node{}
	var nodes []*Node
	for _, n := range a.r.Nodes {
		u := keyString(n, "server", "")
		if u == "" || (n.Role == "server" && a.joinTarget(n) != nil) {
			// A server pointing at another server is how joining works; agents are
			// expected to share one registration address.
			continue
		}
		host := urlHost(u)
		if host == "" {
			host = u
		}
		urls[host] = append(urls[host], n)
		nodes = append(nodes, n)
	}
	if len(urls) < 2 {
		return
	}
	var hosts []string
	for h := range urls {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	f := newFinding(diag.Warning, "server-url-differs",
		fmt.Sprintf("the nodes register through different addresses (%s): a node whose server goes away cannot rejoin until it comes back (agents remember other servers only while they run)", strings.Join(hosts, ", ")),
		"point every agent at one fixed registration address (a load balancer or DNS name for all servers)")
	for _, n := range nodes {
		f.set(n, "server", keyString(n, "server", ""))
	}
	a.add(f)
}

// secrets compares the tokens (and other secrets) by fingerprint.
func (a *analysis) secrets() {
	// Fingerprints made with different salts cannot be compared.
	salts := map[string][]*Node{}
	for _, n := range a.r.Nodes {
		if n.SaltID != "" && len(n.Secrets) > 0 {
			salts[n.SaltID] = append(salts[n.SaltID], n)
		}
	}
	if len(salts) > 1 {
		f := newFinding(diag.Warning, "secret-not-compared",
			fmt.Sprintf("the nodes' secret fingerprints were made with %d different salts (or some nodes were read from folders without --secret-salt): secrets are compared only within one salt", len(salts)),
			"collect every show document in one run with one --secret-salt (and pass the same --secret-salt to fleet for node folders)")
		// In salt order: the finding's node list must not depend on map order.
		ids := make([]string, 0, len(salts))
		for id := range salts {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			for _, n := range salts[id] {
				f.set(n, "salt", saltLabel(id))
			}
		}
		a.add(f)
	}
	var noFP, raw []*Node
	for _, n := range a.r.Nodes {
		if len(n.Omitted) > 0 && n.rawSecrets {
			raw = append(raw, n)
		} else if len(n.Omitted) > 0 {
			noFP = append(noFP, n)
		}
	}
	if len(raw) > 0 {
		f := newFinding(diag.Info, "secret-not-compared",
			fmt.Sprintf("%s: the show documents were written with --show-secrets and hold secret values as they are; fleet hides them and compares secrets only by fingerprint, so they are not compared", names2(raw)),
			"run `k3sconf --json show --secret-salt SALT` (without --show-secrets) on those nodes and give fleet the documents")
		for _, n := range raw {
			f.set(n, "omitted", strings.Join(n.Omitted, ","))
		}
		a.add(f)
	}
	if len(noFP) > 0 {
		f := newFinding(diag.Info, "secret-not-compared",
			fmt.Sprintf("%s: secret values are hidden in the input without a fingerprint (node-args annotations write ********; show documents need --secret-salt), so they are not compared", names2(noFP)),
			"run `k3sconf --json show --secret-salt SALT` on those nodes and give fleet the documents")
		for _, n := range noFP {
			f.set(n, "omitted", strings.Join(n.Omitted, ","))
		}
		a.add(f)
	}
	for _, group := range salts {
		a.compareSecret(group, "token", func(n *Node) bool { return n.Role == "server" }, diag.Error,
			"servers with different tokens: a server whose token differs cannot join (the bootstrap data is encrypted with the token) and is refused")
		a.compareSecret(group, "agent-token", func(n *Node) bool { return n.Role == "server" }, diag.Warning,
			"servers with different agent-tokens: an agent is accepted only by the servers whose agent-token it has")
		a.compareSecret(group, "datastore-endpoint", func(n *Node) bool { return n.Role == "server" && external(n) }, diag.Error,
			"servers with different datastore-endpoint values: they do not share one datastore")
		a.agentTokens(group)
	}
}

func saltLabel(id string) string {
	if id == "this run" {
		return "none (read from a folder)"
	}
	return "salt " + id
}

// compareSecret groups nodes by the fingerprint of key.
func (a *analysis) compareSecret(group []*Node, key string, which func(*Node) bool, sev diag.Severity, msg string) {
	byFP := map[string][]*Node{}
	var order []string
	var nodes []*Node
	for _, n := range group {
		if !which(n) {
			continue
		}
		fp, ok := n.Secrets[key]
		if !ok {
			continue
		}
		if _, seen := byFP[fp]; !seen {
			order = append(order, fp)
		}
		byFP[fp] = append(byFP[fp], n)
		nodes = append(nodes, n)
	}
	if len(byFP) < 2 {
		return
	}
	label := secretLabels(order)
	var where []string
	for _, n := range nodes {
		where = append(where, n.Name+": "+source(n, key))
	}
	f := newFinding(sev, "secret-differs", msg, "set the same "+key+" on every one of them (values are not shown; they are set at "+strings.Join(where, "; ")+")")
	for _, n := range nodes {
		f.set(n, key, label[n.Secrets[key]])
	}
	a.add(f)
}

// agentTokens: each agent's token must be a server's agent-token, or its token when the
// server has no agent-token (k3s pkg/server: the node password file and the agent token
// both authenticate the node user).
func (a *analysis) agentTokens(group []*Node) {
	accepted := map[string]bool{}
	var servers []*Node
	for _, n := range group {
		if n.Role != "server" {
			continue
		}
		servers = append(servers, n)
		// The server token authenticates agents too; agent-token adds a second one.
		for _, k := range []string{"agent-token", "token"} {
			if fp, ok := n.Secrets[k]; ok {
				accepted[fp] = true
			}
		}
	}
	if len(servers) == 0 {
		return
	}
	for _, n := range group {
		if n.Role != "agent" {
			continue
		}
		fp, ok := n.Secrets["token"]
		if !ok {
			continue
		}
		// token and agent-token fingerprint alike (nodereport.Fingerprint).
		if accepted[fp] {
			continue
		}
		f := newFinding(diag.Error, "secret-differs",
			fmt.Sprintf("%s's token is neither the servers' agent-token nor their token: the servers refuse it", n.Name),
			"give the agent the servers' agent-token (or token)")
		f.Hint += " (the agent's token is set at " + source(n, "token") + ")"
		f.set(n, "token", "not accepted")
		a.add(f)
	}
}

func secretLabels(fps []string) map[string]string {
	out := map[string]string{}
	for i, fp := range fps {
		out[fp] = "secret " + string(rune('A'+i%26))
	}
	return out
}

// releases reports agents newer than the servers and servers on different minors.
func (a *analysis) releases() {
	var oldest *Node
	minors := map[int][]*Node{}
	for _, s := range a.servers {
		r := parseRelease(s.Release)
		if !r.known {
			continue
		}
		if oldest == nil || older(r, parseRelease(oldest.Release)) {
			oldest = s
		}
		minors[r.minor] = append(minors[r.minor], s)
	}
	if len(minors) > 1 {
		var ms []int
		for m := range minors {
			ms = append(ms, m)
		}
		sort.Ints(ms)
		sev := diag.Warning
		msg := fmt.Sprintf("servers run different minor releases (1.%d to 1.%d): an upgrade in progress; finish it before changing the configuration", ms[0], ms[len(ms)-1])
		if ms[len(ms)-1]-ms[0] > 1 {
			sev = diag.Error
			msg = fmt.Sprintf("servers run releases more than one minor apart (1.%d and 1.%d): Kubernetes supports upgrading one minor at a time, and its components do not support this skew", ms[0], ms[len(ms)-1])
		}
		f := newFinding(sev, "release-skew-servers", msg, "upgrade the servers one minor at a time to one release")
		for _, s := range a.servers {
			f.set(s, "release", firstNonEmpty(s.Release, "(unknown)"))
		}
		a.add(f)
	}
	if oldest == nil {
		return
	}
	or := parseRelease(oldest.Release)
	for _, n := range a.agents {
		r := parseRelease(n.Release)
		if !r.known || !older(or, r) {
			continue
		}
		// The kubelet must not be newer than the API server (Kubernetes version skew
		// policy, kubernetes/website content/en/releases/version-skew-policy.md, counted in
		// minor versions); k3s upgrades servers before agents for that reason. A newer patch
		// of the same minor is within the policy and k3s has no check of its own: a note.
		sev, msg := diag.Error, fmt.Sprintf("agent %s runs %s, newer than server %s (%s): the kubelet must not be newer than the API server", n.Name, n.Release, oldest.Name, oldest.Release)
		if r.major == or.major && r.minor == or.minor {
			sev, msg = diag.Info, fmt.Sprintf("agent %s runs %s, a newer patch than server %s (%s): Kubernetes' version skew policy counts minor releases, so this is supported; upgrading servers first keeps it so", n.Name, n.Release, oldest.Name, oldest.Release)
		}
		f := newFinding(sev, "release-skew-agent-newer", msg, "upgrade the servers first, then the agents")
		f.set(n, "release", n.Release)
		f.set(oldest, "release", oldest.Release)
		a.add(f)
	}
}

// identity reports duplicate node names and host names.
func (a *analysis) identity() {
	byName := map[string][]*Node{}
	byHost := map[string][]*Node{}
	var names, hosts []string
	for _, n := range a.r.Nodes {
		// A name that copies a secret is compared only with such names (nameKey): equal
		// to a visible one, the finding would print it.
		if k := nameKey(n); k != "" {
			if byName[k] == nil {
				names = append(names, k)
			}
			byName[k] = append(byName[k], n)
		}
		if n.Hostname != "" {
			k := strings.ToLower(n.Hostname)
			if byHost[k] == nil {
				hosts = append(hosts, k)
			}
			byHost[k] = append(byHost[k], n)
		}
	}
	for _, k := range names {
		ns := byName[k]
		if len(ns) < 2 {
			continue
		}
		shown := k
		if ns[0].nameSecret { // every node of ns: names that copy a secret are keyed apart
			shown = output.Redacted // a copy of a secret: compared, never printed
		}
		f := newFinding(diag.Error, "duplicate-node-name",
			fmt.Sprintf("%d inputs register as node %q (%s): the second to start is rejected (\"Node password rejected, duplicate hostname or contents of '/etc/rancher/node/password' may not match server node-passwd entry\")", len(ns), shown, inputs(ns)),
			"give each node its own node-name, or set with-node-id")
		for _, n := range ns {
			f.set(n, "node-name", n.NodeName+" ("+n.Input+")")
		}
		a.add(f)
	}
	for _, k := range hosts {
		ns := byHost[k]
		if len(ns) < 2 || len(byName[nameKey(ns[0])]) > 1 {
			continue
		}
		f := newFinding(diag.Warning, "duplicate-hostname",
			fmt.Sprintf("%d nodes have the host name %q (%s): their node names differ now, but any of them that loses its node-name (or its node id) collides with the others", len(ns), k, inputs(ns)),
			"give each machine its own host name")
		for _, n := range ns {
			f.set(n, "hostname", n.Hostname)
		}
		a.add(f)
	}
}

// nameKey is a node's key in identity's byName ("" when it has no name to compare).
func nameKey(n *Node) string {
	name := strings.ToLower(n.compareName())
	if n.nameSecret && name != "" {
		return "\x00" + name
	}
	return name
}

func inputs(ns []*Node) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Input)
	}
	return strings.Join(out, ", ")
}

// uniqueNames makes the nodes' display names unique (two inputs of one node name are a
// finding, not a collision in the table): later ones get their input added.
func uniqueNames(nodes []*Node) {
	seen := map[string]int{}
	for _, n := range nodes {
		seen[n.Name]++
		if seen[n.Name] > 1 {
			n.Name = fmt.Sprintf("%s (%s)", n.Name, n.Input)
		}
	}
}
