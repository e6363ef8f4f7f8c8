package resolve

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// How the components read a flag k3s passes more than once. k3s builds each component's
// argv from its own defaults and the items of the *-arg key (pkg/util/args.go GetArgs: every
// occurrence is kept, in order, since k3s-io/k3s b6e71ef99), and the items of the key come
// config files first, then the command line (pkg/configfilearg/parser.go Parse puts the
// config values right after the command name, before the other arguments). What a repeat
// does is then the component's flag value's: profile's component-flag-kinds table, read
// from the flag definitions of k8s.io/kubernetes v1.22.0 to v1.36.0.

// langleMaps are the map flags written key<value (k8s.io/kubernetes
// cmd/kubelet/app/options/options.go: cliflag.NewLangleSeparatedMapStringString).
var langleMaps = map[string]bool{"kubelet eviction-hard": true, "kubelet eviction-soft": true}

// noSplitMaps take one key=value pair per occurrence, commas included in the value
// (cliflag.NewMapStringStringNoSplit: kubelet options.go, kube-apiserver
// pkg/kubeapiserver/options/authentication.go).
var noSplitMaps = map[string]bool{"kubelet cpu-manager-policy-options": true, "kube-apiserver oidc-required-claim": true}

// argPair is one key of a map flag's occurrence.
type argPair struct{ key, value string }

// mapPairs splits one occurrence of a map flag the way its Set does: on commas (unless
// noSplit), each part key=value (key<value for the eviction thresholds; a key alone in a
// ConfigurationMap gets ""), blanks trimmed.
func mapPairs(comp, flag, value string, kind kubetables.ArgKind) []argPair {
	sep := "="
	if langleMaps[comp+" "+flag] {
		sep = "<"
	}
	parts := strings.Split(value, ",")
	if noSplitMaps[comp+" "+flag] {
		parts = []string{value}
	}
	var out []argPair
	for _, p := range parts {
		if p == "" {
			continue
		}
		k, v, _ := strings.Cut(p, sep)
		out = append(out, argPair{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return out
}

// mergedValue is what the component gets from the occurrences of a flag, in order, by its
// kind: map and gate flags merge key by key (a key keeps its first place and its last
// value), slices append their comma-separated parts, arrays their items, and a
// single-value flag keeps the last.
func mergedValue(comp, flag string, kind kubetables.ArgKind, values []string) string {
	switch kind {
	case kubetables.ArgMap, kubetables.ArgGates:
		sep := "="
		if langleMaps[comp+" "+flag] {
			sep = "<"
		}
		var keys []string
		got := map[string]string{}
		for _, v := range values {
			for _, p := range mapPairs(comp, flag, v, kind) {
				if _, ok := got[p.key]; !ok {
					keys = append(keys, p.key)
				}
				got[p.key] = p.value
			}
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + sep + got[k]
		}
		return strings.Join(parts, ",")
	case kubetables.ArgSlice, kubetables.ArgArray:
		return strings.Join(values, ",")
	}
	return values[len(values)-1]
}

// repeatNote is explain's note on a component flag k3s passes more than once.
func repeatNote(comp, name string, minor int, values []string) string {
	_, kind := kubetables.ComponentArgKind(comp, name, minor)
	head := fmt.Sprintf("--%s is passed %d times (%s), in this order", name, len(values), strings.Join(values, ", "))
	got := mergedValue(comp, name, kind, values)
	switch kind {
	case kubetables.ArgMap:
		return fmt.Sprintf("%s; %s merges a map flag key by key, a later occurrence replacing a key an earlier one set: %s gets %s", head, comp, comp, got)
	case kubetables.ArgGates:
		return fmt.Sprintf("%s; %s merges feature gates gate by gate, a later occurrence replacing a gate an earlier one set: %s gets %s", head, comp, comp, got)
	case kubetables.ArgSlice:
		return fmt.Sprintf("%s; a list flag of %s, each occurrence appended: %s gets %s", head, comp, comp, got)
	case kubetables.ArgArray:
		return fmt.Sprintf("%s; a repeatable flag of %s, each occurrence appended: %s gets %s", head, comp, comp, strings.Join(values, "; "))
	}
	return fmt.Sprintf("%s; a single-value flag of %s: the last wins (%s)", head, comp, got)
}

// reachingItems are the items of a component's *-arg key that reach the component as
// flags: all of them, except before v1.24, where k3s passed each flag once, with its last
// value (profile's CollapsedComponentArgs), so an earlier item of the same flag reaches
// nothing.
func (r *resolver) reachingItems(items []string) []string {
	if !r.beh.CollapsedComponentArgs {
		return items
	}
	last := map[string]int{}
	for i, it := range items {
		name, _, _ := strings.Cut(strings.TrimPrefix(it, "--"), "=")
		last[strings.TrimRight(name, "-+")] = i
	}
	var out []string
	for i, it := range items {
		name, _, _ := strings.Cut(strings.TrimPrefix(it, "--"), "=")
		if last[strings.TrimRight(name, "-+")] == i {
			out = append(out, it)
		}
	}
	return out
}

// effectiveItems are the items of a component's *-arg key whose values the component
// keeps: reachingItems, less the earlier occurrences of a single-value flag (the last wins,
// so a bad audit-policy-file followed by a good one never reaches kube-apiserver). Map, gate
// and list flags keep every occurrence: their keys, gates and items all reach.
//
// Four checks read kube-apiserver's (feature gates, admission plugins, files,
// runtime-config): the answer is kept for the same items. When no item is dropped, the
// answer is items itself.
func (r *resolver) effectiveItems(comp string, items []string) []string {
	if c, ok := r.effective[comp]; ok && sameStrings(c.in, items) {
		return c.out
	}
	in := items
	items = r.reachingItems(items)
	minor := profile.KubernetesMinor(r.res.Version)
	last := make(map[string]int, len(items))
	for i, it := range items {
		last[itemFlag(it)] = i
	}
	var out []string // nil until an item is dropped
	for i, it := range items {
		name := itemFlag(it)
		if last[name] != i && argLast(comp, name, minor) {
			if out == nil {
				out = append(make([]string, 0, len(items)), items[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, it)
		}
	}
	if out == nil {
		out = items
	}
	if r.effective == nil {
		r.effective = map[string]effectiveCache{}
	}
	r.effective[comp] = effectiveCache{in: in, out: out}
	return out
}

func argLast(comp, name string, minor int) bool {
	_, kind := kubetables.ComponentArgKind(comp, name, minor)
	return kind == kubetables.ArgLast
}

// effectiveCache is effectiveItems' answer for one component's items.
type effectiveCache struct{ in, out []string }

// sameStrings reports whether a and b are the same slice (not merely equal).
func sameStrings(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// itemFlag is the flag name of a component argument item: "--max-pods=110" → "max-pods",
// "feature-gates+=X=true" → "feature-gates".
func itemFlag(it string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(strings.TrimSpace(it), "-"), "=")
	return strings.TrimRight(name, "-+")
}

// argUse is an item of a component's *-arg key as it reaches the merge.
type argUse struct {
	a     *Assignment
	value string
}

// checkComponentArgOverridden answers "I set it in config.yaml — why didn't it take
// effect?" for the items of kubelet-arg, kube-apiserver-arg and the others (k3s-io/k3s#5488:
// the unit passes --kubelet-arg system-reserved=…, the user writes new values into
// config.yaml, restarts, and nothing changes). The command line's items come after the
// config files' (pkg/configfilearg/parser.go), so for a single-value flag of the component
// the command line's value wins, and for a map flag its keys win key by key. Severity as
// config-overridden: a warning when what the config file set is lost, a note when the
// command line sets the same; quiet for list flags (they append) and for map keys the
// command line does not set.
func (r *resolver) checkComponentArgOverridden() {
	minor := profile.KubernetesMinor(r.res.Version)
	for _, key := range []string{"kube-apiserver-arg", "kube-controller-manager-arg", "kube-scheduler-arg", "kubelet-arg", "kube-proxy-arg"} {
		k := r.res.Key(key)
		if k == nil || k.Source == nil {
			continue
		}
		comp := componentArgKeys[key]
		if !r.componentRuns(comp) {
			continue // its arguments reach nothing
		}
		// Only a flag the command line passes can take a config file's item away: find
		// those first (usually none), and look at the config files' items of those flags
		// only (a node of 2,000 drop-ins has thousands of items here, each its own flag).
		var onCLI map[string]bool
		for _, a := range k.History {
			if a.Kind == sources.KindCLI && (a.Outcome == provenance.Applied || a.Outcome == provenance.Appended) {
				if onCLI == nil {
					onCLI = map[string]bool{}
				}
				arg, _, _ := strings.Cut(strings.TrimPrefix(a.Value, "--"), "=")
				onCLI[strings.TrimRight(arg, "-+")] = true
			}
		}
		if onCLI == nil {
			continue
		}
		byFlag := map[string][]argUse{}
		var order []string
		mode := map[string]bool{}
		for _, a := range k.History {
			if a.Outcome != provenance.Applied && a.Outcome != provenance.Appended {
				continue
			}
			if a.Kind != sources.KindConfig && a.Kind != sources.KindCLI {
				continue
			}
			arg, value, ok := strings.Cut(strings.TrimPrefix(a.Value, "--"), "=")
			if !ok {
				value = "true"
			}
			name := strings.TrimRight(arg, "-+")
			if !onCLI[name] {
				continue
			}
			if name != arg {
				mode[name] = true // += and -= place the value around k3s's own: not judged
			}
			if _, seen := byFlag[name]; !seen {
				order = append(order, name)
			}
			byFlag[name] = append(byFlag[name], argUse{a, value})
		}
		for _, name := range order {
			uses := byFlag[name]
			if mode[name] {
				continue
			}
			var cfg, cli []argUse
			for _, u := range uses {
				if u.a.Kind == sources.KindCLI {
					cli = append(cli, u)
				} else {
					cfg = append(cfg, u)
				}
			}
			if len(cfg) == 0 || len(cli) == 0 {
				continue
			}
			_, kind := kubetables.ComponentArgKind(comp, name, minor)
			if r.beh.CollapsedComponentArgs {
				kind = kubetables.ArgLast
			}
			switch kind {
			case kubetables.ArgLast:
				w := cli[len(cli)-1]
				for _, c := range cfg {
					r.componentArgLost(key, comp, name, c, w, c.value == w.value, "", w.value)
				}
			case kubetables.ArgMap, kubetables.ArgGates:
				cliKeys := map[string]string{}
				var w argUse
				for _, u := range cli {
					for _, p := range mapPairs(comp, name, u.value, kind) {
						cliKeys[p.key] = p.value
						w = u
					}
				}
				for _, c := range cfg {
					var lost, same []string
					for _, p := range mapPairs(comp, name, c.value, kind) {
						v, ok := cliKeys[p.key]
						switch {
						case !ok:
						case v == p.value:
							same = append(same, p.key)
						default:
							lost = append(lost, p.key)
						}
					}
					if len(lost) == 0 && len(same) == 0 {
						continue
					}
					keys := append(lost, same...)
					r.componentArgLost(key, comp, name, c, cliLast(cli, comp, name, kind, keys[0], w), len(lost) == 0, strings.Join(keys, ", "), mergedValue(comp, name, kind, values(uses)))
				}
			}
		}
	}
}

func values(uses []argUse) []string {
	out := make([]string, len(uses))
	for i, u := range uses {
		out[i] = u.value
	}
	return out
}

// cliLast is the command-line occurrence that sets key last (the one that wins).
func cliLast(cli []argUse, comp, name string, kind kubetables.ArgKind, key string, fallback argUse) argUse {
	for i := len(cli) - 1; i >= 0; i-- {
		for _, p := range mapPairs(comp, name, cli[i].value, kind) {
			if p.key == key {
				return cli[i]
			}
		}
	}
	return fallback
}

// componentArgLost reports a config-file item c of the component flag name that the
// command line's item w takes away (keys: the map keys it takes, "" for a single-value flag).
func (r *resolver) componentArgLost(key, comp, name string, c, w argUse, same bool, keys, got string) {
	secret := c.a.Secret() || w.a.Secret()
	var what string
	switch {
	case same && keys != "":
		what = fmt.Sprintf("with the same value for %s today, so an edit of the config file alone will not take effect", keys)
	case same:
		what = "with the same value today, so an edit of the config file alone will not take effect"
	case secret:
		what = fmt.Sprintf("so %s gets the command line's value, not config's (both hidden)", comp)
	case keys != "":
		verb := "replaces"
		if strings.Contains(keys, ", ") {
			verb = "replace"
		}
		what = fmt.Sprintf("so the command line's %s %s config's (%s merges --%s key by key, a later occurrence replacing a key an earlier one set): %s gets --%s=%s, not config's %s", keys, verb, comp, name, comp, name, got, c.value)
	case r.beh.CollapsedComponentArgs:
		what = fmt.Sprintf("so %s gets --%s=%s, not config's %s (%s before v1.24 passes each flag once, with its last value)", comp, name, w.value, c.value, r.p.Program)
	default:
		what = fmt.Sprintf("so %s gets --%s=%s, not config's %s (a single-value flag: the last occurrence wins)", comp, name, w.value, c.value)
	}
	sev := diag.Warning
	if same {
		sev = diag.Info
	}
	where := "ExecStart"
	if w.a.Pos.File != "" && w.a.Pos.File != r.res.Unit {
		where = "ExecStart in " + w.a.Pos.File
	}
	svc := r.serviceName()
	edit := fmt.Sprintf(r.p.ExecStartEdit, svc)
	if w.a.Pos.File != "" && w.a.Pos.File != r.res.Unit {
		edit = "edit " + w.a.Pos.File
	}
	item := fmt.Sprintf("%s %s", w.a.Name, w.a.Value)
	if secret {
		item = w.a.Name + " " + name + "=…"
	}
	r.diag(diag.Diagnostic{Severity: sev, Code: "component-arg-overridden", Pos: c.a.Pos, Key: key,
		Message: fmt.Sprintf("%s %s is set here, but %s at %s passes --%s too, and %s passes the config file's items first and the command line's after them, %s",
			key, name, w.a.Name, w.a.Pos, name, r.p.Program, what),
		Hint: fmt.Sprintf("remove %s from %s so the config file decides: %s, then `systemctl daemon-reload && systemctl restart %s`", item, where, edit, svc)})
}
