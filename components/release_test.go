package components_test

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestRKE2IngressDefaultByRelease: RKE2's default ingress controller is release data
// (profile's release facts): ingress-nginx before v1.36.0 (rancher/rke2 003f022f8), and no
// traefik chart at all before v1.31 (76d4fb3bf).
func TestRKE2IngressDefaultByRelease(t *testing.T) {
	tests := []struct {
		name, reason, version string
		nginx, traefik        components.State
	}{
		{"v1.30", "issue 20: --k3s-version v1.30.5+rke2r1 components said traefik", "v1.30.5+rke2r1", components.Enabled, components.Disabled},
		{"v1.35", "the flag's default was still ingress-nginx", "v1.35.8+rke2r1", components.Enabled, components.Disabled},
		{"v1.36", "traefik from v1.36.0", "v1.36.0+rke2r1", components.Disabled, components.Enabled},
		{"newest", "no version: the newest release", "", components.Disabled, components.Enabled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/etc/rancher/rke2/config.yaml", nil, 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs, Profile: profile.RKE2(), Command: "server", Version: tc.version})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]components.State{}
			for _, c := range components.Inspect(fs, res).Components {
				got[c.Name] = c.State
			}
			if got["rke2-ingress-nginx"] != tc.nginx || got["rke2-traefik"] != tc.traefik {
				t.Errorf("%s: ingress-nginx %q traefik %q, want %q %q", tc.reason, got["rke2-ingress-nginx"], got["rke2-traefik"], tc.nginx, tc.traefik)
			}
		})
	}
}
