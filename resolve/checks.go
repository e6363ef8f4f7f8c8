package resolve

import (
	"fmt"
	"net"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// checks adds the findings that need the whole resolution: YAML typing traps for the flag a
// key feeds, lists replaced across files, command-line shapes that mislead the parser, and
// settings that change what kind of node this is. Every code has its line in diag.Codes
// (docs/diagnostics.md).
func (r *resolver) checks() {
	cmd := r.p.Command(r.res.Command)
	if cmd == nil {
		return
	}
	r.checkConfigEntries(cmd)
	r.checkReplacedLists(cmd)
	r.checkCommandLine(cmd)
	r.checkEnvironment()
	r.checkWrapperDropins()
	r.checkDropinNames()
	r.checkRole(cmd)
	r.checkBothUnits()
	r.checkTLSSan()
	r.checkNodeLabels()
	r.checkTemplates()
	r.checkFlannelBackend()
	r.checkServerURL()
	r.checkFeatureGates()
	r.checkRKE2Profile()
	r.checkDeprecatedFlags()
	r.checkComponentFlags()
	r.checkAdmissionPlugins()
	r.checkRuntimeConfig()
	r.checkAPIServerFiles()
	r.checkOverridden()
	r.checkComponentArgOverridden()
}

// kubeletLabels and kubeletLabelNamespaces are what the kubelet lets a node set on itself in
// the kubernetes.io and k8s.io namespaces (k8s.io/kubelet/pkg/apis IsKubeletLabel); any
// other label there makes the kubelet refuse to start ("unknown 'kubernetes.io' or 'k8s.io'
// labels specified with --node-labels", cmd/kubelet/app/options validateNodeLabels).
var (
	kubeletLabels = map[string]bool{
		"kubernetes.io/hostname": true, "topology.kubernetes.io/zone": true, "topology.kubernetes.io/region": true,
		"failure-domain.beta.kubernetes.io/zone": true, "failure-domain.beta.kubernetes.io/region": true,
		"beta.kubernetes.io/instance-type": true, "node.kubernetes.io/instance-type": true,
		"kubernetes.io/os": true, "kubernetes.io/arch": true, "beta.kubernetes.io/os": true, "beta.kubernetes.io/arch": true,
	}
	kubeletLabelNamespaces = []string{"kubelet.kubernetes.io", "node.kubernetes.io"}
)

// checkNodeLabels reports node labels the kubelet refuses (S35: node-role.kubernetes.io/…).
func (r *resolver) checkNodeLabels() {
	k := r.res.Key("node-label")
	if k == nil {
		return
	}
	items, _ := k.Value.([]string)
	for _, it := range items {
		key, _, _ := strings.Cut(it, "=")
		ns, _, hasNS := strings.Cut(key, "/")
		if !hasNS {
			continue
		}
		restricted := ns == "kubernetes.io" || ns == "k8s.io" || strings.HasSuffix(ns, ".kubernetes.io") || strings.HasSuffix(ns, ".k8s.io")
		if !restricted || kubeletLabels[key] {
			continue
		}
		allowed := false
		for _, a := range kubeletLabelNamespaces {
			if ns == a || strings.HasSuffix(ns, "."+a) {
				allowed = true
			}
		}
		if allowed {
			continue
		}
		pos := diag.Position{}
		for _, a := range k.History {
			if a.Value == it || strings.Contains(strings.Join(a.Items, "\n"), it) {
				pos = a.Pos
			}
		}
		r.diag(diag.Diagnostic{Severity: diag.Error, Code: "node-label-restricted", Pos: pos, Key: "node-label",
			Message: fmt.Sprintf("node label %q is in the %s namespace, which a node may not set on itself: the kubelet refuses to start (\"unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels\")", key, ns),
			Hint:    "set it from outside with kubectl label node (node-role.kubernetes.io/… included), or use a label of your own domain or node.kubernetes.io/…"})
	}
}

// checkTLSSan: a SAN is a host name or an IP address; k3s puts an item with a scheme or a
// port into the certificate literally as a DNS name (k3s-io/k3s#7365), where it matches
// nothing.
func (r *resolver) checkTLSSan() {
	k := r.res.Key("tls-san")
	if k == nil {
		return
	}
	items, _ := k.Value.([]string)
	var all []string
	for _, it := range items {
		if r.beh.TLSSanNotSplit {
			all = append(all, it)
			continue
		}
		all = append(all, strings.Split(it, ",")...)
	}
	for _, san := range all {
		san = strings.TrimSpace(san)
		host := san
		if i := strings.Index(host, "://"); i >= 0 {
			host = host[i+3:]
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(host, "/")
		if host == san {
			continue
		}
		pos := diag.Position{}
		if k.Source != nil {
			pos = k.Source.Pos
		}
		for _, a := range k.History {
			if strings.Contains(a.Value, san) || strings.Contains(strings.Join(a.Items, ","), san) {
				pos = a.Pos
			}
		}
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "tls-san-not-a-name", Pos: pos, Key: "tls-san",
			Message: fmt.Sprintf("tls-san %q is not a host name or IP address: k3s puts it into the certificate literally, so it matches no client", san),
			Hint:    fmt.Sprintf("write only the name or address: %s", host)})
	}
}

// unitGuard says how an RKE2 unit keeps its twin from running: "ExecCondition" (refuses to
// start while the other is active), "Conflicts" (starting it stops the other), or "" when the
// file names neither (or cannot be read: then "ExecCondition", the shipped unit's guard).
func (r *resolver) unitGuard(file string) string {
	data, err := readFile(r.fs, file)
	if err != nil {
		return "ExecCondition"
	}
	uf, _ := sources.ParseUnit(file, data)
	guard := ""
	for _, e := range uf.Entries {
		switch {
		case e.Section == "Service" && e.Key == "ExecCondition" && strings.Contains(e.Value, "is-active"):
			return "ExecCondition"
		case e.Section == "Unit" && e.Key == "Conflicts" && strings.Contains(e.Value, "rke2-"):
			guard = "Conflicts"
		}
	}
	return guard
}

// checkBothUnits: RKE2's units keep each other from running (bundle/lib/systemd/system/
// rke2-*.service): an ExecCondition= that refuses to start while the other is active since
// rancher/rke2 edef34d59, Conflicts= before; the note says which the installed unit has.
func (r *resolver) checkBothUnits() {
	if r.p.Name != "rke2" {
		return
	}
	var found []string
	for _, u := range []string{r.p.Units["server"], r.p.Units["agent"]} {
		for _, d := range r.p.UnitDirs {
			if fi, err := r.fs.Stat(path.Join(d, u)); err == nil && !fi.IsDir() {
				found = append(found, path.Join(d, u))
				break
			}
		}
	}
	if len(found) == 2 {
		msg := fmt.Sprintf("both %s and %s are installed; each has an ExecCondition that refuses to start while the other is active, so only one of them runs", found[0], found[1])
		switch guard := r.unitGuard(found[0]); guard {
		case "Conflicts":
			// RKE2's units carried Conflicts= until the ExecCondition= of rancher/rke2
			// edef34d59 (v1.36.0; backported to v1.35.2, v1.34.5, v1.33.9, v1.32.12).
			msg = fmt.Sprintf("both %s and %s are installed; each names the other in Conflicts=, so starting one stops the other and only the one started last runs", found[0], found[1])
		case "":
			msg = fmt.Sprintf("both %s and %s are installed and neither refuses the other (no ExecCondition= or Conflicts= in %s): both can run at once on one node", found[0], found[1], found[0])
		}
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "rke2-both-units", Pos: diag.Position{File: found[0]},
			Message: msg,
			Hint:    "disable the one this node should not run: systemctl disable --now rke2-agent (or rke2-server); pick the other here with --command"})
	}
}

var boolWords = map[string]bool{"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true,
	"no": true, "No": true, "NO": true, "on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true}

// checkConfigEntries looks at each config key and value as written against the flag it sets.
func (r *resolver) checkConfigEntries(cmd *profile.Command) {
	type scalar struct {
		v                 any
		raw, typ          string
		quoted            bool
		pos               diag.Position
		isList, fromItems bool
	}
	// One buffer for every entry: a slice per entry was 5 MB of garbage on 2,000 drop-ins.
	var vals []scalar
	looked, lastKey, lastF, lastGuessed := false, "", (*profile.Flag)(nil), ""
	// lastItem is the item before, in the key's list: a secret flag on its own makes the
	// next item its secret value (secretFlagWord).
	lastItem := ""
	for _, ce := range r.entries {
		e := ce.entry
		if !looked || e.Key != lastKey {
			lastItem = ""
		}
		// A quoted key is a string whatever it holds: JSON (Rancher's 50-rancher.yaml drop-in
		// is written by encoding/json) quotes every key, and yaml.v2 reads "node-label" as
		// node-label, so only a plain key can be typed.
		if e.Key != strings.TrimSuffix(e.RawKey, "+") && e.Key != "" && !strings.HasPrefix(e.RawKey, `"`) && !strings.HasPrefix(e.RawKey, "'") {
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "yaml-typed-key", Pos: e.KeyPos, Key: e.Key,
				Message: fmt.Sprintf("YAML 1.1 reads the key %q as %q (yes/no/on/off/y/n are booleans, numbers are normalised), so k3s sees the flag %q", strings.TrimSuffix(e.RawKey, "+"), e.Key, e.Key),
				Hint:    fmt.Sprintf("quote the key (\"%s\":) if you meant it literally", strings.TrimSuffix(e.RawKey, "+"))})
		}
		// The entries come grouped by key (parse): each key is looked up once.
		if !looked || e.Key != lastKey {
			looked, lastKey, lastF, lastGuessed = true, e.Key, cmd.Lookup(e.Key), ""
			if lastF == nil {
				// A mistyped component-arg key (kublet-arg) hides what its values would do
				// once the key is fixed: check them against the flag the key's fix names, so
				// one run says both (issue 20).
				if sg := suggestion(e.Key, cmd); strings.HasSuffix(sg, "-arg") {
					lastF, lastGuessed = cmd.Lookup(sg), sg
				}
			}
		}
		f, guessed := lastF, lastGuessed
		if f == nil {
			continue
		}
		if e.Append && f.Type != profile.StringSlice && guessed == "" {
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-append-single-value", Pos: e.KeyPos, Key: f.Name,
				Message: fmt.Sprintf("%s+: appends, but %s takes one value: k3s passes every item as --%s and the last one wins", e.Key, f.Name, f.Name),
				Hint:    fmt.Sprintf("write %s: with the one value you want", e.Key)})
		}
		vals = vals[:0]
		if len(e.Items) > 0 {
			for _, it := range e.Items {
				vals = append(vals, scalar{it.Value, it.Raw, it.Type, it.Quoted, it.Pos, true, true})
			}
		} else if _, isList := e.Value.([]any); !isList {
			vals = append(vals, scalar{e.Value, e.Raw, e.Type, e.Quoted, valuePos(e), false, false})
		}
		for _, s := range vals {
			rendered := sources.ToString(s.v)
			// A copy of a secret by YAML alias is checked on its value and quoted as REDACTED
			// (secretcopy.go), and so is the value of a secret flag given as the list item
			// before (["--registry-password", "x"]).
			hidden := e.SecretCopy || (s.isList && f.Type == profile.StringSlice && secretFlagWord(lastItem))
			if s.isList {
				lastItem = rendered
			}
			hid := func(x string) string {
				if hidden {
					return redacted
				}
				return x
			}
			switch {
			case f.Name == "write-kubeconfig-mode" && s.typ == "int" && !s.quoted && strings.HasPrefix(strings.TrimLeft(s.raw, "+-"), "0") && len(s.raw) > 1:
				effect := "not a valid octal mode, so k3s logs an error and k3s.yaml keeps mode 0600"
				if m, err := strconv.ParseInt(rendered, 8, 0); err == nil {
					effect = fmt.Sprintf("mode 0%o, not %s", m, hid(s.raw))
				}
				sev, also := diag.Error, ""
				if k := r.res.Key(f.Name); k == nil || k.Source == nil || k.Source.Pos != s.pos {
					sev, also = diag.Warning, " (another setting wins today; this one bites when it is removed)"
				}
				r.diag(diag.Diagnostic{Severity: sev, Code: "yaml-octal-mode", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("unquoted %s is a YAML 1.1 octal number: k3s receives %q and reads it as octal: %s%s", hid(s.raw), hid(rendered), effect, also),
					Hint:    fmt.Sprintf("quote it: write-kubeconfig-mode: \"%s\"", hid(s.raw))})
			case f.Type == profile.Bool && s.typ == "str" && boolWords[strings.TrimSpace(rendered)]:
				r.diag(diag.Diagnostic{Severity: diag.Error, Code: "yaml-quoted-bool", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("%s is a bool flag and gets the string %q, which Go's strconv.ParseBool rejects: k3s refuses to start", f.Name, hid(rendered)),
					Hint:    fmt.Sprintf("write %s: %s (unquoted true or false)", e.Key, map[bool]string{true: "true", false: "false"}[isYes(rendered)])})
			case (f.Type == profile.Bool || f.Type == profile.Int || f.Type == profile.Duration) && s.typ == "null" && !s.isList:
				r.diag(diag.Diagnostic{Severity: diag.Error, Code: "yaml-null-value", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("%s: has no value (YAML null), so k3s passes --%s= and the %s flag cannot parse an empty value: k3s refuses to start", e.RawKey, f.Name, f.Type),
					Hint:    fmt.Sprintf("give %s a value or remove the key", e.Key)})
			case (f.Type == profile.String || f.Type == profile.StringSlice) && !s.quoted && s.typ == "bool" && boolWords[strings.TrimSpace(s.raw)]:
				r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "yaml-bool-coerced", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("unquoted %s is a YAML 1.1 boolean: k3s receives %s=%q, not %q", hid(s.raw), f.Name, hid(rendered), hid(s.raw)),
					Hint:    fmt.Sprintf("quote it: \"%s\"", hid(s.raw))})
			case (f.Type == profile.String || f.Type == profile.StringSlice) && !s.quoted && (s.typ == "int" || s.typ == "float") && rendered != strings.TrimSpace(s.raw) && f.Name != "write-kubeconfig-mode":
				r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "yaml-number-coerced", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("unquoted %s is a YAML 1.1 number: k3s receives %s=%q", hid(s.raw), f.Name, hid(rendered)),
					Hint:    fmt.Sprintf("quote it: \"%s\"", hid(s.raw))})
			case s.typ == "timestamp" && !s.quoted:
				r.diag(diag.Diagnostic{Severity: diag.Info, Code: "yaml-date", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("%s looks like a YAML date; k3s's yaml.v2 keeps the text, so it arrives unchanged, but other YAML tools turn it into a timestamp", hid(s.raw)),
					Hint:    fmt.Sprintf("quote it: \"%s\"", hid(s.raw))})
			}
			if s.typ == "map" {
				r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "yaml-nested-map", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("%s is given a mapping; k3s renders it as Go syntax, %q, which is almost certainly not what %s expects", e.Key, hid(rendered), f.Name),
					Hint:    "flags take strings; write the value as one string, or a list of strings for repeatable flags"})
			}
			if strings.HasSuffix(f.Name, "-arg") {
				flagName, _, _ := strings.Cut(rendered, "=")
				flagName = strings.TrimLeft(flagName, "-")
				if kebab := toKebab(flagName); kebab != flagName {
					where := f.Name
					if guessed != "" {
						where = fmt.Sprintf("%s (meant as %s: once the key is fixed)", e.Key, guessed)
					}
					r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-component-arg-camelcase", Pos: s.pos, Key: f.Name,
						Message: fmt.Sprintf("%q in %s looks like a configuration-file field, not a command-line flag: Kubernetes components take kebab-case flags, so --%s is rejected or ignored", hid(flagName), where, hid(flagName)),
						Hint:    fmt.Sprintf("use the flag name %q (if the component has that flag), or set the field in the component's config file", hid(kebab))})
				}
			}
			if noSplit[f.Name] && strings.Contains(rendered, ",") {
				r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-comma-not-split", Pos: s.pos, Key: f.Name,
					Message: fmt.Sprintf("k3s does not split %s items on commas: %q is one item, and k3s's label sync turns it into the label %q with the invalid value %q", f.Name, hid(rendered), hid(strings.SplitN(rendered, "=", 2)[0]), hid(strings.SplitN(rendered+"=", "=", 2)[1])),
					Hint:    fmt.Sprintf("write a YAML list, one item per %s: [%s]", strings.TrimSuffix(f.Name, "s"), hid(strings.Join(strings.Split(rendered, ","), ", ")))})
			}
		}
	}
}

// secretFlagWord reports whether an item of a list is a secret flag on its own
// ("--registry-password", "-password", "--token"; not "--token=x", not "--v"), whose value
// is the next item: the list rule of the output's redactor (output.Redactor.FlagValue,
// docs/secrets.md), by the one name rule, for the texts the resolver builds.
func secretFlagWord(s string) bool {
	if len(s) < 2 || s[0] != '-' || strings.ContainsAny(s, "= \t\n") {
		return false
	}
	return output.SecretName(strings.TrimLeft(s, "-"))
}

func isYes(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "on":
		return true
	}
	return false
}

// noSplit are repeatable flags where a comma inside one item breaks something. node-label:
// the kubelet gets the items joined with commas (pkg/daemons/agent/agent_linux.go), but
// k3s's own label sync splits each item at its first "=" only (pkg/agent/run.go
// updateMutableLabels), so "a=1,b=2" becomes the invalid label value "1,b=2". node-taint is
// joined the same way and has no such second reader, so commas work there. The *-arg flags
// are left out: "kube-reserved=cpu=1,memory=1Gi" needs its comma.
var noSplit = map[string]bool{"node-label": true, "airgap-extra-registry": true}

// checkReplacedLists finds a list from one file replaced by a later file's plain key (S1).
func (r *resolver) checkReplacedLists(cmd *profile.Command) {
	for _, k := range r.configKeys {
		f := cmd.Lookup(k)
		if f == nil || f.Type != profile.StringSlice {
			continue
		}
		es := r.entriesByKey[k]
		for i := 1; i < len(es); i++ {
			prev, cur := es[i-1], es[i]
			if cur.entry.Append || prev.file == cur.file {
				continue
			}
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-list-replaced", Pos: cur.entry.KeyPos, Key: f.Name,
				Message: fmt.Sprintf("%s: in %s replaces the %s list from %s (%s) instead of adding to it", k, path.Base(cur.file.Path), f.Name, path.Base(prev.file.Path), sources.ToString(listText(prev.entry))),
				Hint:    fmt.Sprintf("write %s+: in %s to append", k, cur.file.Path)})
		}
	}
}

func listText(e *sources.ConfigEntry) string {
	if len(e.Items) == 0 {
		return sources.ToString(e.Value)
	}
	var items []string
	for _, it := range e.Items {
		items = append(items, sources.ToString(it.Value))
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// checkCommandLine looks at the command-line words as systemd hands them to k3s.
func (r *resolver) checkCommandLine(cmd *profile.Command) {
	toks := r.argv
	reported := map[diag.Position]bool{}
	for _, d := range r.res.Diagnostics {
		if d.Code == "cli-flag-with-space" {
			reported[d.Pos] = true
		}
	}
	for i, t := range toks {
		s := t.text
		if strings.HasPrefix(s, "-") && strings.ContainsAny(s, " \t") && !strings.Contains(strings.SplitN(s, "=", 2)[0], "=") {
			name := strings.SplitN(strings.TrimLeft(s, "-"), "=", 2)[0]
			if strings.ContainsAny(name, " \t") && !reported[t.pos()] {
				fields := strings.Fields(s)
				d := diag.Diagnostic{Severity: diag.Error, Code: "cli-flag-with-space", Pos: t.pos(),
					Message: fmt.Sprintf("the argument %q is one word holding a flag and its value; k3s looks for a flag named %q", s, strings.TrimLeft(s, "-")),
					Hint:    fmt.Sprintf("split it into two words: '%s' '%s'", fields[0], strings.Join(fields[1:], " "))}
				if v := bracedVariable(t.raw()); v != "" {
					d.Message = fmt.Sprintf("${%s} holds several words (%q), and systemd passes a braced variable as one argument; k3s looks for a flag named %q", v, s, strings.TrimLeft(s, "-"))
					d.Hint = fmt.Sprintf("write $%s without braces in ExecStart (systemd splits an unbraced variable at white space), or give each flag its own word", v)
				}
				r.diag(d)
			}
		}
		if strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && i+1 < len(toks) {
			f := cmd.Lookup(strings.TrimLeft(s, "-"))
			next := toks[i+1].text
			if f != nil && f.Type == profile.Bool {
				if _, err := strconv.ParseBool(next); err == nil || boolWords[next] {
					r.diag(diag.Diagnostic{Severity: diag.Error, Code: "cli-bool-separate-value", Pos: toks[i+1].pos(), Key: f.Name,
						Message: fmt.Sprintf("%s is a bool flag, so %q after it is not its value but a positional argument: %s is set to true and every flag after %q is ignored", s, next, f.Name, next),
						Hint:    fmt.Sprintf("write %s=%s as one word", s, next)})
				}
			}
		}
	}
	if n := len(r.res.Diagnostics); n > 0 {
		harmless := map[diag.Position]bool{}
		for _, d := range r.res.Diagnostics {
			if d.Code == "cli-positional" && d.Pos.Line > 0 {
				for ti, t := range toks {
					if t.pos() == d.Pos && (t.text == "server" || t.text == "agent") {
						if ti == len(toks)-1 || !r.lostAfter(t.text, d.Pos) {
							// Nothing follows the second command word, or urfave/cli v1 moved
							// every flag after it in front of it: k3s's server and agent
							// actions never read their positional arguments (pkg/cli/server
							// Run, pkg/cli/agent Run at 66a14f0e8), so no flag is lost and k3s
							// starts as if the word were not there.
							what := "since nothing follows it no flag is lost"
							if ti < len(toks)-1 {
								what = "urfave/cli v1 moves the flags after it in front of it, so no flag is lost"
							}
							r.diag(diag.Diagnostic{Severity: diag.Info, Code: "cli-repeated-command", Pos: d.Pos,
								Message: fmt.Sprintf("a second %q on the command line: k3s ignores it, and %s", t.text, what),
								Hint:    fmt.Sprintf("remove the second %q from ExecStart when you next edit the unit: %s", t.text, fmt.Sprintf(r.p.ExecStartEdit, r.serviceName()))})
							harmless[d.Pos] = true
							continue
						}
						// One mistake, one finding: the error replaces the positional-argument
						// warning at the same word (issue 29).
						harmless[d.Pos] = true
						msg := fmt.Sprintf("a second %q on the command line, so every flag after it is ignored", t.text)
						hint := fmt.Sprintf("remove the second %q from ExecStart: %s", t.text, fmt.Sprintf(r.p.ExecStartEdit, r.serviceName()))
						if r.p.Name == "k3s" {
							// install.sh setup_env (k3s-io/k3s at 66a14f0e8) runs `eval set --
							// ${INSTALL_K3S_EXEC} "$@"` and takes the first word as the command
							// only when it does not start with "-"; otherwise it puts server (or
							// agent, with K3S_URL) in front, and a command word later in
							// INSTALL_K3S_EXEC stays where it was.
							msg = fmt.Sprintf("a second %q on the command line: the install script takes the command from the first word of INSTALL_K3S_EXEC (and its arguments) and, when that word is a flag, puts %q in front, so %q appears twice and every flag after the second one is ignored", t.text, t.text, t.text)
							hint = fmt.Sprintf("write %q as the first word of INSTALL_K3S_EXEC (INSTALL_K3S_EXEC=\"%s --flag …\"), or leave it out there, and re-run the install script; or remove the second %q with `systemctl edit --full %s`", t.text, t.text, t.text, r.serviceName())
						}
						r.diag(diag.Diagnostic{Severity: diag.Error, Code: "cli-repeated-command", Pos: d.Pos,
							Message: msg, Hint: hint})
					}
				}
			}
		}
		// A stray word right after a repeatable flag's value reads as a second value of that
		// flag (--disable traefik servicelb): the fix is another --flag, not removing it.
		for i := range r.res.Diagnostics {
			d := &r.res.Diagnostics[i]
			if d.Code != "cli-positional" || harmless[d.Pos] {
				continue
			}
			for ti, t := range toks {
				if t.pos() != d.Pos || ti < 2 {
					continue
				}
				flagTok, valTok := toks[ti-2].text, toks[ti-1].text
				if !strings.HasPrefix(flagTok, "-") || strings.Contains(flagTok, "=") || strings.HasPrefix(valTok, "-") || strings.HasPrefix(t.text, "-") || t.text == "server" || t.text == "agent" {
					continue
				}
				f := cmd.Lookup(strings.TrimLeft(flagTok, "-"))
				if f != nil && f.Type != profile.Bool && valTok == "value" {
					// "value" is urfave/cli's placeholder in `k3s server --help`
					// ("--write-kubeconfig-mode value"), copied with the flag: the flag takes
					// it as its value and the real value is the stray word. Removing the
					// stray word would keep the placeholder (issue 29).
					d.Message = fmt.Sprintf("%s takes the next word as its value, so it is %q (the placeholder `%s %s --help` prints), and %q after it is a positional argument: it and everything after it are ignored", flagTok, valTok, r.p.Program, r.res.Command, t.text)
					if f.Name == "write-kubeconfig-mode" {
						d.Message += "; k3s logs `Failed to set … to mode …: strconv.ParseInt: parsing \"value\": invalid syntax` and k3s.yaml keeps mode 0600 (pkg/server/server.go writeKubeConfig)"
					}
					d.Hint = fmt.Sprintf("remove the word \"value\": write '%s' '%s' in ExecStart: %s", flagTok, t.text, fmt.Sprintf(r.p.ExecStartEdit, r.serviceName()))
					continue
				}
				if f != nil && f.Type == profile.StringSlice {
					d.Message += fmt.Sprintf("; it reads like a second value of %s, but a flag takes one value per occurrence", flagTok)
					d.Hint = fmt.Sprintf("give the value its own flag: '%s' '%s' in ExecStart: %s", flagTok, t.text, fmt.Sprintf(r.p.ExecStartEdit, r.serviceName()))
				}
			}
		}
		if len(harmless) > 0 {
			// The note replaces the positional-argument warning at the same word.
			kept := r.res.Diagnostics[:0]
			for _, d := range r.res.Diagnostics {
				if !(d.Code == "cli-positional" && harmless[d.Pos]) {
					kept = append(kept, d)
				}
			}
			r.res.Diagnostics = kept
		}
	}
}

// lostAfter reports whether some command-line word after the positional argument word at
// pos was left unparsed (its assignment is Ignored for that reason).
func (r *resolver) lostAfter(word string, pos diag.Position) bool {
	prefix := fmt.Sprintf("after the positional argument %q at %s", word, pos)
	for _, a := range r.stray {
		if a.Outcome == provenance.Ignored && strings.HasPrefix(a.Reason, prefix) {
			return true
		}
	}
	for _, k := range r.res.Keys {
		for _, a := range k.History {
			if a.Outcome == provenance.Ignored && strings.HasPrefix(a.Reason, prefix) {
				return true
			}
		}
	}
	return false
}

// checkEnvironment reports K3S_CONFIG_FILE moving the config (S29), and variables the
// modelled release does not read (S6).
func (r *resolver) checkEnvironment() {
	if name := r.p.EnvPrefix + "_DATA_DIR"; r.beh.NoDataDirEnv {
		if ev := r.env[name]; ev != nil {
			a := ev.Assignments[len(ev.Assignments)-1]
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "env-not-read-by-release", Pos: a.Pos, Key: "data-dir",
				Message: fmt.Sprintf("%s is set, but %s %s has no environment variable for --data-dir (it came with v1.27.16, v1.28.12, v1.29.7, v1.30.3 and v1.31.0, k3s-io/k3s#10589): the variable is ignored and the data directory stays the default", name, r.p.Program, r.beh.Version),
				Hint:    fmt.Sprintf("set data-dir: in the config file or --data-dir in the unit, or upgrade to a release that reads %s", name)})
		}
	}
	if ev := r.env[r.p.ConfigEnv]; ev != nil && ev.Value != "" {
		a := ev.Assignments[len(ev.Assignments)-1]
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "config-moved", Pos: a.Pos,
			Message: fmt.Sprintf("%s=%s moves the config file and its drop-in folder to %s.d/; %s and its drop-ins are not read, and the variable beats --config on the command line", r.p.ConfigEnv, ev.Value, ev.Value, r.p.DefaultConfig),
			Hint:    fmt.Sprintf("put your settings in %s, or remove %s from %s", ev.Value, r.p.ConfigEnv, a.Pos.File)})
	}
}

// checkWrapperDropins reports a data-dir set in a drop-in that the release's wrapper does not
// read because config.yaml does not exist (k3s-io/k3s#10589, fixed by e51494002 in v1.31.0,
// v1.30.3, v1.29.7, v1.28.12, v1.27.16): the wrapper unpacks its bundled binaries under the
// default data directory while k3s itself, whose parser reads the drop-ins, keeps its state
// in the drop-in's. Only data-dir is reported: debug, the wrapper's other lookup, changes
// nothing but the wrapper's own log level.
func (r *resolver) checkWrapperDropins() {
	if len(r.wrapperSkipped) == 0 || r.p.DataDir == "" {
		return
	}
	k := r.res.Key("data-dir")
	if k == nil || k.Source == nil || !r.wrapperSkipped[k.Source.Pos.File] || k.Value == r.p.DataDir {
		return
	}
	r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "wrapper-dropins-unread", Pos: k.Source.Pos, Key: "data-dir",
		Message: fmt.Sprintf("%s %s's wrapper does not read %s.d/ when %s does not exist (k3s-io/k3s#10589, fixed in v1.27.16, v1.28.12, v1.29.7, v1.30.3 and v1.31.0): it unpacks its bundled binaries under %s/data, while %s itself keeps its state in %s", r.p.Program, r.beh.Version, r.p.DefaultConfig, r.p.DefaultConfig, r.p.DataDir, r.p.Program, k.Value),
		Hint:    fmt.Sprintf("move data-dir: into %s (create it), pass --data-dir in the unit, or upgrade to a release with the fix", r.p.DefaultConfig)})
}

var numPrefix = regexp.MustCompile(`^(\d+)`)

// checkDropinNames warns when numeric prefixes of different widths sort against intuition
// (os.ReadDir sorts byte-wise: "10-a.yaml" before "9-b.yaml").
func (r *resolver) checkDropinNames() {
	var names []string
	for _, s := range r.res.Sources {
		if s.Role == "config-dropin" && s.State == "read" {
			names = append(names, path.Base(s.Path))
		}
	}
	widths := map[int]string{}
	for _, n := range names {
		if m := numPrefix.FindString(n); m != "" {
			widths[len(m)] = n
		}
	}
	if len(widths) < 2 {
		return
	}
	var ws []int
	for w := range widths {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	short, long := widths[ws[0]], widths[ws[len(ws)-1]]
	r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-dropin-order", Pos: diag.Position{File: r.res.ConfigPath + ".d"},
		Message: fmt.Sprintf("drop-in names have numeric prefixes of different widths (%s, %s); k3s sorts them as text, not numbers, so %s is read before %s", short, long, minStr(short, long), maxStr(short, long)),
		Hint:    "use prefixes of one width (05-, 10-, 90-) so the order is the one you read"})
}

func minStr(a, b string) string {
	if a < b {
		return a
	}
	return b
}

func maxStr(a, b string) string {
	if a < b {
		return b
	}
	return a
}

// checkRole reports settings that make a server join another cluster (S27, S28).
func (r *resolver) checkRole(cmd *profile.Command) {
	if cmd.Name != "server" {
		return
	}
	k := r.res.Key("server")
	if k == nil || k.Value == "" || k.Source == nil {
		return
	}
	switch k.Source.Kind {
	case sources.KindEnv:
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "k3s-url-on-server", Pos: k.Source.Pos, Key: "server",
			Message: fmt.Sprintf("%s is set for a unit that runs `k3s server`: this node joins %v as another server (control plane), not as an agent", k.Source.Name, k.Value),
			Hint:    fmt.Sprintf("for an agent, %s; for a server of its own, remove %s from %s", r.p.AgentInstall, k.Source.Name, k.Source.Pos.File)})
	case sources.KindConfig:
		// A second server joining with server:, token and server-only settings is the
		// standard HA join (docs.k3s.io "High Availability Embedded etcd"): say it as
		// information. Without any server-only key the config looks like an agent's that
		// landed on a server unit.
		if only := r.serverOnlyKeys(cmd); len(only) > 0 {
			r.diag(diag.Diagnostic{Severity: diag.Info, Code: "config-server-on-server", Pos: k.Source.Pos, Key: "server",
				Message: fmt.Sprintf("this server joins the cluster at %v as another server (control plane); its config also sets server-only keys (%s), as an HA join does", r.quote("server", fmt.Sprint(k.Value)), strings.Join(only, ", "))})
			return
		}
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-server-on-server", Pos: k.Source.Pos, Key: "server",
			Message: "config.yaml sets server: and nothing only a server has, like an agent's config, but the unit runs `k3s server`: this node joins that cluster as another server, not as an agent (the installer decides server or agent; it does not read config.yaml)",
			Hint:    fmt.Sprintf("for an agent, %s; for a server of its own, remove server:", r.p.AgentInstall)})
	}
}

// serverOnlyKeys are the keys set in config files (or on the command line) that the agent
// command does not have.
func (r *resolver) serverOnlyKeys(cmd *profile.Command) []string {
	agent := r.p.Command("agent")
	var out []string
	for _, k := range r.res.Keys {
		if k.Source == nil || k.Source.Kind == sources.KindDefault || k.Source.Kind == sources.KindEnv {
			continue
		}
		if agent != nil && agent.Lookup(k.Name()) == nil {
			out = append(out, k.Name())
		}
	}
	return out
}

// toKebab turns protectKernelDefaults into protect-kernel-defaults; a name without capitals
// comes back as it is, without allocating (it runs for every *-arg item).
func toKebab(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' }) < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r - 'A' + 'a')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
