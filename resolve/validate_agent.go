package resolve

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// validateAgent: pkg/cli/agent/agent.go Run, then pkg/agent/run.go Run up to the token
// validation loop. The token comes from --token or the file --token-file names (the file
// wins); an existing client-kubelet certificate stands in for it
// (Behaviour.AgentCertWithoutToken). --server has no default. It reports whether the
// kubelet checks apply (false when what follows depends on a file k3s waits for, or k3s
// never reaches the kubelet even after the fixes above).
func (r *resolver) validateAgent() bool {
	service := strings.TrimSuffix(r.p.Units["agent"], ".service")
	restart := "then `systemctl restart " + service + "`"
	fileToken, haveFile, missing := r.tokenFile("token-file")
	if missing {
		return false // k3s waits for the file; what follows depends on what it will hold
	}
	token := r.stringValue("token")
	if haveFile {
		token = fileToken
	}
	emptyFile := haveFile && fileToken == ""
	r.refuseDisableSELinux(restart)
	// agent.go:48 (before v1.26): without a token, cluster-secret is the token (v1.25: k3s
	// refuses it instead).
	r.refuseClusterSecret(restart)
	if token == "" {
		token = r.legacyToken()
	}
	certOnly := false
	if token == "" {
		agentDir := path.Join(r.dataDir(), "agent")
		crt, assumes := r.hostPath(path.Join(agentDir, "client-kubelet.crt"), false)
		key, _ := r.hostPath(path.Join(agentDir, "client-kubelet.key"), false)
		if !r.beh.AgentCertWithoutToken {
			assumes = ""
		}
		if !(crt && key && r.beh.AgentCertWithoutToken) {
			pos := r.keyPos("token")
			why := fmt.Sprintf("no token is set (token:, --token, %s_TOKEN or token-file)", r.p.EnvPrefix)
			if emptyFile {
				why, pos = fmt.Sprintf("the token file %s is empty", r.stringValue("token-file")), r.keyPos("token-file")
			} else if k := r.res.Key("token"); k != nil && k.Source != nil && k.Source.Kind != sources.KindDefault {
				why = "the token set here is empty"
				if v := unitVariable(r.cliValueRaw(k.Source)); v != "" {
					why = fmt.Sprintf("the token is the variable %s, which no Environment= or EnvironmentFile= of the unit defines, so systemd substitutes an empty string", v)
				}
			}
			hint := fmt.Sprintf("set token: in %s to the server's token (the server's /var/lib/rancher/%s/server/token), then `systemctl restart %s`", r.p.DefaultConfig, r.p.Name, service)
			if k := r.res.Key("token"); k != nil && k.Source != nil && k.Source.Kind == sources.KindCLI {
				// The empty word on the command line beats any config value: fix it there.
				hint = "define the variable in the unit (an Environment= line, or a file its EnvironmentFile= reads), or remove the --token word from ExecStart and set token: in " + r.p.DefaultConfig
			}
			r.refuse("agent-token-required", refusal{rule: "agent-token", key: "token", msg: "--token is required", why: why, hint: hint, pos: pos, assumes: assumes})
		} else {
			certOnly = true // agent.go lets it pass; the token loop below does not
		}
	}
	serverURL := r.stringValue("server")
	if serverURL == "" {
		hint := fmt.Sprintf("set server: https://<server>:%s in %s, then `systemctl restart %s`", r.supervisorPort(), r.p.DefaultConfig, service)
		if a := r.strayNamed("url"); a != nil {
			at := a.Pos
			for _, d := range r.res.Diagnostics {
				if (d.Code == "config-unknown-key" || d.Code == "config-unknown-key-agent") && d.Key == "url" {
					at = d.Pos // the key, not its value
				}
			}
			hint = fmt.Sprintf("rename url: at %s to server: (url is not a %s key; %s_URL is the installer's name for it), then `systemctl restart %s`", at, r.p.Program, r.p.EnvPrefix, service)
		}
		r.refuse("agent-server-required", refusal{rule: "agent-server", key: "server", msg: "--server is required", hint: hint, pos: r.keyPos("server")})
	}
	// pkg/agent/run.go:305: a rootless agent checks the node-ip items (not split on
	// commas) with k8s.io/utils/net IsDualStackIPStrings before anything else.
	rootlessBad := r.boolValue("rootless") && r.validateRootlessNodeIPs("agent-rootless-node-ip", restart)
	nodeIPBad := false
	if !rootlessBad && r.check("agent-node-ip") != nil {
		nodeIPBad = r.validateNodeIPs("agent-node-ip", restart)
	}
	urlOK := serverURL != ""
	lbEnabled := !r.boolValue("disable-apiserver-lb")
	if lbEnabled {
		if k := r.res.Key("lb-server-port"); k != nil {
			if port, ok := k.Value.(int64); ok && (port < 0 || port > 65535) {
				r.refuse("agent-lb-port-invalid", refusal{rule: "agent-lb-port", key: k.Name(),
					msg:  fmt.Sprintf("listen tcp: address %d: invalid port", port),
					why:  "the agent's load balancer listens on 127.0.0.1 at lb-server-port",
					hint: "set lb-server-port to a free port from 1 to 65535 (the default is 6444), " + restart, pos: r.keyPos(k.Name())})
			}
		}
	}
	if serverURL != "" {
		if _, err := url.Parse(serverURL); err != nil {
			m := err.Error()
			if !lbEnabled {
				m = fmt.Sprintf("failed to parse %s: %v", r.quote("server", r.redactURL(serverURL)), err)
			}
			r.refuse("join-url-invalid", refusal{rule: "agent-server-url", key: "server", msg: m,
				hint: fmt.Sprintf("write server as a URL: https://<server>:%s, %s", r.supervisorPort(), restart), pos: r.keyPos("server")})
			urlOK = false
		}
	}
	// pkg/agent/run.go:349: the token and the URL are validated in a loop that logs and
	// retries every 2 seconds for ever.
	// With only the certificate (no token) parseToken fails with "token must not be empty"
	// there (pkg/clientaccess/token.go:216): the certificate passes agent.go's check only.
	// After a refusal above (no token, no server, a URL Go cannot parse) the loop is what
	// k3s reaches once that is fixed: the token is checked as given, and the scheme of the
	// server URL when it parses.
	if token != "" || certOnly {
		shown := r.quote("server", serverURL)
		if !urlOK {
			shown = "<server>" // the URL the fix above gives
		}
		if cause := tokenFormatError(token); cause != "" {
			r.refuse("join-token-invalid", refusal{rule: "agent-join-token", key: "token",
				msg:  fmt.Sprintf("Failed to validate connection to cluster at %s: %s", shown, cause),
				hint: "give the agent the server's token as written in the server's " + r.dataDir() + "/server/token (K10<64 hex digits>::server:<password>), the bare password, or a bootstrap token <6 characters>.<16 characters>, " + restart, pos: r.tokenPos()})
		}
	}
	if urlOK {
		if u, _ := url.Parse(serverURL); u.Scheme != "https" {
			local := serverURL
			if lbEnabled {
				// the loop validates the load balancer's local URL, which keeps the scheme
				port := int64(6444)
				if k := r.res.Key("lb-server-port"); k != nil {
					if p, _ := k.Value.(int64); p >= 0 && p <= 65535 {
						port = p
					}
				}
				host := "127.0.0.1"
				if ips := r.listValue("node-ip"); len(ips) > 0 {
					if ip := net.ParseIP(strings.Split(ips[0], ",")[0]); ip != nil && ip.To4() == nil {
						host = "::1" // the load balancer binds the loopback of the first node IP's family
					}
				}
				local = fmt.Sprintf("%s://%s", u.Scheme, net.JoinHostPort(host, fmt.Sprint(port)))
			}
			want := "https://<server>:" + r.supervisorPort()
			if h := httpsURL(serverURL, r.supervisorPort()); h != "" && !r.copied("server") {
				want = r.redactURL(h)
			}
			if r.copied("server") && !lbEnabled {
				local = redacted
			}
			r.refuse("join-url-invalid", refusal{rule: "agent-join-token", key: "server",
				msg:  fmt.Sprintf("Failed to validate connection to cluster at %s: only https:// URLs are supported, invalid scheme: %s", r.quote("server", r.redactURL(serverURL)), local),
				hint: fmt.Sprintf("write server: %s, %s", want, restart), pos: r.keyPos("server")})
		}
	}
	// Before a7d3c8559 (v1.34.2) the agent parsed node-ip only once it had its
	// configuration from the server, in a loop that retries for ever.
	if !rootlessBad && r.check("agent-node-ip-retry") != nil {
		nodeIPBad = r.validateNodeIPs("agent-node-ip-retry", restart)
	}
	if nodeIPBad || rootlessBad {
		r.kubeletSkipNodeIP = true
	}
	r.refuseNoFlannel(restart) // pkg/agent/config/config.go get, once the agent has its configuration
	return true
}

// tokenFormatError transcribes pkg/clientaccess/token.go parseToken (lines 212-257): the
// error k3s gives a token it cannot parse, or "".
func tokenFormatError(token string) string {
	if token == "" {
		return "token must not be empty"
	}
	if !strings.HasPrefix(token, "K10") {
		if isBootstrapToken(token) {
			token = "K10::" + token
		} else {
			token = "K10:::" + token
		}
	}
	token = token[len("K10"):]
	parts := strings.SplitN(token, "::", 2)
	token = parts[0]
	if len(parts) > 1 {
		if n := len(parts[0]); n > 0 && n != 64 { // caHashLength = sha256.Size * 2
			return "invalid token CA hash length"
		}
		token = parts[1]
	}
	if !isBootstrapToken(token) {
		creds := strings.SplitN(token, ":", 2)
		if len(creds) != 2 || creds[1] == "" {
			return "invalid token format"
		}
	}
	return ""
}

// isBootstrapToken is k8s.io/cluster-bootstrap/token/api BootstrapTokenPattern,
// \A([a-z0-9]{6})\.([a-z0-9]{16})\z, as kubeadm NewBootstrapTokenString checks it.
func isBootstrapToken(s string) bool {
	if len(s) != 23 || s[6] != '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 6 {
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// joinURLError transcribes pkg/clientaccess/token.go setServer (lines 364-372) before it
// connects: the error for a URL Go cannot parse or whose scheme is not https, or "".
// hide: the URL copies a secret by YAML alias (secretcopy.go): the error says REDACTED
// for it.
func joinURLError(server string, hide bool) string {
	u, err := url.Parse(server)
	shown := server
	if hide {
		shown = redacted
		if ue, ok := err.(*url.Error); ok {
			ue.URL = redacted
		}
	}
	if err != nil {
		return fmt.Sprintf("Invalid server url, failed to parse: %s: %v", shown, err)
	}
	if u.Scheme != "https" {
		return "only https:// URLs are supported, invalid scheme: " + shown
	}
	return ""
}

// validateNodeIPs: util.GetHostnameAndIPs → ParseStringSliceToIPs splits each item on
// commas, without trimming, and net.ParseIP must accept every piece ("invalid node-ip:
// invalid ip format '…'"). The server makes the check before it starts (rule node-ip); an
// agent since v1.34.2 before it connects (agent-node-ip), before that once it has its
// configuration from the server, retrying for ever (agent-node-ip-retry). It reports
// whether k3s refuses.
func (r *resolver) validateNodeIPs(rule, restart string) bool {
	for _, item := range r.listValue("node-ip") {
		for _, v := range strings.Split(item, ",") {
			if net.ParseIP(v) == nil {
				m := fmt.Sprintf("invalid node-ip: invalid ip format '%s'", r.quote("node-ip", v))
				switch rule {
				case "agent-node-ip":
					m = "failed to get node name and addresses: " + m
				case "agent-node-ip-retry":
					m = "Waiting to retrieve agent configuration; server is not ready: " + m
				}
				r.refuse("node-ip-invalid", refusal{rule: rule, key: "node-ip", msg: m,
					hint: fmt.Sprintf("write node-ip as IP addresses (a YAML list, or one comma-separated word without spaces), %s", restart), pos: r.itemPos("node-ip", item)})
				return true
			}
		}
	}
	return false
}

// validateRootlessNodeIPs: with --rootless, k3s first checks the node-ip items as
// k8s.io/utils/net IsDualStackIPStrings does: each item whole (not split on commas) through
// ParseIPSloppy, which also takes IPv4 with leading zeros ("invalid IP[0]: …"). What
// rootless.Rootless then needs from the host (user namespaces, rootlesskit) k3sconf cannot
// see; it assumes the set-up works.
func (r *resolver) validateRootlessNodeIPs(rule, restart string) bool {
	for i, item := range r.listValue("node-ip") {
		if parseIPSloppy(item) == nil {
			r.refuse("node-ip-invalid", refusal{rule: rule, key: "node-ip", msg: fmt.Sprintf("invalid IP[%d]: %s", i, r.quote("node-ip", item)),
				why:     "with rootless, k3s checks each node-ip item whole, before it splits items on commas",
				assumes: "rootless set-up (user namespaces, rootlesskit) assumed to work",
				hint:    "give node-ip as a YAML list, one address per item, " + restart, pos: r.itemPos("node-ip", item)})
			return true
		}
	}
	return false
}

// parseIPSloppy is k8s.io/utils/net ParseIPSloppy: net.ParseIP as before Go 1.17, which
// accepted decimal IPv4 fields with leading zeros.
func parseIPSloppy(s string) net.IP {
	if strings.Contains(s, ":") {
		return net.ParseIP(s)
	}
	fields := strings.Split(s, ".")
	if len(fields) != 4 {
		return nil
	}
	var b [4]byte
	for i, f := range fields {
		if f == "" || len(f) > 8 {
			return nil
		}
		n := 0
		for _, c := range f {
			if c < '0' || c > '9' {
				return nil
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return nil
		}
		b[i] = byte(n)
	}
	return net.IPv4(b[0], b[1], b[2], b[3])
}

// validateKubelet: what the kubelet refuses from what k3s hands it. k3s runs the kubelet
// in-process once it has started (pkg/executor/embed/embed.go:209): its flag parsing fails
// after k3s started, and k3s then shuts down ("kubelet exited: …") — "starts, then stops".
//
// node-ip: with the embedded cloud controller (the default) k3s passes every node-ip to the
// kubelet joined with commas (Behaviour.KubeletGetsAllNodeIPs); the kubelet accepts one IP
// or one IPv4 and one IPv6 (k8s.io/component-helpers/node/util ParseNodeIPArgument: "must
// contain either a single IP or a dual-stack pair of IPs"). Two IPv4 addresses typically
// come from a list in config.yaml plus --node-ip in the unit: k3s concatenates them. With
// disable-cloud-controller k3s passes only the first address when they are not a dual-stack
// pair. RKE2 runs with k3s's cloud controller disabled (it ships its own), so it passes the
// first one only.
func (r *resolver) validateKubelet() {
	service := strings.TrimSuffix(r.p.Units[r.res.Command], ".service")
	if !r.kubeletSkipNodeIP && r.beh.KubeletGetsAllNodeIPs && r.p.Name == "k3s" && !r.boolValue("disable-cloud-controller") {
		r.validateKubeletNodeIPs(service)
	}
	// node-label: the kubelet's --node-labels is a component-base MapStringString; an item
	// without "=" fails with "malformed pair, expect string=string".
	for _, item := range r.listValue("node-label") {
		for _, pair := range strings.Split(item, ",") {
			if pair != "" && !strings.Contains(pair, "=") {
				r.refuse("node-label-not-key-value", refusal{rule: "kubelet-node-label", key: "node-label",
					msg:  fmt.Sprintf("invalid argument %q for \"--node-labels\" flag: malformed pair, expect string=string", r.quote("node-label", strings.Join(r.listValue("node-label"), ","))),
					hint: fmt.Sprintf("write the label %q as key=value (e.g. %s=true), then `systemctl restart %s`", r.quote("node-label", pair), r.quote("node-label", pair), service), pos: r.itemPos("node-label", item)})
				return
			}
		}
	}
}

func (r *resolver) validateKubeletNodeIPs(service string) {
	var ips []net.IP
	var words []string
	for _, item := range r.listValue("node-ip") {
		for _, v := range strings.Split(item, ",") {
			if ip := net.ParseIP(v); ip != nil {
				ips = append(ips, ip)
				words = append(words, ip.String())
			}
		}
	}
	if len(ips) > 1 && (ips[0].To4() != nil) != r.clusterCIDRIsIPv4(ips[0]) {
		// pkg/agent/config/config.go swaps the first two addresses when the first is
		// not of the cluster CIDR's family.
		ips[0], ips[1] = ips[1], ips[0]
		words[0], words[1] = words[1], words[0]
	}
	if len(ips) == 2 && (ips[0].To4() == nil) != (ips[1].To4() == nil) && (ips[0].IsUnspecified() || ips[1].IsUnspecified()) {
		r.refuse("node-ip-not-dual-stack", refusal{rule: "kubelet-node-ip", key: "node-ip",
			msg:  fmt.Sprintf("bad --node-ip %q: dual-stack node IP cannot include '0.0.0.0' or '::'", strings.Join(words, ",")),
			hint: fmt.Sprintf("give node-ip the node's real addresses, one per IP family, then `systemctl restart %s`", service), pos: r.keyPos("node-ip")})
		return
	}
	if len(ips) > 2 || (len(ips) == 2 && (ips[0].To4() == nil) == (ips[1].To4() == nil)) {
		joined := strings.Join(words, ",")
		k := r.res.Key("node-ip")
		var from []string
		for _, a := range k.History {
			if a.Outcome == provenance.Applied || a.Outcome == provenance.Appended {
				from = append(from, a.Pos.String())
			}
		}
		where := ""
		if len(from) > 1 {
			where = fmt.Sprintf("k3s appends the command-line node-ip to the config list (%s)", strings.Join(dedupe(from), ", "))
		}
		r.refuse("node-ip-not-dual-stack", refusal{rule: "kubelet-node-ip", key: "node-ip",
			msg: fmt.Sprintf("bad --node-ip %q: must contain either a single IP or a dual-stack pair of IPs", joined), why: where,
			hint: fmt.Sprintf("give node-ip in one place only, one address per IP family, then `systemctl restart %s`", service), pos: r.keyPos("node-ip")})
	}
}

// validateEtcdSnapshot: pkg/cli/etcdsnapshot/etcd_snapshot.go. The subcommand's own
// argument checks come first (save takes no arguments, delete needs names, ls a known
// format); then commandSetup reads <data-dir>/server/token when --etcd-token is empty and
// validates the token and --etcd-server as a join does.
func (r *resolver) validateEtcdSnapshot() {
	args := r.res.Positional
	switch r.res.Subcommand {
	case "save":
		if len(args) > 0 {
			r.refuse("etcd-snapshot-invalid-use", refusal{rule: "snapshot-save-args", key: "", msg: "this command does not take any arguments",
				why:  fmt.Sprintf("save was given %q; the snapshot name is --name", args[0].Value),
				hint: "remove the words after save; name the snapshot with --name=<name>", pos: args[0].Pos})
		}
	case "delete":
		if len(args) == 0 {
			var pos diag.Position
			for _, t := range r.argv {
				if t.kind == sources.KindCLI && t.text == "delete" {
					pos = t.pos()
				}
			}
			r.refuse("etcd-snapshot-invalid-use", refusal{rule: "snapshot-delete-names", msg: "no snapshots given for removal",
				hint: fmt.Sprintf("name the snapshots to delete after delete (`%s etcd-snapshot ls` lists them)", r.p.Program), pos: pos})
		}
	case "ls":
		if f := r.stringValue("output"); f != "" && r.check("snapshot-ls-format") != nil {
			switch f {
			case "json", "yaml", "table":
			default:
				r.refuse("etcd-snapshot-invalid-use", refusal{rule: "snapshot-ls-format", key: "output", msg: "invalid output format: " + f,
					hint: "use -o json, -o yaml or -o table (or no -o)", pos: r.keyPos("output")})
			}
		}
	}
	if !r.beh.EtcdSnapshotRequest || r.check("snapshot-token") == nil {
		return
	}
	token := r.stringValue("etcd-token")
	if token == "" {
		tokenPath := path.Join(r.dataDir(), "server", "token")
		ok, assumes := r.hostPath(tokenPath, false)
		if !ok {
			r.refuse("etcd-snapshot-no-token", refusal{rule: "snapshot-token", key: "etcd-token", msg: fmt.Sprintf("open %s: no such file or directory", tokenPath),
				hint: fmt.Sprintf("run it on a server that has %s, or pass --etcd-token with the cluster's token", tokenPath), pos: diag.Position{File: tokenPath}, assumes: assumes})
		} else if data, err := readFile(r.fs, tokenPath); err == nil {
			token = strings.TrimRight(string(data), "\n")
		}
	}
	// commandSetup then validates the token and --etcd-server as a join does
	// (ParseAndValidateToken: the token first, then the URL); after a refusal above, what
	// follows once it is fixed.
	if token != "" {
		if cause := tokenFormatError(token); cause != "" {
			r.refuse("join-token-invalid", refusal{rule: "snapshot-join-token", key: "etcd-token", msg: cause,
				hint: "pass --etcd-token with the cluster's token as written in the server's server/token file", pos: r.keyPos("etcd-token")})
		}
	}
	if cause := joinURLError(r.stringValue("etcd-server"), r.copied("etcd-server")); cause != "" {
		r.refuse("join-url-invalid", refusal{rule: "snapshot-join-token", key: "etcd-server", msg: cause,
			hint: "use --etcd-server https://<server>:6443 (the default is https://127.0.0.1:6443)", pos: r.keyPos("etcd-server")})
	}
}
