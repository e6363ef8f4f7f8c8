package resolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// addAdvice writes, for each key whose story has a loser, the concrete edit that makes the
// intended value win. It reads only what the one resolution recorded.
func (r *resolver) addAdvice() {
	service := strings.TrimSuffix(path.Base(r.res.Unit), ".service")
	if service == "" || service == "." {
		service = r.p.Units[r.res.Command]
		service = strings.TrimSuffix(service, ".service")
	}
	restartUnit := fmt.Sprintf("then `systemctl daemon-reload && systemctl restart %s`", service)
	restart := fmt.Sprintf("then `systemctl restart %s`", service)
	for _, k := range r.res.Keys {
		var adv []string
		src := k.Source
		// Only the outcomes read below are gathered: a list appended to by thousands of
		// drop-ins has thousands of appended assignments, none of which advice reads.
		lost := map[provenance.Outcome][]*Assignment{}
		for _, a := range k.History {
			switch a.Outcome {
			case provenance.Overridden, provenance.Shadowed, provenance.Replaced, provenance.Ignored:
				if a != src {
					lost[a.Outcome] = append(lost[a.Outcome], a)
				}
			}
		}
		hasKind := func(o provenance.Outcome, kind sources.Kind) *Assignment {
			for _, a := range lost[o] {
				if a.Kind == kind {
					return a
				}
			}
			return nil
		}
		if src != nil && src.Kind == sources.KindCLI {
			if a := firstOf(hasKind(provenance.Overridden, sources.KindConfig), hasKind(provenance.Shadowed, sources.KindEnv)); a != nil {
				adv = append(adv, fmt.Sprintf("The unit's command line (%s) beats config files and environment variables. To let %s decide, remove %s from ExecStart: %s; %s.",
					src.Pos, a.Pos.File, src.Name, fmt.Sprintf(r.p.ExecStartEdit, service), restartUnit))
			}
		}
		if src != nil && src.Kind == sources.KindConfig && strings.Contains(src.Pos.File, ".d/") {
			for _, a := range append(lost[provenance.Overridden], lost[provenance.Replaced]...) {
				if a.Kind == sources.KindConfig && a.Pos.File != src.Pos.File {
					adv = append(adv, fmt.Sprintf("%s is a drop-in: drop-ins are read after %s in name order and the last file wins. To make %s count, remove the key from %s, or put your value in a drop-in whose name sorts after %s (e.g. 99-local.yaml); %s.",
						path.Base(src.Pos.File), path.Base(r.res.ConfigPath), a.Pos, src.Pos.File, path.Base(src.Pos.File), restart))
					break
				}
			}
		}
		for _, a := range lost[provenance.Replaced] {
			if a.Kind == sources.KindConfig && k.Flag.Type == "stringslice" && !r.hasDiag(k.Name(), "config-list-replaced") {
				adv = append(adv, fmt.Sprintf("To keep the items of %s, make the later files append: write %s+: instead of %s: in the file that replaced it; %s.", a.Pos, k.Name(), k.Name(), restart))
				break
			}
		}
		if a := hasKind(provenance.Shadowed, sources.KindEnv); a != nil && src != nil && src.Kind == sources.KindConfig {
			adv = append(adv, fmt.Sprintf("%s (%s) is ignored because the config file sets the flag (%s), and config values are passed as arguments. Set the value in the config file, or remove it there to let the variable count; %s.", a.Name, a.Pos, src.Pos, restart))
		}
		for _, a := range lost[provenance.Ignored] {
			if strings.HasPrefix(a.Why(), "after the positional argument") {
				adv = append(adv, fmt.Sprintf("Remove the stray positional argument named in the reason above from ExecStart (or write a bool flag and its value as one word, --flag=false); %s.", restartUnit))
				break
			}
		}
		for _, d := range r.res.Diagnostics {
			if d.Key == k.Name() && d.Hint != "" && (d.Severity == "error" || d.Code == "yaml-octal-mode" || d.Code == "config-list-replaced" || d.Code == "component-arg-overridden" && d.Severity == "warning") {
				if strings.Contains(d.Hint, "systemctl ") {
					// The fix names its own restart (a unit edit needs daemon-reload too).
					adv = append(adv, fmt.Sprintf("%s (%s at %s).", capitalize(d.Hint), d.Code, d.Pos))
					continue
				}
				adv = append(adv, fmt.Sprintf("%s (%s at %s); %s.", capitalize(d.Hint), d.Code, d.Pos, restart))
			}
		}
		k.Advice = dedupe(adv)
	}
}

func firstOf(as ...*Assignment) *Assignment {
	for _, a := range as {
		if a != nil {
			return a
		}
	}
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (r *resolver) hasDiag(key, code string) bool {
	for _, d := range r.res.Diagnostics {
		if d.Key == key && d.Code == code {
			return true
		}
	}
	return false
}
