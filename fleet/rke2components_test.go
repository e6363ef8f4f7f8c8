package fleet_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/fleet"
)

// TestRKE2IngressByRelease: an RKE2 server that disables rke2-ingress-nginx while the others
// deploy it by default is a component-differs finding on every release that deploys it by
// default (issue 29): before v1.31 (no ingress-controller flag), v1.31 to v1.35 (the flag's
// default), and from v1.36 where a server keeps it when its HelmChart is already deployed.
// Disabled on all servers, it is quiet.
func TestRKE2IngressByRelease(t *testing.T) {
	for _, tc := range []struct {
		version, reason string
		disableAll      bool
		want            string
	}{
		{"v1.30.5+rke2r1", "no ingress-controller flag: rke2-ingress-nginx always", false, "rke2-ingress-nginx is deployed by a, b but not by c"},
		{"v1.33.1+rke2r1", "the flag's default is ingress-nginx", false, "rke2-ingress-nginx is deployed by a, b but not by c"},
		{"v1.36.0+rke2r1", "traefik by default, ingress-nginx where already deployed", false, "rke2-ingress-nginx (kept by default where its HelmChart is already deployed) is deployed by a, b but not by c"},
		{"v1.30.5+rke2r1", "disabled on every server: quiet", true, ""},
		{"v1.36.0+rke2r1", "disabled on every server: quiet", true, ""},
	} {
		dir := t.TempDir()
		var paths []string
		for _, n := range []string{"a", "b", "c"} {
			cfg := "token: sharedsecret\nnode-name: " + n + "\n"
			if n != "a" {
				cfg += "server: https://a:9345\n"
			}
			if n == "c" || tc.disableAll {
				cfg += "disable: [rke2-ingress-nginx]\n"
			}
			for p, c := range map[string]string{
				"etc/rancher/rke2/config.yaml":                     cfg,
				"usr/local/lib/systemd/system/rke2-server.service": "[Service]\nExecStart=/usr/local/bin/rke2 server\n",
			} {
				full := filepath.Join(dir, n, p)
				_ = os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			paths = append(paths, filepath.Join(dir, n))
		}
		l := &fleet.Loader{Version: tc.version}
		var nodes []*fleet.Node
		for _, p := range paths {
			ns, bad := l.Path(p)
			if len(bad) > 0 {
				t.Fatalf("%s: %v", p, bad)
			}
			nodes = append(nodes, ns...)
		}
		var got []string
		for _, f := range fleet.Analyze(nodes, nil).Findings {
			if f.Code == "component-differs" {
				got = append(got, f.Message)
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s (%s): want quiet, got %q", tc.version, tc.reason, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s (%s): got %q, want one finding containing %q", tc.version, tc.reason, got, tc.want)
		}
	}
}
