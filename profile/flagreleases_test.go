package profile

import "testing"

// TestFlagReleases: the flags of data/flag-releases.tsv are in the catalogs, and a release
// before a flag's first one has no such flag while that release and the newest do.
func TestFlagReleases(t *testing.T) {
	since, err := flagSince()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Profile{K3s(), RKE2()} {
		for name, fr := range since {
			v := fr.since
			found := false
			for _, c := range p.Commands {
				if c.Lookup(name) != nil {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s is in flag-releases.tsv but in no command of the catalog", p.Name, name)
			}
			before := Version{v.Major, v.Minor, v.Patch - 1, ""}
			if v.Patch == 0 {
				before = Version{v.Major, v.Minor - 1, 99, ""}
			}
			_, backported := fr.backports[before.Minor]
			for _, tc := range []struct {
				version string
				want    bool
			}{{"", true}, {vText(v), true}, {vText(before), backported && before.Patch >= fr.backports[before.Minor]}} {
				b, err := p.Behaviour(tc.version)
				if err != nil {
					t.Fatal(err)
				}
				q := p.ForRelease(b)
				has := q.Command("server").Lookup(name) != nil
				if has != tc.want {
					t.Errorf("%s %q: server has %s = %v, want %v", p.Name, tc.version, name, has, tc.want)
				}
				if tc.want == false && q.Command("server").ConfigValid[name] {
					t.Errorf("%s %q: %s still valid in config", p.Name, tc.version, name)
				}
			}
		}
	}
	// Backports: etcd-s3-retention is in v1.32.8 and v1.31.12 (docs.k3s.io), not v1.32.7.
	for _, tc := range []struct {
		version string
		want    bool
	}{{"v1.32.8+k3s1", true}, {"v1.32.7+k3s1", false}, {"v1.31.12+k3s1", true}, {"v1.30.14+k3s1", false}, {"v1.29.15+k3s1", false}} {
		b, _ := K3s().Behaviour(tc.version)
		if got := K3s().ForRelease(b).Command("server").Lookup("etcd-s3-retention") != nil; got != tc.want {
			t.Errorf("%s has etcd-s3-retention: %v, want %v", tc.version, got, tc.want)
		}
	}
	b, _ := K3s().Behaviour("v1.29.15+k3s1")
	if K3s().ForRelease(b).Command("server").Lookup("etcd-snapshot-reconcile-interval") == nil {
		t.Error("v1.29.15 has etcd-snapshot-reconcile-interval (backport of d694dd1db)")
	}
	// The etcd-snapshot spelling follows its etcd-s3- alias.
	b, _ = K3s().Behaviour("v1.33.3+k3s1")
	if K3s().ForRelease(b).Command("etcd-snapshot").Lookup("s3-retention") != nil {
		t.Error("v1.33.3 etcd-snapshot has s3-retention; it arrived in v1.33.4")
	}
	if K3s().ForRelease(b).Command("agent").Lookup("nonroot-devices") == nil {
		t.Error("nonroot-devices (main 2024-11-05) is not in flag-releases.tsv: every modelled release has it")
	}
}

func vText(v Version) string {
	return "v" + itoa(v.Major) + "." + itoa(v.Minor) + "." + itoa(v.Patch) + "+k3s1"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
