package nodereport_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/resolve"
)

func TestNormalizeSecret(t *testing.T) {
	tests := []struct {
		name, reason, key, value, want string
	}{
		{"bare", "a bare password is the password (pkg/clientaccess/token.go parseToken)", "token", "s3cret", "s3cret"},
		{"full-k10", "K10<hash>::server:<password> compares by its password", "token", "K10abc123::server:s3cret", "s3cret"},
		{"k10-no-hash", "the CA hash may be empty", "token", "K10::server:s3cret", "s3cret"},
		{"agent-node-user", "agent tokens carry the node user", "agent-token", "K10abc::node:pw", "pw"},
		{"k10-no-creds-separator", "a K10 prefix without :: is taken as it is", "token", "K10abc", "K10abc"},
		{"bootstrap-token", "a kubeadm bootstrap token has no user: kept whole", "token", "K10abc::abcdef.0123456789abcdef", "abcdef.0123456789abcdef"},
		{"other-key", "only tokens are normalised", "datastore-endpoint", "K10abc::server:x", "K10abc::server:x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nodereport.NormalizeSecret(tc.key, tc.value); got != tc.want {
				t.Errorf("NormalizeSecret(%q, %q) = %q, want %q (%s)", tc.key, tc.value, got, tc.want, tc.reason)
			}
		})
	}
}

func TestFingerprint(t *testing.T) {
	a := nodereport.Fingerprint("salt1", "token", "K10abc::server:s3cret")
	if b := nodereport.Fingerprint("salt1", "token", "s3cret"); a != b {
		t.Errorf("the full and the bare form of one token differ: %s %s", a, b)
	}
	if b := nodereport.Fingerprint("salt2", "token", "s3cret"); a == b {
		t.Errorf("different salts give the same fingerprint %s", a)
	}
	if b := nodereport.Fingerprint("salt1", "agent-token", "s3cret"); a != b {
		t.Errorf("token and agent-token fingerprint alike so agents' tokens compare with servers' agent-tokens")
	}
	if b := nodereport.Fingerprint("salt1", "datastore-endpoint", "s3cret"); a == b {
		t.Errorf("the key name is not part of the fingerprint")
	}
	if len(a) != 16 || strings.Contains(a, "s3cret") {
		t.Errorf("fingerprint %q: want 16 hex digits", a)
	}
	if nodereport.SaltID("salt1") == nodereport.SaltID("salt2") || strings.Contains(nodereport.SaltID("salt1"), "salt1") {
		t.Errorf("salt ids do not tell salts apart or reveal them")
	}
}

func TestSecretFingerprints(t *testing.T) {
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte("token: K10aa::server:pw\ndatastore-endpoint: postgres://u:p@db/k3s\ncluster-cidr: 10.42.0.0/16\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: fs, Command: "server"})
	if err != nil {
		t.Fatal(err)
	}
	fp := nodereport.SecretFingerprints(res, "s")
	if len(fp) != 2 || fp["token"] != nodereport.Fingerprint("s", "token", "pw") || fp["datastore-endpoint"] == "" {
		t.Errorf("fingerprints %v: want token and datastore-endpoint only", fp)
	}
}
