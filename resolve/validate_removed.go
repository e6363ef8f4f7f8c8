package resolve

import (
	"fmt"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/sources"
)

// The flags k3s removed in v1.26 (profile/data/flag-releases.tsv, its removal rows): until
// then the modelled release has them (profile.ForRelease adds them back), from warn_from k3s
// logs a deprecation warning when one is used, from fatal_from it exits instead, with its own
// message. From the removal on they are unknown flags (and, in k3s server's config file,
// unknown keys k3s skips), which the parse and the wrong-names table already report.

// removedFlagState is what the modelled release does with a removed flag the node uses: its
// row, and the warning k3s logs or the message it exits with. ok is false when the node
// does not use the flag (or sets it to nothing) or the release does not have it.
func (r *resolver) removedFlagState(name string) (rm *profile.FlagRemoval, warning, fatal string, ok bool) {
	v, err := profile.ParseVersion(r.res.Version)
	if err != nil {
		return nil, "", "", false // the newest release has none of them
	}
	k := r.res.Key(name)
	if k == nil || k.Source == nil || k.Source.Kind == sources.KindDefault {
		return nil, "", "", false
	}
	switch val := k.Value.(type) {
	case string:
		if val == "" {
			return nil, "", "", false
		}
	case bool:
		// no-flannel counts when true; disable-selinux is a BoolT judged by being set.
		if !val && name == "no-flannel" {
			return nil, "", "", false
		}
	case []string:
		if len(val) == 0 {
			return nil, "", "", false
		}
	}
	for _, row := range r.p.FlagRemovals() {
		if row.Name != name {
			continue
		}
		w, f, has := row.State(r.p.Name, r.res.Command, v)
		if !has {
			return nil, "", "", false
		}
		if row.With != "" && !r.keySet(row.With) {
			return nil, "", "", false
		}
		for _, u := range row.Unless[r.res.Command] {
			switch {
			case u == "flannel-backend:none" && r.stringValue("flannel-backend") == "none":
				return nil, "", "", false
			case u != "flannel-backend:none" && r.stringValue(u) != "":
				return nil, "", "", false
			}
		}
		return row, w, f, true
	}
	return nil, "", "", false
}

// legacyToken is the token a release before v1.25 takes from cluster-secret when no token
// is set (pkg/cli/server/server.go run, pkg/cli/agent/agent.go Run: cfg.Token =
// cfg.ClusterSecret), and, on v1.25, the one the fix (rename it to token) gives, so the
// checks after its refusal see a token.
func (r *resolver) legacyToken() string {
	if _, _, _, ok := r.removedFlagState("cluster-secret"); ok {
		return r.stringValue("cluster-secret")
	}
	return ""
}

// tokenPos is where the token k3s uses was set: cluster-secret's position when that is the
// token (legacyToken), else token's.
func (r *resolver) tokenPos() diag.Position {
	if r.stringValue("token") == "" && r.legacyToken() != "" {
		return r.keyPos("cluster-secret")
	}
	return r.keyPos("token")
}

// removedFlagFix is the fix for a removed flag, from the wrong-names table.
func (r *resolver) removedFlagFix(name, restart string) string {
	if k := r.res.Key(name); name == "cluster-secret" && k != nil && k.Source != nil && k.Source.Kind == sources.KindEnv {
		return fmt.Sprintf("rename %s_CLUSTER_SECRET to %s_TOKEN (k3s v1.26 removed --cluster-secret), %s", r.p.EnvPrefix, r.p.EnvPrefix, restart)
	}
	if w := r.p.WrongName("key", name); w != nil {
		fix := w.Fix()
		if name == "no-deploy" && r.res.Command == "agent" {
			fix = "remove no-deploy (agents have no --disable; it belongs on the servers)"
		}
		return fix + ", " + restart
	}
	return "remove " + name + ", " + restart
}

// refuseRemovedFlag reports the modelled release's refusal of a removed flag, under the
// check rule (checkrules.go) that carries k3s's source line and the row's releases.
func (r *resolver) refuseRemovedFlag(f refusal, restart string) {
	rule, name, assumes := f.rule, f.key, f.assumes
	if r.check(rule) == nil {
		return
	}
	_, _, fatal, ok := r.removedFlagState(name)
	if !ok || fatal == "" {
		return
	}
	hint := r.removedFlagFix(name, restart)
	why := fmt.Sprintf("%s was deprecated and is refused from v1.25 until k3s v1.26 removed it", name)
	if name == "disable-selinux" {
		hint = "remove disable-selinux and keep selinux (SELinux support is off unless selinux: true is set), " + restart
		why = "disable-selinux and selinux are both set"
	}
	r.refuse("flag-deprecated-fatal", refusal{rule: rule, key: name, msg: fatal, hint: hint, assumes: assumes, pos: r.keyPos(name), why: why})
}

// The checks, each where k3s makes it.
func (r *resolver) refuseDisableSELinux(restart string) {
	r.refuseRemovedFlag(refusal{rule: "disable-selinux", key: "disable-selinux"}, restart)
}
func (r *resolver) refuseClusterSecret(restart string) {
	if r.res.Command == "agent" {
		r.refuseRemovedFlag(refusal{rule: "agent-cluster-secret", key: "cluster-secret"}, restart)
		return
	}
	r.refuseRemovedFlag(refusal{rule: "cluster-secret", key: "cluster-secret"}, restart)
}
func (r *resolver) refuseNoDeploy(restart string) {
	r.refuseRemovedFlag(refusal{rule: "no-deploy", key: "no-deploy"}, restart)
}
func (r *resolver) refuseNoFlannel(restart string) {
	if r.res.Command == "agent" {
		// The agent takes flannel-backend from its server (pkg/agent/config/config.go get).
		r.refuseRemovedFlag(refusal{rule: "agent-no-flannel", key: "no-flannel", assumes: "the server's flannel-backend is not none"}, restart)
		return
	}
	r.refuseRemovedFlag(refusal{rule: "no-flannel", key: "no-flannel"}, restart)
}

// checkDeprecatedFlags reports a removed flag that the modelled release still accepts with
// a deprecation warning in k3s's log (118a68c91, first in v1.24.4 on main's line).
func (r *resolver) checkDeprecatedFlags() {
	if r.res.Command != "server" && r.res.Command != "agent" {
		return
	}
	for _, row := range r.p.FlagRemovals() {
		_, warning, _, ok := r.removedFlagState(row.Name)
		if !ok || warning == "" {
			continue
		}
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "flag-deprecated", Pos: r.keyPos(row.Name), Key: row.Name,
			Message: fmt.Sprintf("%s %s accepts %s but logs %q; k3s v%d.%d refuses it and v%d.%d removed it", r.p.Program, releaseName(r.res.Version), row.Name, warning,
				row.FatalFrom.Major, row.FatalFrom.Minor, row.Until.Major, row.Until.Minor),
			Hint: r.removedFlagFix(row.Name, "") + fmt.Sprintf("before upgrading to v%d.%d", row.FatalFrom.Major, row.FatalFrom.Minor),
			Rule: row.Source})
	}
}
