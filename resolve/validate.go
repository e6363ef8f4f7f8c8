package resolve

import (
	"fmt"
	"net"
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// validate reproduces the checks k3s's command actions make after the flags parsed: the
// server's and agent's checks before they start, the datastore choice and the join, the
// agent's load balancer, and the kubelet's flag parsing after k3s started. Each refusal
// carries k3s's own message (the text after "level=fatal msg=" in the journal) and the
// rule that makes it (checkrules.go: source line, releases, phase), in the order k3s makes
// the checks. The first refusal becomes Result.Error when the command line itself was fine:
// k3s stops there. k3sconf then goes on as k3s would once that is fixed, as far as the
// later checks do not depend on the refused value, and marks what it finds AfterFixing, so
// one run names every problem.
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
		if r.validateAgent() {
			r.validateKubelet()
		}
	case "etcd-snapshot":
		r.validateEtcdSnapshot()
	case "server":
		ok := r.validateServer()
		// pkg/cli/server/server.go:480: a cluster reset with the supervisor and apiserver on
		// one port (k3s; RKE2 has them apart) runs without the agent.
		resetNoAgent := r.boolValue("cluster-reset") && r.p.Name == "k3s"
		if ok && !r.boolValue("disable-agent") && !resetNoAgent {
			restart := "then `systemctl restart " + strings.TrimSuffix(r.p.Units["server"], ".service") + "`"
			r.refuseNoFlannel(restart)
			r.checkIPFamilies(restart)
			r.validateKubelet()
		}
	}
}

// refusal is one finding of k3s's own checks.
type refusal struct {
	rule     string // checkRules id
	key, msg string // the flag, and k3s's message
	why      string // how the node came to this (one clause), or ""
	hint     string
	assumes  string // the host state it depends on, or ""
	pos      diag.Position
	severity diag.Severity // Error unless set
}

// refuse records one of k3s's own checks failing. The first one that stops k3s becomes
// Result.Error; later ones are marked AfterFixing. A retries-forever finding does not make
// k3s exit, so it is not Result.Error, but the node never gets ready: an error still.
func (r *resolver) refuse(code string, f refusal) {
	rule := ruleByID(f.rule)
	if rule == nil {
		panic("resolve: no check rule " + f.rule) // TestCheckRules
	}
	pos := f.pos
	if pos.IsZero() {
		// The key is set nowhere: point at the command, but the fix edits the config
		// file, not the unit (unitFixes leaves it alone).
		pos = r.commandPos()
		if r.configFix == nil {
			r.configFix = map[string]bool{}
		}
		r.configFix[code+" "+pos.String()] = true
	}
	at := "66a14f0e8"
	if rule.removal != "" {
		at = removalAt
	}
	if rule.at != "" {
		at = rule.at
	}
	src := "k3s-io/k3s@" + at + " " + rule.source
	var m string
	switch {
	case rule.phase == PhaseAfterStart && rule.agentPart:
		m = fmt.Sprintf("%s starts, then exits when its agent part checks the node's networks: %q (%s)", r.p.Program, f.msg, src)
	case rule.phase == PhaseAfterStart && rule.removal != "":
		m = fmt.Sprintf("%s starts, then exits when its agent part reads its configuration: %q (%s)", r.p.Program, f.msg, src)
	case rule.phase == PhaseAfterStart:
		m = fmt.Sprintf("%s starts, then stops when the kubelet it runs exits: %q (%s)", r.p.Program, f.msg, src)
	case rule.phase == PhaseRetry:
		m = fmt.Sprintf("%s starts but never gets ready: it logs %q and retries for ever (%s)", r.p.Program, f.msg, src)
	case r.res.Command == "etcd-snapshot":
		m = fmt.Sprintf("%s etcd-snapshot fails: %q (%s)", r.p.Program, f.msg, src)
	default:
		m = fmt.Sprintf("%s refuses to start: %q (%s)", r.p.Program, f.msg, src)
	}
	if f.severity == diag.Warning {
		m = f.msg + " (" + src + ")"
	}
	if f.why != "" {
		m += ": " + f.why
	}
	if f.assumes != "" {
		m += " [host state: " + f.assumes + "]"
	}
	after := r.stops > 0 && f.severity != diag.Warning
	if after {
		m = "after fixing the above, " + m
	}
	sev := diag.Error
	if f.severity != "" {
		sev = f.severity
	}
	r.diag(diag.Diagnostic{Severity: sev, Code: code, Pos: pos, Key: f.key, Message: m, Hint: f.hint,
		Phase: phaseOf(rule, sev), AfterFixing: after, Assumes: f.assumes,
		Rule: rule.source + " at k3s-io/k3s " + at + "; " + rule.releases()})
	if sev != diag.Error {
		return
	}
	r.stops++
	// Only the first finding that stops k3s is its refusal: after a retries-forever one, k3s
	// never reaches the later checks, so they stay AfterFixing and are not Result.Error.
	if rule.phase != PhaseRetry && !after && r.res.Error == "" {
		r.failAt(stageValidate, f.msg, pos)
		r.res.errPhase = rule.phase
	}
}

func phaseOf(rule *checkRule, sev diag.Severity) string {
	if sev != diag.Error {
		return ""
	}
	return rule.phase
}

// check returns the rule of a check when the modelled release makes it, else nil.
func (r *resolver) check(id string) *checkRule {
	rule := ruleByID(id)
	if rule == nil {
		panic("resolve: no check rule " + id)
	}
	if !rule.applies(r.beh) {
		return nil
	}
	return rule
}

// hostPath says whether a path under the data directory exists, and the host state that
// answer rests on. Checks that depend on the data directory's contents (an etcd member, the
// server token, the agent's certificate) use what the node's files show; when the files
// have no data directory at all (a copy of /etc only), k3sconf assumes a node that has not
// run k3s yet — for every command and product alike — and says so.
func (r *resolver) hostPath(p string, wantDir bool) (exists bool, assumes string) {
	if fi, err := r.fs.Stat(p); err == nil && (!wantDir || fi.IsDir()) {
		return true, p + " exists (the node's files)"
	}
	if r.exists(r.dataDir()) {
		return false, p + " does not exist (the node's files)"
	}
	return false, fmt.Sprintf("the node's files have no %s: assumed a node that has not run %s yet (no %s)", r.dataDir(), r.p.Program, p)
}

// commandPos is where the command word (server, agent) is, for refusals about a key that is
// set nowhere: the unit's ExecStart, else the config file, else the unit.
func (r *resolver) commandPos() diag.Position {
	for _, t := range r.argv {
		if t.kind == sources.KindCLI && t.text == r.res.Command && t.pos().Line > 0 {
			return t.pos()
		}
	}
	for _, t := range r.argv {
		if t.pos().Line > 0 {
			return t.pos()
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
				Message: fmt.Sprintf("%s %s is not on the node: %s waits up to 4 minutes for it to appear (\"Waiting for file … to be created\") and then stops", key, r.quote(key, p), r.p.Program),
				Hint:    fmt.Sprintf("create %s with the token before %s starts, or fix the path", r.quote(key, p), r.p.Program)})
		}
		return "", true, true
	}
	return strings.TrimSpace(string(data)), true, false
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

// cliValueRaw is the unit word as written that gave a command-line assignment its value:
// the part after "=" of --flag=value, or the word after --flag.
func (r *resolver) cliValueRaw(a *Assignment) string {
	if a.Kind != sources.KindCLI {
		return a.Raw
	}
	for i, t := range r.argv {
		if t.pos() != a.Pos {
			continue
		}
		if _, v, ok := strings.Cut(t.raw(), "="); ok && strings.HasPrefix(t.text, "-") {
			return v
		}
		if i+1 < len(r.argv) {
			return r.argv[i+1].raw()
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
		if a.Outcome != provenance.Applied && a.Outcome != provenance.Appended {
			continue
		}
		if a.Value == item {
			return a.Pos
		}
	}
	return r.keyPos(name)
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
