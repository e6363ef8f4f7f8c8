package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
)

const exampleNode = "../../examples/node"

// complete asks `k3sconf __completeNoDesc WORD…` as cobra's scripts do (the words after
// "k3sconf" up to the cursor, the last one the word under the cursor) and returns the
// candidates, or ":dir" or ":file" when the shell is asked for its own folder or file
// completion.
func complete(words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	var out, errb bytes.Buffer
	run(append([]string{"__completeNoDesc"}, words...), &out, &errb)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	d, _ := strconv.Atoi(strings.TrimPrefix(lines[len(lines)-1], ":"))
	directive := cobra.ShellCompDirective(d)
	got := append([]string{}, lines[:len(lines)-1]...)
	switch {
	case len(got) == 0 && directive&cobra.ShellCompDirectiveFilterDirs != 0:
		return []string{":dir"}
	case len(got) == 0 && directive&cobra.ShellCompDirectiveFilterFileExt != 0:
		return []string{":file"}
	case len(got) == 0 && directive&cobra.ShellCompDirectiveNoFileComp == 0:
		return []string{":file"} // the shell's default: files
	}
	return got
}

// TestComplete drives __complete as the shell scripts call it.
func TestComplete(t *testing.T) {
	commands := testTree().commandNames()
	sort.Strings(commands) // cobra lists commands by name
	tests := []struct {
		name   string
		words  []string
		want   []string
		reason string
	}{
		{"commands", []string{"ex"}, []string{"explain"}, "command names by prefix"},
		{"all commands", []string{""}, commands, "the command tree, hidden ones left out"},
		{"keys", []string{"--root", exampleNode, "explain", "write-kubeconfig-m"}, []string{"write-kubeconfig-mode"}, "keys of the node under --root"},
		{"keys after global flag", []string{"explain", "--root", exampleNode, "tls"}, []string{"tls-san", "tls-san-security"}, "global flags after the command count"},
		{"keys not repeated", []string{"--root", exampleNode, "explain", "write-kubeconfig-mode", "write-kubeconfig-m"}, []string{}, "a key already named is not offered again"},
		{"agent keys", []string{"--root", exampleNode, "--command", "agent", "explain", "cluster-i"}, []string{}, "--command agent: server-only keys are not offered"},
		{"server keys", []string{"--root", exampleNode, "explain", "cluster-i"}, []string{"cluster-init"}, "the example node is a server"},
		{"rke2 keys", []string{"--root", exampleNode, "--product", "rke2", "explain", "cn"}, []string{"cni"}, "--product rke2: RKE2's flags"},
		{"no node", []string{"--root", "/nonexistent", "explain", "wri"}, []string{}, "no root, no keys, no error"},
		{"product values", []string{"--product", "r"}, []string{"rke2"}, "fixed values"},
		{"command values", []string{"show", "--command", ""}, []string{"server", "agent", "etcd-snapshot"}, "fixed values after the command too"},
		{"one-word =", []string{"--command=ag"}, []string{"agent"}, "--flag=value in one word: cobra answers the value, the script keeps the prefix"},
		{"root is a dir", []string{"--root", ""}, []string{":dir"}, "the shell completes folders"},
		{"config is a file", []string{"check", "--config", "/etc/"}, []string{":file"}, "the shell completes files"},
		{"compose file", []string{"compose", ""}, []string{":file"}, "compose takes a file"},
		{"versions", []string{"--k3s-version", "v1.31"}, []string{"v1.31.8+k3s1", "v1.31.7+k3s1", "v1.31.0+k3s1"}, "the releases where behaviour changes"},
		{"rke2 versions", []string{"--root", exampleNode, "--product", "rke2", "show", "--k3s-version", "v1.33"}, []string{"v1.33.0+rke2r1"}, "RKE2 spelling with --product rke2"},
		{"global flags", []string{"--sh"}, []string{"--show-secrets"}, "flags before the command"},
		{"command flags", []string{"check", "--st"}, []string{"--strict"}, "check's own flag"},
		{"no foreign flags", []string{"show", "--st"}, []string{}, "show has no --strict"},
		{"no node flags for compose", []string{"compose", "--ro"}, []string{}, "--root does not apply to compose"},
		{"version flag", []string{"--vers"}, []string{"--version"}, "--version before a command"},
		{"shells", []string{"completion", ""}, []string{"bash", "zsh", "fish", "powershell"}, "completion SHELL"},
		{"help topics", []string{"help", "com"}, []string{"components", "compose", "completion"}, "help COMMAND"},
		{"help subcommands", []string{"help", "kubespray", ""}, []string{"explain", "where", "runs"}, "help kubespray SUB"},
		{"kubespray subcommands", []string{"kubespray", "w"}, []string{"where"}, "a subcommand by prefix"},
		{"kubespray flags", []string{"kubespray", "explain", "--ho"}, []string{"--host"}, "a subcommand's own flag"},
		{"output values", []string{"show", "-o", ""}, []string{"json", "yaml"}, "the printer flag's values"},
		{"unknown command", []string{"frobnicate", ""}, []string{}, "nothing to offer (the old protocol said nil; cobra answers no candidates and no files)"},
	}
	for _, tc := range tests {
		got := complete(tc.words)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: __complete %q (-want +got):\n%s(%s)", tc.name, tc.words, diff, tc.reason)
		}
	}
}

// TestCompleteKubesprayVars: kubespray explain and where complete the variables the
// checkout's roles and plays define, and explain --host the hosts of the -i inventories.
func TestCompleteKubesprayVars(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cluster.yml", "- hosts: all\n  vars:\n    container_from_play: x\n  roles:\n    - role: containerd\n")
	write("roles/containerd/defaults/main.yml", "containerd_version: 1.7.0\ncontainerd_max_container_log_line_size: 16384\n")
	write("roles/containerd/vars/main.yml", "containerd_bin_dir: /usr/local/bin\n")
	write("inventory/hosts.yml", "all:\n  hosts:\n    node1:\n    node2:\n    etcd1:\n")
	inv := filepath.Join(dir, "inventory", "hosts.yml")
	for _, tc := range []struct {
		name   string
		words  []string
		want   []string
		reason string
	}{
		{"where", []string{"kubespray", "where", "--kubespray", dir, "containerd_v"}, []string{"containerd_version"}, "role defaults"},
		{"vars", []string{"kubespray", "explain", "--kubespray", dir, "containerd_b"}, []string{"containerd_bin_dir"}, "role vars"},
		{"play vars", []string{"kubespray", "explain", "--kubespray", dir, "container_"}, []string{"container_from_play"}, "a play's vars:"},
		{"where takes one", []string{"kubespray", "where", "--kubespray", dir, "containerd_version", ""}, []string{}, "where names one variable"},
		{"no checkout", []string{"kubespray", "where", "--kubespray", filepath.Join(dir, "nope"), "c"}, []string{}, "no cluster.yml, nothing offered"},
		{"hosts", []string{"kubespray", "explain", "-i", inv, "--host", "node"}, []string{"node1", "node2"}, "--host: the inventory's hosts"},
		{"no inventory", []string{"kubespray", "explain", "--host", "n"}, []string{}, "no -i, no hosts"},
	} {
		if diff := cmp.Diff(tc.want, complete(tc.words)); diff != "" {
			t.Errorf("%s: __complete %q (-want +got):\n%s(%s)", tc.name, tc.words, diff, tc.reason)
		}
	}
}

func TestCompletionCommand(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
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

// completionScript is `k3sconf completion SHELL`.
func completionScript(t *testing.T, sh string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"completion", sh}, &out, &errb); code != exitOK {
		t.Fatalf("k3sconf completion %s: exit %d: %s", sh, code, errb.String())
	}
	return out.String()
}

// TestCompletionScriptSyntax: each script parses in its shell (bash -n, zsh -n, fish -n;
// pwsh when installed). zsh and fish are not on every development machine; .ci/run
// installs them.
func TestCompletionScriptSyntax(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		t.Run(sh, func(t *testing.T) {
			bin, args := sh, []string{"-n"}
			if sh == "powershell" {
				bin, args = "pwsh", []string{"-NoProfile", "-Command", "$null = [ScriptBlock]::Create((Get-Content -Raw $args[0]))"}
			}
			path, err := exec.LookPath(bin)
			if err != nil {
				t.Skipf("%s is not installed (CI installs zsh and fish: .ci/run)", bin)
			}
			f := filepath.Join(t.TempDir(), "k3sconf."+sh)
			if err := os.WriteFile(f, []byte(completionScript(t, sh)), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(path, append(args, f)...).CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", bin, err, out)
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
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o644); err != nil {
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
			"COMP_CWORD=" + itoa(len(tc.words)-1) + "\n__start_k3sconf\necho \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Dir = files
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.Output() // stderr: compopt outside a real completion complains
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

// TestFishCompletion runs cobra's fish script in a real fish: complete -C asks for the
// completions of a command line as fish would at <TAB>.
func TestFishCompletion(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish is not installed (CI installs it: .ci/run)")
	}
	root, err := filepath.Abs(exampleNode)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	script := filepath.Join(t.TempDir(), "k3sconf.fish")
	if err := os.WriteFile(script, []byte(completionScript(t, "fish")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line, want, reason string
	}{
		{"k3sconf --root " + root + " explain write-kubeconfig-m", "write-kubeconfig-mode", "the node's keys"},
		{"k3sconf --product=r", "--product=rke2", "--flag=value: fish keeps the prefix"},
		{"k3sconf check --str", "--strict\texit 1 on warnings too", "a command's flag, with its help"},
		{"k3sconf kubespray wh", "where\tthe tasks and templates of a kubespray checkout that use a variable, and the tags they run under", "a subcommand"},
	} {
		cmd := exec.Command(fish, "--no-config", "-c", "source "+script+"; complete -C '"+tc.line+"'")
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: fish: %v\n%s", tc.line, err, out)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("complete -C %q = %q, want %q (%s)", tc.line, got, tc.want, tc.reason)
		}
	}
}
