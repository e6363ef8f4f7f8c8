package yamlalias

import "testing"

// TestBudget pins yaml.v2's thresholds both ways: a document made mostly of alias
// expansions is stopped once it passes 1,000 operations and 100 aliased ones, a small one
// or one with few aliases never is.
func TestBudget(t *testing.T) {
	cases := []struct {
		name, reason    string
		plain, aliased  int
		wantStopAtLeast bool
	}{
		{"bomb", "nearly every operation inside an alias: stopped after 1,000", 5, 2000, true},
		{"small", "at most 1,000 operations are always allowed", 10, 900, false},
		{"few-aliases", "aliases are 1% of the operations: allowed", 100000, 1000, false},
		{"share-60", "60% from aliases is allowed in a small document", 20000, 30000, false},
		{"large-share", "above 400,000 operations the allowed share falls below 99%: 80% is stopped by 2.5 million", 500000, 2000000, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b Budget
			stopped := false
			for i := 0; i < tc.plain && !stopped; i++ {
				stopped = b.Step()
			}
			b.Enter()
			for i := 0; i < tc.aliased && !stopped; i++ {
				stopped = b.Step()
			}
			b.Leave()
			if stopped != tc.wantStopAtLeast {
				t.Errorf("%s: stopped = %v, want %v", tc.reason, stopped, tc.wantStopAtLeast)
			}
		})
	}
}

func TestAllowedRatio(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{1, 0.99}, {400000, 0.99}, {2200000, 0.545}, {4000000, 0.10}, {9000000, 0.10}} {
		if got := allowedRatio(c.n); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("allowedRatio(%d) = %v, want %v (yaml.v2 decode.go)", c.n, got, c.want)
		}
	}
}
