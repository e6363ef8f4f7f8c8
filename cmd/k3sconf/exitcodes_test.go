package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exitNode is statusNode(t, false) (a server whose running process matches its files, so
// every command, status included, exits 0) changed by edit.
func exitNode(t *testing.T, edit func(t *testing.T, dir string)) string {
	t.Helper()
	dir := statusNode(t, false)
	// A config check finds nothing in (unquoted 0644 is an error finding).
	writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: \"0644\"\n")
	if edit != nil {
		edit(t, dir)
	}
	return dir
}

// writeNodeFile writes a file dated two hours before statusNode's k3s started, so status
// sees no change since the start.
func writeNodeFile(t *testing.T, dir, p, content string) {
	t.Helper()
	host := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.WriteFile(host, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1714550600, 0).Add(-2 * time.Hour)
	if err := os.Chtimes(host, old, old); err != nil {
		t.Fatal(err)
	}
}

// tooBig makes a file k3sconf will not read (over its 16 MiB limit) without writing 16 MiB:
// a sparse file. k3s and systemd would read it; k3sconf cannot, so its report is incomplete.
// (A permission error is the everyday case, but tests run as root in CI, where chmod 000
// does not stop a read.)
func tooBig(p string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Truncate(filepath.Join(dir, filepath.FromSlash(p)), 17<<20); err != nil {
			t.Fatal(err)
		}
	}
}

func brokenYAML(t *testing.T, dir string) {
	writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml", "token: abc\n  bad: indentation: here\n")
}

// TestExitCodes holds the one exit-code rule (docs/exit-codes.md) for every command: 0 ok,
// 1 the node has a problem, 2 usage, 3 k3sconf could not read some input; 3 wins over 1.
func TestExitCodes(t *testing.T) {
	nodes := []struct {
		name, reason string
		edit         func(t *testing.T, dir string)
		code         int
	}{
		{name: "ok", reason: "a node k3s starts, running what its files say", code: exitOK},
		{name: "broken-yaml", reason: "config.yaml does not parse: k3s refuses to start (a node problem, not a read failure)",
			edit: brokenYAML, code: exitProblem},
		{name: "refused-unit", reason: "two ExecStart= in a Type=simple unit: systemd refuses the unit",
			edit: func(t *testing.T, dir string) {
				writeNodeFile(t, dir, "etc/systemd/system/k3s.service",
					"[Service]\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server --disable traefik\nExecStart=/usr/local/bin/k3s server\n")
			}, code: exitProblem},
		{name: "fatal-flag", reason: "K3S_DEBUG=yes: k3s stops at the app level (could not parse yes as bool)",
			edit: func(t *testing.T, dir string) {
				writeNodeFile(t, dir, "etc/systemd/system/k3s.service.env", "K3S_NODE_NAME=node-a\nK3S_DEBUG=yes\n")
			}, code: exitProblem},
		{name: "flag-in-one-word", reason: "'--disable traefik' as one word: flag provided but not defined",
			edit: func(t *testing.T, dir string) {
				writeNodeFile(t, dir, "etc/systemd/system/k3s.service",
					"[Service]\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server '--disable traefik'\n")
			}, code: exitProblem},
		{name: "dropins-is-a-file", reason: "a file where config.yaml.d belongs: k3s stops with \"not a directory\"; k3sconf read everything",
			edit: func(t *testing.T, dir string) {
				writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml.d", "x\n")
			}, code: exitProblem},
		{name: "unreadable-envfile", reason: "k3sconf cannot read the env file (too big for it): the report is incomplete",
			edit: tooBig("etc/systemd/system/k3s.service.env"), code: exitInput},
		{name: "unreadable-config", reason: "k3sconf cannot read config.yaml: the report is incomplete",
			edit: tooBig("etc/rancher/k3s/config.yaml"), code: exitInput},
		{name: "hostname-fifo", reason: "a FIFO at /etc/hostname is unreadable input, not an absent file: incomplete",
			edit: func(t *testing.T, dir string) {
				p := filepath.Join(dir, "etc/hostname")
				os.Remove(p)
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			}, code: exitInput},
		{name: "unreadable-and-broken", reason: "both apply: 3 wins, because the report is incomplete",
			edit: func(t *testing.T, dir string) {
				brokenYAML(t, dir)
				tooBig("etc/systemd/system/k3s.service.env")(t, dir)
			}, code: exitInput},
	}
	commands := [][]string{{"show"}, {"explain", "disable"}, {"args"}, {"sources"}, {"check"}, {"components"}, {"status"}}
	for _, n := range nodes {
		dir := exitNode(t, n.edit)
		for _, c := range commands {
			for _, js := range []bool{false, true} {
				args := append([]string{"--root", dir}, c...)
				if js {
					args = append(args, "--json")
				}
				name := n.name + "/" + strings.Join(c, "-")
				if js {
					name += "/json"
				}
				t.Run(name, func(t *testing.T) {
					code, out, errOut := runCLI(args...)
					if code != n.code {
						t.Errorf("%s: k3sconf %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", n.reason, strings.Join(args[2:], " "), code, n.code, out, errOut)
					}
				})
			}
		}
	}

	// Cases of one command.
	ok := exitNode(t, nil)
	incomplete := exitNode(t, tooBig("etc/systemd/system/k3s.service.env"))
	compose := t.TempDir()
	writeNodeFile(t, compose, "stock.yml", "services:\n  server:\n    image: rancher/k3s\n    command: server\n")
	writeNodeFile(t, compose, "broken.yml", "services:\n  server:\n   image: x\n  bad\n")
	cases := []struct {
		name, reason string
		args         []string
		code         int
	}{
		{name: "explain-unknown-key", reason: "explain of a key the command has no flag for: a problem",
			args: []string{"--root", ok, "explain", "disabel"}, code: exitProblem},
		{name: "explain-unknown-key-incomplete", reason: "3 wins over the unknown key",
			args: []string{"--root", incomplete, "explain", "disabel"}, code: exitInput},
		{name: "missing-root", reason: "a --root that is not there is input k3sconf cannot read",
			args: []string{"--root", filepath.Join(ok, "nowhere"), "show"}, code: exitInput},
		{name: "missing-root-json", reason: "the same with --json",
			args: []string{"--root", filepath.Join(ok, "nowhere"), "check", "--json"}, code: exitInput},
		{name: "root-is-a-file", reason: "a --root that is a file cannot be read as a node",
			args: []string{"--root", filepath.Join(ok, "etc/rancher/k3s/config.yaml"), "show"}, code: exitInput},
		{name: "status-node-json-missing", reason: "a --node-json file that is not there cannot be read",
			args: []string{"--root", ok, "--node-json", filepath.Join(ok, "nowhere.json"), "status"}, code: exitInput},
		{name: "status-node-json-not-json", reason: "a --node-json file that is no node object is a wrong argument",
			args: []string{"--root", ok, "--node-json", filepath.Join(ok, "etc/rancher/k3s/config.yaml"), "status"}, code: exitUsage},
		{name: "usage-unknown-command", reason: "usage", args: []string{"frobnicate"}, code: exitUsage},
		{name: "usage-bad-flag", reason: "usage", args: []string{"--frob", "show"}, code: exitUsage},
		{name: "usage-bad-version", reason: "a version that is no version is a usage error",
			args: []string{"--root", ok, "--k3s-version", "banana", "show"}, code: exitUsage},
		{name: "strict-warning", reason: "check --strict: a warning is a problem",
			args: []string{"--root", exitNode(t, func(t *testing.T, dir string) {
				writeNodeFile(t, dir, "etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: 0644\nkublet-arg: [a=b]\n")
			}), "--strict", "check"}, code: exitProblem},
		{name: "compose-identity-lost", reason: "compose: a node that loses its identity across down + up",
			args: []string{"compose", filepath.Join(compose, "stock.yml")}, code: exitProblem},
		{name: "compose-broken-yaml", reason: "compose: a file docker compose cannot parse is the project's problem",
			args: []string{"compose", filepath.Join(compose, "broken.yml")}, code: exitProblem},
		{name: "compose-missing-file", reason: "compose: a named file that is not there cannot be read",
			args: []string{"compose", filepath.Join(compose, "nowhere.yml")}, code: exitInput},
		{name: "compose-two-files", reason: "usage", args: []string{"compose", "a.yml", "b.yml"}, code: exitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(tc.args...)
			if code != tc.code {
				t.Errorf("%s: k3sconf %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.reason, strings.Join(tc.args, " "), code, tc.code, out, errOut)
			}
		})
	}
}
