package output

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSecretParts(t *testing.T) {
	tests := []struct {
		name, reason, flag, value string
		want                      []string
	}{
		{"token", "a token is secret as a whole", "token", "K10abc::server:xyz", []string{"K10abc::server:xyz"}},
		{"mysql-dsn", "only the password of a mysql DSN", "datastore-endpoint", "mysql://k3s:p4ss@tcp(db:3306)/k3s", []string{"p4ss"}},
		{"postgres-url", "only the password of a postgres URL", "datastore-endpoint", "postgres://u:s3cret@db:5432/k3s?sslmode=disable", []string{"s3cret"}},
		{"bare-dsn", "a mysql DSN without scheme", "datastore-endpoint", "u:pw@tcp(db)/k3s", []string{"pw"}},
		{"kv-password", "password= inside a DSN", "datastore-endpoint", "host=db user=u password=hunter2 dbname=k3s", []string{"hunter2"}},
		{"etcd-url", "an etcd endpoint without credentials has nothing secret", "datastore-endpoint", "https://10.0.0.1:2379", nil},
		{"proxy", "a proxy URL's password", "HTTPS_PROXY", "http://user:pw%40x@proxy:3128", []string{"pw%40x", "pw@x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, secretParts(tc.flag, tc.value)); diff != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRedactorValue(t *testing.T) {
	r := &Redactor{on: true}
	if got := r.Value("token", "abc"); got != Redacted {
		t.Errorf("a short token is still redacted as a value: %q", got)
	}
	if got := r.Value("datastore-endpoint", "mysql://k3s:p4ss@tcp(db:3306)/k3s"); got != "mysql://k3s:"+Redacted+"@tcp(db:3306)/k3s" {
		t.Errorf("only the password is hidden: %q", got)
	}
	off := &Redactor{}
	if got := off.Value("token", "abc"); got != "abc" {
		t.Errorf("--show-secrets shows values: %q", got)
	}
}

// TestRedactURL: URLs and DSNs keep scheme, user, host and database; only the password and
// secret-bearing parameters go (issue 16: a password equal to the user and scheme turned
// the whole endpoint into REDACTED://REDACTED:REDACTED@…).
func TestRedactURL(t *testing.T) {
	tests := []struct{ name, reason, in, want string }{
		{"same-words", "a password that spells the scheme and user hides only the password",
			"postgres://postgres:postgres@db:5432/postgres?sslmode=disable", "postgres://postgres:REDACTED@db:5432/postgres?sslmode=disable"},
		{"mysql-tcp", "mysql DSN with tcp()", "mysql://k3s:k3s@tcp(10.0.0.5:3306)/k3s", "mysql://k3s:REDACTED@tcp(10.0.0.5:3306)/k3s"},
		{"bare-dsn", "DSN without scheme", "u:pw@tcp(db)/k3s", "u:REDACTED@tcp(db)/k3s"},
		{"at-in-password", "the last @ before the host separates userinfo", "postgres://u:p@ss@db/k3s", "postgres://u:REDACTED@db/k3s"},
		{"query-token", "a token in the query", "https://etcd:2379/?token=abc&x=1", "https://etcd:2379/?token=REDACTED&x=1"},
		{"kv", "password= in a key/value DSN", "host=db user=u password=hunter2 dbname=k3s", "host=db user=u password=REDACTED dbname=k3s"},
		{"user-only", "a user without password is not secret", "postgres://u@db/k3s", "postgres://u@db/k3s"},
		{"no-creds", "nothing secret", "https://10.0.0.1:2379", "https://10.0.0.1:2379"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := redactURL(tc.in); got != tc.want {
				t.Errorf("%s: redactURL(%q) = %q, want %q", tc.reason, tc.in, got, tc.want)
			}
		})
	}
	// Scrub replaces the whole endpoint by its redacted form wherever it appears in text.
	r := NewTextRedactor(false)
	v := "postgres://postgres:postgres@db/postgres"
	r.whole[v], r.secrets = redactURL(v), []string{v}
	if got, want := r.Scrub("endpoint "+v+" unreachable"), "endpoint postgres://postgres:REDACTED@db/postgres unreachable"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}
