package profile

import (
	"fmt"
	"strings"
	"testing"
)

// TestReleasesMarkChanges: each listed change is a release whose Behaviour differs from the
// release before it in its line (for .0 releases: the newest patch of the line before).
func TestReleasesMarkChanges(t *testing.T) {
	for _, p := range []*Profile{K3s(), RKE2()} {
		for _, v := range behaviourChanges[1:] {
			before := Version{v.Major, v.Minor, v.Patch - 1, ""}
			if v.Patch == 0 {
				before = Version{v.Major, v.Minor - 1, 0, ""} // a line without the backport
			}
			at, err := p.Behaviour(vtext(v))
			if err != nil {
				t.Fatal(err)
			}
			was, err := p.Behaviour(vtext(before))
			if err != nil {
				t.Fatal(err)
			}
			at.Version, was.Version = "", ""
			if at == was {
				t.Errorf("%s: Behaviour(%s) = Behaviour(%s) = %+v; %s is not a change: remove it from behaviourChanges", p.Name, vtext(v), vtext(before), at, vtext(v))
			}
		}
		if _, err := p.Behaviour(OldestModelled); err != nil {
			t.Errorf("%s: the oldest modelled release %s is refused: %v", p.Name, OldestModelled, err)
		}
		if _, err := p.Behaviour("v1.22.3"); err == nil {
			t.Errorf("%s: v1.22.3 is accepted, so OldestModelled is out of date", p.Name)
		}
	}
}

func TestReleases(t *testing.T) {
	tests := []struct {
		name, product, want, reason string
	}{
		{"k3s", "k3s", "v1.36.4+k3s1 v1.33.0+k3s1 v1.32.4+k3s1 v1.32.3+k3s1 v1.31.8+k3s1 v1.31.7+k3s1 v1.31.0+k3s1 v1.30.3+k3s1 v1.30.2+k3s1 v1.29.7+k3s1 v1.29.6+k3s1 v1.28.12+k3s1 v1.28.11+k3s1 v1.27.16+k3s1 v1.27.15+k3s1 v1.27.2+k3s1 v1.27.1+k3s1 v1.26.5+k3s1 v1.26.4+k3s1 v1.25.10+k3s1 v1.25.9+k3s1 v1.24.0+k3s1 v1.22.4+k3s1",
			"newest first; each change with the release before it in its line"},
		{"rke2", "rke2", "v1.36.4+rke2r1", "RKE2 spelling"},
	}
	for _, tc := range tests {
		p, err := ByName(tc.product)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(p.Releases(), " ")
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: Releases() = %s, want prefix %s (%s)", tc.name, got, tc.want, tc.reason)
		}
		for _, r := range p.Releases() {
			if _, err := p.Behaviour(r); err != nil {
				t.Errorf("%s: %s is listed but refused: %v", tc.name, r, err)
			}
		}
	}
}

func vtext(v Version) string { return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch) }
