package resolve

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// checkOverridden answers "I set it in config.yaml — why didn't it take effect?" in check,
// as explain does when asked: a config-file value of a single-value flag that the command
// line takes away (k3s puts config values before the arguments and the last occurrence wins:
// pkg/configfilearg/parser.go, urfave/cli), and an environment variable of the k3s process
// that a config-file value shadows (urfave/cli uses a flag's EnvVars only when no argument
// sets it, and config values are arguments). Lists are not findings: config items and
// command-line items accumulate.
//
// Severity: a warning when the value in force differs from the one that lost (the edit did
// nothing); a note when they agree (nothing is lost today, but an edit of the losing place
// alone will not take effect). So --strict fails on a setting that does not take effect, not
// on a duplicate.
func (r *resolver) checkOverridden() {
	for _, k := range r.res.Keys {
		w := k.Source
		if w == nil || k.Flag.Type == profile.StringSlice {
			continue
		}
		var replaced []*Assignment
		for _, a := range k.History {
			switch {
			case a.Kind == sources.KindConfig && a.Outcome == provenance.Overridden && w.Kind == sources.KindCLI:
				r.overriddenConfig(k, a, w)
			case a.Kind == sources.KindEnv && a.Outcome == provenance.Shadowed && w.Kind == sources.KindConfig:
				r.shadowedEnv(k, a, w)
			case a.Kind == sources.KindConfig && a.Outcome == provenance.Replaced && w.Kind == sources.KindConfig && a.Pos.File != w.Pos.File:
				replaced = append(replaced, a)
			}
		}
		if len(replaced) > 0 {
			r.replacedConfig(k, replaced, w)
		}
	}
}

// sameSetting reports whether two values of the flag set the same thing (the kubeconfig mode
// is compared as the octal number k3s parses).
func sameSetting(f *profile.Flag, a, b string) bool {
	if a == b {
		return true
	}
	switch f.Type {
	case profile.Bool:
		x, err1 := strconv.ParseBool(a)
		y, err2 := strconv.ParseBool(b)
		return err1 == nil && err2 == nil && x == y
	}
	if f.Name == "write-kubeconfig-mode" {
		x, err1 := strconv.ParseInt(a, 8, 0)
		y, err2 := strconv.ParseInt(b, 8, 0)
		return err1 == nil && err2 == nil && x == y
	}
	return false
}

// shown is a value for a message, quoted (callers leave secrets out).
func shown(a *Assignment) string { return strconv.Quote(a.Value) }

func (r *resolver) overriddenConfig(k *Key, a, w *Assignment) {
	same := sameSetting(k.Flag, a.Value, w.Value)
	sev, what := diag.Warning, fmt.Sprintf("so %s runs with %s, not config's %s", r.p.Program, shown(w), shown(a))
	if a.Secret() || w.Secret() {
		what = fmt.Sprintf("so %s runs with the command line's value, not config's (both hidden)", r.p.Program)
	}
	if same {
		sev, what = diag.Info, "with the same value today, so an edit of the config file alone will not take effect"
	}
	where := "ExecStart"
	if w.Pos.File != "" && w.Pos.File != r.res.Unit {
		where = "ExecStart in " + w.Pos.File
	}
	from := ""
	if strings.Contains(w.Raw, "$") {
		from = fmt.Sprintf(" (its value comes from the environment: %s)", w.Raw)
	}
	svc := r.serviceName()
	edit := fmt.Sprintf(r.p.ExecStartEdit, svc)
	if w.Pos.File != "" && w.Pos.File != r.res.Unit {
		edit = "edit " + path.Clean(w.Pos.File)
	}
	r.diag(diag.Diagnostic{Severity: sev, Code: "config-overridden", Pos: a.Pos, Key: k.Flag.Name,
		Message: fmt.Sprintf("%s is set here, but %s at %s sets it too%s and the command line wins (k3s puts config-file values before the arguments; the last occurrence of a single-value flag wins), %s",
			k.Flag.Name, w.Name, w.Pos, from, what),
		Hint: fmt.Sprintf("remove %s from %s so the config file decides: %s, then `systemctl daemon-reload && systemctl restart %s`", w.Name, where, edit, svc)})
}

// replacedConfig is a config file's value of a single-value key that a later config file
// replaces: k3s reads config.yaml, then the files of config.yaml.d in name order, and a
// plain key of a later file replaces the earlier value (pkg/configfilearg/parser.go
// readConfigFile; rancher/rke2#6415: Rancher's 50-rancher.yaml wrote disable-kube-proxy:
// false over the user's true in config.yaml, and `explain` was the only face that said so).
// Rancher writes 50-rancher.yaml from the cluster's configuration (rancher/rancher
// pkg/capr/planner) and writes it again on every plan, so an edit of that file does not
// last: the fix there is the cluster's configuration in Rancher.
func (r *resolver) replacedConfig(k *Key, replaced []*Assignment, w *Assignment) {
	// One finding per key, at the first file whose value differs from the one in force (the
	// file the user edited, typically config.yaml); the other losing files are named in it.
	// A node whose drop-ins all set the same keys gets one finding per key, not one per file.
	a := replaced[0]
	for _, x := range replaced {
		if !sameSetting(k.Flag, x.Value, w.Value) {
			a = x
			break
		}
	}
	same := sameSetting(k.Flag, a.Value, w.Value)
	sev, what := diag.Warning, fmt.Sprintf("so %s runs with %s, not %s", r.p.Program, shown(w), shown(a))
	if a.Secret() || w.Secret() {
		what = fmt.Sprintf("so %s runs with the later file's value, not this one (both hidden)", r.p.Program)
	}
	if same {
		sev, what = diag.Info, "with the same value today, so an edit of this file alone will not take effect"
	}
	// The other losing files: counted, and the first three named (a key every one of 2,000
	// drop-ins sets has 1,999 of them; their positions were rendered only to be dropped).
	var others []string
	n := 0
	for _, x := range replaced {
		if x != a {
			if n < 3 {
				others = append(others, x.Pos.String())
			}
			n++
		}
	}
	if n > 0 {
		if n > 3 {
			others = append(others, "…")
		}
		files := "other config files set it and lose"
		if n == 1 {
			files = "other config file sets it and loses"
		}
		what += fmt.Sprintf("; %d %s too (%s)", n, files, strings.Join(others, ", "))
	}
	later := path.Clean(w.Pos.File)
	hint := fmt.Sprintf("set %s in %s (or remove it there so %s decides), then %s", k.Flag.Name, later, path.Base(a.Pos.File), r.restartWords())
	if path.Base(later) == "50-rancher.yaml" {
		hint = fmt.Sprintf("Rancher writes %s from the cluster's configuration and rewrites it on every plan, so an edit there does not last: set %s in the cluster's configuration in Rancher, or in a drop-in whose name sorts after 50-rancher.yaml (e.g. 99-local.yaml), then %s", later, k.Flag.Name, r.restartWords())
	}
	r.diag(diag.Diagnostic{Severity: sev, Code: "config-replaced", Pos: a.Pos, Key: k.Flag.Name,
		Message: fmt.Sprintf("%s is set here, but %s sets it too and wins (%s reads config.yaml first, then the config.yaml.d drop-ins in name order; a later file's key replaces the earlier value), %s",
			k.Flag.Name, w.Pos, r.p.Program, what),
		Hint: hint})
}

// restartWords says how to restart k3s: its service when a unit was read, else in general
// (a container, a node whose unit k3sconf did not find).
func (r *resolver) restartWords() string {
	if r.res.Unit == "" {
		return "restart " + r.p.Program
	}
	return fmt.Sprintf("`systemctl restart %s`", r.serviceName())
}

func (r *resolver) shadowedEnv(k *Key, a, w *Assignment) {
	same := sameSetting(k.Flag, a.Value, w.Value)
	sev, what := diag.Warning, fmt.Sprintf("so %s runs with config's %s, not %s", r.p.Program, shown(w), shown(a))
	if a.Secret() || w.Secret() {
		what = fmt.Sprintf("so %s runs with config's value, not the variable's (both hidden)", r.p.Program)
	}
	if same {
		sev, what = diag.Info, "with the same value today, so an edit of this variable alone will not take effect"
	}
	r.diag(diag.Diagnostic{Severity: sev, Code: "env-shadowed", Pos: a.Pos, Key: k.Flag.Name,
		Message: fmt.Sprintf("%s sets %s, but %s at %s sets it too and wins (%s uses a flag's variable only when no argument sets it, and config-file values are passed as arguments), %s",
			a.Name, k.Flag.Name, w.Name, w.Pos, r.p.Program, what),
		Hint: fmt.Sprintf("set the value in %s (or remove %s there so the variable decides), then %s", w.Pos.File, w.Name, r.restartWords())})
}
