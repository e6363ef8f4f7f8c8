package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Help: `k3sconf help CMD`, `k3sconf CMD --help` and `-h` print the same text, made from the
// command tree (cli.go): the usage line, the synopsis (Short) as a sentence, what the
// command does (Long), its own flags, the global flags it takes, and its example. The
// overview (`k3sconf --help`, `k3sconf help`) is the usage text in main.go; TestCommandTable
// keeps its command list and the tree in step, and docs/cli.md is generated from the same
// functions (TestCLIReference).

// help is the tree's help function (cobra calls it for --help and -h).
func (a *app) help(cmd *cobra.Command, _ []string) {
	switch {
	case !cmd.HasParent():
		fmt.Fprint(a.out, usage)
	case cmd.Name() == "kubespray" && !cmd.Parent().HasParent():
		writeKubesprayHelp(a.out, cmd)
	default:
		writeCommandHelp(a.out, cmd)
	}
}

func (a *app) helpCommand() *cobra.Command {
	return &cobra.Command{Use: "help [COMMAND]", Short: "this text, or one command's flags and an example",
		Example: "k3sconf help explain",
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return filterPrefix(a.subcommandNames(strings.Join(args, " ")), toComplete), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = a.runHelp(args)
			return nil
		}}
}

// runHelp implements `k3sconf help [COMMAND]`.
func (a *app) runHelp(args []string) int {
	stdout, stderr := a.out, a.errw
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	name := strings.Join(args, " ")
	if c := a.lookupCommand(name); c != nil {
		writeCommandHelp(stdout, c)
		return exitOK
	}
	if subs := a.subcommandNames(name); len(subs) > 0 {
		fmt.Fprintf(stderr, "k3sconf help: name one of %s %s\n", name, strings.Join(subs, ", "))
		return exitUsage
	}
	if len(args) > 1 && a.lookupCommand(args[0]) != nil {
		fmt.Fprintf(stderr, "k3sconf help: name one command (got %q)\n", args)
		return exitUsage
	}
	root := a.tree[0].Root()
	fmt.Fprintf(stderr, "k3sconf help: unknown command %q%s (commands: %s)\n", name, suggest(root, args[0]), strings.Join(a.commandNames(), ", "))
	return exitUsage
}

// lookupCommand finds a command of the tree by its name after "k3sconf" ("kubespray where").
func (a *app) lookupCommand(name string) *cobra.Command {
	for _, c := range a.tree {
		if commandName(c) == name {
			return c
		}
	}
	return nil
}

// commandName is a command's path without "k3sconf ".
func commandName(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// commandNames lists the commands' first words, in the tree's order.
func (a *app) commandNames() []string { return a.subcommandNames("") }

// subcommandNames lists the next words of the commands whose names start with the words of
// prefix ("" for the first word; "kubespray" for explain, where and runs).
func (a *app) subcommandNames(prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range a.tree {
		rest, ok := commandName(c), true
		if prefix != "" {
			rest, ok = strings.CutPrefix(rest, prefix+" ")
		}
		if word, _, _ := strings.Cut(rest, " "); ok && !c.Hidden && !seen[word] {
			seen[word] = true
			out = append(out, word)
		}
	}
	return out
}

// writeCommandHelp prints one command's usage line, what it does, its flags and an example.
func writeCommandHelp(w io.Writer, c *cobra.Command) {
	line := c.CommandPath()
	if args := strings.TrimPrefix(c.Use, c.Name()); args != "" {
		line += args
	}
	own, global := visibleFlags(c.Flags())
	if len(own)+len(global) > 0 {
		line += " [flags]"
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", line, sentence(c.Short))
	if c.Long != "" {
		fmt.Fprintf(w, "\n%s\n", c.Long)
	}
	writeFlags(w, "Flags", own)
	writeFlags(w, "Global flags (before or after the command)", global)
	if c.Example != "" {
		fmt.Fprintf(w, "\nExample:\n")
		for _, l := range strings.Split(c.Example, "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

func writeFlags(w io.Writer, title string, flags []*pflag.Flag) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range flags {
		head := flagHead(f)
		for i, l := range strings.Split(f.Usage, "\n") {
			if i > 0 {
				head = ""
			}
			fmt.Fprintf(w, "  %-22s %s\n", head, l)
		}
	}
}

// sentence makes a synopsis a sentence: a capital first, a full stop unless it ends with a
// question mark.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if strings.HasSuffix(s, "?") || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
