package resolve

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/k3sconf/k3sconf/profile"
)

// TestCheckRules keeps the release table and the checks in step: every rule id the checks
// name is in checkRules with a source and a phase, and every rule is used.
func TestCheckRules(t *testing.T) {
	files, err := filepath.Glob("validate*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	re := regexp.MustCompile(`(?:rule: |check\(|validateNodeIPs\(|validateRootlessNodeIPs\(|rule, m :?= |\{[^{}]*?, )"([a-z0-9-]+)"`)
	ids := map[string]bool{}
	for _, c := range checkRules {
		if ids[c.id] {
			t.Errorf("rule %s twice", c.id)
		}
		ids[c.id] = true
		if c.source == "" || c.phase == "" {
			t.Errorf("rule %s: no source or phase", c.id)
		}
		for _, v := range []string{c.since, c.until} {
			if _, err := profile.ParseVersion(v); v != "" && err != nil {
				t.Errorf("rule %s: %v", c.id, err)
			}
		}
	}
	for _, f := range files {
		if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			if ids[m[1]] {
				used[m[1]] = true
			}
		}
		// for _, name := range []string{"cluster-cidr", "service-cidr"} { … rule: name … }
		for _, m := range regexp.MustCompile(`range \[\]string\{([^}]*)\}`).FindAllStringSubmatch(string(data), -1) {
			for _, q := range regexp.MustCompile(`"([a-z0-9-]+)"`).FindAllStringSubmatch(m[1], -1) {
				if ids[q[1]] {
					used[q[1]] = true
				}
			}
		}
		for _, m := range regexp.MustCompile(`(?:rule: |check\()"([a-z0-9-]+)"`).FindAllStringSubmatch(string(data), -1) {
			if !ids[m[1]] {
				t.Errorf("%s names rule %q, which checkRules does not have", f, m[1])
			}
		}
	}
	for id := range ids {
		if !used[id] {
			t.Errorf("rule %s is used by no check", id)
		}
	}
}

// TestCheckRuleReleases: a rule applies from its since release on and before its until.
func TestCheckRuleReleases(t *testing.T) {
	k3s := profile.K3s()
	for _, tc := range []struct {
		id, version string
		want        bool
	}{
		{"s3-timeout", "v1.32.2+k3s1", false},
		{"s3-timeout", "v1.32.3+k3s1", true},
		{"s3-timeout", "", true},
		{"agent-node-ip", "v1.34.1+k3s1", false},
		{"agent-node-ip", "v1.34.2+k3s1", true},
		{"agent-node-ip-retry", "v1.34.1+k3s1", true},
		{"agent-node-ip-retry", "v1.34.2+k3s1", false},
		{"agent-node-ip-retry", "", false},
		{"node-ip", "v1.22.4+k3s1", true},
	} {
		beh, err := k3s.Behaviour(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := ruleByID(tc.id).applies(beh); got != tc.want {
			t.Errorf("%s at %q: applies %v, want %v", tc.id, tc.version, got, tc.want)
		}
	}
}
