package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const exampleNode = "../../examples/node"

// TestComplete drives __complete as the shell scripts call it: the words after "k3sconf"
// up to the cursor, the last one being the word under the cursor.
func TestComplete(t *testing.T) {
	tests := []struct {
		name   string
		words  []string
		want   []string
		reason string
	}{
		{"commands", []string{"ex"}, []string{"explain"}, "command names by prefix"},
		{"all commands", []string{""}, commandNames(), "the command table, hidden ones left out"},
		{"keys", []string{"--root", exampleNode, "explain", "write-kubeconfig-m"}, []string{"write-kubeconfig-mode"}, "keys of the node under --root"},
		{"keys after global flag", []string{"explain", "--root", exampleNode, "tls"}, []string{"tls-san", "tls-san-security"}, "global flags after the command count"},
		{"keys not repeated", []string{"--root", exampleNode, "explain", "write-kubeconfig-mode", "write-kubeconfig-m"}, []string{}, "a key already named is not offered again"},
		{"agent keys", []string{"--root", exampleNode, "--command", "agent", "explain", "cluster-i"}, []string{}, "--command agent: server-only keys are not offered"},
		{"server keys", []string{"--root", exampleNode, "explain", "cluster-i"}, []string{"cluster-init"}, "the example node is a server"},
		{"rke2 keys", []string{"--root", exampleNode, "--product", "rke2", "explain", "cn"}, []string{"cni"}, "--product rke2: RKE2's flags"},
		{"no node", []string{"--root", "/nonexistent", "explain", "wri"}, []string{}, "no root, no keys, no error"},
		{"product values", []string{"--product", "r"}, []string{"rke2"}, "fixed values"},
		{"command values", []string{"show", "--command", ""}, []string{"server", "agent", "etcd-snapshot"}, "fixed values after the command too"},
		{"bash = split", []string{"--product", "=", "k"}, []string{"k3s"}, "bash splits --product=k at ="},
		{"bash = empty", []string{"--product", "="}, []string{"k3s", "rke2"}, "bash: --product= with nothing after"},
		{"one-word =", []string{"--command=ag"}, []string{"--command=agent"}, "zsh and fish keep --flag=value in one word"},
		{"root is a dir", []string{"--root", ""}, []string{":dir"}, "the shell completes folders"},
		{"config is a file", []string{"check", "--config", "/etc/"}, []string{":file"}, "the shell completes files"},
		{"compose file", []string{"compose", ""}, []string{":file"}, "compose takes a file"},
		{"versions", []string{"--k3s-version", "v1.31"}, []string{"v1.31.8+k3s1", "v1.31.7+k3s1", "v1.31.0+k3s1"}, "the releases where behaviour changes"},
		{"rke2 versions", []string{"--root", exampleNode, "--product", "rke2", "show", "--k3s-version", "v1.33"}, []string{"v1.33.0+rke2r1"}, "RKE2 spelling with --product rke2"},
		{"global flags", []string{"--sh"}, []string{"--show-secrets"}, "flags before the command"},
		{"command flags", []string{"check", "--st"}, []string{"--strict"}, "check's own flag"},
		{"no foreign flags", []string{"show", "--st"}, []string{}, "show has no --strict"},
		{"version flag", []string{"--vers"}, []string{"--version"}, "--version before a command"},
		{"shells", []string{"completion", ""}, []string{"bash", "zsh", "fish"}, "completion SHELL"},
		{"help topics", []string{"help", "com"}, []string{"components", "compose", "completion"}, "help COMMAND"},
		{"unknown command", []string{"frobnicate", ""}, nil, "nothing to offer"},
	}
	for _, tc := range tests {
		got := complete(tc.words)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: __complete %q (-want +got):\n%s(%s)", tc.name, tc.words, diff, tc.reason)
		}
	}
	var out bytes.Buffer
	if code := run([]string{"__complete", "--root", exampleNode, "explain", "write-kubeconfig-m"}, &out, &out); code != exitOK || out.String() != "write-kubeconfig-mode\n" {
		t.Errorf("k3sconf __complete through run: exit %d, output %q", code, out.String())
	}
}

func TestCompletionCommand(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		var out, errb bytes.Buffer
		if code := run([]string{"completion", sh}, &out, &errb); code != exitOK || !strings.Contains(out.String(), "__complete") {
			t.Errorf("k3sconf completion %s: exit %d, output lacks __complete: %s", sh, code, errb.String())
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("k3sconf %s: exit %d, want %d", strings.Join(args, " "), code, exitUsage)
		}
	}
}

// TestCompletionScriptSyntax: each script parses in its shell (bash -n, zsh -n, fish -n).
// zsh and fish are not on the development machine; .ci/run installs them.
func TestCompletionScriptSyntax(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			path, err := exec.LookPath(sh)
			if err != nil {
				t.Skipf("%s is not installed (CI installs it: .ci/run)", sh)
			}
			f := filepath.Join(t.TempDir(), "k3sconf."+sh)
			if err := os.WriteFile(f, []byte(completionScripts[sh]), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(path, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, out)
			}
		})
	}
}

// buildBinary builds k3sconf into a temporary folder on PATH, as a user installs it.
func buildBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "k3sconf"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// TestBashCompletion sources the bash script in a real bash, sets COMP_WORDS and COMP_CWORD
// as bash does for the line typed, calls the completion function and reads COMPREPLY.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	root, err := filepath.Abs(exampleNode)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	script := filepath.Join(t.TempDir(), "k3sconf.bash")
	if err := os.WriteFile(script, []byte(completionScripts["bash"]), 0o644); err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	for _, f := range []string{"docker-compose.yml", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(files, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(files, "node-a"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		words  []string // COMP_WORDS; the last is the word under the cursor
		want   string
		reason string
	}{
		{"command", []string{"k3sconf", "ex"}, "explain", "commands by prefix"},
		{"key", []string{"k3sconf", "--root", root, "explain", "wri"}, "write-kubeconfig write-kubeconfig-group write-kubeconfig-mode write-kubeconfig-name",
			"explain wri<TAB> lists the node's keys"},
		{"flag", []string{"k3sconf", "check", "--str"}, "--strict", "a command's flag"},
		{"no key", []string{"k3sconf", "--root", root, "explain", "zz"}, "", "no key matches: COMPREPLY is empty"},
		{"value after =", []string{"k3sconf", "--product", "=", "rk"}, "rke2", "bash splits --product=rk at ="},
		{"version", []string{"k3sconf", "--k3s-version", "v1.32"}, "v1.32.4+k3s1 v1.32.3+k3s1", "--k3s-version values"},
		{"files", []string{"k3sconf", "compose", "dock"}, "docker-compose.yml", "compose FILE: bash's own file completion"},
		{"dirs", []string{"k3sconf", "--root", "no"}, "node-a", "--root completes folders only: notes.txt is a file"},
	}
	for _, tc := range tests {
		var quoted []string
		for _, w := range tc.words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\n" +
			"COMP_CWORD=" + itoa(len(tc.words)-1) + "\n_k3sconf\necho \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Dir = files
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: bash: %v\n%s", tc.name, err, out)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("%s: COMPREPLY for %q = %q, want %q (%s)", tc.name, tc.words, got, tc.want, tc.reason)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
