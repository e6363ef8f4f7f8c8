package resolve

import (
	"fmt"
	"net"
	"path"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/sources"
)

// validate reproduces the checks k3s's command actions make after the flags parsed and
// before anything starts. Each refusal carries k3s's own message (the text after "level=fatal
// msg=" in the journal), in the order k3s makes the checks, and becomes Result.Error when
// the command line itself was fine: k3s stops at the first one. Sources read, at
// k3s-io/k3s 66a14f0e8 (manuelbuil/k3s mirror) unless a rule says otherwise:
//
//   - pkg/cli/agent/agent.go Run: "--token is required", "--server is required"
//   - pkg/cli/server/server.go run: the "invalid flag use" combinations, node-ip, the CIDRs,
//     cluster-dns, egress-selector-mode, cluster-reset with a server URL
//   - pkg/cluster/bootstrap.go: "token is required to join a cluster"
//   - pkg/cli/etcdsnapshot/etcd_snapshot.go commandSetup: the server token file
//   - the kubelet's --node-ip and --node-labels parsing (k3s starts the kubelet in-process;
//     its refusal stops k3s too)
func (r *resolver) validate() {
	if r.res.Error != "" || r.res.InputInvalid() || r.opts.NoValidate {
		return // k3s never reaches its command action
	}
	for _, d := range r.res.Diagnostics {
		if d.Code == "cli-help-only" || d.Code == "cli-no-subcommand" {
			return
		}
	}
	switch r.res.Command {
	case "agent":
		r.validateAgent()
		if r.res.Error == "" { // k3s stops at its first refusal
			r.validateKubelet()
		}
	case "etcd-snapshot":
		r.validateEtcdSnapshot()
	case "server":
		r.validateServer()
		if r.res.Error == "" && !r.boolValue("disable-agent") {
			r.validateKubelet()
		}
	}
}

// refuse records one of k3s's own refusals: an error diagnostic and, for the first one,
// Result.Error.
//
// why, when not empty, says how the node came to this (one clause, added to the message).
func (r *resolver) refuse(code, key, msg, why, hint string, pos diag.Position) {
	if pos.IsZero() {
		// The key is set nowhere: point at the command, but the fix edits the config
		// file, not the unit (unitFixes leaves it alone).
		pos = r.commandPos()
		if r.configFix == nil {
			r.configFix = map[string]bool{}
		}
		r.configFix[code+" "+pos.String()] = true
	}
	m := fmt.Sprintf("%s refuses to start: %q (%s)", r.p.Program, msg, r.sourceOfRule(code))
	if r.res.Command == "etcd-snapshot" {
		m = fmt.Sprintf("%s etcd-snapshot fails: %q (%s)", r.p.Program, msg, r.sourceOfRule(code))
	}
	if why != "" {
		m += ": " + why
	}
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: code, Pos: pos, Key: key, Message: m, Hint: hint})
	r.failAt(stageValidate, msg, pos)
}

// sourceOfRule names the k3s code that makes the check, for the message.
func (r *resolver) sourceOfRule(code string) string {
	switch code {
	case "agent-token-required", "agent-server-required":
		return "k3s's agent command, pkg/cli/agent/agent.go"
	case "server-join-token-required":
		return "k3s's cluster bootstrap, pkg/cluster/bootstrap.go"
	case "etcd-snapshot-no-token":
		return "k3s's etcd-snapshot command, pkg/cli/etcdsnapshot/etcd_snapshot.go"
	case "node-ip-not-dual-stack", "node-label-not-key-value":
		return "the kubelet k3s starts"
	}
	return "k3s's server command, pkg/cli/server/server.go"
}

// commandPos is where the command word (server, agent) is, for refusals about a key that is
// set nowhere: the unit's ExecStart, else the config file, else the unit.
func (r *resolver) commandPos() diag.Position {
	for _, t := range r.argv {
		if t.kind == sources.KindCLI && t.text == r.res.Command && t.pos.Line > 0 {
			return t.pos
		}
	}
	for _, t := range r.argv {
		if t.pos.Line > 0 {
			return t.pos
		}
	}
	if r.res.Unit != "" {
		return diag.Position{File: r.res.Unit}
	}
	if r.res.ConfigPath != "" {
		return diag.Position{File: r.res.ConfigPath}
	}
	return diag.Position{}
}

// keyPos is where the value of a key in force was set; zero for a default.
func (r *resolver) keyPos(name string) diag.Position {
	if k := r.res.Key(name); k != nil && k.Source != nil {
		return k.Source.Pos
	}
	return diag.Position{}
}

func (r *resolver) stringValue(name string) string {
	if k := r.res.Key(name); k != nil {
		if s, ok := k.Value.(string); ok {
			return s
		}
	}
	return ""
}

func (r *resolver) boolValue(name string) bool {
	if k := r.res.Key(name); k != nil {
		b, _ := k.Value.(bool)
		return b
	}
	return false
}

// listValue is a repeatable flag's items as urfave hands them to k3s (not split on commas).
func (r *resolver) listValue(name string) []string {
	if k := r.res.Key(name); k != nil {
		l, _ := k.Value.([]string)
		return l
	}
	return nil
}

func (r *resolver) dataDir() string {
	d := r.stringValue("data-dir")
	if d == "" {
		d = r.p.DataDir
	}
	if !path.IsAbs(d) {
		d = path.Join("/", d) // k3s runs from / under systemd (pkg/datadir LocalHome)
	}
	return path.Clean(d)
}

func (r *resolver) exists(p string) bool {
	_, err := r.fs.Stat(p)
	return err == nil
}

// tokenFile reads the file a *token-file key names, as k3s's util.ReadFile does (trimmed).
// present is false when the key is unset; missing when the node has no such file: k3s then
// waits up to 4 minutes for it to appear (pkg/util/file.go ReadFile, logging "Waiting for
// …") and stops — a warning, since a secrets manager may create it at boot.
func (r *resolver) tokenFile(key string) (content string, present, missing bool) {
	p := r.stringValue(key)
	if p == "" {
		return "", false, false
	}
	data, err := afero.ReadFile(r.fs, p)
	if err != nil {
		if r.exists(p) {
			return "", true, false // unreadable for k3sconf, readable for k3s (root): unknown
		}
		if !r.warnedMissing[key] {
			if r.warnedMissing == nil {
				r.warnedMissing = map[string]bool{}
			}
			r.warnedMissing[key] = true
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "token-file-missing", Pos: r.keyPos(key), Key: key,
				Message: fmt.Sprintf("%s %s is not on the node: %s waits up to 4 minutes for it to appear (\"Waiting for file … to be created\") and then stops", key, p, r.p.Program),
				Hint:    fmt.Sprintf("create %s with the token before %s starts, or fix the path", p, r.p.Program)})
		}
		return "", true, true
	}
	return strings.TrimSpace(string(data)), true, false
}

// validateAgent: pkg/cli/agent/agent.go Run. The token comes from --token or the file
// --token-file names; an existing client-kubelet certificate stands in for it
// (Behaviour.AgentCertWithoutToken). --server has no default.
func (r *resolver) validateAgent() {
	service := strings.TrimSuffix(r.p.Units["agent"], ".service")
	fileToken, haveFile, missing := r.tokenFile("token-file")
	if missing {
		return // k3s waits for the file; what follows depends on what it will hold
	}
	emptyFile := haveFile && fileToken == ""
	if r.stringValue("token") == "" && (!haveFile || emptyFile) {
		agentDir := path.Join(r.dataDir(), "agent")
		haveCert := r.exists(path.Join(agentDir, "client-kubelet.crt")) && r.exists(path.Join(agentDir, "client-kubelet.key"))
		if !(haveCert && r.beh.AgentCertWithoutToken) {
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
			r.refuse("agent-token-required", "token", "--token is required", why, hint, pos)
			return
		}
	}
	if r.stringValue("server") == "" {
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
		r.refuse("agent-server-required", "server", "--server is required", "", hint, r.keyPos("server"))
	}
}

// supervisorPort is 6443 for k3s and 9345 for RKE2, whose agents join on the supervisor port.
func (r *resolver) supervisorPort() string {
	if r.p.Name == "rke2" {
		return "9345"
	}
	return "6443"
}

// strayNamed finds a skipped or rejected config key by name.
func (r *resolver) strayNamed(name string) *Assignment {
	for _, a := range r.stray {
		if strings.TrimSuffix(strings.TrimSuffix(a.Name, ":"), "+") == name {
			return a
		}
	}
	return nil
}

// validateEtcdSnapshot: pkg/cli/etcdsnapshot/etcd_snapshot.go commandSetup reads
// <data-dir>/server/token when --etcd-token is empty and stops when it cannot. k3sconf
// reports it only when the node has the server's data directory but not the token file: a
// support bundle without /var/lib/rancher says nothing either way.
func (r *resolver) validateEtcdSnapshot() {
	if !r.beh.EtcdSnapshotRequest || r.stringValue("etcd-token") != "" {
		return
	}
	serverDir := path.Join(r.dataDir(), "server")
	tokenPath := path.Join(serverDir, "token")
	if !r.exists(serverDir) || r.exists(tokenPath) {
		return
	}
	r.refuse("etcd-snapshot-no-token", "etcd-token", fmt.Sprintf("open %s: no such file or directory", tokenPath), "",
		fmt.Sprintf("run it on a server that has %s, or pass --etcd-token with the cluster's token", tokenPath), diag.Position{File: tokenPath})
}

// validateServer: pkg/cli/server/server.go run, in its order.
func (r *resolver) validateServer() {
	service := strings.TrimSuffix(r.p.Units["server"], ".service")
	restart := fmt.Sprintf("then `systemctl restart %s`", service)
	// d694dd1db (2025-03): snapshot reconcile and S3 timeouts must be positive.
	if k := r.res.Key("etcd-snapshot-reconcile-interval"); k != nil && (!r.boolValue("etcd-disable-snapshots") || r.boolValue("cluster-reset")) {
		if d, err := time.ParseDuration(fmt.Sprint(k.Value)); err == nil && d <= 0 {
			r.refuse("server-flag-invalid", k.Name(), "etcd-snapshot-reconcile-interval must be greater than 0s", "",
				"set etcd-snapshot-reconcile-interval to a positive duration such as 10m, "+restart, r.keyPos(k.Name()))
			return
		}
		if k := r.res.Key("etcd-s3-timeout"); k != nil && r.boolValue("etcd-s3") {
			if d, err := time.ParseDuration(fmt.Sprint(k.Value)); err == nil && d <= 0 {
				r.refuse("server-flag-invalid", k.Name(), "etcd-s3-timeout must be greater than 0s", "",
					"set etcd-s3-timeout to a positive duration such as 5m, "+restart, r.keyPos(k.Name()))
				return
			}
		}
	}
	type combo struct {
		when      bool
		key, msg  string
		hint      string
		sinceNote string
	}
	endpoint := r.stringValue("datastore-endpoint") != ""
	combos := []combo{
		// 866dc94ce (2020-08)
		{r.stringValue("cluster-reset-restore-path") != "" && !r.boolValue("cluster-reset"), "cluster-reset-restore-path",
			"invalid flag use; --cluster-reset required with --cluster-reset-restore-path",
			"restore with a one-off `" + r.p.Program + " server --cluster-reset --cluster-reset-restore-path=…` from a shell, and remove cluster-reset-restore-path from the service's configuration", ""},
		// 2705431d9 (2021-04)
		{r.boolValue("disable-etcd") && r.stringValue("server") == "", "disable-etcd",
			"invalid flag use; --server is required with --disable-etcd",
			"a server without etcd joins one that has it: set server: https://<etcd-server>:" + r.supervisorPort() + ", " + restart, ""},
		// 3f649e3bc (2024-03)
		{endpoint && r.boolValue("disable-apiserver") && r.flagKnown("disable-apiserver"), "disable-apiserver",
			"invalid flag use; cannot use --disable-apiserver with --datastore-endpoint",
			"remove disable-apiserver (an external datastore needs the apiserver on every server), " + restart, ""},
		{endpoint && r.boolValue("disable-etcd") && r.flagKnown("disable-etcd"), "disable-etcd",
			"invalid flag use; cannot use --disable-etcd with --datastore-endpoint",
			"remove disable-etcd (with datastore-endpoint there is no etcd to disable), " + restart, ""},
	}
	for _, c := range combos {
		if c.when {
			r.refuse("server-flag-conflict", c.key, c.msg, "", c.hint, r.keyPos(c.key))
			return
		}
	}
	if r.validateNodeIPs(restart) {
		return
	}
	for _, name := range []string{"cluster-cidr", "service-cidr"} {
		for _, item := range r.listValue(name) {
			for _, cidr := range strings.Split(item, ",") {
				if _, _, err := net.ParseCIDR(cidr); err != nil {
					r.refuse("server-flag-invalid", name, fmt.Sprintf("invalid %s %s: %v", name, cidr, err), "",
						fmt.Sprintf("write %s as CIDRs such as 10.42.0.0/16 (comma-separated for dual-stack, no spaces), %s", name, restart), r.itemPos(name, item))
					return
				}
			}
		}
	}
	for _, item := range r.listValue("cluster-dns") {
		for _, ip := range strings.Split(item, ",") {
			if net.ParseIP(ip) == nil {
				r.refuse("server-flag-invalid", "cluster-dns", fmt.Sprintf("invalid cluster-dns address %s", ip), "",
					"write cluster-dns as IP addresses inside service-cidr, "+restart, r.itemPos("cluster-dns", item))
				return
			}
		}
	}
	// 9d7230496 (2022-05)
	if k := r.res.Key("egress-selector-mode"); k != nil {
		switch m := r.stringValue("egress-selector-mode"); m {
		case "agent", "cluster", "pod", "disabled":
		default:
			r.refuse("server-flag-invalid", "egress-selector-mode", fmt.Sprintf("invalid egress-selector-mode %s", m), "",
				"use one of agent, cluster, pod or disabled, "+restart, r.keyPos("egress-selector-mode"))
			return
		}
	}
	// b6ab24c4f (2023-09)
	if r.boolValue("cluster-reset") && r.stringValue("server") != "" {
		r.refuse("server-flag-conflict", "server",
			"cannot perform cluster-reset while server URL is set - remove server from configuration before resetting", "",
			"remove server: for the reset (k3s's own advice); add it back after the reset", r.keyPos("server"))
		return
	}
	// pkg/cluster/bootstrap.go: a server joining with an uninitialised managed database needs
	// the token. An already joined server (its etcd member directory exists) does not.
	fileToken, haveFile, missing := r.tokenFile("token-file")
	r.tokenFile("agent-token-file")
	if r.stringValue("server") != "" && !endpoint && r.stringValue("token") == "" && !missing && (!haveFile || fileToken == "") {
		if !r.exists(path.Join(r.dataDir(), "server", "db", "etcd")) {
			r.refuse("server-join-token-required", "token", "token is required to join a cluster", "the server has not joined yet (no etcd member directory under its data-dir)",
				fmt.Sprintf("set token: in %s to the cluster's token (the first server's /var/lib/rancher/%s/server/token), %s", r.p.DefaultConfig, r.p.Name, restart), r.keyPos("server"))
		}
	}
}

// cliValueRaw is the unit word as written that gave a command-line assignment its value:
// the part after "=" of --flag=value, or the word after --flag.
func (r *resolver) cliValueRaw(a *Assignment) string {
	if a.Kind != sources.KindCLI {
		return a.Raw
	}
	for i, t := range r.argv {
		if t.pos != a.Pos {
			continue
		}
		if _, v, ok := strings.Cut(t.raw, "="); ok && strings.HasPrefix(t.text, "-") {
			return v
		}
		if i+1 < len(r.argv) {
			return r.argv[i+1].raw
		}
	}
	return a.Raw
}

// unitVariable is the variable name of a unit word that is only a $VAR or ${VAR} reference.
func unitVariable(raw string) string {
	raw = strings.Trim(raw, `"'`)
	if v, ok := strings.CutPrefix(raw, "${"); ok && strings.HasSuffix(v, "}") {
		return strings.TrimSuffix(v, "}")
	}
	if v, ok := strings.CutPrefix(raw, "$"); ok && v != "" && !strings.ContainsAny(v, "${} ") {
		return v
	}
	return ""
}

func (r *resolver) flagKnown(name string) bool { return r.res.Key(name) != nil }

// itemPos is where a list item came from: the assignment that contributed it, else the
// key's source.
func (r *resolver) itemPos(name, item string) diag.Position {
	k := r.res.Key(name)
	if k == nil {
		return diag.Position{}
	}
	for i := len(k.History) - 1; i >= 0; i-- {
		a := k.History[i]
		if a.Outcome != Applied && a.Outcome != Appended {
			continue
		}
		if a.Value == item {
			return a.Pos
		}
	}
	return r.keyPos(name)
}

// validateNodeIPs: util.GetHostnameAndIPs → ParseStringSliceToIPs splits each item on
// commas, without trimming, and net.ParseIP must accept every piece ("invalid node-ip:
// invalid ip format '…'"). The server makes the check before it starts; an agent makes it
// once it has its configuration from the server, and stops ("failed to get node name and
// addresses: …"). It reports whether k3s refuses.
func (r *resolver) validateNodeIPs(restart string) bool {
	for _, item := range r.listValue("node-ip") {
		for _, v := range strings.Split(item, ",") {
			if net.ParseIP(v) == nil {
				msg := fmt.Sprintf("invalid node-ip: invalid ip format '%s'", v)
				if r.res.Command == "agent" {
					msg = "failed to retrieve agent configuration: failed to get node name and addresses: " + msg
				}
				r.refuse("node-ip-invalid", "node-ip", msg, "",
					fmt.Sprintf("write node-ip as IP addresses (a YAML list, or one comma-separated word without spaces), %s", restart), r.itemPos("node-ip", item))
				return true
			}
		}
	}
	return false
}

// clusterCIDRIsIPv4 is the family of the cluster's first CIDR: a server's cluster-cidr, or
// its default, which follows the first node IP (pkg/util GetDefaultAddresses: 10.42.0.0/16
// or fd00:42::/56). An agent learns it from the server; k3sconf assumes the default of an
// IPv4 first node IP there.
func (r *resolver) clusterCIDRIsIPv4(firstNodeIP net.IP) bool {
	if r.res.Command == "server" {
		for _, item := range r.listValue("cluster-cidr") {
			if ip, _, err := net.ParseCIDR(strings.Split(item, ",")[0]); err == nil {
				return ip.To4() != nil
			}
		}
		return firstNodeIP.To4() != nil
	}
	return true
}

// validateKubelet: what the kubelet refuses from what k3s hands it.
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
	if r.res.Command == "agent" && r.validateNodeIPs("then `systemctl restart "+service+"`") {
		return
	}
	if r.beh.KubeletGetsAllNodeIPs && r.p.Name == "k3s" && !r.boolValue("disable-cloud-controller") {
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
			r.refuse("node-ip-not-dual-stack", "node-ip",
				fmt.Sprintf("bad --node-ip %q: dual-stack node IP cannot include '0.0.0.0' or '::'", strings.Join(words, ",")), "",
				fmt.Sprintf("give node-ip the node's real addresses, one per IP family, then `systemctl restart %s`", service), r.keyPos("node-ip"))
			return
		}
		if len(ips) > 2 || (len(ips) == 2 && (ips[0].To4() == nil) == (ips[1].To4() == nil)) {
			joined := strings.Join(words, ",")
			k := r.res.Key("node-ip")
			var from []string
			for _, a := range k.History {
				if a.Outcome == Applied || a.Outcome == Appended {
					from = append(from, a.Pos.String())
				}
			}
			where := ""
			if len(from) > 1 {
				where = fmt.Sprintf("k3s appends the command-line node-ip to the config list (%s)", strings.Join(dedupe(from), ", "))
			}
			r.refuse("node-ip-not-dual-stack", "node-ip",
				fmt.Sprintf("bad --node-ip %q: must contain either a single IP or a dual-stack pair of IPs", joined), where,
				fmt.Sprintf("give node-ip in one place only, one address per IP family, then `systemctl restart %s`", service), r.keyPos("node-ip"))
			return
		}
	}
	// node-label: the kubelet's --node-labels is a component-base MapStringString; an item
	// without "=" fails with "malformed pair, expect string=string".
	for _, item := range r.listValue("node-label") {
		for _, pair := range strings.Split(item, ",") {
			if pair != "" && !strings.Contains(pair, "=") {
				r.refuse("node-label-not-key-value", "node-label",
					fmt.Sprintf("invalid argument %q for \"--node-labels\" flag: malformed pair, expect string=string", strings.Join(r.listValue("node-label"), ",")), "",
					fmt.Sprintf("write the label %q as key=value (e.g. %s=true), then `systemctl restart %s`", pair, pair, service), r.itemPos("node-label", item))
				return
			}
		}
	}
}
