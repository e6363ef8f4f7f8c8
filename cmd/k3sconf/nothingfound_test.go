package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingFound: a --root with no node, --product rke2 on a k3s node and /etc/rancher
// linked out of --root are not "every key has its default": every node command says that no
// node was found, what it looked for, and exits 3 (docs/exit-codes.md); `sources` still
// lists what was looked for. A fleet of no node is never "consistent". Clean: a node with
// only a config file is found.
func TestNothingFound(t *testing.T) {
	empty := t.TempDir()
	k3sNode := exitNode(t, nil)
	linked := t.TempDir()
	if err := os.MkdirAll(filepath.Join(linked, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(k3sNode, "etc/rancher"), filepath.Join(linked, "etc/rancher")); err != nil {
		t.Fatal(err)
	}
	configOnly := t.TempDir()
	if err := os.MkdirAll(filepath.Join(configOnly, "etc/rancher/k3s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(configOnly, "etc/rancher/k3s/config.yaml"), []byte("write-kubeconfig-mode: \"0644\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := []struct {
		name, reason string
		args         []string
		want         []string // in stderr
	}{
		{"empty-root", "a folder with no node", []string{"--root", empty}, []string{"no k3s node found", "k3s.service", "/etc/rancher/k3s"}},
		{"other-product", "--product rke2 on a k3s node names the k3s node it saw", []string{"--root", k3sNode, "--product", "rke2"}, []string{"no rke2 node found", "but k3s is there"}},
		{"link-out-of-root", "/etc/rancher is a link out of --root", []string{"--root", linked}, []string{"no k3s node found", "/etc/rancher is a link to"}},
	}
	for _, r := range roots {
		for _, c := range [][]string{{"show"}, {"show", "--json"}, {"explain", "token"}, {"args"}, {"check"}, {"components"}, {"status"}, {"sources"}} {
			t.Run(r.name+"/"+strings.Join(c, "-"), func(t *testing.T) {
				code, out, errs := runCLI(append(append([]string(nil), r.args...), c...)...)
				if code != exitInput {
					t.Errorf("%s: exit %d, want 3", r.reason, code)
				}
				for _, w := range r.want {
					if !strings.Contains(errs, w) {
						t.Errorf("%s: stderr must say %q: %s", r.reason, w, errs)
					}
				}
				if strings.Contains(out, "every key has its default") {
					t.Errorf("%s: no node is not 'every key has its default': %s", r.reason, out)
				}
				if c[0] == "sources" && !strings.Contains(out, "missing") {
					t.Errorf("sources still lists what was looked for: %s", out)
				}
			})
		}
	}
	if code, _, errs := runCLI("--root", configOnly, "show"); code != exitOK || strings.Contains(errs, "no k3s node") {
		t.Errorf("clean: a config file alone is a node: exit %d, %s", code, errs)
	}
	// fleet: no readable node is not consistent.
	list := filepath.Join(empty, "nodes.json")
	if err := os.WriteFile(list, []byte(`{"kind":"List","apiVersion":"v1","items":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fleet", "--nodes-json", list}, {"fleet", filepath.Join(empty, "nowhere")}} {
		code, out, errs := runCLI(args...)
		if code != exitInput || strings.Contains(out, "consistent:") {
			t.Errorf("k3sconf %s: a fleet of no node must not be consistent (exit %d): %s %s", strings.Join(args, " "), code, out, errs)
		}
		code, out, _ = runCLI(append(args, "--json")...)
		if code != exitInput || !strings.Contains(out, `"consistent":false`) {
			t.Errorf("k3sconf %s --json: consistent must be false (exit %d): %s", strings.Join(args, " "), code, out)
		}
	}
}
