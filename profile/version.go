package profile

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed k3s release version such as v1.32.3+k3s1.
type Version struct {
	Major, Minor, Patch int
	// Text is the version as given.
	Text string
}

// ParseVersion accepts "v1.32.3+k3s1", "1.32.3", "v1.32" (patch 0) and similar.
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(t, "+-"); i >= 0 {
		t = t[:i]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("version %q: want MAJOR.MINOR[.PATCH], e.g. v1.32.3+k3s1", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, fmt.Errorf("version %q: %q is not a number", s, p)
		}
		n[i] = v
	}
	return Version{Major: n[0], Minor: n[1], Patch: n[2], Text: s}, nil
}

// Less orders versions by major, minor and patch.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// atLeast reports whether v is at or after the first release of its minor line that carries
// a change; lines listed in firstPatch got it as a backport, later minors have it from .0.
func (v Version) atLeast(firstMinor int, firstPatch map[int]int) bool {
	if v.Major != 1 {
		return v.Major > 1
	}
	if v.Minor >= firstMinor {
		return true
	}
	if p, ok := firstPatch[v.Minor]; ok {
		return v.Patch >= p
	}
	return false
}

// Behaviour is what changes with the release: which CLI library parses the arguments and
// which configfilearg fixes are in.
type Behaviour struct {
	// CLI is the urfave/cli major version: 1 or 2.
	CLI int
	// MissingExplicitConfigFatal: before k3s-io/k3s commit e51494002 (2024-07-29), a config
	// file named with --config or K3S_CONFIG_FILE that did not exist was an error.
	MissingExplicitConfigFatal bool
	// WrapperSkipsDropins: before the same commit the wrapper's lookup of data-dir and debug
	// (configfilearg.FindString, cmd/k3s/main.go) returned nothing when the default
	// config.yaml did not exist, without reading config.yaml.d (k3s-io/k3s#10589), and any
	// error of os.Stat on a K3S_CONFIG_FILE it was given was fatal.
	WrapperSkipsDropins bool
	// NoDataDirEnv: before k3s-io/k3s 9111b1f77 (2024-07-29, shipped with e51494002 in
	// v1.31.0, v1.30.3, v1.29.7, v1.28.12 and v1.27.16) --data-dir had no environment
	// variable; K3S_DATA_DIR was ignored by the flags and by the wrapper (k3s-io/k3s#10589).
	NoDataDirEnv bool
	// CollapsedComponentArgs: before k3s-io/k3s b6e71ef99 (2022-04, first in v1.24) k3s
	// passed a repeated *-arg flag to the component once, with the last value.
	CollapsedComponentArgs bool
	// TLSSanNotSplit: before k3s-io/k3s d5f560360 (2023-05, in v1.27.2, v1.26.5 and
	// v1.25.10; k3s-io/k3s#7365) tls-san items were not split on commas.
	TLSSanNotSplit bool
	// AgentCertWithoutToken: since k3s-io/k3s 992e64993 (kubeadm-style join tokens, 2023-02;
	// backported as k3s-io/k3s#6929/#6930 to 1.25 and 1.24: v1.26.2, v1.25.7, v1.24.11) an
	// agent whose data-dir holds agent/client-kubelet.crt and .key starts without a token.
	AgentCertWithoutToken bool
	// KubeletGetsAllNodeIPs: since k3s-io/k3s 1ffb4603c (2023-10) k3s passes every node-ip
	// to the kubelet (util.JoinIPs, pkg/daemons/agent/agent_linux.go) unless the embedded
	// cloud controller is disabled; before, the kubelet got the first one only. k3sconf
	// models it from v1.28.3 and the October 2023 patch releases v1.27.7 and v1.26.10.
	KubeletGetsAllNodeIPs bool
	// EtcdSnapshotRequest: since k3s-io/k3s fe465cc83 (2024-03-28, first in v1.30.0) the
	// etcd-snapshot commands ask the running server over HTTPS and authenticate with
	// --etcd-token or, when it is empty, <data-dir>/server/token. Backports to older lines
	// were not verified, so they are not modelled.
	EtcdSnapshotRequest bool
	// Version modelled ("newest" when none was given).
	Version string
}

// Behaviour returns what the given version does; "" means the newest release.
func (p *Profile) Behaviour(version string) (Behaviour, error) {
	if version == "" || version == "latest" || version == "newest" {
		return Behaviour{CLI: 2, Version: "newest", AgentCertWithoutToken: true, KubeletGetsAllNodeIPs: true, EtcdSnapshotRequest: true}, nil
	}
	v, err := ParseVersion(version)
	if err != nil {
		return Behaviour{}, err
	}
	// Before k3s-io/k3s ef263bd2b (2021-11-16, released in v1.22.4) stripInvalidFlags split
	// config args on the last "=" and etcd-snapshot kept unknown keys; k3sconf models the
	// configfilearg that has been in place since.
	if v.Major == 1 && (v.Minor < 22 || (v.Minor == 22 && v.Patch < 4)) {
		return Behaviour{}, fmt.Errorf("version %s: k3sconf models k3s v1.22.4 and later (older releases filter config keys differently)", version)
	}
	b := Behaviour{CLI: 1, Version: version}
	if v.atLeast(p.cliV2.minor, p.cliV2.patches) {
		b.CLI = 2
	}
	b.MissingExplicitConfigFatal = !v.atLeast(p.missingConfigFix.minor, p.missingConfigFix.patches)
	b.NoDataDirEnv = b.MissingExplicitConfigFatal
	b.WrapperSkipsDropins = b.MissingExplicitConfigFatal
	b.CollapsedComponentArgs = v.Major == 1 && v.Minor < 24
	b.TLSSanNotSplit = !v.atLeast(28, map[int]int{27: 2, 26: 5, 25: 10})
	b.AgentCertWithoutToken = v.atLeast(27, map[int]int{26: 2, 25: 7, 24: 11})
	b.KubeletGetsAllNodeIPs = v.atLeast(29, map[int]int{28: 3, 27: 7, 26: 10})
	b.EtcdSnapshotRequest = v.atLeast(30, nil)
	return b, nil
}

// firstRelease records the first release carrying a change: every minor from minor on, and
// the given patch of older minors that got a backport.
type firstRelease struct {
	minor   int
	patches map[int]int
}

// newestKubernetesMinor is the Kubernetes minor of the newest modelled release (v1.36).
const newestKubernetesMinor = 36

// KubernetesMinor is the Kubernetes minor a k3s or RKE2 release runs (vX.Y.Z runs Kubernetes
// X.Y); "" or "newest" is the newest modelled; 0 when the version does not parse.
func KubernetesMinor(version string) int {
	if version == "" || version == "newest" || version == "latest" {
		return newestKubernetesMinor
	}
	v, err := ParseVersion(version)
	if err != nil || v.Major != 1 {
		return 0
	}
	return v.Minor
}
