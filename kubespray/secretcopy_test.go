package kubespray

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestRuntimeSecretCopies: a value the evaluator computes from a secret (a set_fact whose
// argument templates a secret variable, directly, through other variables, a filter, a
// dict's secret key, an earlier set_fact or a YAML alias copy, and an include_vars value
// that is a YAML alias copy) is the secret: explain hides it in text and --json, in the
// value, the history and setAtRunTime's evaluated value (issue 25: `mirror_login: "{{
// registry_password }}"` printed the password once a set_fact evaluated it). A value that
// only spells the same word, or a switch computed from a secret, is shown. "zebra" is a
// plain word: no content rule knows it.
func TestRuntimeSecretCopies(t *testing.T) {
	hidden := []string{"login_a", "login_b", "login_c", "login_d", "login_e", "login_f", "login_g", "login_h"}
	shown := map[string]string{"plain_a": `"zebra"`, "plain_b": "true", "plain_c": `"u"`}
	vars := append(append([]string{}, hidden...), "plain_a", "plain_b", "plain_c")
	files := map[string]string{
		"ks/roles/facts/tasks/main.yml": "- name: Set\n  set_fact:\n" +
			"    login_a: \"{{ registry_password }}\"\n" + // directly
			"    login_b: \"user-{{ registry_password }}\"\n" + // inside a text
			"    login_c: \"{{ registry_password | upper }}\"\n" + // through a filter
			"    login_d: \"{{ mirror_login }}\"\n" + // through a variable that templates it
			"    login_f: \"{{ creds.password }}\"\n" + // a dict's secret key
			"    login_g: \"{{ alias_copy }}\"\n" + // a YAML alias copy
			"    plain_a: \"{{ app_name }}\"\n" + // the same word, no secret read
			"    plain_b: \"{{ registry_password is defined }}\"\n" + // a switch
			"    plain_c: \"{{ creds.user }}\"\n" + // a plain key of the same dict
			"- name: Chain\n  set_fact:\n    login_e: \"{{ login_a }}\"\n" + // an earlier set_fact's copy
			"- name: Load\n  include_vars: creds.yml\n" +
			markerTask("use", vars, ""),
		"ks/roles/facts/vars/creds.yml":    "vault_token: &t zebra\nlogin_h: *t\n",
		"ks/roles/facts/defaults/main.yml": "app_name: zebra\n",
		"ks/roles/show/tasks/main.yml":     "- debug: msg=x\n",
		"inv/group_vars/all.yml": "registry_password: &rp zebra\nmirror_login: \"{{ registry_password }}\"\nalias_copy: *rp\n" +
			"creds:\n  user: u\n  password: zebra\n",
	}
	ks, inv := siteTree(t, runtimePlays, files)
	explain := func(vars []string, show bool) (string, map[string]any) {
		r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: vars, ShowSecrets: show})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		Text(&b, r)
		js, _ := json.Marshal(JSON(r))
		var doc struct {
			Keys map[string]struct {
				Value any `json:"value"`
			} `json:"keys"`
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		vals := map[string]any{}
		for k, v := range doc.Keys {
			vals[k] = v.Value
		}
		return b.String() + string(js), vals
	}
	out, vals := explain(hidden, false)
	for _, h := range hidden {
		if vals[h] != redacted {
			t.Errorf("%s: --json value %v, want %s", h, vals[h], redacted)
		}
	}
	if strings.Contains(strings.ToLower(out), "zebra") {
		t.Errorf("a copy of the secret is printed:\n%s", out)
	}
	_, vals = explain(vars, false)
	for name, want := range shown {
		if b, _ := json.Marshal(vals[name]); string(b) != want {
			t.Errorf("%s: --json value %s, want %s (no secret: shown)", name, b, want)
		}
	}
	out, vals = explain(hidden, true)
	if vals["login_a"] != "zebra" || !strings.Contains(out, "ZEBRA") {
		t.Errorf("--show-secrets: login_a = %v, want zebra; login_c's ZEBRA shown", vals["login_a"])
	}
}
