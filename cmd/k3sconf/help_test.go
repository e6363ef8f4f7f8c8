package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommandHelp: `k3sconf CMD --help`, `k3sconf CMD -h` and `k3sconf help CMD` print the
// same text for every command: its usage line, every flag it takes, and its example.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var want string
			for i, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}, {c.name, "--json", "--help"}} {
				var out, errb bytes.Buffer
				if code := run(args, &out, &errb); code != exitOK {
					t.Fatalf("k3sconf %s: exit %d, want 0; stderr: %s", strings.Join(args, " "), code, errb.String())
				}
				if i == 0 {
					want = out.String()
				} else if diff := cmp.Diff(want, out.String()); diff != "" {
					t.Errorf("k3sconf %s differs from k3sconf help %s (-want +got):\n%s", strings.Join(args, " "), c.name, diff)
				}
			}
			if !strings.HasPrefix(want, "Usage: k3sconf "+c.name) {
				t.Errorf("help does not start with the usage line:\n%s", want)
			}
			names := append([]string{}, c.flags...)
			for _, f := range c.own {
				names = append(names, f.name)
			}
			for _, f := range names {
				if !regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(f) + `\b`).MatchString(want) {
					t.Errorf("help does not list --%s:\n%s", f, want)
				}
			}
			if c.example == "" || !strings.Contains(want, "\nExample:\n  "+strings.Split(c.example, "\n")[0]) {
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

// TestFlagDocs: every flag the parser accepts is documented in flagDocs, and every
// documented flag is accepted, so help and completion cannot drift from the parser.
func TestFlagDocs(t *testing.T) {
	var parsed, documented []string
	newFlagSet(&globals{}).VisitAll(func(f *flag.Flag) { parsed = append(parsed, f.Name) })
	for _, f := range flagDocs {
		documented = append(documented, f.name)
	}
	sort.Strings(parsed)
	sort.Strings(documented)
	if diff := cmp.Diff(parsed, documented); diff != "" {
		t.Errorf("flags parsed (-) and documented in flagDocs (+) differ:\n%s", diff)
	}
	for _, c := range commands {
		for _, f := range c.flags {
			if lookupFlag(f) == nil {
				t.Errorf("command %s lists flag --%s, which flagDocs does not have", c.name, f)
			}
		}
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
	if diff := cmp.Diff(commandNames(), listed); diff != "" {
		t.Errorf("command table (-) and the overview's Commands (+) differ: add the row to commands in help.go:\n%s", diff)
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

// TestCLIReference: docs/cli.md carries every command's --help text, generated from the
// command table, so the page cannot drift from the binary.
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
	var b strings.Builder
	for _, c := range commands {
		if c.hidden {
			continue
		}
		fmt.Fprintf(&b, "\n### k3sconf %s\n\n```\n", c.name)
		writeCommandHelp(&b, c)
		b.WriteString("```\n")
	}
	b.WriteString("\n")
	want := head + beginMarker + b.String() + endMarker + tail
	if *update {
		if err := os.WriteFile(cliReference, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("%s is out of date; go test ./cmd/k3sconf -run TestCLIReference -update (-want +got):\n%s", cliReference, diff)
	}
}

// TestSubcommandRows: a row for a command with its own flag set and a two-word name, as the
// fleet and kubespray commands add, is helped and completed like the others.
func TestSubcommandRows(t *testing.T) {
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = append(append([]*command{}, saved...),
		&command{name: "demo sub", args: "X…", synopsis: "a two-word command with its own flags",
			own: []flagDoc{
				{name: "host", arg: "HOST", help: "the host"},
				{name: "mode", arg: "MODE", values: []string{"fast", "slow"}, help: "fast or slow"},
			},
			flags: []string{"json"}, example: "k3sconf demo sub --host h x"},
		&command{name: "demo other", synopsis: "another", example: "k3sconf demo other"})

	var out, errb bytes.Buffer
	if code := runHelp([]string{"demo", "sub"}, &out, &errb); code != exitOK {
		t.Fatalf("help demo sub: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Usage: k3sconf demo sub X… [flags]\n", "\nFlags:\n  --host HOST            the host\n  --mode MODE            fast or slow\n",
		"\nGlobal flags (before or after the command):\n  --json", "\nExample:\n  k3sconf demo sub --host h x\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help demo sub lacks %q:\n%s", want, out.String())
		}
	}
	errb.Reset()
	if code := runHelp([]string{"demo"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "name one of demo sub, other") {
		t.Errorf("help demo: exit %d, stderr %q; want 2 and the subcommands", code, errb.String())
	}

	tests := []struct {
		name   string
		words  []string
		want   []string
		reason string
	}{
		{"first word once", []string{"de"}, []string{"demo"}, "two commands share the first word"},
		{"second word", []string{"demo", ""}, []string{"sub", "other"}, "the subcommands"},
		{"own flags", []string{"demo", "sub", "--"}, []string{"--host", "--mode", "--json", "--help"}, "own flags first, then the shared ones"},
		{"own values", []string{"demo", "sub", "--mode", "s"}, []string{"slow"}, "an own flag's values"},
		{"own values, one word", []string{"demo", "sub", "--mode=f"}, []string{"--mode=fast"}, "zsh/fish form"},
		{"not another's flags", []string{"demo", "other", "--ho"}, []string{}, "--host belongs to demo sub"},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, complete(tc.words)); diff != "" {
			t.Errorf("%s: __complete %q (-want +got):\n%s(%s)", tc.name, tc.words, diff, tc.reason)
		}
	}
}
