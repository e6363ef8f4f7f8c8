package output

import (
	"encoding/base64"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestString: the one rule for a value under a name, by name, by content and as a copy,
// and the values it must leave alone.
func TestString(t *testing.T) {
	r := NewTextRedactor(false)
	r.addSecret("agent-token", "K10abc::Srv")
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n"
	tests := []struct{ name, key, in, want, reason string }{
		{"name", "password", "hunter2", "REDACTED", "a secret name hides the value whole"},
		{"name-switch", "password", "true", "true", "a switch is no secret"},
		{"name-path", "client_key", "/etc/ssl/c.key", "/etc/ssl/c.key", "a *key holding a file path"},
		{"cyrillic-name", "tоken", "abc", "REDACTED", "a key spelt with a Cyrillic о is read as token"},
		{"url-name", "http_proxy", "http://u:pw@p:3128", "http://u:REDACTED@p:3128", "a URL-valued name: only its password"},
		{"dsn", "url", "postgres://app:pw@db/app", "postgres://app:REDACTED@db/app", "URL userinfo in a plain key"},
		{"query", "url", "https://h/x?token=abc&ch=ops", "https://h/x?token=REDACTED&ch=ops", "a secret query parameter"},
		{"access-token", "url", "https://h/y?a=1&access_token=abc", "https://h/y?a=1&access_token=REDACTED", "access_token ends with token"},
		{"kv-dsn", "dsn", "host=db user=app password=secret dbname=app", "host=db user=app password=REDACTED dbname=app", "password= in a key=value DSN, a word too"},
		{"conn-string", "c", "Server=db;User Id=sa;Password=word;", "Server=db;User Id=sa;Password=REDACTED;", "Password=…; in a connection string"},
		{"ini-blanks", "ini", "[security]\nadmin_user = admin\nadmin_password = word\n", "[security]\nadmin_user = admin\nadmin_password = REDACTED\n", "NAME = VALUE with blanks"},
		{"config-colon", "config", "region: eu\nsecret_access_key: word\n", "region: eu\nsecret_access_key: REDACTED\n", "NAME: VALUE line in a config string"},
		{"pem", "key", pem, "-----BEGIN RSA PRIVATE KEY-----\nREDACTED\n-----END RSA PRIVATE KEY-----\n", "a PEM private key under a bare key"},
		{"pem-json", "sa", `{"private_key_id": "0123", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}`,
			`{"private_key_id": "0123", "private_key": "REDACTED REDACTED REDACTED REDACTED REDACTED"}`, "a service-account JSON's private_key (the PEM body, then the quoted value of a *_key key word by word); its id stays"},
		{"pem-b64", "keyB64", base64.StdEncoding.EncodeToString([]byte(pem)), "REDACTED", "base64 of a PEM key"},
		{"ini-b64", "iniB64", base64.StdEncoding.EncodeToString([]byte("user = app\npassword = word\n")), "REDACTED", "base64 of ini text with a password"},
		{"b64-plain", "data", base64.StdEncoding.EncodeToString([]byte("user = app\nlevel = info\n")), base64.StdEncoding.EncodeToString([]byte("user = app\nlevel = info\n")), "base64 of nothing secret stays"},
		{"flag-blank", "kubelet-arg", "--registry-password word", "--registry-password REDACTED", "a secret flag and its value in one item"},
		{"blank-eq", "kube-apiserver-arg", "oidc-client-secret = word", "oidc-client-secret = REDACTED", "NAME = VALUE in a pass-through item"},
		{"copy", "node-name", "K10abc::Srv", "REDACTED", "a copy of a secret value (a YAML alias)"},
		{"copy-lower", "note", "lowercased (K10abc::Srv → k10abc::srv)", "lowercased (REDACTED → REDACTED)", "and its lower-case form"},
		{"cert", "ca", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "a certificate is public"},
		{"plain", "image", "rancher/k3s:v1.31.1-k3s1", "rancher/k3s:v1.31.1-k3s1", "nothing secret"},
		{"url-scheme", "c", "endpoint: https://h:6443", "endpoint: https://h:6443", "a URL after a key is no secret line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.String(tc.key, tc.in); got != tc.want {
				t.Errorf("%s:\n  String(%q, %q)\n  = %q\n want %q", tc.reason, tc.key, tc.in, got, tc.want)
			}
		})
	}
	if got := NewTextRedactor(true).String("password", "hunter2"); got != "hunter2" {
		t.Errorf("--show-secrets: %q", got)
	}
}

// TestData: structured values, with the structures that name a secret elsewhere.
func TestData(t *testing.T) {
	r := NewTextRedactor(false)
	in := map[string]any{
		"env": []any{
			map[string]any{"name": "DB_PASSWORD", "value": "word"},
			map[string]any{"name": "LOG_LEVEL", "value": "info"},
			map[string]any{"name": "API_TOKEN", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "s", "key": "token"}}},
		},
		"extraArgs":   []any{"--token=abc", "--v=2", "--log-format=json"},
		"args":        []any{"--registry-password", "word", "--debug"},
		"smtp":        map[string]any{"password": float64(123456), "port": float64(25)},
		"tolerations": []any{map[string]any{"key": "node-role.kubernetes.io/master", "value": "true"}},
	}
	want := map[string]any{
		"env": []any{
			map[string]any{"name": "DB_PASSWORD", "value": "REDACTED"},
			map[string]any{"name": "LOG_LEVEL", "value": "info"},
			map[string]any{"name": "API_TOKEN", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "s", "key": "token"}}},
		},
		"extraArgs":   []any{"--token=REDACTED", "--v=2", "--log-format=json"},
		"args":        []any{"--registry-password", "REDACTED", "--debug"},
		"smtp":        map[string]any{"password": "REDACTED", "port": float64(25)},
		"tolerations": []any{map[string]any{"key": "node-role.kubernetes.io/master", "value": "true"}},
	}
	if diff := cmp.Diff(want, r.Data("", in)); diff != "" {
		t.Errorf("Data: an env item's value by its name, each list item on its own (three items stay three), a flag item's value, a number under a secret name; a Secret reference and a toleration stay: mismatch (-want +got):\n%s", diff)
	}
	if in["env"].([]any)[0].(map[string]any)["value"] != "word" {
		t.Error("Data changed its input")
	}
	r.LearnData("", in)
	r.Done()
	if got := r.Scrub("the number 123456 and --token abc"); got != "the number REDACTED and --token REDACTED" {
		t.Errorf("LearnData teaches what Data hides: %q", got)
	}
	if got := NewTextRedactor(true).Data("", in); !cmp.Equal(got, in) {
		t.Errorf("--show-secrets: %v", got)
	}
}

// FuzzString: no input makes the redactor panic or return a value that still holds a
// distinctive secret it was taught.
func FuzzString(f *testing.F) {
	for _, s := range []string{"'{", "\"K3S_TOKEN x\"", "a = b", "=", "--x=--token", "-----BEGIN PRIVATE KEY-----", "tоken: x", "\"\xff:"} {
		f.Add("name", s)
	}
	f.Fuzz(func(t *testing.T, name, s string) {
		r := NewTextRedactor(false)
		r.addSecret("token", "Zq9Xw7Vu5Ts3")
		_ = r.Scrub(s)
		_ = r.Arg(s)
		_ = r.Argv([]string{name, s})
		if got := r.String(name, s+" Zq9Xw7Vu5Ts3"); got == s+" Zq9Xw7Vu5Ts3" {
			t.Errorf("String(%q, %q) kept the secret", name, s)
		}
	})
}

// TestFlagValue: the list rule, both ways: a secret flag on its own makes the next item its
// value; a flag that is no secret, carries its value, or is a switch does not.
func TestFlagValue(t *testing.T) {
	r := NewTextRedactor(false)
	r.Flag("token", true, false)
	r.Flag("debug", false, true)
	r.Flag("v", false, false)
	r.Flag("node-label", false, false)
	r.Flag("datastore-endpoint", true, false)
	tests := []struct {
		name, prev, item, want string
		isValue                bool
		reason                 string
	}{
		{"name-rule", "--registry-password", "QQsplit1", "REDACTED", true, "a name the one name rule calls secret"},
		{"one-dash", "-password", "word", "REDACTED", true, "one dash is a flag too"},
		{"catalog", "--token", "word", "REDACTED", true, "a secret flag of the command"},
		{"typo", "--tokne", "word", "REDACTED", true, "a typo of a secret flag"},
		{"url", "--datastore-endpoint", "postgres://u:pw@db/k3s", "postgres://u:REDACTED@db/k3s", true, "a URL-valued flag: only its credentials"},
		{"oidc", "--oidc-client-secret", "x", "REDACTED", true, "kube-apiserver's flag"},
		{"node-label", "--node-label", "foo", "", false, "not secret"},
		{"v", "--v", "2", "", false, "not secret (a flag of the command)"},
		{"v-text", "-v", "2", "", false, "not secret (no flag table)"},
		{"switch", "--debug", "word", "", false, "a switch takes no value"},
		{"eq", "--token=abc", "word", "", false, "the flag carries its value"},
		{"blank", "--registry-password abc", "word", "", false, "the flag carries its value after a blank"},
		{"not-flag", "registry-password", "word", "", false, "no dash: a pass-through key=value item, not a flag"},
		{"empty", "", "word", "", false, "the first item"},
		{"dash", "-", "word", "", false, "a lone dash is no flag"},
		{"switch-value", "--token", "true", "true", true, "the value, but a switch is no secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := r.FlagValue(tc.prev, tc.item)
			if got != tc.want || ok != tc.isValue {
				t.Errorf("%s: FlagValue(%q, %q) = %q, %v; want %q, %v", tc.reason, tc.prev, tc.item, got, ok, tc.want, tc.isValue)
			}
		})
	}
	if _, ok := NewTextRedactor(true).FlagValue("--token", "x"); ok {
		t.Error("--show-secrets: FlagValue hides nothing")
	}
	// Data applies it to []any and []string alike, and judges the item after the value again.
	in := []string{"--registry-password", "QQsplit1", "--v", "2", "--node-label", "foo", "-password", "w"}
	want := []string{"--registry-password", "REDACTED", "--v", "2", "--node-label", "foo", "-password", "REDACTED"}
	if diff := cmp.Diff(want, r.Data("kubelet-arg", in)); diff != "" {
		t.Errorf("Data []string: mismatch (-want +got):\n%s", diff)
	}
	anyIn, anyWant := make([]any, len(in)), make([]any, len(want))
	for i := range in {
		anyIn[i], anyWant[i] = in[i], want[i]
	}
	if diff := cmp.Diff(anyWant, r.Data("args", anyIn)); diff != "" {
		t.Errorf("Data []any: mismatch (-want +got):\n%s", diff)
	}
}
