package chartsreport

import (
	"testing"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/provenance"
)

// TestRedactValue: chart values are judged by k3sconf's one name rule on their nearest key
// (docs/secrets.md), as Ansible values are.
func TestRedactValue(t *testing.T) {
	on := output.NewTextRedactor(false)
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
		got := on.Data(lastKey(tc.path), tc.value)
		if hidden := got == output.Redacted; hidden != tc.hidden {
			t.Errorf("Data(%q, %v) = %v, hidden %v, want %v: %s", tc.path, tc.value, got, hidden, tc.hidden, tc.reason)
		}
	}
	nested := on.Data("registries", []any{map[string]any{"host": "r", "password": "pw", "token": true}})
	item := nested.([]any)[0].(map[string]any)
	if item["password"] != output.Redacted || item["host"] != "r" || item["token"] != true {
		t.Errorf("nested list of maps: %v, want password hidden, host and the switch shown", item)
	}
	if got := output.NewTextRedactor(true).Data("password", "hunter2"); got != "hunter2" {
		t.Errorf("--show-secrets: %v, want the value", got)
	}
}

// TestLearnSecrets: the secret strings of a report's values, and of a spec.set Helm refuses
// (in no leaf), are taught to the redactor, so a message quoting one is redacted blanks and
// all; other values, numbers and --show-secrets teach nothing.
func TestLearnSecrets(t *testing.T) {
	rep := &charts.Report{
		Result: &values.Result{Leaves: []*values.Leaf{
			{Entry: provenance.Entry[values.Assignment]{Name: "auth.password", Value: "hunter2 two", History: []*values.Assignment{{Path: "auth.password", Assignment: provenance.Assignment[any]{Value: "oldPa55 word"}}}}},
			{Entry: provenance.Entry[values.Assignment]{Name: "registries", Value: []any{map[string]any{"host": "r.example", "password": "listPa55"}}}},
			{Entry: provenance.Entry[values.Assignment]{Name: "service.name", Value: "web-frontend"}},
			{Entry: provenance.Entry[values.Assignment]{Name: "db.password", Value: float64(12345678)}},
			{Entry: provenance.Entry[values.Assignment]{Name: "pin.password", Value: int64(1234)}},
		}},
		Input: values.Input{Set: []values.SetArg{{Key: "hosts[0].password", Value: "setPa55 word"}, {Key: "replicas", Value: "3", Int: true}}},
	}
	red := output.NewTextRedactor(false)
	learnSecrets(rep, red)
	for _, tc := range []struct{ in, want, reason string }{
		{`the string "hunter2 two" where`, `the string "REDACTED" where`, "a value in force, quoted with its blank"},
		{`was "oldPa55 word"`, `was "REDACTED"`, "an overridden value"},
		{`host listPa55`, `host REDACTED`, "a password inside a list of maps"},
		{`Helm refuses --set-string hosts[0].password=setPa55 word: x`, `Helm refuses --set-string hosts[0].password=REDACTED: x`, "a --set Helm refuses, by its key without the index"},
		{`service web-frontend`, `service web-frontend`, "not a secret name"},
		{`the number 1.2345678e+07: x`, `the number REDACTED: x`, "a number password of 6 digits or more, as %v prints a float"},
		{`"value":12345678}`, `"value":REDACTED}`, "and as JSON"},
		{`line 1234`, `line 1234`, "a short number is hidden as a value, not learned (it would match line numbers)"},
	} {
		if got := red.Scrub(tc.in); got != tc.want {
			t.Errorf("Scrub(%q) = %q, want %q: %s", tc.in, got, tc.want, tc.reason)
		}
	}
	show := output.NewTextRedactor(true)
	learnSecrets(rep, show)
	if got := show.Scrub("hunter2 two"); got != "hunter2 two" {
		t.Errorf("--show-secrets: %q", got)
	}
}

// TestSecretLayerRedacted: a value from a valuesSecrets Secret is hidden whatever its key;
// the same value from valuesContent is judged by the name rule.
func TestSecretLayerRedacted(t *testing.T) {
	on := output.NewTextRedactor(false)
	a := &values.Assignment{Path: "image.tag", Assignment: provenance.Assignment[any]{Value: "1.0", Source: provenance.Source{Kind: values.HelmChartConfigValuesSecret}}}
	if got := assignmentValue(a, on); got != output.Redacted {
		t.Errorf("from a Secret: %v, want REDACTED", got)
	}
	a.Source.Kind = values.HelmChartConfigValuesContent
	if got := assignmentValue(a, on); got != "1.0" {
		t.Errorf("from valuesContent: %v, want the value", got)
	}
	a.Source.Kind = values.HelmChartValuesSecret
	if got := assignmentValue(a, output.NewTextRedactor(true)); got != "1.0" {
		t.Errorf("--show-secrets: %v, want the value", got)
	}
}
