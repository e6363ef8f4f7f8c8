package resolve_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestConditions follows systemd.unit(5) (systemd 252): "!" negates, "|" makes a condition
// triggering (one of them must hold), an empty assignment resets the list, Assert fails the
// start; absent paths count only where the node's files hold the folder.
func TestConditions(t *testing.T) {
	tests := []struct {
		name, reason string
		unitLines    string
		files        []string
		refuses      string // part of Result.Error, "" for none
		notes        int    // unit-condition-not-evaluated notes
	}{
		{"exists", "the file is there", "ConditionPathExists=/etc/rancher/k3s/ok\n", []string{"/etc/rancher/k3s/ok"}, "", 0},
		{"missing", "the folder is there, the file is not: skipped", "ConditionPathExists=/etc/rancher/k3s/ok\n", []string{"/etc/rancher/k3s/other"}, "is skipped", 0},
		{"folder-absent", "a folder the node's files do not hold says nothing: named as not evaluated", "ConditionPathExists=/opt/bin/k3s\n", nil, "", 1},
		{"negated", "!path: the file must not exist, and it does", "ConditionPathExists=!/etc/rancher/k3s/disabled\n", []string{"/etc/rancher/k3s/disabled"}, "is skipped", 0},
		{"negated-ok", "!path of a file that is absent", "ConditionPathExists=!/etc/rancher/k3s/disabled\n", []string{"/etc/rancher/k3s/x"}, "", 0},
		{"trigger-one-holds", "one triggering condition is enough", "ConditionPathExists=|/etc/rancher/k3s/a\nConditionPathExists=|/etc/rancher/k3s/b\n", []string{"/etc/rancher/k3s/b"}, "", 0},
		{"trigger-none", "no triggering condition holds", "ConditionPathExists=|/etc/rancher/k3s/a\nConditionPathExists=|/etc/rancher/k3s/b\n", []string{"/etc/rancher/k3s/c"}, "is skipped", 0},
		{"reset", "an empty assignment drops the earlier conditions", "ConditionPathExists=/etc/rancher/k3s/a\nConditionPathExists=\n", []string{"/etc/rancher/k3s/c"}, "", 0},
		{"assert", "an assertion that fails fails the start", "AssertFileNotEmpty=/etc/rancher/k3s/token\n", []string{"/etc/rancher/k3s/token"}, "Assertion failed", 0},
		{"binary", "a missing binary in /usr/local/bin is no evidence: node copies leave binaries out", "ConditionPathExists=/usr/local/bin/k3s\n", []string{"/usr/local/bin/k3s-killall.sh"}, "", 1},
		{"not-evaluated", "a host check is named, assumed to hold", "ConditionHost=node1\n", nil, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			unit := "[Unit]\nDescription=k3s\n" + tc.unitLines + "[Service]\nType=notify\nExecStart=/usr/local/bin/k3s server\n"
			_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte(unit), 0o644)
			for _, f := range tc.files {
				_ = afero.WriteFile(fs, f, nil, 0o644) // empty: FileNotEmpty fails
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			if (tc.refuses == "") != (res.Error == "") || !strings.Contains(res.Error, tc.refuses) {
				t.Errorf("%s: error %q, want one containing %q", tc.reason, res.Error, tc.refuses)
			}
			notes := 0
			for _, d := range res.Diagnostics {
				if d.Code == "unit-condition-not-evaluated" {
					notes++
				}
			}
			if notes != tc.notes {
				t.Errorf("%s: %d not-evaluated notes, want %d", tc.reason, notes, tc.notes)
			}
		})
	}
}
