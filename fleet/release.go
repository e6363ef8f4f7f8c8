package fleet

import (
	"regexp"
	"strconv"

	"github.com/k3sconf/k3sconf/profile"
)

// release is a node's release as far as the comparison needs it.
type release struct {
	known        bool
	major, minor int
	patch        int
	// rev is the k3sN / rke2rN suffix (1 when absent).
	rev  int
	text string
}

var revRE = regexp.MustCompile(`\+(?:k3s|rke2r)(\d+)`)

func parseRelease(s string) release {
	if s == "" {
		return release{}
	}
	v, err := profile.ParseVersion(s)
	if err != nil {
		return release{text: s}
	}
	r := release{known: true, major: v.Major, minor: v.Minor, patch: v.Patch, rev: 1, text: s}
	if m := revRE.FindStringSubmatch(s); m != nil {
		r.rev, _ = strconv.Atoi(m[1])
	}
	return r
}

// since is the first release carrying a change: every minor from minor on, plus the
// given patch (and, where set, k3s revision) of older minors that got a backport.
type since struct {
	minor   int
	patches map[int]patchRev
}

type patchRev struct{ patch, rev int }

// has reports whether r carries the change. An unknown release is taken as the newest.
func (s since) has(r release) bool {
	if !r.known || r.major > 1 {
		return true
	}
	if r.minor >= s.minor {
		return true
	}
	p, ok := s.patches[r.minor]
	if !ok {
		return false
	}
	return r.patch > p.patch || (r.patch == p.patch && r.rev >= max(p.rev, 1))
}

// until is a since that removes something: has reports whether r predates the removal.
type until struct{ since }

func (u until) has(r release) bool { return !u.since.has(r) }

// older reports whether a is an older minor or patch than b (both known).
func older(a, b release) bool {
	if a.major != b.major {
		return a.major < b.major
	}
	if a.minor != b.minor {
		return a.minor < b.minor
	}
	return a.patch < b.patch
}
