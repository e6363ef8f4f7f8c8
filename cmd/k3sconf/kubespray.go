package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubesprayreport"
	"github.com/k3sconf/k3sconf/internal/runsreport"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/kubespray/runs"
	"github.com/k3sconf/k3sconf/output"
)

// kubesprayCommand is `k3sconf kubespray explain|where|runs`; it returns the parent and its
// subcommands in the order help lists them.
func (a *app) kubesprayCommand() (*cobra.Command, []*cobra.Command) {
	parent := &cobra.Command{Use: "kubespray", Short: "an Ansible variable of a kubespray inventory: explain, where, runs",
		ValidArgsFunction:          noCompletion,
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprintln(a.errw, "k3sconf kubespray: name explain, where or runs (k3sconf kubespray --help)")
			} else {
				fmt.Fprintf(a.errw, "k3sconf kubespray: unknown subcommand %q%s: name explain, where or runs (k3sconf kubespray --help)\n", args[0], suggest(cmd, args[0]))
			}
			a.code = exitUsage
			return nil
		}}
	k := &a.ks
	inventory := func(fs *pflag.FlagSet, help string) {
		listFlag(fs, &k.inventory, "inventory", "i", help, argName("PATH"), kind("file"))
	}
	checkout := func(fs *pflag.FlagSet, help string) {
		strFlag(fs, &k.dir, "kubespray", "", ".", help, argName("DIR"), kind("dir"))
	}
	explain := &cobra.Command{Use: "explain VAR…", Short: "the value an Ansible variable takes on a host of a kubespray inventory, where it came from, and what it beat",
		Long: "Resolved as ansible-core 2.14 does at the variable's use sites: each task, template and\n" +
			"handler using it, for each play and role of kubespray's cluster.yml that runs it on that host\n" +
			"(said once when the value is the same everywhere, each value otherwise): the\n" +
			"value with its type, its source (file:line:column and precedence level), every other\n" +
			"assignment in precedence order with why it lost, the variables a templated value uses,\n" +
			"and findings with a fix each. Exit 1 on an error finding (a variable defined nowhere) or a\n" +
			"file that does not parse; 2 on usage or a host the inventory does not have; 3 when an input\n" +
			"cannot be read, or the host may be among hosts of a range k3sconf did not expand.",
		Example: "k3sconf kubespray explain container_manager --host node1 -i inventory/mycluster/inventory.ini\n" +
			"k3sconf kubespray explain kube_version --host node1 -i inventory/mycluster -e kube_version=v1.31.1",
		ValidArgsFunction: a.completeKubesprayVars,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runKubesprayExplain(args, a.g, a.ks, a.out, a.errw)
			return nil
		}}
	fs := explain.Flags()
	fs.SortFlags = false
	inventory(fs, "inventory file or folder (repeatable, as ansible-playbook -i)")
	strFlag(fs, &k.host, "host", "", "", "the inventory host to resolve for", argName("HOST"), kind("host"))
	checkout(fs, "the kubespray checkout (default: the current folder)")
	listFlag(fs, &k.extraVars, "extra-vars", "e", "key=value, a YAML/JSON string, or @file (repeatable)", argName("X"))
	strFlag(fs, &k.play, "play", "", "", "only the use sites in this play of cluster.yml (its name:)", argName("NAME"))
	strFlag(fs, &k.facts, "facts", "", "", "the host's setup facts: what ansible -m setup HOST prints, or a folder of HOST.json files (a jsonfile fact cache)", argName("DIR|FILE"), kind("file"))
	addPrintFlags(fs, a, "kubespray explain")
	addSecretsFlag(fs, &a.g, "print *password*, *secret*, *token* … variables instead of REDACTED")

	where := &cobra.Command{Use: "where VAR", Short: "the tasks and templates of a kubespray checkout that use a variable, and the tags they run under",
		Long: "Answers \"will re-running with --tags X apply my change to VAR?\": the tasks of cluster.yml\n" +
			"that use the variable or render a template using it, the --tags that run them as\n" +
			"ansible-core 2.14 selects them (imports, includes, tasks_from, apply:, always, never),\n" +
			"the handlers they notify and what those restart, and one line per tag.",
		Example:           "k3sconf kubespray where containerd_version",
		ValidArgsFunction: a.completeKubesprayVars,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runKubesprayWhere(args, a.g, a.ks, a.out, a.errw)
			return nil
		}}
	fs = where.Flags()
	fs.SortFlags = false
	checkout(fs, "the kubespray checkout (default: the current folder)")
	addPrintFlags(fs, a, "kubespray where")

	runsCmd := &cobra.Command{Use: "runs LOG…", Short: "what ansible-playbook runs did per host, and whether the last one applied your change",
		Long: "Reads ansible-playbook output (the default callback's text, with or without profile_tasks\n" +
			"or as log_path writes it, or the json or jsonl callback's; - for standard input), oldest\n" +
			"run first. Per run: the PLAY RECAP per host and its verdict, ignored and rescued failures\n" +
			"(not the verdict), the slowest tasks, the tasks changed per host. Then the last run's\n" +
			"changes per host, split into those every earlier run made too and the new ones. With\n" +
			"--var: did the tasks that use the variable change, and did their handlers run? With\n" +
			"--tags/--skip-tags (the last run's: its log does not print them): which of those tasks\n" +
			"the run could reach, as ansible-core 2.14 selects them. Task output is never printed.\n" +
			"Exit 1 when the last run failed or has no PLAY RECAP; 3 when a log cannot be read or -i's\n" +
			"inventory is not read whole (a host range over k3sconf's bound).\n" +
			"Reference: docs/kubespray.md.",
		Example: "ansible-playbook -i inventory/mycluster cluster.yml > run1.log   # and run2.log, run3.log\n" +
			"k3sconf kubespray runs run1.log run2.log run3.log --var containerd_max_container_log_line_size",
		ValidArgsFunction: completeFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runKubesprayRuns(args, a.g, a.ks, a.out, a.errw)
			return nil
		}}
	fs = runsCmd.Flags()
	fs.SortFlags = false
	strFlag(fs, &k.variable, "var", "", "", "follow the tasks of the checkout that use VAR and the handlers they notify", argName("VAR"))
	checkout(fs, "the kubespray checkout, for --var (default: the current folder)")
	listFlag(fs, &k.tags, "tags", "t", "the last run's --tags (comma-separated, repeatable), for --var: the tasks they select", argName("TAGS"))
	listFlag(fs, &k.skipTags, "skip-tags", "", "the last run's --skip-tags (comma-separated, repeatable), for --var", argName("TAGS"))
	inventory(fs, "inventory file or folder (repeatable): its hosts missing from the last run are named")
	addPrintFlags(fs, a, "kubespray runs")
	addSecretsFlag(fs, &a.g, "print the secrets in task names and ERROR! lines instead of REDACTED")

	subs := []*cobra.Command{explain, where, runsCmd}
	parent.AddCommand(subs...)
	return parent, subs
}

// writeKubesprayHelp is `k3sconf kubespray --help`: the three subcommands' help.
func writeKubesprayHelp(w io.Writer, parent *cobra.Command) {
	fmt.Fprint(w, "k3sconf kubespray: which value does an Ansible variable take on a host of a kubespray\n"+
		"inventory, from which file, and what did it beat? Resolved as ansible-core 2.14 does for a\n"+
		"play of cluster.yml; nothing is run, nothing is written. Reference: docs/kubespray.md.\n")
	for _, name := range []string{"explain", "where", "runs"} {
		for _, c := range parent.Commands() {
			if c.Name() == name {
				fmt.Fprintln(w)
				writeCommandHelp(w, c)
			}
		}
	}
}

// runKubesprayWhere is `k3sconf kubespray where VAR`.
func runKubesprayWhere(vars []string, g globals, k kubesprayFlags, stdout, stderr io.Writer) int {
	if len(vars) != 1 {
		fmt.Fprintln(stderr, "k3sconf kubespray where: name one variable, e.g. `k3sconf kubespray where containerd_version`")
		return exitUsage
	}
	smallHeapGC()
	uses, err := kubespray.Where(k.dir, vars[0])
	if err != nil {
		return kubesprayErr(stderr, err, g.showSecrets)
	}
	if g.json {
		return writeJSON(stdout, stderr, kubesprayreport.WhereJSON(vars[0], uses), exitOK)
	}
	kubesprayreport.WhereText(stdout, vars[0], uses)
	return exitOK
}

// runKubesprayExplain is `k3sconf kubespray explain VAR…`.
func runKubesprayExplain(vars []string, g globals, k kubesprayFlags, stdout, stderr io.Writer) int {
	if len(vars) == 0 || k.host == "" || len(k.inventory) == 0 {
		fmt.Fprintln(stderr, "k3sconf kubespray explain: needs VAR..., --host HOST and -i INVENTORY, e.g. `k3sconf kubespray explain container_manager --host node1 -i inventory/mycluster/inventory.ini`")
		return exitUsage
	}
	smallHeapGC()
	rep, err := kubespray.Explain(kubespray.Options{Dir: k.dir, Inventory: k.inventory, Host: k.host, Vars: vars, Extra: k.extraVars, ShowSecrets: g.showSecrets, Play: k.play, Facts: k.facts})
	if err != nil {
		return kubesprayErr(stderr, err, g.showSecrets)
	}
	code := exitOK
	if rep.HasErrors() || rep.Invalid {
		code = exitProblem
	}
	if rep.InputError {
		code = exitInput // 3 wins over 1: the report is incomplete
	}
	if g.json {
		return writeJSON(stdout, stderr, kubesprayreport.JSON(rep), code)
	}
	kubesprayreport.Text(stdout, rep)
	return code
}

// runKubesprayRuns is `k3sconf kubespray runs LOG…`: what ansible-playbook runs did, and
// whether the last one applied a change (package kubespray/runs).
func runKubesprayRuns(logs []string, g globals, k kubesprayFlags, stdout, stderr io.Writer) int {
	if len(logs) == 0 {
		fmt.Fprintln(stderr, "k3sconf kubespray runs: name the logs of the runs, oldest first, e.g. `k3sconf kubespray runs run1.log run2.log run3.log` (- for standard input)")
		return exitUsage
	}
	opts := runs.Options{Var: k.variable, Dir: k.dir, Inventory: k.inventory, Tags: splitTags(k.tags), SkipTags: splitTags(k.skipTags)}
	for _, l := range logs {
		opts.Logs = append(opts.Logs, runs.ReadLog(l, os.Stdin))
	}
	rep, err := runs.Build(opts)
	if err != nil {
		return kubesprayErr(stderr, err, g.showSecrets)
	}
	rep.Redact(output.NewTextRedactor(g.showSecrets))
	code := exitOK
	if rep.Failed() {
		code = exitProblem
	}
	if rep.Incomplete() {
		code = exitInput // 3 wins over 1
	}
	if g.json {
		return writeJSON(stdout, stderr, runsreport.JSON(rep), code)
	}
	runsreport.Text(stdout, rep)
	return code
}

// splitTags reads --tags and --skip-tags as ansible-playbook does (ansible-core 2.14
// cli/__init__.py post_process_args): each value is a comma-separated list, repeated values
// add up, and every tag is stripped of spaces; empty ones are dropped.
func splitTags(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func kubesprayErr(stderr io.Writer, err error, showSecrets bool) int {
	red := output.NewTextRedactor(showSecrets) // a malformed -e is echoed back
	// The findings that may be why (an unknown --host in an inventory k3sconf did not read
	// whole: a host range over its bound), first, at their file:line:column.
	var ds diag.Diagnostics
	if errors.As(err, &ds) {
		for _, d := range ds {
			fmt.Fprintf(stderr, "k3sconf kubespray: %s[%s]", d.Severity, d.Code)
			if !d.Pos.IsZero() {
				fmt.Fprintf(stderr, " %s:", d.Pos)
			}
			fmt.Fprintf(stderr, " %s\n", red.Scrub(d.Message))
			if d.Hint != "" {
				fmt.Fprintf(stderr, "  fix: %s\n", red.Scrub(d.Hint))
			}
		}
	}
	fmt.Fprintf(stderr, "k3sconf kubespray: %s\n", red.Scrub(err.Error()))
	if ds.HasErrors() {
		return exitInput // the inventory was not read whole: the report cannot be made
	}
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		return exitProblem // the file does not parse: ansible-playbook stops on it too
	}
	if errors.Is(err, fs.ErrPermission) || isReadError(err) {
		return exitInput // a file named or found that k3sconf cannot read
	}
	return exitUsage
}
