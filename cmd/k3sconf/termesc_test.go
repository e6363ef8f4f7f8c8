package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// evil holds every kind of control sequence a stranger's bundle can carry: CSI (clear the
// screen), OSC (set the title, ended by BEL), a CR that would overwrite the line, DEL and
// the C1 CSI U+009B.
const evil = "\x1b[2J\x1b]0;pwned\x07\rX\x7f\u009b1m"

// yamlEvil is evil as a YAML double-quoted scalar writes it (YAML refuses raw controls).
const yamlEvil = `\e[2J\e]0;pwned\a\rX\x7f\u009b1m`

// controls returns the control characters (other than tab and newline) left in s.
func controls(s string) []rune {
	var out []rune
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				out = append(out, rune(s[i]))
				continue
			}
		}
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f {
			out = append(out, r)
		}
	}
	return out
}

// TestNoControlCharactersReachTheTerminal: file names and values with ESC, CSI, OSC, BEL,
// CR, DEL and C1 reach every command's output (text and JSON, stdout and stderr) only
// escaped, and every JSON document stays valid. The escaped form must show up, so the test
// cannot pass by the input never reaching the output.
func TestNoControlCharactersReachTheTerminal(t *testing.T) {
	dir := exitNode(t, func(t *testing.T, dir string) {
		writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: \"0644\"\nnode-label: [\"a="+yamlEvil+"\"]\nkubelet-arg: \"x"+yamlEvil+"\"\n")
		if err := os.MkdirAll(filepath.Join(dir, "etc/rancher/k3s/config.yaml.d"), 0o755); err != nil {
			t.Fatal(err)
		}
		// A file name with escapes: the sources list and every origin name it.
		writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml.d/50-"+strings.ReplaceAll(evil, "\r", "")+".yaml", "node-label+: [\"b="+yamlEvil+"\"]\n")
	})
	// A manifest with escapes in its name (components lists it) and a node name with escapes
	// (fleet shows it).
	if err := os.MkdirAll(filepath.Join(dir, "var/lib/rancher/k3s/server/manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeNodeFile(t, dir, "var/lib/rancher/k3s/server/manifests/app"+strings.ReplaceAll(evil, "\r", "")+".bak", "x\n")
	named := exitNode(t, func(t *testing.T, dir string) {
		writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml", "node-name: \"n"+yamlEvil+"\"\n")
	})
	// The same file name holding broken YAML: the "k3s refuses to start" line names it.
	refused := exitNode(t, func(t *testing.T, dir string) {
		if err := os.MkdirAll(filepath.Join(dir, "etc/rancher/k3s/config.yaml.d"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml.d/50-"+strings.ReplaceAll(evil, "\r", "")+".yaml", "bad: [\n")
	})
	compose := filepath.Join(t.TempDir(), "c"+strings.ReplaceAll(evil, "\r", "")+".yml")
	if err := os.WriteFile(compose, []byte("services:\n  server:\n    image: rancher/k3s\n    hostname: \"h\\e[2J\"\n    command: server --node-label \"x=\\e]0;t\\a\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv := t.TempDir()
	if err := os.WriteFile(filepath.Join(inv, "hosts.yml"), []byte("all:\n  hosts:\n    node1:\n      x: \"v\\e[2J\\a\\r\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ks := filepath.Join("..", "..", "kubespray", "testdata", "tree")
	commands := [][]string{
		{"--root", refused, "show"}, {"--root", refused, "check"}, {"--root", refused, "explain", "token"}, {"--root", refused, "sources"},
		{"--root", dir, "show"}, {"--root", dir, "show", "--all"}, {"--root", dir, "explain", "node-label", "kubelet-arg", "nodelabel"},
		{"--root", dir, "args"}, {"--root", dir, "sources"}, {"--root", dir, "check"}, {"--root", dir, "components"},
		{"--root", dir, "status"}, {"fleet", named}, {"compose", compose},
		{"kubespray", "explain", "x", "--host", "node1", "-i", filepath.Join(inv, "hosts.yml"), "--kubespray", ks, "--show-secrets"},
	}
	for _, c := range commands {
		for _, js := range []bool{false, true} {
			args := c
			if js {
				args = append(append([]string(nil), c...), "--json")
			}
			t.Run(strings.Join(args[min(2, len(args)-1):], " "), func(t *testing.T) {
				_, out, errs := runCLI(args...)
				if bad := controls(out + errs); len(bad) > 0 {
					t.Errorf("control characters %q reach the terminal:\nstdout:\n%s\nstderr:\n%s", bad, out, errs)
				}
				if !slices.Contains(args, "status") && !strings.Contains(out+errs, `\u001b`) && !strings.Contains(out+errs, `\x1b`) {
					t.Errorf("the escaped ESC must be in the output (else the test proves nothing):\n%s\n%s", out, errs)
				}
				if js && strings.TrimSpace(out) != "" && !json.Valid([]byte(out)) {
					t.Errorf("--json output is no longer valid JSON:\n%s", out)
				}
			})
		}
	}
}

// TestUsageErrorsEscaped: cobra's own messages quote the command line (an unknown command, a
// flag's bad value); they pass the text redactor and the escaper like every other byte.
func TestUsageErrorsEscaped(t *testing.T) {
	const esc = "\x1b]0;owned\a\x1b[2J"
	const secret = "token=K10c0ffee::server:d00d"
	for _, args := range [][]string{
		{"sh" + esc + "w"},
		{"show", "--json=" + esc},
		{"-o", esc, "show"},
		{"-o", secret, "show"},
		{"show", "--json=" + secret},
		{"kubespray", "x" + esc},
		{"help", "x" + esc},
		{"--root", ".", "show", "--k3s-version", esc},
	} {
		code, out, errs := runCLI(args...)
		if code != exitUsage {
			t.Errorf("k3sconf %q: exit %d, want %d", args, code, exitUsage)
		}
		if bad := controls(out + errs); len(bad) > 0 {
			t.Errorf("k3sconf %q: control characters %q reach the terminal:\n%s", args, bad, errs)
		}
		if strings.Contains(out+errs, "c0ffee") {
			t.Errorf("k3sconf %q: the secret is on stderr:\n%s", args, errs)
		}
	}
}
