package resolve

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/k3sconf/k3sconf/diag"
)

// validateServer: pkg/cli/server/server.go run in its order, then the datastore choice and
// the join of pkg/cluster (managed.go assignManagedDriver, bootstrap.go
// shouldBootstrapLoad). It reports whether the kubelet checks apply.
func (r *resolver) validateServer() bool {
	service := strings.TrimSuffix(r.p.Units["server"], ".service")
	restart := fmt.Sprintf("then `systemctl restart %s`", service)
	rke2 := r.p.Name == "rke2"
	// server.go:108-121: a rootless server checks node-ip before anything else.
	// Before v1.26: the command's Before hook checks disable-selinux against selinux.
	r.refuseDisableSELinux(restart)
	rootlessBad := r.boolValue("rootless") && !r.boolValue("disable-agent") && r.validateRootlessNodeIPs("rootless-node-ip", restart)
	// v1.25 (d72377579^ server.go:94): cluster-secret without token.
	r.refuseClusterSecret(restart)
	// d694dd1db (v1.32.3): snapshot reconcile and S3 timeouts must be positive.
	if k := r.res.Key("etcd-snapshot-reconcile-interval"); k != nil && r.check("reconcile-interval") != nil && (!r.boolValue("etcd-disable-snapshots") || r.boolValue("cluster-reset")) {
		if d, err := time.ParseDuration(fmt.Sprint(k.Value)); err == nil && d <= 0 {
			r.refuse("server-flag-invalid", refusal{rule: "reconcile-interval", key: k.Name(), msg: "etcd-snapshot-reconcile-interval must be greater than 0s",
				hint: "set etcd-snapshot-reconcile-interval to a positive duration such as 10m, " + restart, pos: r.keyPos(k.Name())})
		}
	}
	if k := r.res.Key("etcd-s3-timeout"); k != nil && r.check("s3-timeout") != nil && r.boolValue("etcd-s3") && (!r.boolValue("etcd-disable-snapshots") || r.boolValue("cluster-reset")) {
		if d, err := time.ParseDuration(fmt.Sprint(k.Value)); err == nil && d <= 0 {
			r.refuse("server-flag-invalid", refusal{rule: "s3-timeout", key: k.Name(), msg: "etcd-s3-timeout must be greater than 0s",
				hint: "set etcd-s3-timeout to a positive duration such as 5m, " + restart, pos: r.keyPos(k.Name())})
		}
	}
	endpoint := r.stringValue("datastore-endpoint") != ""
	joinURL := r.stringValue("server")
	disableEtcd := r.boolValue("disable-etcd")
	if rke2 && (endpoint || (disableEtcd && !r.keySet("server"))) {
		// rancher/rke2 pkg/rke2/rke2_linux.go initStaticPodExecutor (df1f83a18, 2024-04):
		// with an external datastore, or disable-etcd without server (kine), RKE2 turns
		// disable-etcd and cluster-init off before k3s's checks.
		disableEtcd = false
	}
	type combo struct {
		when      bool
		rule, key string
		msg, hint string
	}
	combos := []combo{
		{r.stringValue("cluster-reset-restore-path") != "" && !r.boolValue("cluster-reset"), "restore-path", "cluster-reset-restore-path",
			"invalid flag use; --cluster-reset required with --cluster-reset-restore-path",
			"restore with a one-off `" + r.p.Program + " server --cluster-reset --cluster-reset-restore-path=…` from a shell, and remove cluster-reset-restore-path from the service's configuration"},
		{disableEtcd && joinURL == "", "disable-etcd-server", "disable-etcd",
			"invalid flag use; --server is required with --disable-etcd",
			"a server without etcd joins one that has it: set server: https://<etcd-server>:" + r.supervisorPort() + ", " + restart},
		{endpoint && r.boolValue("disable-apiserver") && r.flagKnown("disable-apiserver"), "datastore-disable-apiserver", "disable-apiserver",
			"invalid flag use; cannot use --disable-apiserver with --datastore-endpoint",
			"remove disable-apiserver (an external datastore needs the apiserver on every server), " + restart},
		{endpoint && disableEtcd && r.flagKnown("disable-etcd"), "datastore-disable-etcd", "disable-etcd",
			"invalid flag use; cannot use --disable-etcd with --datastore-endpoint",
			"remove disable-etcd (with datastore-endpoint there is no etcd to disable), " + restart},
	}
	refusedKey := map[string]bool{}
	for _, c := range combos {
		if c.when && r.check(c.rule) != nil && !refusedKey[c.key] {
			// One key refused twice (disable-etcd without server, and with an external
			// datastore) has one fix, removing it: the second refusal is not reported.
			hint := c.hint
			if c.rule == "disable-etcd-server" && endpoint {
				hint = "remove disable-etcd (with datastore-endpoint there is no etcd to disable), " + restart
			}
			refusedKey[c.key] = true
			r.refuse("server-flag-conflict", refusal{rule: c.rule, key: c.key, msg: c.msg, hint: hint, pos: r.keyPos(c.key)})
		}
	}
	nodeIPBad := !rootlessBad && r.validateNodeIPs("node-ip", restart)
	if nodeIPBad || rootlessBad {
		r.kubeletSkipNodeIP = true
	}
	for _, name := range []string{"cluster-cidr", "service-cidr"} {
	items:
		for _, item := range r.listValue(name) {
			for _, cidr := range strings.Split(item, ",") {
				if _, _, err := net.ParseCIDR(cidr); err != nil {
					shown := r.quote(name, cidr)
					if pe, ok := err.(*net.ParseError); ok && shown != cidr {
						err = &net.ParseError{Type: pe.Type, Text: shown}
					}
					r.refuse("server-flag-invalid", refusal{rule: name, key: name, msg: fmt.Sprintf("invalid %s %s: %v", name, shown, err),
						hint: fmt.Sprintf("write %s as CIDRs such as 10.42.0.0/16 (comma-separated for dual-stack, no spaces), %s", name, restart), pos: r.itemPos(name, item)})
					break items
				}
			}
		}
	}
	// server.go:339: utilnet.ParsePortRange (k8s.io/apimachinery/pkg/util/net/port_range.go).
	if v := r.stringValue("service-node-port-range"); r.res.Key("service-node-port-range") != nil {
		if err := portRangeError(v, r.copied("service-node-port-range")); err != "" {
			r.refuse("server-flag-invalid", refusal{rule: "node-port-range", key: "service-node-port-range", msg: fmt.Sprintf("invalid port range %s: %s", r.quote("service-node-port-range", v), err),
				hint: "write service-node-port-range as FIRST-LAST, such as 30000-32767, " + restart, pos: r.keyPos("service-node-port-range")})
		}
	}
	if ranges, ok := r.serviceRanges(); ok {
		// server.go:345: options.ServiceIPRange needs at least 8 addresses in the first range.
		if serviceRangeSize(ranges[0]) < 8 {
			r.refuse("server-flag-invalid", refusal{rule: "service-cidr-size", key: "service-cidr", msg: "the service cluster IP range must be at least 8 IP addresses",
				why:  fmt.Sprintf("service-cidr %s is too small", ranges[0]),
				hint: "give service-cidr at least 8 addresses (IPv4 /29 or larger; /28 or larger leaves room for the default cluster-dns at index 10), " + restart, pos: r.keyPos("service-cidr")})
		} else if len(r.listValue("cluster-dns")) == 0 {
			// server.go:355-361: the default cluster-dns is index 10 of every service range.
			for _, n := range ranges {
				if !indexedIPFits(n, 10) {
					r.refuse("server-flag-invalid", refusal{rule: "cluster-dns-default", key: "service-cidr",
						msg:  fmt.Sprintf("cannot configure default cluster-dns address: can't generate IP with index 10 from subnet. subnet too small. subnet: %q", n.String()),
						why:  "cluster-dns is not set, and k3s takes the 10th address of each service-cidr",
						hint: "make service-cidr a /28 or larger, or set cluster-dns to an address inside it, " + restart, pos: r.keyPos("service-cidr")})
					break
				}
			}
		}
	}
cluster:
	for _, item := range r.listValue("cluster-dns") {
		for _, ip := range strings.Split(item, ",") {
			if net.ParseIP(ip) == nil {
				r.refuse("server-flag-invalid", refusal{rule: "cluster-dns", key: "cluster-dns", msg: fmt.Sprintf("invalid cluster-dns address %s", r.quote("cluster-dns", ip)),
					hint: "write cluster-dns as IP addresses inside service-cidr, " + restart, pos: r.itemPos("cluster-dns", item)})
				break cluster
			}
		}
	}
	// v1.25 (d72377579^ server.go:355): no-deploy, after the cluster-dns checks.
	r.refuseNoDeploy(restart)
	r.checkClusterDNSInRange()
	if k := r.res.Key("egress-selector-mode"); k != nil && r.check("egress-selector-mode") != nil {
		switch m := r.stringValue("egress-selector-mode"); m {
		case "agent", "cluster", "pod", "disabled":
		default:
			r.refuse("server-flag-invalid", refusal{rule: "egress-selector-mode", key: "egress-selector-mode", msg: fmt.Sprintf("invalid egress-selector-mode %s", r.quote("egress-selector-mode", m)),
				hint: "use one of agent, cluster, pod or disabled, " + restart, pos: r.keyPos("egress-selector-mode")})
		}
	}
	r.validateAPIServerTLS(restart)
	if !r.boolValue("disable-helm-controller") && r.check("helm-controller-arg") != nil {
		r.validateHelmControllerArgs(restart)
	}
	if r.boolValue("cluster-reset") {
		if joinURL != "" && r.check("cluster-reset-server") != nil {
			r.refuse("server-flag-conflict", refusal{rule: "cluster-reset-server", key: "server",
				msg:  "cannot perform cluster-reset while server URL is set - remove server from configuration before resetting",
				hint: "remove server: for the reset (k3s's own advice); add it back after the reset", pos: r.keyPos("server")})
			// Following that advice: no server URL for what comes after, and disable-etcd
			// then needs one (server.go:258).
			joinURL = ""
			if disableEtcd && !rke2 && r.check("disable-etcd-server") != nil { // RKE2 runs kine then
				r.refuse("server-flag-conflict", refusal{rule: "disable-etcd-server", key: "disable-etcd",
					msg: "invalid flag use; --server is required with --disable-etcd", why: "once server: is removed for the reset",
					hint: "remove disable-etcd for the reset as well, " + restart, pos: r.keyPos("disable-etcd")})
			}
		}
		// server.go:497-508: a restore without --token needs <data-dir>/server/token. Only
		// --token counts: token-file is read into the control config, not cfg.Token.
		if r.stringValue("cluster-reset-restore-path") != "" && r.stringValue("token") == "" {
			tokenPath := path.Join(r.dataDir(), "server", "token")
			if ok, assumes := r.hostPath(tokenPath, false); !ok {
				r.refuse("cluster-reset-restore-no-token", refusal{rule: "cluster-reset-restore-token", key: "token",
					msg:  tokenPath + " does not exist, please pass --token to complete the restoration",
					hint: "pass --token with the token of the cluster the snapshot was taken from (token-file does not count here)", assumes: assumes, pos: r.keyPos("cluster-reset-restore-path")})
			}
		}
	}
	ok := r.validateJoin(restart, rke2, endpoint, joinURL)
	if ok {
		r.checkEtcdListenArgs(restart, endpoint, joinURL)
	}
	return ok
}

// keySet reports whether a key was given anywhere (urfave's IsSet), not only its default.
func (r *resolver) keySet(name string) bool {
	k := r.res.Key(name)
	return k != nil && k.Source != nil
}

// validateJoin: pkg/cluster/managed.go:84 assignManagedDriver picks the embedded etcd when
// one is initialised on disk (etcd's IsInitialized: <data-dir>/server/db/etcd/member/wal is
// a directory), else, without datastore-endpoint, when cluster-init is set or both a token
// and a server URL are. Without one k3s runs kine on sqlite as a new single server and
// ignores --server. With one that is not initialised and a server URL, bootstrap.go:124
// needs the token, then validates its format and the URL (token.go:212, 364).
func (r *resolver) validateJoin(restart string, rke2, endpoint bool, joinURL string) bool {
	fileToken, haveFile, missing := r.tokenFile("token-file")
	r.tokenFile("agent-token-file")
	if missing {
		return false // k3s waits for the file
	}
	token := r.stringValue("token")
	if haveFile {
		token = fileToken
	}
	if token == "" {
		token = r.legacyToken() // before v1.25 cluster-secret is the token
	}
	clusterInit := r.boolValue("cluster-init") || r.boolValue("cluster-reset")
	if rke2 {
		// rancher/rke2 pkg/cli/defaults/defaults.go sets cluster-init on every server,
		// unless an external datastore or kine (disable-etcd without server) is used.
		clusterInit = !(endpoint || (r.boolValue("disable-etcd") && !r.keySet("server")))
	}
	walDir := path.Join(r.dataDir(), "server", "db", "etcd", "member", "wal")
	initialised, assumes := r.hostPath(walDir, true)
	managed := initialised || (!endpoint && (clusterInit || (token != "" && joinURL != "")))
	if joinURL == "" || endpoint {
		return true
	}
	if !managed {
		if r.boolValue("disable-etcd") {
			return true
		}
		for i, d := range r.res.Diagnostics {
			if d.Code == "config-server-on-server" || d.Code == "k3s-url-on-server" {
				r.res.Diagnostics[i].Message += "; but without a token it does not join: see server-url-ignored"
			}
		}
		r.refuse("server-url-ignored", refusal{rule: "server-ignored", key: "server", severity: diag.Warning,
			msg:     fmt.Sprintf("%s ignores server: %s: without a token (token:, --token, %s_TOKEN or token-file) and without cluster-init it picks no embedded etcd to join, and starts a new single-server cluster on kine/sqlite", r.p.Program, r.quote("server", joinURL), r.p.EnvPrefix),
			hint:    fmt.Sprintf("to join the cluster, set token: in %s to the cluster's token (the first server's %s/server/token); to run alone, remove server:, %s", r.p.DefaultConfig, r.dataDir(), restart),
			assumes: assumes, pos: r.keyPos("server")})
		return true
	}
	if initialised {
		return true // already joined: token errors are ignored there (bootstrap.go:110)
	}
	const prefix = "preparing server: failed to bootstrap cluster data: failed to check if bootstrap data has been initialized: "
	if token == "" {
		why := "the server has not joined yet (no etcd member under its data-dir)"
		if rke2 {
			why = "RKE2 runs embedded etcd on every server (cluster-init), and the server has not joined yet"
		} else if r.boolValue("cluster-init") {
			why = "cluster-init with server: joins that cluster's etcd, and the server has not joined yet"
		}
		r.refuse("server-join-token-required", refusal{rule: "join-token-required", key: "token", msg: prefix + "token is required to join a cluster", why: why, assumes: assumes,
			hint: fmt.Sprintf("set token: in %s to the cluster's token (the first server's /var/lib/rancher/%s/server/token), %s", r.p.DefaultConfig, r.p.Name, restart), pos: r.keyPos("server")})
	} else if cause := tokenFormatError(token); cause != "" {
		pos := r.tokenPos()
		if haveFile {
			pos = r.keyPos("token-file")
		}
		r.refuse("join-token-invalid", refusal{rule: "join-token-format", key: "token", msg: prefix + "failed to validate token: " + cause, assumes: assumes,
			hint: "copy the token exactly as written in the first server's " + r.dataDir() + "/server/token (K10<64 hex digits>::server:<password>), or give the bare password, " + restart, pos: pos})
	}
	// Once the token is there and parses, the URL comes next (token.go:364).
	if cause := joinURLError(r.redactURL(joinURL), r.copied("server")); cause != "" {
		want := "https://<server>:" + r.supervisorPort()
		if h := httpsURL(joinURL, r.supervisorPort()); h != "" && !r.copied("server") {
			want = r.redactURL(h)
		}
		r.refuse("join-url-invalid", refusal{rule: "join-url", key: "server", msg: prefix + "failed to validate token: " + cause, assumes: assumes,
			hint: fmt.Sprintf("write server as %s, %s", want, restart), pos: r.keyPos("server")})
	}
	return true
}

// serviceRanges are the parsed service CIDRs, or the default k3s takes when none is set
// (10.43.0.0/16, or fd00:43::/112 for an IPv6 first node IP); ok is false when one does not
// parse (reported above).
func (r *resolver) serviceRanges() ([]*net.IPNet, bool) {
	items := r.listValue("service-cidr")
	if len(items) == 0 {
		return nil, false // the defaults are large enough
	}
	var out []*net.IPNet
	for _, item := range items {
		for _, cidr := range strings.Split(item, ",") {
			_, n, err := net.ParseCIDR(cidr)
			if err != nil {
				return nil, false
			}
			out = append(out, n)
		}
	}
	return out, len(out) > 0
}

// serviceRangeSize is min(k8s.io/utils/net RangeSize, 1<<16): 0 for an IPv4 /31 or /32 and
// an IPv6 /127 or /128.
func serviceRangeSize(n *net.IPNet) int64 {
	ones, bits := n.Mask.Size()
	if bits == 32 && bits-ones >= 31 || bits == 128 && bits-ones >= 127 {
		return 0
	}
	if bits-ones >= 16 {
		return 1 << 16
	}
	return int64(1) << uint(bits-ones)
}

// indexedIPFits is k8s.io/utils/net GetIndexedIP's check: the network address plus index is
// inside the subnet.
func indexedIPFits(n *net.IPNet, index int64) bool {
	out := indexedIP(n, index)
	return out != nil && n.Contains(out)
}

// indexedIP is the network address plus index (nil when it overflows the address).
func indexedIP(n *net.IPNet, index int64) net.IP {
	ip := n.IP.To16()
	if v4 := n.IP.To4(); v4 != nil {
		ip = v4
	}
	sum := new(big.Int).Add(new(big.Int).SetBytes(ip), big.NewInt(index))
	b := sum.Bytes()
	if len(b) > len(ip) {
		return nil
	}
	out := make(net.IP, len(ip))
	copy(out[len(ip)-len(b):], b)
	return out
}

// portRangeError transcribes k8s.io/apimachinery/pkg/util/net PortRange.Set: the error for
// a value that is not PORT, FIRST-LAST or FIRST+OFFSET within 65535, or "".
//
// hide: the value copies a secret by YAML alias (secretcopy.go): the error says REDACTED
// where it would quote it or a part of it.
func portRangeError(value string, hide bool) string {
	value = strings.TrimSpace(value)
	if value == "" {
		return ""
	}
	hyphen, plus := strings.Index(value, "-"), strings.Index(value, "+")
	atoi := func(s string) (int, string) {
		n, err := strconv.Atoi(s)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && hide {
				ne.Num = redacted
			}
			return 0, err.Error()
		}
		return n, ""
	}
	shown := value
	if hide {
		shown = redacted
	}
	var low, high int
	var e string
	switch {
	case hyphen == -1 && plus == -1:
		if low, e = atoi(value); e != "" {
			return e
		}
		high = low
	case hyphen != -1 && plus == -1:
		if low, e = atoi(value[:hyphen]); e != "" {
			return e
		}
		if high, e = atoi(value[hyphen+1:]); e != "" {
			return e
		}
	case plus != -1 && hyphen == -1:
		var off int
		if low, e = atoi(value[:plus]); e != "" {
			return e
		}
		if off, e = atoi(value[plus+1:]); e != "" {
			return e
		}
		high = low + off
	default:
		return "unable to parse port range: " + shown
	}
	if low > 65535 || high > 65535 {
		return "the port range cannot be greater than 65535: " + shown
	}
	if high < low {
		return "end port cannot be less than start port: " + shown
	}
	return ""
}

// validateAPIServerTLS: server.go:404-441 reads tls-min-version and tls-cipher-suites from
// kube-apiserver-arg (util.ArgValue: the first item of that name; an item without "=" makes
// ArgValue index past its end, and run's recover turns the panic into the error) and parses
// them as the apiserver would (k8s.io/component-base/cli/flag TLSVersion, TLSCipherSuites,
// over Go's crypto/tls names).
func (r *resolver) validateAPIServerTLS(restart string) {
	args := r.listValue("kube-apiserver-arg")
	argValue := func(name string) (string, string, bool) {
		for _, a := range args {
			parts := strings.SplitN(strings.TrimPrefix(a, "--"), "=", 2)
			if parts[0] == name {
				if len(parts) == 1 {
					return "", a, false
				}
				return parts[1], a, true
			}
		}
		return "", "", true
	}
	for _, name := range []string{"tls-min-version", "tls-cipher-suites"} {
		if _, item, ok := argValue(name); !ok {
			rule, m := "tls-arg-no-value", "server panicked: runtime error: index out of range [1] with length 1"
			if r.check(rule) == nil {
				rule, m = "tls-arg-no-value-panic", "panic: runtime error: index out of range [1] with length 1"
			}
			r.refuse("server-flag-invalid", refusal{rule: rule, key: "kube-apiserver-arg", msg: m,
				why:  fmt.Sprintf("the kube-apiserver-arg item %q has no value", item),
				hint: fmt.Sprintf("write it as %s=<value>, %s", name, restart), pos: r.itemPos("kube-apiserver-arg", item)})
			return
		}
	}
	if v, item, _ := argValue("tls-min-version"); v != "" {
		switch v {
		case "VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13":
		default:
			r.refuse("server-flag-invalid", refusal{rule: "tls-min-version", key: "kube-apiserver-arg", msg: fmt.Sprintf("invalid tls-min-version: unknown tls version %q", v),
				hint: "use VersionTLS12 or VersionTLS13 (or VersionTLS10, VersionTLS11), " + restart, pos: r.itemPos("kube-apiserver-arg", item)})
		}
	}
	v, item, _ := argValue("tls-cipher-suites")
	suites := strings.Split(v, ",")
	for i := range suites {
		suites[i] = strings.TrimSpace(suites[i])
	}
	if suites[0] == "" {
		return // k3s sets its own list
	}
	known := map[string]bool{"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305": true, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305": true}
	for _, s := range tls.CipherSuites() {
		known[s.Name] = true
	}
	for _, s := range tls.InsecureCipherSuites() {
		known[s.Name] = true
	}
	for _, s := range suites {
		if !known[s] {
			r.refuse("server-flag-invalid", refusal{rule: "tls-cipher-suites", key: "kube-apiserver-arg", msg: fmt.Sprintf("invalid tls-cipher-suites: Cipher suite %s not supported or doesn't exist", s),
				hint: "use Go's cipher suite names, such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, separated by commas, " + restart, pos: r.itemPos("kube-apiserver-arg", item)})
			return
		}
	}
}

// validateHelmControllerArgs: server.go:449 hands helm-controller-arg (util.GetArgs: the
// last value of each name) to helm-controller's app.Config, whose GetControllerConfig
// (k3s-io/helm-controller v0.17.7 pkg/config/types.go:25) parses job-resources and
// job-tolerations as JSON and wants threads > 0. k3sconf reports JSON that does not parse
// (Go's encoding/json reports syntax before types, so the message is exact) and a thread
// count it can read; JSON that parses but does not fit the Kubernetes types, and the
// Kubernetes validation after it, are not modelled.
func (r *resolver) validateHelmControllerArgs(restart string) {
	// The last item of each name wins; only three names are checked, so only theirs are
	// kept (a map of every name was 2.5 MB on 2,000 drop-ins of flow lists).
	vals := map[string]string{}
	items := map[string]string{}
	for _, a := range r.listValue("helm-controller-arg") {
		name, v, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok {
			v = "true"
		}
		name = strings.TrimRight(name, "-+")
		if name != "job-resources" && name != "job-tolerations" && name != "threads" {
			continue
		}
		vals[name], items[name] = v, a
	}
	const prefix = "failed to parse helm-controller-arg: "
	for _, c := range []struct{ name, what string }{{"job-resources", "invalid job-resources JSON: "}, {"job-tolerations", "invalid --job-tolerations JSON: "}} {
		v, ok := vals[c.name]
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		var x any
		if err := json.Unmarshal([]byte(strings.TrimSpace(v)), &x); err != nil {
			r.refuse("server-flag-invalid", refusal{rule: "helm-controller-arg", key: "helm-controller-arg", msg: prefix + c.what + err.Error(),
				hint: fmt.Sprintf("write %s=<JSON> as one item, quoted so YAML keeps it whole, %s", c.name, restart), pos: r.itemPos("helm-controller-arg", items[c.name])})
			return
		}
	}
	if v, ok := vals["threads"]; ok {
		if n, err := strconv.Atoi(v); err == nil && n <= 0 {
			r.refuse("server-flag-invalid", refusal{rule: "helm-controller-arg", key: "helm-controller-arg",
				msg:  prefix + fmt.Sprintf("cannot start with thread count of %d, please pass a proper thread count", n),
				hint: "set threads to 1 or more (the default is 2), " + restart, pos: r.itemPos("helm-controller-arg", items["threads"])})
		}
	}
}

// checkClusterDNSInRange: k3s takes cluster-dns as given (pkg/cli/server/server.go only
// parses it) and starts; the packaged coredns Service asks for that address as its
// clusterIP (k3s manifests/coredns.yaml "clusterIP: %{CLUSTER_DNS}%", RKE2's rke2-coredns
// chart from the same value), which the apiserver refuses when it lies outside every
// service-cidr, so the kube-dns Service is never created while every pod's resolv.conf
// names it (vitobotta/hetzner-k3s#351). Not judged when that coredns is disabled (a DNS of
// one's own may listen anywhere), or for an IPv6 address without an IPv6 service-cidr
// set. Without service-cidr the range is k3s's default, 10.43.0.0/16.
func (r *resolver) checkClusterDNSInRange() {
	coredns := "coredns"
	if r.p.Name == "rke2" {
		coredns = "rke2-coredns"
	}
	for _, item := range r.listValue("disable") {
		for _, d := range strings.Split(item, ",") {
			if strings.TrimSpace(d) == coredns {
				return
			}
		}
	}
	ranges, ok := r.serviceRanges()
	if !ok {
		if len(r.listValue("service-cidr")) > 0 {
			return // a CIDR that does not parse is k3s's own refusal
		}
		_, def, _ := net.ParseCIDR("10.43.0.0/16")
		ranges = []*net.IPNet{def}
	}
	for _, item := range r.listValue("cluster-dns") {
		for _, s := range strings.Split(item, ",") {
			ip := net.ParseIP(s)
			if ip == nil {
				return // k3s refuses it (rule cluster-dns)
			}
			v4 := ip.To4() != nil
			inside, family := false, false
			for _, n := range ranges {
				if (n.IP.To4() != nil) == v4 {
					family = true
					inside = inside || n.Contains(ip)
				}
			}
			if !family || inside {
				continue
			}
			var cidrs []string
			for _, n := range ranges {
				cidrs = append(cidrs, n.String())
			}
			suggest := "an address inside it"
			for _, n := range ranges {
				if (n.IP.To4() != nil) == v4 && indexedIPFits(n, 10) {
					suggest = indexedIP(n, 10).String() + " (k3s's own choice: the 10th address)"
					break
				}
			}
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "cluster-dns-outside-service-cidr", Pos: r.itemPos("cluster-dns", item), Key: "cluster-dns",
				Message: fmt.Sprintf("cluster-dns %s is outside service-cidr %s: %s starts, but the %s Service cannot take that clusterIP (the apiserver allocates only inside service-cidr), so kube-dns is never created while every pod is told to use %s", s, strings.Join(cidrs, ","), r.p.Program, coredns, s),
				Hint:    fmt.Sprintf("set cluster-dns to %s, or remove it to let %s pick, then `systemctl restart %s`", suggest, r.p.Program, r.serviceName())})
			return
		}
	}
}
