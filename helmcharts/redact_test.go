package helmcharts

import (
	"testing"

	"github.com/k3sconf/k3sconf/report"
)

// TestRedactValue: chart values are judged by k3sconf's one name rule on their nearest key
// (docs/secrets.md), as Ansible values are.
func TestRedactValue(t *testing.T) {
	on := report.NewTextRedactor(false)
	for _, tc := range []struct {
		path   string
		value  any
		hidden bool
		reason string
	}{
		{"auth.password", "hunter2", true, "the last key is a secret word"},
		{"auth.adminPassword", "hunter2", true, "camelCase: the last word is password"},
		{"auth.password", 123456, true, "a number under a secret name is hidden"},
		{"secret.enabled", true, false, "a switch under a secret-named map is no secret"},
		{"secret.name", "my-secret", false, "the last key names a Secret, it holds none"},
		{"auth.existingSecretName", "app-auth", false, "a reference to a Secret"},
		{"tls.privateKey", "-----BEGIN", true, "key material"},
		{"tls.privateKey", "/etc/tls/tls.key", false, "a *key holding a file path"},
		{"auth.password", "", false, "an empty value tells nothing"},
		{"service.port", 9090, false, "not a secret name"},
	} {
		got := redactValue(tc.path, tc.value, on)
		if hidden := got == report.Redacted; hidden != tc.hidden {
			t.Errorf("redactValue(%q, %v) = %v, hidden %v, want %v: %s", tc.path, tc.value, got, hidden, tc.hidden, tc.reason)
		}
	}
	nested := redactValue("registries", []any{map[string]any{"host": "r", "password": "pw", "token": true}}, on)
	item := nested.([]any)[0].(map[string]any)
	if item["password"] != report.Redacted || item["host"] != "r" || item["token"] != true {
		t.Errorf("nested list of maps: %v, want password hidden, host and the switch shown", item)
	}
	if got := redactValue("auth.password", "hunter2", report.NewTextRedactor(true)); got != "hunter2" {
		t.Errorf("--show-secrets: %v, want the value", got)
	}
}
