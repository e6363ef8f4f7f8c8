package profile

import (
	"fmt"
	"sort"
)

// The newest releases the flag catalogs model. The catalogs (data/README.md,
// data/rke2-README.md) are rancher/rke2@6ce1a8019e9d ("[master] Update to v1.36.4-rke2r1 and
// Go 1.26.5 (#11107)", 2026-08-21: hardened-kubernetes v1.36.4-rke2r1, k8s.io/* replaced by
// k3s-io/kubernetes v1.36.4-k3s1) and the k3s commit it pins, k3s-io/k3s@2a1e2e8cf41b
// (main, 2026-08-17). An RKE2 release vX.Y.Z is built on k3s vX.Y.Z.
const (
	NewestK3s  = "v1.36.4+k3s1"
	NewestRKE2 = "v1.36.4+rke2r1"
)

// OldestModelled is the oldest release Behaviour accepts.
const OldestModelled = "v1.22.4"

// newestRelease is the newest release of the product that the catalog models.
func (p *Profile) newestRelease() string {
	if p.Name == "rke2" {
		return NewestRKE2
	}
	return NewestK3s
}

// behaviourChanges are the first releases in which something Behaviour models changes
// (see Behaviour and the firstRelease values in profile.go): the oldest modelled release,
// CollapsedComponentArgs (v1.24.0), TLSSanNotSplit (v1.25.10, v1.26.5, v1.27.2), the
// missing-config fix and K3S_DATA_DIR (v1.27.16, v1.28.12, v1.29.7, v1.30.3, v1.31.0) and urfave/cli v2
// (v1.31.8, v1.32.4, v1.33.0). TestReleasesMarkChanges keeps the list honest.
var behaviourChanges = []Version{
	{1, 22, 4, ""}, {1, 24, 0, ""}, {1, 25, 10, ""}, {1, 26, 5, ""}, {1, 27, 2, ""}, {1, 27, 16, ""},
	{1, 28, 12, ""}, {1, 29, 7, ""}, {1, 30, 3, ""}, {1, 31, 0, ""}, {1, 31, 8, ""}, {1, 32, 4, ""}, {1, 33, 0, ""},
}

// Releases lists the versions worth giving --k3s-version (for shell completion): the newest
// modelled release, then each release where modelled behaviour changes and, within a minor
// line, the release just before it, newest first, spelled for the product (+k3s1, +rke2r1).
func (p *Profile) Releases() []string {
	suffix := "+k3s1"
	if p.Name == "rke2" {
		suffix = "+rke2r1"
	}
	var vs []Version
	for _, v := range behaviourChanges {
		vs = append(vs, v)
		if v.Patch > 0 && !(v == Version{1, 22, 4, ""}) {
			vs = append(vs, Version{v.Major, v.Minor, v.Patch - 1, ""})
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[j].Less(vs[i]) })
	out := []string{p.newestRelease()}
	for _, v := range vs {
		out = append(out, fmt.Sprintf("v%d.%d.%d%s", v.Major, v.Minor, v.Patch, suffix))
	}
	return out
}
