package resolve_test

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestClusterDNSInServiceRange: the kube-dns Service takes cluster-dns as its clusterIP, so
// an address outside every service-cidr leaves the cluster without DNS although k3s starts
// (vitobotta/hetzner-k3s#351; testdata/realworld/k3s-cluster-dns-outside-service-cidr).
func TestClusterDNSInServiceRange(t *testing.T) {
	tests := []struct {
		name, config, product string
		want                  bool
		reason                string
	}{
		{"outside", "service-cidr: 10.10.0.0/16\ncluster-dns: 10.43.0.10\n", "", true, "the default DNS address kept after moving the range"},
		{"inside", "service-cidr: 10.10.0.0/16\ncluster-dns: 10.10.0.10\n", "", false, "inside the range"},
		{"default-range", "cluster-dns: 10.96.0.10\n", "", true, "no service-cidr: the range is 10.43.0.0/16"},
		{"default-range-inside", "cluster-dns: 10.43.0.53\n", "", false, "inside the default range"},
		{"no-cluster-dns", "service-cidr: 10.10.0.0/16\n", "", false, "k3s derives the 10th address itself"},
		{"coredns-disabled", "service-cidr: 10.10.0.0/16\ncluster-dns: 169.254.20.10\ndisable: [coredns]\n", "", false, "a DNS of one's own may listen anywhere"},
		{"rke2-coredns-disabled", "service-cidr: 10.10.0.0/16\ncluster-dns: 169.254.20.10\ndisable: [rke2-coredns]\n", "rke2", false, "RKE2's chart name"},
		{"rke2-outside", "service-cidr: 10.10.0.0/16\ncluster-dns: 10.43.0.10\n", "rke2", true, "RKE2's chart takes the same value"},
		{"ipv6-no-v6-range", "cluster-dns: fd00::10\n", "", false, "no IPv6 service range to judge against"},
		{"dual-stack-outside", "service-cidr: 10.43.0.0/16,fd00:43::/112\ncluster-dns: 10.43.0.10,fd00:99::a\n", "", true, "the IPv6 address is outside the IPv6 range"},
		{"unparsable", "service-cidr: 10.10.0.0/16\ncluster-dns: nope\n", "", false, "k3s's own refusal (server-flag-invalid), not this"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			dir := "/etc/rancher/k3s/"
			opts := resolve.Options{FS: fs, Command: "server"}
			if tc.product == "rke2" {
				dir = "/etc/rancher/rke2/"
				opts.Profile, _ = profile.ByName("rke2")
			}
			_ = afero.WriteFile(fs, dir+"config.yaml", []byte(tc.config), 0o644)
			res, err := resolve.Resolve(opts)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, d := range res.Diagnostics {
				if d.Code == "cluster-dns-outside-service-cidr" {
					got = true
					if d.Severity != diag.Warning || d.Pos.IsZero() {
						t.Errorf("%s: %s at %v, want a warning with a position", tc.reason, d.Severity, d.Pos)
					}
				}
			}
			if got != tc.want {
				t.Errorf("%s: finding = %v, want %v (%v)", tc.reason, got, tc.want, res.Diagnostics)
			}
		})
	}
}

// TestUnknownKeyOfAnotherCommand: a key that is another command's flag in a shared config is
// a note (nothing is lost: k3s-io/k3s#10292), unless this command knows the same flag under
// another long name (etcd-snapshot's snapshot-compress is the server's
// etcd-snapshot-compress, k3s-io/k3s#6863): then a warning whose fix is the rename.
// One-letter aliases (server -t token, etcd-snapshot -t etcd-token) are not the same flag.
func TestUnknownKeyOfAnotherCommand(t *testing.T) {
	tests := []struct {
		name, command, config string
		sev                   diag.Severity
		hint                  string
	}{
		{"server-snapshot-compress", "server", "snapshot-compress: true\n", diag.Warning, "rename the key to etcd-snapshot-compress"},
		{"snapshot-schedule-cron", "etcd-snapshot", "etcd-snapshot-schedule-cron: \"0 */6 * * *\"\n", diag.Info, "harmless here"},
		{"snapshot-token-short-alias", "etcd-snapshot", "token: K10abc::server:def\n", diag.Info, "harmless here"},
		{"server-unknown-everywhere", "server", "resolve-conf: /etc/resolv.conf\n", diag.Warning, "resolv-conf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(tc.config), 0o644)
			_ = afero.WriteFile(fs, "/var/lib/rancher/k3s/server/token", []byte("K10abc::server:def\n"), 0o600)
			args := []string{tc.command}
			if tc.command == "etcd-snapshot" {
				args = append(args, "save")
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs, Args: args})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range res.Diagnostics {
				if d.Code != "config-unknown-key" {
					continue
				}
				found = true
				if d.Severity != tc.sev {
					t.Errorf("severity %s, want %s: %s", d.Severity, tc.sev, d.Message)
				}
				if !contains(d.Hint, tc.hint) {
					t.Errorf("fix %q, want it to contain %q", d.Hint, tc.hint)
				}
			}
			if !found {
				t.Errorf("no config-unknown-key: %v", res.Diagnostics)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
