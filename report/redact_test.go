package report

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
