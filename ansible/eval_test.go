package ansible

import (
	"errors"
	"testing"
)

// TestEval: the expressions kubespray's when: conditions and include names use, each with
// the value Jinja gives (checked by hand against ansible 2.14's templar where noted), and
// what must stay unknown rather than be guessed.
func TestEval(t *testing.T) {
	vars := map[string]any{
		"kube_network_plugin": "calico", "etcd_deployment_type": "host", "enabled": true, "off": false,
		"container_manager": "containerd", "groups_l": []any{"etcd", "kube_node"},
		"role_of": &Map{Items: []MapItem{{"containerd", "containerd"}, {"crio", "cri-o"}}},
		"templ":   "{{ 'kube_node' in groups_l }}", "n": int64(3), "s_false": "false",
	}
	lookup := func(n string) (any, bool) { v, ok := vars[n]; return v, ok }
	cases := []struct {
		expr, reason string
		want         any
		unknown      bool
	}{
		{`kube_network_plugin in ["flannel", "canal", "cilium"]`, "install_etcd.yml's group_by", false, false},
		{`kube_network_plugin in ["flannel", "canal", "cilium"] or (cilium_deploy_additionally | default(false))`, "undefined with default", false, false},
		{`etcd_deployment_type != "kubeadm"`, "", true, false},
		{`role_of[container_manager]`, "the Container Manager include's name", "containerd", false},
		{`templ`, "a templated value is templated when used (deploy_container_engine)", true, false},
		{`not enabled`, "", false, false},
		{`enabled and off`, "", false, false},
		{`n > 2 and n | int < 4`, "", true, false},
		{`s_false | bool`, "the bool filter reads 'false'", false, false},
		{`s_false`, "a non-empty string is truthy in Jinja; the caller reads the rendered text", "false", false},
		{`undefined_var is defined`, "", false, false},
		{`undefined_var`, "undefined: unknown, not false", nil, true},
		{`ansible_facts.os_family == "Debian"`, "facts are not known", nil, true},
		{`lookup('env', 'HOME')`, "lookups are not run", nil, true},
		{`x | regex_replace('a', 'b')`, "an unknown filter", nil, true},
		{`'a' ~ kube_network_plugin`, "", "acalico", false},
		{`'yes' if enabled else 'no'`, "", "yes", false},
	}
	for _, c := range cases {
		got, err := Eval(c.expr, lookup)
		if c.unknown {
			if !errors.Is(err, ErrUnknown) {
				t.Errorf("%s (%s): %v, %v; want unknown", c.expr, c.reason, got, err)
			}
			continue
		}
		if err != nil || PyJSON(got) != PyJSON(c.want) || TypeName(got) != TypeName(c.want) {
			t.Errorf("%s (%s): %v (%v), want %v", c.expr, c.reason, Repr(got), err, Repr(c.want))
		}
	}
	if got, err := Template("container-engine/{{ role_of[container_manager] }}", lookup); err != nil || got != "container-engine/containerd" {
		t.Errorf("Template: %v, %v", got, err)
	}
	if _, err := Template("{% if x %}a{% endif %}", lookup); !errors.Is(err, ErrUnknown) {
		t.Errorf("a {%% %%} block: %v, want unknown", err)
	}
}
