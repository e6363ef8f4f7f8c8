package resolve

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
		{"s3-timeout", "v1.31.7+k3s1", true}, // the March 2025 backport
		{"s3-timeout", "v1.31.6+k3s1", false},
		{"reconcile-interval", "v1.29.15+k3s1", true},
		{"reconcile-interval", "v1.28.15+k3s1", false},
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

const (
	checksPage     = "../docs/checks.md"
	checksBegin    = "<!-- BEGIN checks table: go test ./resolve -run TestChecksPage -update -->"
	checksEnd      = "<!-- END checks table -->"
	checksMirrorAt = "66a14f0e8"
)

// TestChecksPage keeps the table of docs/checks.md what checkRules says.
func TestChecksPage(t *testing.T) {
	var b strings.Builder
	b.WriteString(checksBegin + "\n\n")
	b.WriteString("| check | k3s's message | source (k3s-io/k3s at " + checksMirrorAt + ") | releases | phase |\n|---|---|---|---|---|\n")
	for _, c := range checkRules {
		rel := c.releases()
		if c.commit != "" {
			rel += "; " + c.commit
		}
		src := c.source
		if c.removal != "" {
			src += " (at " + removalAt + ")"
		}
		if c.at != "" {
			src += " (at " + c.at + ")"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.id, mdCell(c.message), mdCell(src), mdCell(rel), c.phase)
	}
	b.WriteString("\n" + checksEnd)
	data, err := os.ReadFile(checksPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	i, j := strings.Index(page, checksBegin), strings.Index(page, checksEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q section", checksPage, checksBegin, checksEnd)
	}
	want := page[:i] + b.String() + page[j+len(checksEnd):]
	if want == page {
		return
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(checksPage, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not what checkRules generates: go test ./resolve -run TestChecksPage -update", checksPage)
}

func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}
