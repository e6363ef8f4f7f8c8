package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFleetSecretCopy: a node whose node-name copies a secret by YAML alias (agent-token:
// &a zebra, node-name: *a) is never named by that value in fleet's text or --json: given
// as a node folder, as show documents written with --show-secrets (with and without a
// salt) or as a salted show document, whose fleet block show fills. The copy's mark
// survives in the document (keys.node-name.secretCopy), so fleet hides the key and the
// name as it hides a secret flag; the same node given twice is still found (compared in
// memory). A node-name that spells the same word without an alias is shown (issue 25).
func TestFleetSecretCopy(t *testing.T) {
	dir := t.TempDir()
	unit := "[Service]\nExecStart=/usr/local/bin/k3s server\n"
	writeFiles(t, dir, map[string]string{
		"n1/etc/systemd/system/k3s.service": unit, "n1/etc/hostname": "host-one\n",
		"n1/etc/rancher/k3s/config.yaml":    "agent-token: &a zebra\nnode-name: *a\netcd-s3-folder: *a\ncluster-cidr: 10.42.0.0/16\n",
		"n2/etc/systemd/system/k3s.service": unit, "n2/etc/hostname": "host-two\n",
		"n2/etc/rancher/k3s/config.yaml": "agent-token: other\nnode-name: zebra\ncluster-cidr: 10.44.0.0/16\n",
	})
	n1 := filepath.Join(dir, "n1")
	doc := func(name string, args ...string) string {
		code, out, errOut := runCLI(append([]string{"--root", n1, "--json", "show"}, args...)...)
		if code == exitUsage {
			t.Fatalf("show %v: %s", args, errOut)
		}
		p := filepath.Join(dir, name)
		writeFiles(t, dir, map[string]string{name: out})
		return p
	}
	shown := doc("shown.json", "--show-secrets")
	salted := doc("salted.json", "--show-secrets", "--secret-salt", "s")
	plain := doc("plain.json", "--secret-salt", "s")
	if strings.Contains(readFile(t, plain), "zebra") {
		t.Errorf("show --json --secret-salt prints the copy (its fleet block's nodeName)")
	}
	for _, tc := range []struct {
		name, reason string
		inputs       []string
		hidden       bool
		want         []string
	}{
		{"folder", "a node folder: the name identity derives is the copy", []string{n1}, true, []string{"REDACTED"}},
		{"show-secrets", "a document written with --show-secrets holds the copy; its mark says what it is", []string{shown}, true, nil},
		{"salted", "its fleet block names the node", []string{salted}, true, nil},
		{"plain-salted", "written without --show-secrets: nothing to hide, nothing compared", []string{plain}, true, nil},
		{"twice", "the same node as a folder and a document: a duplicate name, found in memory and not printed", []string{n1, shown, salted}, true, []string{"duplicate-node-name", "register as node \"REDACTED\""}},
		{"look-alike", "node-name: zebra with no alias is a name", []string{filepath.Join(dir, "n2")}, false, []string{"zebra"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, js := range []bool{false, true} {
				args := []string{"fleet"}
				if js {
					args = append(args, "--json")
				}
				code, out, errOut := runCLI(append(args, tc.inputs...)...)
				if code == exitUsage {
					t.Fatalf("usage: %s", errOut)
				}
				if tc.hidden && strings.Contains(out+errOut, "zebra") {
					t.Errorf("%s (json %v): the copy is printed:\n%s%s", tc.reason, js, out, errOut)
				}
				for _, w := range tc.want {
					if !js && !strings.Contains(out, w) {
						t.Errorf("%s: the text lacks %q:\n%s", tc.reason, w, out)
					}
				}
			}
		})
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
