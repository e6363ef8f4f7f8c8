package profile

import (
	"os"
	"strings"
	"testing"
)

func TestFactAt(t *testing.T) {
	tests := []struct {
		name, reason  string
		product, fact string
		version, want string // want: the first value, "" for no row
	}{
		{"rke2 1.30 ingress", "before the flag RKE2 always deploys ingress-nginx (76d4fb3bf in release-1.31)", "rke2", "default ingress-controller", "v1.30.5+rke2r1", "ingress-nginx"},
		{"rke2 1.35 ingress", "the flag's default was ingress-nginx until 003f022f8, which release-1.35 does not contain", "rke2", "default ingress-controller", "v1.35.8+rke2r1", "ingress-nginx"},
		{"rke2 1.36.0 ingress", "traefik from the first 1.36 release", "rke2", "default ingress-controller", "v1.36.0+rke2r1", "traefik"},
		{"rke2 newest ingress", "no version: the newest release", "rke2", "default ingress-controller", "", "traefik"},
		{"rke2 1.34.4 guard", "the ExecCondition backport came in v1.34.5", "rke2", "unit guard", "v1.34.4+rke2r1", "Conflicts"},
		{"rke2 1.34.5 guard", "backported edef34d59", "rke2", "unit guard", "v1.34.5+rke2r1", "ExecCondition"},
		{"rke2 1.31 guard", "release-1.31 never got the backport", "rke2", "unit guard", "v1.31.9+rke2r1", "Conflicts"},
		{"k3s 1.25 wireguard", "the wireguard backend still worked (deprecated) before v1.26", "k3s", "flannel-backend wireguard", "v1.25.9+k3s1", ""},
		{"k3s 1.26 wireguard", "d72377579: fatal with a migration message", "k3s", "flannel-backend wireguard", "v1.26.4+k3s1", "The wireguard backend was deprecated in K3s v1.26, please switch to wireguard-native. Check our docs at docs.k3s.io/installation/network-options for information about how to migrate."},
		{"k3s newest wireguard", "the case is gone: unknown backend", "k3s", "flannel-backend wireguard", "", "Cannot configure unknown flannel backend 'wireguard'"},
		{"rke2 reads k3s rows", "RKE2 runs k3s's agent code", "rke2", "flannel-backend ipsec", "v1.27.3+rke2r1", "The ipsec backend is deprecated and was removed in k3s v1.27; please switch to wireguard-native. Check our docs for information on how to migrate."},
		{"k3s has no rke2 rows", "the ingress default is RKE2's", "k3s", "default ingress-controller", "v1.30.5+k3s1", ""},
		// Each boundary on both sides, dated by tags (issue 29).
		{"rke2 1.29.15 cis-1.23", "release-1.29 only warns (v1.29.15+rke2r1)", "rke2", "profile cis-1.23", "v1.29.15+rke2r1", ""},
		{"rke2 1.30.0 cis-1.23", "v1.30.0+rke2r1 already has ebe1d35db", "rke2", "profile cis-1.23", "v1.30.0+rke2r1", "cis-1.23 profile is deprecated. Please use 'cis' instead."},
		{"rke2 1.30.13 cis-1.23", "the last 1.30 tag before d736f9699's backport", "rke2", "profile cis-1.23", "v1.30.13+rke2r1", "cis-1.23 profile is deprecated. Please use 'cis' instead."},
		{"rke2 1.30.14 cis-1.23", "d736f9699's backport", "rke2", "profile cis-1.23", "v1.30.14+rke2r1", "invalid value provided for --profile flag"},
		{"rke2 1.33.1 cis-1.23", "before the backport on 1.33", "rke2", "profile cis-1.23", "v1.33.1+rke2r1", "cis-1.23 profile is deprecated. Please use 'cis' instead."},
		{"rke2 1.33.2 cis-1.23", "the backport on 1.33", "rke2", "profile cis-1.23", "v1.33.2+rke2r1", "invalid value provided for --profile flag"},
		{"rke2 1.34.0 cis-1.23", "every 1.34 release", "rke2", "profile cis-1.23", "v1.34.0+rke2r1", "invalid value provided for --profile flag"},
		{"rke2 1.32.12 guard", "v1.32.12+rke2r1 does not have 56fc188fe", "rke2", "unit guard", "v1.32.12+rke2r1", "Conflicts"},
		{"rke2 1.32.13 guard", "v1.32.13+rke2r1 has it", "rke2", "unit guard", "v1.32.13+rke2r1", "ExecCondition"},
		{"rke2 1.35.1 guard", "before the 1.35 backport", "rke2", "unit guard", "v1.35.1+rke2r1", "Conflicts"},
		{"rke2 1.35.2 guard", "the 1.35 backport", "rke2", "unit guard", "v1.35.2+rke2r1", "ExecCondition"},
		{"rke2 1.31.0 ingress", "v1.31.0+rke2r1 has the flag, default ingress-nginx", "rke2", "default ingress-controller", "v1.31.0+rke2r1", "ingress-nginx"},
		{"k3s 1.26.0 wireguard", "v1.26.0: fatal", "k3s", "flannel-backend wireguard", "v1.26.0+k3s1", "The wireguard backend was deprecated in K3s v1.26, please switch to wireguard-native. Check our docs at docs.k3s.io/installation/network-options for information about how to migrate."},
		{"k3s 1.27.0 ipsec", "ipsec still worked before v1.27.1", "k3s", "flannel-backend ipsec", "v1.27.0+k3s1", ""},
		{"k3s 1.27.1 ipsec", "944f811dc in v1.27.1", "k3s", "flannel-backend ipsec", "v1.27.1+k3s1", "The ipsec backend is deprecated and was removed in k3s v1.27; please switch to wireguard-native. Check our docs for information on how to migrate."},
		{"rke2 1.24.17 profiles", "cis-1.6 is valid before v1.25", "rke2", "profile values", "v1.24.17+rke2r1", "cis-1.5"},
		{"rke2 1.25.0 profiles", "v1.25 knows cis-1.23 only", "rke2", "profile values", "v1.25.0+rke2r1", "cis-1.23"},
		{"rke2 1.25.15 profiles", "the generic cis profile's backport", "rke2", "profile values", "v1.25.15+rke2r1", "cis-1.23"},
		{"rke2 1.28.1 profiles", "before dd5a11fca on main", "rke2", "profile values", "v1.28.1+rke2r1", "cis-1.23"},
		{"rke2 1.30.0 profiles", "v1.30: cis first", "rke2", "profile values", "v1.30.0+rke2r1", "cis"},
		{"k3s 1.28.0 ipsec", "ced330c66: unknown backend", "k3s", "flannel-backend ipsec", "v1.28.0+k3s1", "Cannot configure unknown flannel backend 'ipsec'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := ByName(tc.product)
			got := ""
			if f := p.FactAt(tc.fact, tc.version); f != nil {
				got = f.Value[0]
			}
			if got != tc.want {
				t.Errorf("%s (%s): got %q, want %q", tc.name, tc.reason, got, tc.want)
			}
		})
	}
}

func TestReleaseFactsHaveSources(t *testing.T) {
	for _, f := range releaseFacts {
		if f.Tags == "" {
			t.Errorf("row %s from %s: no tag dates it (issue 29)", f.Name, f.From)
		}
		if f.Source == "" || len(f.Value) == 0 || f.Name == "" {
			t.Errorf("row %+v: every row needs a name, a value and a source", f)
		}
		for _, r := range []string{f.From, f.Until} {
			if _, err := ParseVersion(r); r != "" && err != nil {
				t.Errorf("row %s: %v", f.Name, err)
			}
		}
	}
}

// TestReleaseFactsDocumented keeps docs/real-world.md's release-facts table in step.
func TestReleaseFactsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/real-world.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, f := range releaseFacts {
		row := "| " + f.Product + " | " + f.Name + " |"
		if !strings.Contains(doc, row) {
			t.Errorf("docs/real-world.md has no row %q", row)
		}
	}
}
