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
	// Tags names the release tags that date the row's boundaries: the first tag of each
	// line that has the change (rancher/rke2's tags; a k3s commit is dated by the rke2 tag
	// whose go.mod names a k3s commit that contains it, as v1.30.1+rke2r1 names k3s
	// 1d22b6971fbf). Empty when no tag was read.
	Tags string
}

// releaseFacts is the table. Commits are rancher/rke2 and k3s-io/k3s (the latter read in the
// manuelbuil/k3s mirror, which has the full history); a commit's release is the first
// release branch that contains it.
var releaseFacts = []ReleaseFact{
	{Product: "rke2", Name: "default ingress-controller", Until: "v1.31.0",
		Value:  []string{"ingress-nginx"},
		Note:   "RKE2 before v1.31 has no ingress-controller flag: it always deploys rke2-ingress-nginx and has no traefik chart",
		Source: "rancher/rke2 76d4fb3bf \"Add CLI flag for ingress controllers\" (2024-05-22, first in release-1.31)",
		Tags:   "v1.31.0+rke2r1 is the first tag with 76d4fb3bf"},
	{Product: "rke2", Name: "default ingress-controller", From: "v1.31.0", Until: "v1.36.0",
		Value:  []string{"ingress-nginx"},
		Note:   "the flag's default is ingress-nginx, and RKE2 disables the controllers not selected",
		Source: "rancher/rke2 pkg/cli/cmds/server.go IngressControllerFlag Value cli.NewStringSlice(\"ingress-nginx\"), until 003f022f8",
		Tags:   "v1.31.0+rke2r1 (76d4fb3bf) to before v1.36.0+rke2r1 (003f022f8)"},
	{Product: "rke2", Name: "default ingress-controller", From: "v1.36.0",
		Value:  []string{"traefik"},
		Note:   "RKE2's default unless an ingress-nginx HelmChart is already deployed",
		Source: "rancher/rke2 003f022f8 \"Make traefik default; add support for detecting legacy default ingress-class\" (2026-03-25, first in release-1.36; not in release-1.35), pkg/bootstrap/bootstrap.go",
		Tags:   "v1.36.0+rke2r1 is the first tag with 003f022f8"},

	{Product: "rke2", Name: "unit guard", Until: "v1.36.0", Backports: map[int]int{35: 2, 34: 5, 33: 9, 32: 13},
		Value:  []string{"Conflicts"},
		Note:   "rke2-server.service and rke2-agent.service name each other in Conflicts=: starting one stops the other",
		Source: "rancher/rke2 bundle/lib/systemd/system/rke2-*.service before edef34d59",
		Tags:   "every tag before v1.36.0+rke2r1, v1.35.2+rke2r1, v1.34.5+rke2r1, v1.33.9+rke2r1, v1.32.13+rke2r1"},
	{Product: "rke2", Name: "unit guard", From: "v1.36.0", Backports: map[int]int{35: 2, 34: 5, 33: 9, 32: 13},
		Value:  []string{"ExecCondition"},
		Note:   "each unit's ExecCondition= refuses to start while the other is active",
		Source: "rancher/rke2 edef34d59 \"Prevent a node transform from agent/server to server/agent\" (2026-02-16; backports 602b50e8a, 766e883e4, 5682942ad, 56fc188fe first in v1.35.2, v1.34.5, v1.33.9, v1.32.13)",
		Tags:   "v1.36.0+rke2r1 (edef34d59); the backports' first tags v1.35.2+rke2r1, v1.34.5+rke2r1, v1.33.9+rke2r1, v1.32.13+rke2r1 (v1.32.12+rke2r1 does not have 56fc188fe)"},

	{Product: "rke2", Name: "profile cis-1.23", From: "v1.30.0", Until: "v1.34.0", Backports: map[int]int{33: 2, 32: 6, 31: 10, 30: 14},
		Value:  []string{"cis-1.23 profile is deprecated. Please use 'cis' instead."},
		Note:   "before v1.30 RKE2 accepted cis-1.23 with a deprecation warning (release-1.29 at v1.29.15+rke2r1 still only warns); from the etcd-profile change (d736f9699) the refusal is validateProfile's \"invalid value provided for --profile flag\"",
		Source: "rancher/rke2 ebe1d35db \"[1.30] Move to fatal error for cis-1.23 profile value\" (#5781), pkg/rke2/rke2.go logrus.Fatal",
		Tags:   "v1.30.0+rke2r1 is the first tag with ebe1d35db; the message changed in v1.30.14+rke2r1, v1.31.10+rke2r1, v1.32.6+rke2r1, v1.33.2+rke2r1 (the last tags without: v1.30.13, v1.31.9, v1.32.5, v1.33.1) and is the new one in every 1.34 tag"},
	{Product: "rke2", Name: "profile cis-1.23", From: "v1.34.0", Backports: map[int]int{33: 2, 32: 6, 31: 10, 30: 14},
		Value:  []string{"invalid value provided for --profile flag"},
		Note:   "validateProfile knows only cis and etcd",
		Source: "rancher/rke2 d736f9699 \"Support profile: etcd\" (#8349, 2025-06-13) and its backports; pkg/cli/cmds/profile_linux.go validateProfile",
		Tags:   "v1.30.14+rke2r1, v1.31.10+rke2r1, v1.32.6+rke2r1, v1.33.2+rke2r1, v1.34.1+rke2r1 (the first 1.34 tag)"},

	// The profile values validateProfile accepts (rancher/rke2 pkg/cli/cmds root.go, later
	// profile_linux.go); any other value is "invalid value provided for --profile flag".
	// cis-1.23 from v1.30.0 is the row above (refused in pkg/rke2 after validation).
	// Rows from v1.30.0 come first: FactAt returns the first row that holds.
	{Product: "rke2", Name: "profile values", From: "v1.30.0", Until: "v1.34.0", Backports: map[int]int{33: 2, 32: 6, 31: 10, 30: 14},
		Value:  []string{"cis", "cis-1.23"},
		Source: "rancher/rke2 pkg/cli/cmds/profile_linux.go validateProfile at v1.30.2+rke2r1 (case rke2.CISProfile123, rke2.CISProfile)",
		Tags:   "v1.30.0+rke2r1 to before v1.30.14+rke2r1, v1.31.10+rke2r1, v1.32.6+rke2r1, v1.33.2+rke2r1, v1.34.1+rke2r1"},
	{Product: "rke2", Name: "profile values", From: "v1.34.0", Backports: map[int]int{33: 2, 32: 6, 31: 10, 30: 14},
		Value:  []string{"cis", "etcd"},
		Source: "rancher/rke2 d736f9699 \"Support profile: etcd\" (#8349); pkg/cli/cmds/profile_linux.go validateProfile (case rke2.ProfileCIS, rke2.ProfileETCD)",
		Tags:   "v1.30.14+rke2r1, v1.31.10+rke2r1, v1.32.6+rke2r1, v1.33.2+rke2r1 and every 1.34 tag"},
	{Product: "rke2", Name: "profile values", Until: "v1.25.0",
		Value:  []string{"cis-1.5", "cis-1.6"},
		Source: "rancher/rke2 pkg/cli/cmds/root.go validateProfile at v1.24.6+rke2r1 (case rke2.CISProfile15, rke2.CISProfile16)",
		Tags:   "every tag before v1.25.0+rke2r1"},
	{Product: "rke2", Name: "profile values", From: "v1.25.0", Until: "v1.28.2", Backports: map[int]int{27: 7, 26: 10, 25: 15},
		Value:  []string{"cis-1.23"},
		Source: "rancher/rke2 pkg/cli/cmds/root.go validateProfile at v1.25.3+rke2r1 (case rke2.CISProfile123 only: cis-1.5 and cis-1.6 went with PodSecurityPolicy, rancher/rke2#3282)",
		Tags:   "v1.25.0+rke2r1 to before v1.28.2+rke2r1, v1.27.7+rke2r1, v1.26.10+rke2r1, v1.25.15+rke2r1 (the first tags whose pkg/rke2 defines the profile cis)"},
	{Product: "rke2", Name: "profile values", From: "v1.28.2", Backports: map[int]int{27: 7, 26: 10, 25: 15},
		Value:  []string{"cis-1.23", "cis"},
		Source: "rancher/rke2 dd5a11fca and its backports (the generic cis profile); pkg/cli/cmds/root.go validateProfile",
		Tags:   "v1.28.2+rke2r1, v1.27.7+rke2r1, v1.26.10+rke2r1, v1.25.15+rke2r1, v1.29.0+rke2r1"},

	// flannel-backend values that stopped working: pkg/agent/flannel/setup.go
	// createFlannelConf, which runs when the agent part of k3s sets up flannel (after the
	// server part has started), so k3s starts and then exits.
	{Product: "k3s", Name: "flannel-backend wireguard", From: "v1.26.0", Until: "v1.27.1",
		Value:  []string{"The wireguard backend was deprecated in K3s v1.26, please switch to wireguard-native. Check our docs at docs.k3s.io/installation/network-options for information about how to migrate."},
		Source: "k3s-io/k3s d72377579 \"Remove deprecated flags in v1.26\" (#6574), pkg/agent/flannel/setup.go logrus.Fatalf",
		Tags:   "rancher/rke2 v1.26.0+rke2r1 names k3s f8b661d590ec, which has d72377579 (v1.25.4+rke2r1's 13c633da1268 not); v1.27.1+rke2r1 names 944f811dc itself"},
	{Product: "k3s", Name: "flannel-backend wireguard", From: "v1.27.1",
		Value:  []string{"Cannot configure unknown flannel backend 'wireguard'"},
		Source: "k3s-io/k3s 944f811dc \"v1.27.1 CLI Deprecation\" (#7311) removed the wireguard case; pkg/agent/flannel/setup.go default case",
		Tags:   "rancher/rke2 v1.27.1+rke2r1 names k3s 944f811dc (v1.26.4+rke2r1's 027cc187ce9f does not have it)"},
	{Product: "k3s", Name: "flannel-backend ipsec", From: "v1.27.1", Until: "v1.28.0",
		Value:  []string{"The ipsec backend is deprecated and was removed in k3s v1.27; please switch to wireguard-native. Check our docs for information on how to migrate."},
		Source: "k3s-io/k3s 944f811dc \"v1.27.1 CLI Deprecation\" (#7311), pkg/agent/flannel/setup.go logrus.Fatal",
		Tags:   "rancher/rke2 v1.27.1+rke2r1 (k3s 944f811dc) to v1.27.4+rke2r1 (k3s 2eddfe6cf4e6, without ced330c66)"},
	{Product: "k3s", Name: "flannel-backend ipsec", From: "v1.28.0",
		Value:  []string{"Cannot configure unknown flannel backend 'ipsec'"},
		Source: "k3s-io/k3s ced330c66 \"[v1.28] CLI Removal for v1.28.0\" (#8203), pkg/agent/flannel/setup.go default case",
		Tags:   "rancher/rke2 v1.28.1+rke2r1, the first 1.28 tag, names k3s 0d23cfe038ef, which has ced330c66"},
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
