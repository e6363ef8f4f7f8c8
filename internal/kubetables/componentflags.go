package kubetables

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/component-flag-removals.tsv
var componentFlagRemovalsTSV string

// ComponentFlagRemoval is a flag of a Kubernetes component that a Kubernetes minor removed
// (data/component-flag-removals.tsv): from that minor the component exits with "unknown
// flag: --X" when k3s passes it through kube-apiserver-arg, kubelet-arg and the others.
type ComponentFlagRemoval struct {
	component, flag string
	// RemovedIn is the first Kubernetes minor (of 1.x) without the flag.
	RemovedIn int
	// Fix says what to do instead, Source where the removal was read.
	Fix, Source string
}

var componentFlagRemovals = sync.OnceValues(func() (map[string]ComponentFlagRemoval, error) {
	rows, err := tsv.Parse(componentFlagRemovalsTSV)
	if err != nil {
		return nil, fmt.Errorf("component flag removals: %w", err)
	}
	out := make(map[string]ComponentFlagRemoval, len(rows))
	for _, r := range rows {
		minor, err := strconv.Atoi(strings.TrimPrefix(r["removed_in"], "1."))
		if err != nil || !strings.HasPrefix(r["removed_in"], "1.") {
			return nil, fmt.Errorf("component flag removals: %s --%s: removed_in %q", r["component"], r["flag"], r["removed_in"])
		}
		out[r["component"]+" "+r["flag"]] = ComponentFlagRemoval{component: r["component"], flag: r["flag"],
			RemovedIn: minor, Fix: r["fix"], Source: r["source"]}
	}
	return out, nil
})

// ComponentFlagRemoved returns the removal of the component's flag when Kubernetes 1.minor
// no longer has it; ok is false when it still does or the table does not know the flag.
func ComponentFlagRemoved(component, flag string, minor int) (ComponentFlagRemoval, bool) {
	all, err := componentFlagRemovals()
	if err != nil {
		panic(err) // embedded data; TestComponentFlagRemovals
	}
	r, ok := all[component+" "+flag]
	if !ok || minor < r.RemovedIn {
		return ComponentFlagRemoval{}, false
	}
	return r, true
}

// allComponentFlagRemovals lists the table, for documentation and tests.
func allComponentFlagRemovals() []ComponentFlagRemoval {
	all, err := componentFlagRemovals()
	if err != nil {
		panic(err)
	}
	var out []ComponentFlagRemoval
	for _, r := range all {
		out = append(out, r)
	}
	return out
}
