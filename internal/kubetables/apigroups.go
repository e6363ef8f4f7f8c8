package kubetables

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/api-group-versions.tsv
var apiGroupVersionsTSV string

// APIGroupVersion is an API group version kube-apiserver's scheme registers in some
// Kubernetes minor from v1.22 to v1.36 (data/api-group-versions.tsv, read from
// k8s.io/kubernetes pkg/controlplane/import_known_versions.go and pkg/apis/*/install at each
// v1.N.0). kube-apiserver checks the keys of --runtime-config against it at start-up
// (k8s.io/apiserver pkg/server/options/api_enablement.go Validate: "unknown api groups …";
// pkg/server/resourceconfig/helpers.go: "group version … that has not been registered").
type APIGroupVersion struct {
	// Group is the group name, "" for the core group.
	Group string
	// Version is "*" for a group of another scheme whose versions are not read.
	Version string
	// Since is the first minor (of 1.x) that registers it, 0 when v1.22 already does;
	// Until the first minor that no longer does, 0 when v1.36 still does.
	Since, Until int
	source       string
}

func (v APIGroupVersion) in(minor int) bool {
	return (v.Since == 0 || minor >= v.Since) && (v.Until == 0 || minor < v.Until)
}

var apiGroupVersions = sync.OnceValues(func() ([]APIGroupVersion, error) {
	rows, err := tsv.Parse(apiGroupVersionsTSV)
	if err != nil {
		return nil, fmt.Errorf("api group versions: %w", err)
	}
	out := make([]APIGroupVersion, 0, len(rows))
	for _, r := range rows {
		s, err1 := minorOf(r["since"])
		u, err2 := minorOf(r["until"])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("api group versions: %s/%s: since %q until %q", r["group"], r["version"], r["since"], r["until"])
		}
		g := r["group"]
		if g == "(core)" {
			g = ""
		}
		out = append(out, APIGroupVersion{Group: g, Version: r["version"], Since: s, Until: u, source: r["source"]})
	}
	return out, nil
})

// APIGroupVersions is the table, in its order (group, then version).
func APIGroupVersions() []APIGroupVersion {
	all, err := apiGroupVersions()
	if err != nil {
		panic(err) // embedded data; TestAPIGroupVersions
	}
	return all
}

// APIGroupRegistered reports whether kube-apiserver of Kubernetes 1.minor knows the group
// (in any of the schemes its Validate asks), and whether it registers the version: known is
// false when the version's registration was not read (the groups of other schemes). rows
// are the table's rows of the group, for the message.
func APIGroupRegistered(group, version string, minor int) (groupOK, versionOK, known bool, rows []APIGroupVersion) {
	known = true
	for _, v := range APIGroupVersions() {
		if v.Group != group {
			continue
		}
		rows = append(rows, v)
		if !v.in(minor) {
			continue
		}
		groupOK = true
		if v.Version == "*" {
			known = false
		}
		if v.Version == version {
			versionOK = true
		}
	}
	return groupOK, versionOK, known, rows
}

// minorOf reads a "1.N" cell of the data files ("" is 0).
func minorOf(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	var n int
	if _, err := fmt.Sscanf(s, "1.%d", &n); err != nil || fmt.Sprintf("1.%d", n) != s {
		return 0, fmt.Errorf("%q is no 1.N", s)
	}
	return n, nil
}
