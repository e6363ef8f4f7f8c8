package profile

import "testing"

// TestFlagRemovals: every removal row parses, names a flag the catalog (the newest release)
// no longer has, and ForRelease gives it back to its commands just before the removal and
// not from it; the warning and fatal windows lie before the removal.
func TestFlagRemovals(t *testing.T) {
	p := K3s()
	rows := p.FlagRemovals()
	if len(rows) == 0 {
		t.Fatal("no removal rows")
	}
	for _, r := range rows {
		for _, c := range p.Commands {
			if c.Lookup(r.Name) != nil {
				t.Errorf("%s: removed, but the catalog's %s still has it", r.Name, c.Name)
			}
		}
		if r.FatalFrom != (Version{}) && !r.FatalFrom.Less(r.Until) || r.WarnFrom != (Version{}) && !r.WarnFrom.Less(r.Until) {
			t.Errorf("%s: warning or fatal window not before the removal %v", r.Name, r.Until)
		}
		last := Version{r.Until.Major, r.Until.Minor - 1, 99, ""}
		for _, tc := range []struct {
			version string
			want    bool
		}{{vText(last), true}, {vText(r.Until), false}, {"", false}, {OldestModelled, true}} {
			b, err := p.Behaviour(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			q := p.ForRelease(b)
			for _, cmd := range r.commands {
				c := q.Command(cmd)
				if has := c.Lookup(r.Name) != nil; has != tc.want {
					t.Errorf("%s %q: %s has it = %v, want %v", r.Name, tc.version, cmd, has, tc.want)
				}
				if tc.want && cmd == "server" && !c.ConfigValid[r.Name] {
					t.Errorf("%s %q: not a valid config key of the server", r.Name, tc.version)
				}
			}
			for _, cmd := range []string{"server", "agent"} {
				if !contains(r.commands, cmd) && q.Command(cmd).Lookup(r.Name) != nil {
					t.Errorf("%s %q: %s never had it", r.Name, tc.version, cmd)
				}
			}
		}
	}
	// RKE2 is not modelled for these (products k3s).
	if len(RKE2().FlagRemovals()) != 0 {
		t.Error("rke2 has removal rows")
	}
	// The state at the boundaries of no-deploy.
	for _, tc := range []struct{ v, warn, fatal string }{
		{"v1.24.3", "", ""},
		{"v1.24.4", "no-deploy flag is deprecated, it will be removed in v1.25. Use --skip-deploy instead.", ""},
		{"v1.25.0", "", "no-deploy flag is deprecated. Use --disable instead."},
	} {
		v, _ := ParseVersion(tc.v)
		for _, r := range rows {
			if r.Name != "no-deploy" {
				continue
			}
			w, f, ok := r.State("k3s", "server", v)
			if !ok || w != tc.warn || f != tc.fatal {
				t.Errorf("no-deploy %s: %q %q %v, want %q %q", tc.v, w, f, ok, tc.warn, tc.fatal)
			}
			if _, _, ok := r.State("k3s", "agent", v); ok {
				t.Errorf("no-deploy %s: the agent never had it", tc.v)
			}
		}
	}
}
