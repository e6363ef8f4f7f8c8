package profile

// ReleaseFact is something the product does that changed between releases: a default, or a
// value that stopped working. Like the wrong-names table, each row names its release range
// and where it was read, so a finding can say "since v1.26" and be checked.
type ReleaseFact struct {
	// Product is "k3s" or "rke2"; Name says what the fact is about
	// ("default ingress-controller", "flannel-backend wireguard").
	Product, Name string
	// From is the first release the row holds for ("" for every older release); Until the
	// first release it no longer holds for ("" for the newest). Both are vX.Y.Z of the
	// product; Backports lists patch releases of older minors that got the change (minor →
	// patch), so a row ending at v1.36.0 with Backports {35: 2} ends at v1.35.2 too.
	From, Until string
	Backports   map[int]int
	// Value is the fact in that range: the default's items, or what k3s logs when it exits.
	Value []string
	// Note adds what the value alone does not say.
	Note string
	// Source names where the row was read (repository, path, commit).
	Source string
}

// releaseFacts is the table. Commits are rancher/rke2 and k3s-io/k3s (the latter read in the
// manuelbuil/k3s mirror, which has the full history); a commit's release is the first
// release branch that contains it.
var releaseFacts = []ReleaseFact{
	{Product: "rke2", Name: "default ingress-controller", Until: "v1.31.0",
		Value:  []string{"ingress-nginx"},
		Note:   "RKE2 before v1.31 has no ingress-controller flag: it always deploys rke2-ingress-nginx and has no traefik chart",
		Source: "rancher/rke2 76d4fb3bf \"Add CLI flag for ingress controllers\" (2024-05-22, first in release-1.31)"},
	{Product: "rke2", Name: "default ingress-controller", From: "v1.31.0", Until: "v1.36.0",
		Value:  []string{"ingress-nginx"},
		Note:   "the flag's default is ingress-nginx, and RKE2 disables the controllers not selected",
		Source: "rancher/rke2 pkg/cli/cmds/server.go IngressControllerFlag Value cli.NewStringSlice(\"ingress-nginx\"), until 003f022f8"},
	{Product: "rke2", Name: "default ingress-controller", From: "v1.36.0",
		Value:  []string{"traefik"},
		Note:   "RKE2's default unless an ingress-nginx HelmChart is already deployed",
		Source: "rancher/rke2 003f022f8 \"Make traefik default; add support for detecting legacy default ingress-class\" (2026-03-25, first in release-1.36; not in release-1.35), pkg/bootstrap/bootstrap.go"},

	{Product: "rke2", Name: "unit guard", Until: "v1.36.0", Backports: map[int]int{35: 2, 34: 5, 33: 9, 32: 12},
		Value:  []string{"Conflicts"},
		Note:   "rke2-server.service and rke2-agent.service name each other in Conflicts=: starting one stops the other",
		Source: "rancher/rke2 bundle/lib/systemd/system/rke2-*.service before edef34d59"},
	{Product: "rke2", Name: "unit guard", From: "v1.36.0", Backports: map[int]int{35: 2, 34: 5, 33: 9, 32: 12},
		Value:  []string{"ExecCondition"},
		Note:   "each unit's ExecCondition= refuses to start while the other is active",
		Source: "rancher/rke2 edef34d59 \"Prevent a node transform from agent/server to server/agent\" (2026-02-16; backports 602b50e8a, 766e883e4, 5682942ad, 56fc188fe before v1.35.2, v1.34.5, v1.33.9, v1.32.12)"},

	{Product: "rke2", Name: "profile cis-1.23", From: "v1.30.1",
		Value:  []string{"invalid value provided for --profile flag"},
		Note:   "before v1.30 RKE2 accepted cis-1.23 with a deprecation warning; from rancher/rke2 ebe1d35db (2024-05) until the etcd-profile change (d736f9699 on release-1.30, 2025-06) the message is \"cis-1.23 profile is deprecated. Please use 'cis' instead.\"",
		Source: "rancher/rke2 ebe1d35db \"[1.30] Move to fatal error for cis-1.23 profile value\" (#5781, before v1.30.1 on release-1.30); pkg/cli/cmds/profile_linux.go validateProfile"},

	// flannel-backend values that stopped working: pkg/agent/flannel/setup.go
	// createFlannelConf, which runs when the agent part of k3s sets up flannel (after the
	// server part has started), so k3s starts and then exits.
	{Product: "k3s", Name: "flannel-backend wireguard", From: "v1.26.0", Until: "v1.27.1",
		Value:  []string{"The wireguard backend was deprecated in K3s v1.26, please switch to wireguard-native. Check our docs at docs.k3s.io/installation/network-options for information about how to migrate."},
		Source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574), pkg/agent/flannel/setup.go logrus.Fatalf"},
	{Product: "k3s", Name: "flannel-backend wireguard", From: "v1.27.1",
		Value:  []string{"Cannot configure unknown flannel backend 'wireguard'"},
		Source: "k3s-io/k3s 944f811dc \"v1.27.1 CLI Deprecation\" (#7311) removed the wireguard case; pkg/agent/flannel/setup.go default case"},
	{Product: "k3s", Name: "flannel-backend ipsec", From: "v1.27.1", Until: "v1.28.0",
		Value:  []string{"The ipsec backend is deprecated and was removed in k3s v1.27; please switch to wireguard-native. Check our docs for information on how to migrate."},
		Source: "k3s-io/k3s 944f811dc \"v1.27.1 CLI Deprecation\" (#7311), pkg/agent/flannel/setup.go logrus.Fatal"},
	{Product: "k3s", Name: "flannel-backend ipsec", From: "v1.28.0",
		Value:  []string{"Cannot configure unknown flannel backend 'ipsec'"},
		Source: "k3s-io/k3s ced330c66 \"[v1.28] CLI Removal for v1.28.0\" (#8203), pkg/agent/flannel/setup.go default case"},
}

// ReleaseFacts returns the table's rows for the product, for documentation and tests.
func (p *Profile) ReleaseFacts() []ReleaseFact {
	var out []ReleaseFact
	for _, f := range releaseFacts {
		if f.Product == p.Name || (p.Name == "rke2" && f.Product == "k3s") {
			out = append(out, f)
		}
	}
	return out
}

// FactAt returns the row of the named fact that holds for version ("" or "newest": the newest
// release), or nil when none does. RKE2 runs k3s's code, so k3s's rows hold for RKE2 too
// (an RKE2 release vX.Y.Z is built on k3s vX.Y.Z).
func (p *Profile) FactAt(name, version string) *ReleaseFact {
	v, newest := Version{}, version == "" || version == "newest" || version == "latest"
	if !newest {
		var err error
		if v, err = ParseVersion(version); err != nil {
			return nil
		}
	}
	for i := range releaseFacts {
		f := &releaseFacts[i]
		if f.Name != name || !(f.Product == p.Name || (p.Name == "rke2" && f.Product == "k3s")) {
			continue
		}
		if newest {
			if f.Until == "" {
				return f
			}
			continue
		}
		if f.From != "" && !v.reached(f.From, f.Backports) {
			continue
		}
		if f.Until != "" && v.reached(f.Until, f.Backports) {
			continue
		}
		return f
	}
	return nil
}

// reached reports whether v is at or after the release first (a vX.Y.Z), counting the
// backports: v is on a minor that got the change at backports[minor] and is at or past it.
func (v Version) reached(first string, backports map[int]int) bool {
	w, err := ParseVersion(first)
	if err != nil {
		return false
	}
	if !v.Less(w) {
		return true
	}
	if p, ok := backports[v.Minor]; ok && v.Major == w.Major {
		return v.Patch >= p
	}
	return false
}
