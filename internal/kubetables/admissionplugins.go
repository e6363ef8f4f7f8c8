package kubetables

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/admission-plugins.tsv
var admissionPluginsTSV string

// AdmissionPlugin is an admission plugin kube-apiserver registers in some Kubernetes minor
// from v1.22 to v1.36 (data/admission-plugins.tsv, read from k8s.io/kubernetes
// pkg/kubeapiserver/options/plugins.go AllOrderedPlugins at each v1.N.0, the constants
// resolved in each plugin's package). kube-apiserver validates --enable-admission-plugins,
// --disable-admission-plugins and --admission-control against the registered names
// (k8s.io/apiserver pkg/server/options/admission.go Validate: "enable-admission-plugins
// plugin %q is unknown") and exits on an unknown one.
type AdmissionPlugin struct {
	Name string
	// Since is the first minor (of 1.x) that registers it, 0 when v1.22 already does;
	// Until the first minor that no longer does, 0 when v1.36 still does.
	Since, Until int
	Source       string
}

var admissionPlugins = sync.OnceValues(func() (map[string]AdmissionPlugin, error) {
	rows, err := tsv.Parse(admissionPluginsTSV)
	if err != nil {
		return nil, fmt.Errorf("admission plugins: %w", err)
	}
	minor := func(s string) (int, error) {
		if s == "" {
			return 0, nil
		}
		if !strings.HasPrefix(s, "1.") {
			return 0, fmt.Errorf("%q is no 1.N", s)
		}
		return strconv.Atoi(strings.TrimPrefix(s, "1."))
	}
	out := make(map[string]AdmissionPlugin, len(rows))
	for _, r := range rows {
		s, err1 := minor(r["since"])
		u, err2 := minor(r["until"])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("admission plugins: %s: since %q until %q", r["plugin"], r["since"], r["until"])
		}
		out[r["plugin"]] = AdmissionPlugin{Name: r["plugin"], Since: s, Until: u, Source: r["source"]}
	}
	return out, nil
})

// AdmissionPluginRegistered reports whether kube-apiserver of Kubernetes 1.minor registers
// the plugin; row is the table's row for it (ok false when no minor from v1.22 to v1.36 has
// a plugin of that name: then every modelled minor refuses it).
func AdmissionPluginRegistered(name string, minor int) (registered bool, row AdmissionPlugin, ok bool) {
	all, err := admissionPlugins()
	if err != nil {
		panic(err) // embedded data; TestAdmissionPlugins
	}
	row, ok = all[name]
	if !ok {
		return false, row, false
	}
	return (row.Since == 0 || minor >= row.Since) && (row.Until == 0 || minor < row.Until), row, true
}

// AdmissionPlugins lists the table sorted by name, for documentation and tests.
func AdmissionPlugins() []AdmissionPlugin {
	all, err := admissionPlugins()
	if err != nil {
		panic(err)
	}
	out := make([]AdmissionPlugin, 0, len(all))
	for _, r := range all {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
