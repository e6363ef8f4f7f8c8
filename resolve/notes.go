package resolve

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/profile"
)

// addNotes says what k3s does with a value after the CLI layer hands it over, for the keys
// where that differs from the value itself.
func (r *resolver) addNotes() {
	for _, k := range r.res.Keys {
		switch k.Flag.Name {
		case "write-kubeconfig-mode":
			k.Note = kubeconfigModeNote(k.Value.(string), r.quote(k.Flag.Name, k.Value.(string)))
		case "disable":
			k.Note = splitNote(k.Value.([]string), true,
				"pkg/cli/server/server.go splits each item on commas and trims spaces; k3s disables")
		case "tls-san":
			if r.beh.TLSSanNotSplit {
				for _, it := range k.Value.([]string) {
					if strings.Contains(it, ",") {
						k.Note = fmt.Sprintf("%s %s does not split tls-san items on commas (that came with v1.25.10, v1.26.5, v1.27.2): %q is one certificate name", r.p.Program, r.beh.Version, it)
						break
					}
				}
				break
			}
			k.Note = splitNote(k.Value.([]string), false,
				"k3s splits each item on commas (util.SplitStringSlice); it uses")
		case "cluster-cidr", "service-cidr", "cluster-dns", "node-ip", "node-external-ip":
			k.Note = splitNote(k.Value.([]string), false,
				"k3s splits each item on commas (util.SplitStringSlice); it uses")
		case "node-name":
			v := k.Value.(string)
			if v == "" {
				k.Note = "empty: k3s uses the host name, lowercased (pkg/util/net.go GetHostnameAndIPs)"
			} else if strings.ToLower(v) != v {
				k.Note = fmt.Sprintf("k3s lowercases it: the node registers as %q (pkg/util/net.go GetHostnameAndIPs)", r.quote("node-name", strings.ToLower(v)))
			}
			if wk := r.res.Key("with-node-id"); wk != nil && wk.Value == true {
				k.Note = strings.TrimPrefix(k.Note+"; with-node-id is set: k3s appends \"-\" and the id in /etc/rancher/node/id", "; ")
			}
		default:
			if strings.HasSuffix(k.Flag.Name, "-arg") {
				if items, ok := k.Value.([]string); ok {
					k.Note = componentArgsNote(componentArgKeys[k.Flag.Name], profile.KubernetesMinor(r.res.Version), items, r.beh.CollapsedComponentArgs)
				}
			}
		}
	}
}

// kubeconfigModeNote: pkg/server/server.go writeKubeConfig parses the mode with
// strconv.ParseInt(mode, 8, 0), so "420" (what an unquoted YAML 0644 becomes) is mode 0420.
// shown is v as the note quotes it (REDACTED for a copy of a secret).
func kubeconfigModeNote(v, shown string) string {
	if v == "" {
		return ""
	}
	m, err := strconv.ParseInt(v, 8, 0)
	if err != nil || m < 0 || m > 0o7777 {
		return fmt.Sprintf("k3s reads this as an octal file mode, and %q is not one: k3s logs an error and k3s.yaml keeps its default mode 0600", shown)
	}
	return fmt.Sprintf("k3s reads this as an octal file mode: 0%o (%s)", m, fs.FileMode(m).Perm().String()[1:])
}

func splitNote(items []string, trim bool, prefix string) string {
	// Whether there is anything to note is known without splitting: an item with a comma,
	// or (trim) one with blanks around it. Most lists have neither.
	need := false
	for _, it := range items {
		if strings.Contains(it, ",") || trim && strings.TrimSpace(it) != it {
			need = true
			break
		}
	}
	if !need {
		return ""
	}
	var out []string
	for _, it := range items {
		for _, p := range strings.Split(it, ",") {
			if trim {
				if t := strings.TrimSpace(p); t != p {
					need = true
					p = t
				}
			}
			out = append(out, p)
		}
		if strings.Contains(it, ",") {
			need = true
		}
	}
	if !need {
		return ""
	}
	return fmt.Sprintf("%s [%s]", prefix, strings.Join(out, ", "))
}

// componentArgsNote says how k3s hands *-arg items to the component (pkg/util/args.go
// GetArgs, repeated arguments kept since k3s-io/k3s b6e71ef99): a plain "flag=value"
// replaces k3s's own default for that flag, "flag+=value" appends to it and "flag-=value"
// prepends; several items for one flag are all passed, in order, and what the component
// does with them depends on the flag's kind (repeatNote: a single-value flag keeps the last,
// a map flag merges key by key, a list flag appends). comp is "" for a key that reaches no
// Kubernetes component (etcd-arg and the like): its repeats are said as single-value flags.
func componentArgsNote(comp string, minor int, items []string, collapsed bool) string {
	if !componentArgsNeedNote(items) {
		return ""
	}
	return componentArgsTable(comp, minor, items, collapsed)
}

// componentArgsTable builds componentArgsNote's text from a table of every flag's values.
func componentArgsTable(comp string, minor int, items []string, collapsed bool) string {
	type use struct {
		values []string
		mode   string
	}
	byFlag := map[string]*use{}
	var order []string
	for _, it := range items {
		arg, value, hasValue := strings.Cut(strings.TrimPrefix(it, "--"), "=")
		if !hasValue {
			value = "true"
		}
		name := strings.TrimRight(arg, "-+")
		u := byFlag[name]
		if u == nil {
			u = &use{}
			byFlag[name] = u
			order = append(order, name)
		}
		u.values = append(u.values, value)
		switch {
		case strings.HasSuffix(arg, "+"):
			u.mode = "+"
		case strings.HasSuffix(arg, "-"):
			u.mode = "-"
		}
	}
	var notes []string
	for _, name := range order {
		u := byFlag[name]
		switch {
		case len(u.values) > 1 && collapsed:
			notes = append(notes, fmt.Sprintf("--%s is given %d times (%s); k3s before v1.24 passes it once, with the last value (%s)",
				name, len(u.values), strings.Join(u.values, ", "), u.values[len(u.values)-1]))
		case len(u.values) > 1 && comp != "" && u.mode == "":
			notes = append(notes, repeatNote(comp, name, minor, u.values))
		case len(u.values) > 1:
			notes = append(notes, fmt.Sprintf("--%s is passed %d times (%s), in this order; a single-value flag of the component keeps the last (%s)",
				name, len(u.values), strings.Join(u.values, ", "), u.values[len(u.values)-1]))
		case u.mode == "+":
			notes = append(notes, fmt.Sprintf("--%s+= appends %s to k3s's own value for --%s", name, u.values[0], name))
		case u.mode == "-":
			notes = append(notes, fmt.Sprintf("--%s-= puts %s before k3s's own value for --%s", name, u.values[0], name))
		}
	}
	return strings.Join(notes, "; ")
}

// componentArgsNeedNote reports whether componentArgsNote has anything to say: a flag
// given more than once, or one written with "+=" or "-=". Most lists have neither, and
// telling so by sorting the names costs a fraction of building the note's per-flag table
// (5% of show's instructions on 2,000 drop-ins).
func componentArgsNeedNote(items []string) bool {
	names := make([]string, len(items))
	for i, it := range items {
		arg, _, _ := strings.Cut(strings.TrimPrefix(it, "--"), "=")
		if strings.HasSuffix(arg, "+") || strings.HasSuffix(arg, "-") {
			return true
		}
		names[i] = arg
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return true
		}
	}
	return false
}
