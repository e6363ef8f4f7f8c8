package kubetables

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/component-flag-kinds.tsv
var componentFlagKindsTSV string

// ArgKind is how a Kubernetes component takes a flag given more than once. k3s passes every
// occurrence, in order (pkg/util/args.go GetArgs, since k3s-io/k3s b6e71ef99), and the
// component's flag value decides what the repeats do.
type ArgKind string

const (
	// ArgLast is a single-value flag (pflag's string, bool, int, duration …, and
	// register-with-taints, whose Set replaces the list): the last occurrence wins.
	ArgLast ArgKind = "last"
	// ArgMap is a map flag (k8s.io/component-base cli/flag MapStringString,
	// LangleSeparatedMapStringString, ConfigurationMap, ColonSeparatedMultimapStringString):
	// the occurrences merge key by key, a later one replacing a key an earlier one set.
	ArgMap ArgKind = "map"
	// ArgGates is --feature-gates (component-base featuregate Set, or the kubelet's and
	// kube-proxy's MapStringBool): merged gate by gate.
	ArgGates ArgKind = "gates"
	// ArgSlice is a pflag StringSlice (or IP/int slice): each occurrence is split on commas
	// and appended to the earlier ones (the first replaces the component's default).
	ArgSlice ArgKind = "slice"
	// ArgArray is a pflag StringArray (or NamedCertKeyArray, ReservedMemoryVar): each
	// occurrence appends one item, not split on commas.
	ArgArray ArgKind = "array"
)

// ComponentFlagKind is a row of data/component-flag-kinds.tsv.
type ComponentFlagKind struct {
	component, flag string
	kind            ArgKind
	// since and until bound the Kubernetes minors (of 1.x) the row holds for: since is the
	// first read (22 when the flag is older), until the first without it (0: still there).
	since, until int
	source       string
}

var componentFlagKinds = sync.OnceValues(func() (map[string]ComponentFlagKind, error) {
	rows, err := tsv.Parse(componentFlagKindsTSV)
	if err != nil {
		return nil, fmt.Errorf("component flag kinds: %w", err)
	}
	minor := func(s string) (int, error) {
		if s == "" {
			return 0, nil
		}
		if !strings.HasPrefix(s, "1.") {
			return 0, fmt.Errorf("minor %q", s)
		}
		return strconv.Atoi(strings.TrimPrefix(s, "1."))
	}
	out := make(map[string]ComponentFlagKind, len(rows))
	for _, r := range rows {
		k := ArgKind(r["kind"])
		switch k {
		case ArgMap, ArgGates, ArgSlice, ArgArray:
		default:
			return nil, fmt.Errorf("component flag kinds: %s --%s: kind %q", r["component"], r["flag"], r["kind"])
		}
		since, err1 := minor(r["since"])
		until, err2 := minor(r["until"])
		if err1 != nil || err2 != nil || since == 0 {
			return nil, fmt.Errorf("component flag kinds: %s --%s: since %q until %q", r["component"], r["flag"], r["since"], r["until"])
		}
		key := r["component"] + " " + r["flag"]
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("component flag kinds: %s --%s twice", r["component"], r["flag"])
		}
		out[key] = ComponentFlagKind{component: r["component"], flag: r["flag"], kind: k, since: since, until: until, source: r["source"]}
	}
	return out, nil
})

// ComponentArgKind says how the component of Kubernetes 1.minor takes its flag given more
// than once. A flag the table does not list is a single-value flag (ArgLast); minor 0 (not
// known) takes the row regardless of its minors.
func ComponentArgKind(component, flag string, minor int) (ComponentFlagKind, ArgKind) {
	all, err := componentFlagKinds()
	if err != nil {
		panic(err) // embedded data; TestComponentFlagKinds
	}
	r, ok := all[component+" "+flag]
	if !ok || minor != 0 && (minor < r.since && r.since > 22 || r.until != 0 && minor >= r.until) {
		return ComponentFlagKind{}, ArgLast
	}
	return r, r.kind
}

// allComponentFlagKinds lists the table, for documentation and tests.
func allComponentFlagKinds() []ComponentFlagKind {
	all, err := componentFlagKinds()
	if err != nil {
		panic(err)
	}
	out := make([]ComponentFlagKind, 0, len(all))
	for _, r := range all {
		out = append(out, r)
	}
	return out
}
