package resolve

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
)

// runtimeConfigMatchers are the runtime-config keys that switch whole classes of versions
// (k8s.io/apiserver pkg/server/resourceconfig/helpers.go groupVersionMatchers).
var runtimeConfigMatchers = map[string]bool{"api/all": true, "api/ga": true, "api/beta": true, "api/alpha": true}

// runtimeConfigSource is where kube-apiserver judges runtime-config's keys.
const runtimeConfigSource = "k8s.io/apiserver pkg/server/options/api_enablement.go Validate (ParseGroups, unknownGroups) and pkg/server/resourceconfig/helpers.go MergeAPIResourceConfigs, identical in v0.22.0, v0.28.0 and v0.35.1 for group/version keys; the groups and versions from internal/kubetables/data/api-group-versions.tsv"

// checkRuntimeConfig reports the keys of kube-apiserver-arg's runtime-config that the
// modelled release's kube-apiserver refuses at start-up: k3s starts it, it exits, and k3s
// shuts down with it (pkg/executor/embed: "apiserver exited: …"). In kube-apiserver's
// order: Complete turns v1, v1/…, api/v1 and api/v1/… into /v1 and drops api/legacy
// (k8s.io/kubernetes pkg/controlplane/apiserver/options/options.go); Validate refuses a key
// that is not group/version or group/version/resource ("runtime-config invalid key K") and a
// group no scheme registers ("unknown api groups G"); ApplyTo refuses a value of api/all,
// api/ga, api/beta or api/alpha other than true or false, a version of a registered group
// that its scheme does not register ("group version G/V that has not been registered": a
// version Kubernetes dropped, such as batch/v2alpha1 or flowcontrol.apiserver.k8s.io/v1alpha1
// from v1.29), and a value that is not a bool. A group of another scheme
// (apiextensions.k8s.io, apiregistration.k8s.io) is known; its versions are not judged, nor
// are group/version/resource keys beyond their group (v1.22 ignored them with a warning).
func (r *resolver) checkRuntimeConfig() {
	minor, items := r.apiserverArgItems()
	if minor == 0 {
		return
	}
	for _, it := range items {
		flag, val, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(it), "-"), "=")
		flag = strings.TrimRight(flag, "+-") // k3s pkg/util/args.go GetArgs: name+= appends, name-= prepends
		if !ok || flag != "runtime-config" {
			continue
		}
		for _, entry := range strings.Split(val, ",") {
			if entry == "" {
				continue
			}
			key, value, _ := strings.Cut(entry, "=")
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			msg, why, fix := runtimeConfigRefusal(key, value, minor)
			if msg == "" {
				continue
			}
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "runtime-config-refused", Pos: r.itemPos("kube-apiserver-arg", it), Key: "kube-apiserver-arg",
				Phase: PhaseAfterStart,
				Message: fmt.Sprintf("kube-apiserver of Kubernetes v1.%d (%s %s) refuses runtime-config %s: %s; %s starts, then shuts down when kube-apiserver exits with %q",
					minor, r.p.Program, releaseName(r.res.Version), strconv.Quote(entry), why, r.p.Program, msg),
				Hint: fix,
				Rule: runtimeConfigSource})
		}
	}
}

// runtimeConfigRefusal is kube-apiserver's message for one runtime-config entry, why, and
// the fix; "" when kube-apiserver of 1.minor takes it.
func runtimeConfigRefusal(key, value string, minor int) (msg, why, fix string) {
	if key == "v1" || strings.HasPrefix(key, "v1/") || key == "api/v1" || strings.HasPrefix(key, "api/v1/") {
		key = "/v1"
	}
	if key == "api/legacy" {
		return "", "", ""
	}
	if runtimeConfigMatchers[key] {
		if value != "true" && value != "false" {
			return fmt.Sprintf("invalid value %s=%s", key, value), key + " takes true or false only", fmt.Sprintf("write %s=true or %s=false in runtime-config", key, key)
		}
		return "", "", ""
	}
	tokens := strings.Split(key, "/")
	if len(tokens) != 2 && len(tokens) != 3 {
		return "runtime-config invalid key " + key, "a key is group/version (batch/v1), group/version/resource or api/all, api/ga, api/beta, api/alpha",
			fmt.Sprintf("write %s as group/version=true (for example batch/v1=true), or remove it from runtime-config", key)
	}
	group, version := tokens[0], tokens[1]
	groupOK, versionOK, known, rows := kubetables.APIGroupRegistered(group, version, minor)
	shown := group
	if shown == "" {
		shown = "the core group"
	}
	if !groupOK {
		why, fix := "", ""
		switch first, last := groupSpan(rows); {
		case len(rows) == 0:
			why = fmt.Sprintf("no kube-apiserver from Kubernetes v1.22 to v1.36 has an API group named %s", group)
			fix = fmt.Sprintf("remove %s from runtime-config (`kubectl api-versions` lists the groups the cluster serves)", key)
			if s := groupSuggestion(group, minor); s != "" {
				fix = fmt.Sprintf("write %s instead of %s in runtime-config", s, group)
			}
		case minor < first:
			why = fmt.Sprintf("the %s API group came with Kubernetes v1.%d", group, first)
			fix = fmt.Sprintf("remove %s from runtime-config, or run a release of Kubernetes v1.%d or later", key, first)
		default:
			why = fmt.Sprintf("Kubernetes v1.%d removed the %s API group (v1.%d was the last minor with it)", last+1, group, last)
			fix = fmt.Sprintf("remove %s from runtime-config", key)
		}
		return "unknown api groups " + group, why, fix
	}
	if len(tokens) != 2 || !known {
		return "", "", ""
	}
	if !versionOK {
		var have []string
		var row *kubetables.APIGroupVersion
		for i, v := range rows {
			if v.Version == version {
				row = &rows[i]
			}
			if (v.Since == 0 || minor >= v.Since) && (v.Until == 0 || minor < v.Until) {
				have = append(have, v.Version)
			}
		}
		sort.Strings(have)
		why := fmt.Sprintf("Kubernetes v1.%d registers %s in the versions %s only", minor, shown, strings.Join(have, ", "))
		switch {
		case row != nil && row.Until != 0 && minor >= row.Until:
			why += fmt.Sprintf("; v1.%d removed %s/%s (v1.%d was the last minor with it)", row.Until, group, version, row.Until-1)
		case row != nil && minor < row.Since:
			why += fmt.Sprintf("; %s/%s came with v1.%d", group, version, row.Since)
		default:
			why += fmt.Sprintf("; no minor from v1.22 to v1.36 has %s/%s", group, version)
		}
		return fmt.Sprintf("group version %s/%s that has not been registered", group, version), why,
			fmt.Sprintf("remove %s from runtime-config, or name a version this release registers (%s)", key, strings.Join(have, ", "))
	}
	if value != "" {
		if _, err := strconv.ParseBool(value); err != nil {
			return fmt.Sprintf("invalid value of %s: %s, err: %v", key, value, err), "the value of a group/version is a bool",
				fmt.Sprintf("write %s=true or %s=false", key, key)
		}
	}
	return "", "", ""
}

// groupSpan is the first and last minor that register any version of the group.
func groupSpan(rows []kubetables.APIGroupVersion) (first, last int) {
	first, last = 36, 22
	for _, v := range rows {
		s, u := v.Since, v.Until-1
		if v.Since == 0 {
			s = 22
		}
		if v.Until == 0 {
			u = 36
		}
		first, last = min(first, s), max(last, u)
	}
	return first, last
}

// groupSuggestion is the registered group a name means: a different case, or the short name
// of a .k8s.io group (flowcontrol → flowcontrol.apiserver.k8s.io).
func groupSuggestion(group string, minor int) string {
	for _, v := range kubetables.APIGroupVersions() {
		if v.Group == "" || v.Group == group {
			continue
		}
		if (v.Since == 0 || minor >= v.Since) && (v.Until == 0 || minor < v.Until) &&
			(strings.EqualFold(v.Group, group) || strings.HasPrefix(v.Group, group+".")) {
			return v.Group
		}
	}
	return ""
}
