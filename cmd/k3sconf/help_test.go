package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestCommandHelp: `k3sconf CMD --help`, `k3sconf CMD -h` and `k3sconf help CMD` print the
// same text for every command: its usage line, every flag it takes, and its example.
func TestCommandHelp(t *testing.T) {
	for _, c := range testTree().tree {
		name := commandName(c)
		t.Run(name, func(t *testing.T) {
			var want string
			words := strings.Fields(name)
			for i, args := range [][]string{append([]string{"help"}, words...), append(words, "--help"), append(words, "-h")} {
				var out, errb bytes.Buffer
				if code := run(args, &out, &errb); code != exitOK {
					t.Fatalf("k3sconf %s: exit %d, want 0; stderr: %s", strings.Join(args, " "), code, errb.String())
				}
				if i == 0 {
					want = out.String()
				} else if diff := cmp.Diff(want, out.String()); diff != "" {
					t.Errorf("k3sconf %s differs from k3sconf help %s (-want +got):\n%s", strings.Join(args, " "), name, diff)
				}
			}
			if !strings.HasPrefix(want, "Usage: k3sconf "+name) {
				t.Errorf("help does not start with the usage line:\n%s", want)
			}
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" && !regexp.MustCompile(`(?m)^  (-., )?--`+regexp.QuoteMeta(f.Name)+`\b`).MatchString(want) {
					t.Errorf("help does not list --%s:\n%s", f.Name, want)
				}
			})
			if c.Example == "" || !strings.Contains(want, "\nExample:\n  "+strings.Split(c.Example, "\n")[0]) {
				t.Errorf("help has no example:\n%s", want)
			}
		})
	}
}

func TestHelpErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
		reason string
	}{
		{"unknown topic", []string{"help", "frobnicate"}, exitUsage, `unknown command "frobnicate"`, "a usage error, naming the commands"},
		{"two topics", []string{"help", "show", "check"}, exitUsage, "name one command", "help takes one command"},
		{"top level", []string{"--help"}, exitOK, "", "the overview, as before"},
		{"help alone", []string{"help"}, exitOK, "", "the overview"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.stderr) {
			t.Errorf("%s: k3sconf %s: exit %d, stderr %q; want exit %d and %q (%s)", tc.name, strings.Join(tc.args, " "), code, errb.String(), tc.code, tc.stderr, tc.reason)
		}
		if tc.code == exitOK && out.String() != usage {
			t.Errorf("%s: k3sconf %s did not print the overview", tc.name, strings.Join(tc.args, " "))
		}
	}
}

// TestFlagDocs: every flag of every command has a help text and, when it takes a value, a
// name for it; a flag name means the same kind of flag in every command that has it (the
// root holds one copy of each, so that it may come before the command).
func TestFlagDocs(t *testing.T) {
	kinds := map[string]string{}
	for _, c := range testTree().tree {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if f.Usage == "" {
				t.Errorf("k3sconf %s --%s has no help text", commandName(c), f.Name)
			}
			if f.Value.Type() != "bool" && annotation(f, annArg) == "" {
				t.Errorf("k3sconf %s --%s takes a value but help does not name it", commandName(c), f.Name)
			}
			k := f.Value.Type() + " -" + f.Shorthand
			if prev, ok := kinds[f.Name]; ok && prev != k {
				t.Errorf("--%s is %q in one command and %q in %s", f.Name, prev, k, commandName(c))
			}
			kinds[f.Name] = k
		})
	}
}

// TestCommandTable: the overview's command list and the command table name the same
// commands, so a command added to one is added to the other.
func TestCommandTable(t *testing.T) {
	_, section, _ := strings.Cut(usage, "\nCommands:\n")
	section, _, _ = strings.Cut(section, "\n\n")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if m := regexp.MustCompile(`^  ([a-z][a-z0-9-]*)`).FindStringSubmatch(line); m != nil {
			listed = append(listed, m[1])
		}
	}
	if len(listed) < 8 {
		t.Fatalf("found only %d commands in the overview; the pattern is out of date:\n%s", len(listed), section)
	}
	if diff := cmp.Diff(testTree().commandNames(), listed); diff != "" {
		t.Errorf("command tree (-) and the overview's Commands (+) differ: add the command to usage in main.go:\n%s", diff)
	}
}

// TestQuickStart runs the README's Quick start command (its first line; the second is go
// test ./..., which this is part of) from the repository root.
func TestQuickStart(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Quick start\n.*?```sh\n(.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md has no Quick start with a sh block")
	}
	lines := strings.Split(strings.TrimSpace(string(m[1])), "\n")
	if len(lines) != 2 || lines[1] != "go test ./..." {
		t.Fatalf("the Quick start is two commands, the second go test ./...; got %q", lines)
	}
	args, ok := strings.CutPrefix(lines[0], "go run ./cmd/k3sconf ")
	if !ok {
		t.Fatalf("the Quick start's first command does not run ./cmd/k3sconf: %q", lines[0])
	}
	t.Chdir("../..")
	var out, errb bytes.Buffer
	if code := run(strings.Fields(args), &out, &errb); code != exitOK {
		t.Fatalf("%s: exit %d; stderr: %s", lines[0], code, errb.String())
	}
	for _, want := range []string{"write-kubeconfig-mode = 644", "disable = ", "tls-san = "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: output lacks %q:\n%s", lines[0], want, out.String())
		}
	}
}

var update = flag.Bool("update", false, "rewrite the generated section of docs/cli.md")

const (
	cliReference = "../../docs/cli.md"
	beginMarker  = "<!-- BEGIN generated by TestCLIReference -->\n"
	endMarker    = "<!-- END generated by TestCLIReference -->\n"
)

// TestCLIReference: docs/cli.md's reference — the list of commands, the global flags with
// the commands that take each, and every command's --help text — is generated from the
// command tree, so the page cannot drift from the binary (go generate ./cmd/k3sconf, or
// -update, rewrites it).
func TestCLIReference(t *testing.T) {
	data, err := os.ReadFile(cliReference)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok1 := strings.Cut(string(data), beginMarker)
	_, tail, ok2 := strings.Cut(rest, endMarker)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers %q and %q", cliReference, beginMarker, endMarker)
	}
	want := head + beginMarker + cliReferenceText(testTree()) + endMarker + tail
	if *update {
		if err := os.WriteFile(cliReference, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("%s is out of date; go generate ./cmd/k3sconf (-want +got):\n%s", cliReference, diff)
	}
}

// cliReferenceText is the generated part of docs/cli.md.
func cliReferenceText(a *app) string {
	var b strings.Builder
	cell := func(s string) string {
		return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
	}
	anchor := func(c *cobra.Command) string { return strings.ReplaceAll(c.CommandPath(), " ", "-") }
	b.WriteString("\n## Commands\n\n| command | what it does |\n|---|---|\n")
	for _, c := range a.tree {
		if !c.Hidden {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", cell(commandName(c)+strings.TrimPrefix(c.Use, c.Name())), anchor(c), cell(sentence(c.Short)))
		}
	}
	b.WriteString("\n## Global flags\n\nBefore or after the command, for the commands that take them (each command's help lists\nits own).\n\n| flag | meaning | taken by |\n|---|---|---|\n")
	root := a.tree[0].Root()
	_, globals := visibleFlags(root.Flags())
	for _, f := range globals {
		var by []string
		for _, c := range a.tree {
			if cf := c.Flags().Lookup(f.Name); cf != nil && annotation(cf, annGlobal) != "" {
				by = append(by, commandName(c))
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", cell(flagHead(f)), cell(f.Usage), cell(strings.Join(by, ", ")))
	}
	b.WriteString("\n## Each command's help\n\nWhat `k3sconf COMMAND --help` (or `k3sconf help COMMAND`) prints.\n")
	for _, c := range a.tree {
		if c.Hidden {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n```\n", c.CommandPath())
		writeCommandHelp(&b, c)
		b.WriteString("```\n")
	}
	b.WriteString("\n")
	return b.String()
}

// testTree is the command tree as a run builds it.
func testTree() *app {
	a := &app{out: newOutput(io.Discard), errw: io.Discard}
	a.newRoot(false)
	return a
}

// TestOverviewFlags: the overview's global flags are the root's, so a global flag added to
// the tree is added to k3sconf --help too.
func TestOverviewFlags(t *testing.T) {
	_, section, _ := strings.Cut(usage, "\nGlobal flags (")
	section, _, _ = strings.Cut(section, "\n\n")
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  (?:-., )?--([a-z0-9-]+)`).FindAllStringSubmatch(section, -1) {
		listed = append(listed, m[1])
	}
	var globals []string
	_, gs := visibleFlags(testTree().tree[0].Root().Flags())
	for _, f := range gs {
		globals = append(globals, f.Name)
	}
	if diff := cmp.Diff(globals, listed); diff != "" {
		t.Errorf("the root's global flags (-) and the overview's (+) differ: edit usage in main.go:\n%s", diff)
	}
}
