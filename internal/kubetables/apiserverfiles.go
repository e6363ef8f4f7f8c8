package kubetables

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/apiserver-file-versions.tsv
var apiserverFileVersionsTSV string

// APIServerFileVersion is an apiVersion kube-apiserver decodes a file of its flags in, by
// Kubernetes minor (data/apiserver-file-versions.tsv): the audit policy of
// --audit-policy-file (k8s.io/apiserver pkg/apis/audit/install at each v0.N.0) and the
// PodSecurity plugin's configuration in --admission-control-config-file
// (k8s.io/pod-security-admission admission/api/scheme at each v0.N.0). A file in a version
// the minor does not register does not decode, and kube-apiserver exits.
type APIServerFileVersion struct {
	// file is "audit-policy" or "pod-security"; group and version the apiVersion.
	file, group, version string
	// Since is the first minor (of 1.x) that registers it, 0 when v1.22 already does;
	// Until the first minor that no longer does, 0 when v1.36 still does.
	Since, Until int
	Source       string
}

var apiserverFileVersions = sync.OnceValues(func() ([]APIServerFileVersion, error) {
	rows, err := tsv.Parse(apiserverFileVersionsTSV)
	if err != nil {
		return nil, fmt.Errorf("apiserver file versions: %w", err)
	}
	out := make([]APIServerFileVersion, 0, len(rows))
	for _, r := range rows {
		s, err1 := minorOf(r["since"])
		u, err2 := minorOf(r["until"])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("apiserver file versions: %s %s/%s: since %q until %q", r["file"], r["group"], r["version"], r["since"], r["until"])
		}
		out = append(out, APIServerFileVersion{file: r["file"], group: r["group"], version: r["version"], Since: s, Until: u, Source: r["source"]})
	}
	return out, nil
})

// APIServerFileVersionRegistered reports whether kube-apiserver of Kubernetes 1.minor
// decodes the file kind in group/version; judged is false when the group is not the file's
// (the table says nothing about it). have lists the versions the minor registers, and row
// is the table's row of the version (zero when no minor from v1.22 to v1.36 has it).
func APIServerFileVersionRegistered(file, group, version string, minor int) (registered, judged bool, have []string, row APIServerFileVersion) {
	all, err := apiserverFileVersions()
	if err != nil {
		panic(err) // embedded data; TestAPIServerFileVersions
	}
	for _, v := range all {
		if v.file != file || v.group != group {
			continue
		}
		judged = true
		in := (v.Since == 0 || minor >= v.Since) && (v.Until == 0 || minor < v.Until)
		if in {
			have = append(have, v.version)
		}
		if v.version == version {
			row = v
			registered = in
		}
	}
	return registered, judged, have, row
}
