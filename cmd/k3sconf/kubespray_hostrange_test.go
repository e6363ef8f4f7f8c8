package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestKubesprayHostInUnreadRange: a --host the inventory does not have, where k3sconf did
// not read the inventory whole (a host range over ansible.MaxRangeHosts), says so: the
// range's finding at its file:line:column with the bound comes first, the host "may be
// among the hosts it left out", exit 3; never "(hosts: )" without a why. A range under the
// bound explains the host as before, and an inventory read whole keeps the plain error
// (exit 2).
func TestKubesprayHostInUnreadRange(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ks/cluster.yml": "- name: Install\n  hosts: all\n  vars:\n    kube_version: v1.31.0\n  tasks: []\n",
		"a.ini":          "[kube_node]\nh[0:999999]\n[kube_control_plane]\nh0\n",
		"b.ini":          "[kube_node]\nh[0:999][0:999]\n",
		"c.ini":          "[kube_node]\nh[0:9]\n",
		"d.ini":          "[kube_node]\nh0\nh1\n",
	})
	tests := []struct {
		name, inv string
		code      int
		want      []string
		not       []string
		reason    string
	}{
		{"over-bound", "a.ini", exitInput, []string{"error[input-unreadable] " + filepath.Join(dir, "a.ini") + ":2:1:", "bound of 10000", `host "h5" is not in the inventory`, "(hosts: h0)", `"h5" may be among the hosts it left out`},
			nil, "the range's finding first, then why the host may be missing"},
		{"two-ranges", "b.ini", exitInput, []string{filepath.Join(dir, "b.ini") + ":2:1:", `h[0:999][0:999]`, "(it has no host)", "may be among"},
			[]string{"(hosts: )"}, "no host read: said so, with the finding"},
		{"under-bound", "c.ini", exitOK, []string{"host h5; groups"}, []string{"input-unreadable", "not in the inventory"}, "a range under the bound is expanded"},
		{"read-whole", "d.ini", exitUsage, []string{`host "h5" is not in the inventory`, "(hosts: h0, h1)"}, []string{"may be among", "input-unreadable"}, "an inventory read whole: the plain error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"kubespray", "explain", "kube_version", "--host", "h5", "-i", filepath.Join(dir, tc.inv), "--kubespray", filepath.Join(dir, "ks")}
			code, out, errOut := runCLI(args...)
			if code != tc.code {
				t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.reason, code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("%s: the output lacks %q:\n%s%s", tc.reason, w, out, errOut)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out+errOut, w) {
					t.Errorf("%s: the output holds %q:\n%s%s", tc.reason, w, out, errOut)
				}
			}
		})
	}
}

// TestKubesprayRunsUnreadRange: `kubespray runs -i` with an inventory k3sconf did not read
// whole prints the range's finding (text, and `findings` in --json, which validates
// against the schema), says the hosts left out are not compared, and exits 3; under the
// bound the missing hosts are listed and nothing else changes.
func TestKubesprayRunsUnreadRange(t *testing.T) {
	schemas := loadSchemas(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"run1.log": "PLAY [p] ***\n\nTASK [t] ***\nchanged: [h0]\n\nPLAY RECAP ***\nh0 : ok=1 changed=1 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0\n",
		"a.ini":    "[kube_node]\nh[0:999999]\n[kube_control_plane]\nh0\n",
		"c.ini":    "[kube_node]\nh[0:2]\n",
	})
	for _, tc := range []struct {
		inv      string
		code     int
		want     []string
		not      []string
		findings int
	}{
		{"a.ini", exitInput, []string{"error[input-unreadable] " + filepath.Join(dir, "a.ini") + ":2:1:", "bound of 10000", "the inventory was not read whole"}, nil, 1},
		{"c.ini", exitOK, []string{"not in the last run (in the inventory", "h1, h2"}, []string{"input-unreadable", "not read whole"}, 0},
	} {
		t.Run(tc.inv, func(t *testing.T) {
			args := []string{"kubespray", "runs", filepath.Join(dir, "run1.log"), "-i", filepath.Join(dir, tc.inv)}
			code, out, errOut := runCLI(args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the text lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("the text holds %q:\n%s", w, out)
				}
			}
			code, js, _ := runCLI(append(append([]string{}, args[:1]...), append([]string{"runs", "--json"}, args[2:]...)...)...)
			if code != tc.code {
				t.Errorf("--json: exit %d, want %d", code, tc.code)
			}
			validate(t, schemas, tc.inv, []byte(js), "kubespray runs")
			if n := strings.Count(js, `"code":"input-unreadable"`); n != tc.findings {
				t.Errorf("--json: %d input-unreadable findings, want %d:\n%s", n, tc.findings, js)
			}
		})
	}
}
