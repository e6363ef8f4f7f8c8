package kubespray

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestBeforeJSONAndRedacted: a variable no task of the host uses, whose value at the play
// before the host joins k8s_cluster (kubespray's dynamic_groups) differs from the one shown,
// has that earlier value in --json as keys.NAME.before, as the text's "before that, at
// play …" line has it; under a secret name both hide it (the earlier value once reached
// the text unredacted); with one value at both plays there is no before.
func TestBeforeJSONAndRedacted(t *testing.T) {
	plays := boiler + "- name: Nodes\n  hosts: k8s_cluster\n  gather_facts: false\n  roles: [kubespray_defaults, node]\n"
	ks, inv := siteTree(t, plays, map[string]string{
		"ks/roles/node/tasks/main.yml":   "- name: t\n  debug: {msg: hi}\n",
		"inv/group_vars/all.yml":         "registry_password: all-level-s3cret\nlog_level: 1\nsame_level: 5\n",
		"inv/group_vars/k8s_cluster.yml": "registry_password: k8s-level-s3cret\nlog_level: 2\n",
	})
	type before struct {
		Play    struct{ Name string }
		Joins   []string
		Defined bool
		Value   any
		Type    string
	}
	run := func(show bool) (string, map[string]*before) {
		r, err := Explain(Options{Dir: ks, Inventory: []string{inv}, Host: "w1", Vars: []string{"registry_password", "log_level", "same_level"}, ShowSecrets: show})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		Text(&b, r)
		js, err := json.Marshal(JSON(r))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Keys map[string]struct{ Before *before }
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		out := map[string]*before{}
		for k, v := range doc.Keys {
			out[k] = v.Before
		}
		return b.String() + string(js), out
	}
	all, got := run(false)
	if strings.Contains(all, "s3cret") {
		t.Errorf("a secret reached the output:\n%s", all)
	}
	if b := got["registry_password"]; b == nil || b.Value != "REDACTED" || b.Play.Name != "Inventory setup" || len(b.Joins) != 1 || b.Joins[0] != "k8s_cluster" {
		t.Errorf("registry_password before: %+v, want REDACTED at Inventory setup, joins [k8s_cluster]", b)
	}
	if b := got["log_level"]; b == nil || !b.Defined || b.Value != float64(1) || b.Type != "int" {
		t.Errorf("log_level before: %+v, want 1 (int) from group_vars/all", b)
	}
	if b := got["same_level"]; b != nil {
		t.Errorf("same_level before: %+v, want none (the same value at both plays)", b)
	}
	if !strings.Contains(all, "before that, at play \"Inventory setup\"") {
		t.Errorf("no text line:\n%s", all)
	}
	if _, got := run(true); got["registry_password"] == nil || got["registry_password"].Value != "all-level-s3cret" {
		t.Errorf("--show-secrets: %+v, want the value", got["registry_password"])
	}
}
