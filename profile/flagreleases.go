package profile

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

//go:embed data/flag-releases.tsv
var flagReleasesTSV string

// flagRelease is when a flag arrived: the first release on main, and the first patch of
// older minor lines that got it as a backport.
type flagRelease struct {
	since     Version
	backports map[int]int
}

// has reports whether release v has the flag.
func (f flagRelease) has(v Version) bool {
	if !v.Less(f.since) {
		return true
	}
	p, ok := f.backports[v.Minor]
	return ok && v.Major == 1 && v.Patch >= p
}

// flagSince maps a flag name to when it arrived (data/flag-releases.tsv).
var flagSince = sync.OnceValues(func() (map[string]flagRelease, error) {
	rows, err := tsv.Parse(flagReleasesTSV)
	if err != nil {
		return nil, fmt.Errorf("flag releases: %w", err)
	}
	out := make(map[string]flagRelease, len(rows))
	for _, r := range rows {
		if r["since"] == "" {
			continue // a removal row (flagRemovals)
		}
		v, err := ParseVersion(r["since"])
		if err != nil {
			return nil, fmt.Errorf("flag releases: %s: %w", r["name"], err)
		}
		fr := flagRelease{since: v, backports: map[int]int{}}
		for _, b := range splitList(r["backports"]) {
			mp, err := ParseVersion("1." + b)
			if err != nil {
				return nil, fmt.Errorf("flag releases: %s: backport %q: %w", r["name"], b, err)
			}
			fr.backports[mp.Minor] = mp.Patch
		}
		out[r["name"]] = fr
	}
	return out, nil
})

// hasFlag reports whether release v has the flag (by any of its names): every modelled
// release has the flags data/flag-releases.tsv does not list.
func hasFlag(f *Flag, v Version) bool {
	since, err := flagSince()
	if err != nil {
		panic(err) // embedded data; TestFlagReleases
	}
	for _, n := range f.Names() {
		if fr, ok := since[n]; ok {
			return fr.has(v)
		}
	}
	return true
}

var releaseProfiles sync.Map // "product version" → *Profile

// ForRelease is the profile of a release: the catalog's commands without the flags that
// arrived after it and with the flags removed since (data/flag-releases.tsv), so that the
// release's CLI rejects the young ones as unknown and its config parser skips them, and
// accepts the old ones, as it does. The newest release is p itself. The
// result is cached and must not be modified.
func (p *Profile) ForRelease(b Behaviour) *Profile {
	if b.Version == "newest" || b.Version == "" {
		return p
	}
	v, err := ParseVersion(b.Version)
	if err != nil {
		return p
	}
	key := fmt.Sprintf("%s %d.%d.%d", p.Name, v.Major, v.Minor, v.Patch)
	if q, ok := releaseProfiles.Load(key); ok {
		return q.(*Profile)
	}
	removals, err := flagRemovals()
	if err != nil {
		panic(err) // embedded data; TestFlagRemovals
	}
	q := *p
	q.Commands = make(map[string]*Command, len(p.Commands))
	changed := false
	for name, c := range p.Commands {
		nc := *c
		nc.Flags = nil
		nc.ConfigValid = make(map[string]bool, len(c.ConfigValid))
		dropped := map[string]bool{}
		for _, f := range c.Flags {
			if !hasFlag(f, v) {
				for _, n := range f.Names() {
					dropped[n] = true
				}
				changed = true
				continue
			}
			nc.Flags = append(nc.Flags, f)
		}
		for n, ok := range c.ConfigValid {
			if !dropped[n] {
				nc.ConfigValid[n] = ok
			}
		}
		for _, rm := range removals {
			if rm.has(p.Name, name, v) {
				f := rm.flag
				nc.Flags = insertBefore(nc.Flags, &f, rm.before[name])
				nc.ConfigValid[f.Name] = true
				changed = true
			}
		}
		nc.index()
		q.Commands[name] = &nc
	}
	qp := &q
	if !changed {
		qp = p
	}
	actual, _ := releaseProfiles.LoadOrStore(key, qp)
	return actual.(*Profile)
}
