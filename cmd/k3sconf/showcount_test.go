package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShowCountsWhatCheckLists: the findings line of show counts what check lists on the same
// node: errors, warnings and notes, the components' and the identity's findings included
// (show said "2 finding(s)" where check listed 2 warnings and a note; issue 26).
func TestShowCountsWhatCheckLists(t *testing.T) {
	tmp := t.TempDir()
	write := func(root, name, text string) string {
		t.Helper()
		p := filepath.Join(tmp, root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(tmp, root)
	}
	unit := "[Service]\nExecStart=/usr/local/bin/k3s server\n"
	nodes := []struct {
		name, root, reason string
	}{
		{"example", exampleNode, "warnings and a note (an ignored drop-in)"},
		{"rke2", "../../examples/rke2-node", "the RKE2 example"},
		{"broken", write("broken", "etc/rancher/k3s/config.yaml", "token: abc\n  bad: indentation: here\n"), "one broken file: one error, not two"},
		{"agent", func() string {
			write("agent", "etc/systemd/system/k3s-agent.service", "[Service]\nExecStart=/usr/local/bin/k3s agent\n")
			return write("agent", "etc/rancher/k3s/config.yaml", "disable: traefik\n")
		}(), "a refusal: counted as an error"},
		{"component", func() string {
			write("component", "etc/systemd/system/k3s.service", unit)
			return write("component", "etc/rancher/k3s/config.yaml", "disable: [traefk]\n")
		}(), "a component finding: not the resolver's, check lists it"},
		{"clean", write("clean", "etc/systemd/system/k3s.service", unit), "nothing to count: show says nothing"},
	}
	checkLine := regexp.MustCompile(`(?m)^(\d+) errors?, (\d+) warnings?, (\d+) notes?$`)
	for _, n := range nodes {
		t.Run(n.name, func(t *testing.T) {
			var show, check, errb bytes.Buffer
			run([]string{"--root", n.root, "show"}, &show, &errb)
			run([]string{"--root", n.root, "check"}, &check, &errb)
			want := ""
			if m := checkLine.FindStringSubmatch(check.String()); m != nil {
				var parts []string
				for i, word := range []string{"error", "warning", "note"} {
					switch m[i+1] {
					case "0":
					case "1":
						parts = append(parts, "1 "+word)
					default:
						parts = append(parts, m[i+1]+" "+word+"s")
					}
				}
				want = strings.Join(parts, ", ") + "; run `k3sconf check` for details."
			} else if !strings.Contains(check.String(), "no findings") {
				t.Fatalf("check prints neither a count nor \"no findings\":\n%s", check.String())
			}
			got := ""
			if m := regexp.MustCompile("(?m)^.*; run `k3sconf check` for details[.]$").FindString(show.String()); m != "" {
				got = m
			}
			if got != want {
				t.Errorf("%s: show says %q, check counts %q\ncheck:\n%s", n.reason, got, want, check.String())
			}
		})
	}
}
