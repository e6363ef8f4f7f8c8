package ansible

import (
	"testing"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
)

// TestOverlay: task vars, include_vars and set_fact go above role vars and below role
// params and -e (vars/manager.py get_vars), include params above role params; the value in
// force is settled again and the static Var is left as it was.
func TestOverlay(t *testing.T) {
	at := func(l int) diag.Position { return diag.Position{File: "f", Line: l, Column: 1} }
	static := func(kinds ...provenance.Kind) *Var {
		v := &Var{Name: "x"}
		for i, k := range kinds {
			v.History = append(v.History, NewAssignment(k, at(i+1), string(k), string(k), "", ""))
		}
		settle(v, false)
		return v
	}
	for _, tc := range []struct {
		name, reason string
		static       []provenance.Kind
		adds         []provenance.Kind
		want         provenance.Kind
		order        []provenance.Kind
	}{
		{"set_fact beats role vars", "get_vars merges the fact cache after role vars", []provenance.Kind{KindRoleDefaults, KindGroupVars, KindRoleVars}, []provenance.Kind{KindSetFact}, KindSetFact,
			[]provenance.Kind{KindRoleDefaults, KindGroupVars, KindRoleVars, KindSetFact}},
		{"-e beats set_fact", "extra vars come last", []provenance.Kind{KindGroupVars, KindExtra}, []provenance.Kind{KindSetFact}, KindExtra,
			[]provenance.Kind{KindGroupVars, KindSetFact, KindExtra}},
		{"role params beat set_fact", "role params are merged after the caches", []provenance.Kind{KindRoleParams}, []provenance.Kind{KindTaskVars, KindIncludeVars, KindSetFact}, KindRoleParams,
			[]provenance.Kind{KindTaskVars, KindIncludeVars, KindSetFact, KindRoleParams}},
		{"set_fact beats a later include_vars", "the include_vars cache is merged before the fact cache, whatever ran first", []provenance.Kind{KindGroupVars}, []provenance.Kind{KindSetFact, KindIncludeVars}, KindSetFact,
			[]provenance.Kind{KindGroupVars, KindIncludeVars, KindSetFact}},
		{"include params beat role params", "get_include_params is merged after role params", []provenance.Kind{KindRoleParams}, []provenance.Kind{KindIncludeParams}, KindIncludeParams,
			[]provenance.Kind{KindRoleParams, KindIncludeParams}},
		{"task vars lose to set_fact", "task vars come before the caches", nil, []provenance.Kind{KindTaskVars, KindSetFact}, KindSetFact,
			[]provenance.Kind{KindTaskVars, KindSetFact}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v *Var
			if tc.static != nil {
				v = static(tc.static...)
			}
			var adds []*Assignment
			for i, k := range tc.adds {
				adds = append(adds, NewAssignment(k, at(100+i), string(k), string(k), "", ""))
			}
			before := ""
			if v != nil {
				before = string(v.Source.Kind)
			}
			got := Overlay(v, "x", adds)
			if got.Source.Kind != tc.want || got.Value != string(tc.want) {
				t.Errorf("%s: in force %s (%v), want %s", tc.reason, got.Source.Kind, got.Value, tc.want)
			}
			var order []provenance.Kind
			for _, a := range got.History {
				order = append(order, a.Kind)
				if a != got.Source && a.Outcome != provenance.Overridden {
					t.Errorf("%s lost but is %s", a.Kind, a.Outcome)
				}
			}
			if len(order) != len(tc.order) {
				t.Fatalf("order %v, want %v", order, tc.order)
			}
			for i := range order {
				if order[i] != tc.order[i] {
					t.Fatalf("order %v, want %v", order, tc.order)
				}
			}
			if v != nil && string(v.Source.Kind) != before {
				t.Errorf("the static Var changed: now %s", v.Source.Kind)
			}
		})
	}
}
