package report

import (
	"testing"

	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
)

// TestSecretNameProfiles: for every flag of the k3s and RKE2 profiles the name rule
// (output.SecretName) agrees with the profile's secret flags, but for the listed names (the
// profile decides for its own flags; the rule is for names no profile lists). No flag that
// is not secret is a typo of a secret one (the typo rule would hide its value), and a typo
// of every secret flag is caught by a redactor that knows no node (its default secret flags
// are the profiles').
func TestSecretNameProfiles(t *testing.T) {
	exceptions := map[string]string{
		"t":                     "the alias of token: secret by the profile",
		"datastore-endpoint":    "a URL: only its password is secret (urlValuedName)",
		"etcd-s3-config-secret": "names a Kubernetes Secret holding the S3 settings: the name is shown",
		"s3-config-secret":      "etcd-snapshot's spelling of etcd-s3-config-secret",
	}
	r := output.NewTextRedactor(false)
	checked := 0
	for _, p := range []*profile.Profile{profile.K3s(), profile.RKE2()} {
		for _, c := range p.Commands {
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					checked++
					if _, ok := exceptions[n]; !ok && output.SecretName(n) != f.Secret {
						t.Errorf("%s %s --%s: SecretName %v, the profile says secret=%v", p.Name, c.Name, n, output.SecretName(n), f.Secret)
					}
					in := "--" + n + " x1y2z3"
					got := r.Scrub(in)
					if _, ok := exceptions[n]; !ok && !f.Secret && f.Type != profile.Bool && got != in {
						t.Errorf("%s %s --%s is not secret but its value is hidden (a typo of a secret flag by the typo rule?): %q", p.Name, c.Name, n, got)
					}
					if f.Secret && len(n) > 4 && n != "datastore-endpoint" {
						typo := n[:len(n)-2] + n[len(n)-1:] + n[len(n)-2:len(n)-1]
						if got := r.Scrub("--" + typo + " x1y2z3"); got != "--"+typo+" REDACTED" {
							t.Errorf("%s %s: the typo --%s of a secret flag keeps its value: %q", p.Name, c.Name, typo, got)
						}
					}
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d flag names checked", checked)
	}
}
