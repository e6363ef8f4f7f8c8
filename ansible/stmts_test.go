package ansible

import (
	"errors"
	"testing"
)

// TestTemplateStmts: {% if %}/{% elif %}/{% else %} blocks with whitespace control render
// as Jinja does (the outputs were checked with ansible's templar, `ansible -m debug`);
// other statements stay unknown, never guessed.
func TestTemplateStmts(t *testing.T) {
	vars := map[string]any{"on": true, "off": false, "n": int64(3), "name": "x"}
	lk := func(k string) (any, bool) { v, ok := vars[k]; return v, ok }
	for _, tc := range []struct{ name, in, want string }{
		{"kubespray's cgroup driver, true", "{%- if on -%}systemd{%- else -%}cgroupfs{%- endif -%}", "systemd"},
		{"false takes else", "{%- if off -%}systemd{%- else -%}cgroupfs{%- endif -%}", "cgroupfs"},
		{"elif", "{% if off %}a{% elif n > 2 %}b{% else %}c{% endif %}", "b"},
		{"no else, false", "x{% if off %}y{% endif %}z", "xz"},
		{"whitespace kept without -", "a {% if on %} b {% endif %} c", "a  b  c"},
		{"expression inside", "{% if on %}{{ name }}-{{ n }}{% endif %}", "x-3"},
		{"nested", "{% if on %}{% if off %}1{% else %}2{% endif %}{% endif %}", "2"},
		{"trim expression", "a {{- name -}} b", "axb"},
	} {
		got, err := Template(tc.in, lk)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q = %v (%v), want %q", tc.name, tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"{% for x in y %}{% endfor %}", "{% set a = 1 %}", "{# c #}x", "{% if on %}x", "{% if undefined_thing.x %}a{% endif %}", "{% if on %}a{% endif %}{% endif %}"} {
		if _, err := Template(in, lk); err == nil {
			t.Errorf("%q: rendered, want an error (unknown or undefined)", in)
		} else if !errors.Is(err, ErrUnknown) {
			t.Logf("%q: %v", in, err)
		}
	}
}
