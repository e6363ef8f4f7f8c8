package ansible

import (
	"errors"
	"testing"
)

// TestParseFacts: the three shapes a user has at hand give the same facts, and a task sees
// them as ansible_facts['x'] and ansible_x.
func TestParseFacts(t *testing.T) {
	for _, tc := range []struct{ name, reason, text string }{
		{"setup", "what `ansible -m setup HOST` prints", "node1 | SUCCESS => {\n    \"ansible_facts\": {\n        \"ansible_os_family\": \"Debian\",\n        \"ansible_distribution\": \"Ubuntu\",\n        \"discovered_interpreter_python\": \"/usr/bin/python3\"\n    },\n    \"changed\": false\n}\n"},
		{"cache", "a file of ansible's jsonfile fact cache", `{"ansible_os_family": "Debian", "ansible_distribution": "Ubuntu"}`},
		{"ansible_facts", "a dump of the ansible_facts variable (no prefix)", `{"os_family": "Debian", "distribution": "Ubuntu"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFacts(tc.name, []byte(tc.text))
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			lk := func(n string) (any, bool) { return f.Lookup(n) }
			for expr, want := range map[string]any{
				"ansible_facts['os_family'] | lower": "debian",
				"ansible_distribution":               "Ubuntu",
				"ansible_facts.distribution == 'Ubuntu' and ansible_os_family == 'Debian'": true,
			} {
				got, err := Eval(expr, lk)
				if err != nil || got != want {
					t.Errorf("%s: %s = %v (%v), want %v", tc.reason, expr, got, err, want)
				}
			}
		})
	}
	if _, err := ParseFacts("x", []byte("no json here")); err == nil {
		t.Error("text without a JSON object was accepted")
	}
}

// TestFactsUnknownWithout: without facts, a condition on ansible_facts stays unknown
// (never false), and a variable the lookup marks Unknown makes every use unknown, even
// `is defined`.
func TestFactsUnknownWithout(t *testing.T) {
	none := func(string) (any, bool) { return nil, false }
	if _, err := Eval("ansible_facts['os_family'] == 'Debian'", none); !errors.Is(err, ErrUnknown) {
		t.Errorf("ansible_facts without facts: %v, want ErrUnknown", err)
	}
	unk := func(n string) (any, bool) { return Unknown, n == "x" }
	for _, e := range []string{"x is defined", "x == 1", "x | default(2)"} {
		if _, err := Eval(e, unk); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s over an Unknown value: %v, want ErrUnknown", e, err)
		}
	}
}
