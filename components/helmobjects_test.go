package components_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestUnmatchedConfigDidYouMean: the hint of component-helmchartconfig-unmatched names the
// HelmChart meant, by namespace when the name matches, else by a near name.
func TestUnmatchedConfigDidYouMean(t *testing.T) {
	const m = "/var/lib/rancher/k3s/server/manifests/"
	for _, tc := range []struct {
		name, reason, ns, cfgName, want string
	}{
		{"wrong-namespace", "the name matches k3s's traefik in kube-system", "default", "traefik", "set metadata.namespace: kube-system"},
		{"config-suffix", "traefik-config is the file's name, not the chart's", "default", "traefik-config", "did you mean kube-system/traefik?"},
		{"typo", "a near name in the right namespace", "kube-system", "traefk", "did you mean kube-system/traefik?"},
		{"unrelated", "nothing near: the generic rule", "kube-system", "monitoring", "must have the same metadata.name and metadata.namespace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, m+"cfg.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: "+tc.cfgName+"\n  namespace: "+tc.ns+"\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			rep := components.Inspect(fs, res)
			for _, d := range rep.Diagnostics {
				if d.Code == "component-helmchartconfig-unmatched" {
					if !strings.Contains(d.Hint, tc.want) {
						t.Errorf("%s: hint %q, want it to contain %q", tc.reason, d.Hint, tc.want)
					}
					return
				}
			}
			t.Errorf("%s: no component-helmchartconfig-unmatched in %v", tc.reason, rep.Diagnostics)
		})
	}
}

// TestUnknownKindNotApplied: issue 20 — a manifest whose object has a kind k3s's API group
// lacks (HelmChat) was reported as applied.
func TestUnknownKindNotApplied(t *testing.T) {
	const m = "/var/lib/rancher/k3s/server/manifests/"
	for _, tc := range []struct {
		name, reason, kind string
		applied            bool
	}{
		{"typo", "HelmChat is not a kind of helm.cattle.io", "HelmChat", false},
		{"right", "HelmChart is", "HelmChart", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, m+"app.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: "+tc.kind+"\nmetadata:\n  name: app\n  namespace: kube-system\nspec:\n  chart: app\n  repo: https://example.com\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			rep := components.Inspect(fs, res)
			for _, c := range rep.Components {
				if c.Name != "app" {
					continue
				}
				applied := strings.HasPrefix(c.Reasons[0], "applied as the AddOn app")
				if applied != tc.applied {
					t.Errorf("%s: reasons %q", tc.reason, c.Reasons)
				}
				return
			}
			t.Errorf("%s: no AddOn app in %v", tc.reason, rep.Components)
		})
	}
}

// TestUnmatchedConfigNamesTheProduct: on RKE2 the unmatched HelmChartConfig's message names
// RKE2's own packaged charts, not k3s's traefik (it said "k3s's packaged charts" on every
// product); on k3s it still names the traefik pair.
func TestUnmatchedConfigNamesTheProduct(t *testing.T) {
	for _, tc := range []struct {
		name, unit, exec, manifests string
		want, wantNot               []string
	}{
		{"rke2", "rke2-server.service", "/usr/local/bin/rke2 server", "/var/lib/rancher/rke2/server/manifests/",
			[]string{"among rke2's packaged charts (kube-system/rke2-", "in all in kube-system"}, []string{"k3s", "traefik"}},
		{"k3s", "k3s.service", "/usr/local/bin/k3s server", "/var/lib/rancher/k3s/server/manifests/",
			[]string{"among k3s's packaged charts (kube-system/traefik, kube-system/traefik-crd)"}, []string{"rke2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/"+tc.unit, []byte("[Service]\nExecStart="+tc.exec+"\n"), 0o644)
			afero.WriteFile(fs, tc.manifests+"cfg.yaml", []byte("apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: monitoring\n  namespace: kube-system\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range components.Inspect(fs, res).Diagnostics {
				if d.Code != "component-helmchartconfig-unmatched" {
					continue
				}
				for _, w := range tc.want {
					if !strings.Contains(d.Message, w) {
						t.Errorf("message %q lacks %q", d.Message, w)
					}
				}
				for _, w := range tc.wantNot {
					if strings.Contains(d.Message+d.Hint, w) {
						t.Errorf("message %q / hint %q names %q", d.Message, d.Hint, w)
					}
				}
				return
			}
			t.Error("no component-helmchartconfig-unmatched")
		})
	}
}
