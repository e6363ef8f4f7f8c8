package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/kubespray/runs"
	"github.com/k3sconf/k3sconf/output"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// runKubespray is `k3sconf kubespray explain|where`.
func runKubespray(args []string, g globals, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "k3sconf kubespray: name explain, where or runs (k3sconf kubespray --help)")
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		writeKubesprayHelp(stdout)
		return exitOK
	}
	if args[0] == "runs" {
		return runKubesprayRuns(args[1:], g, stdout, stderr)
	}
	if args[0] != "explain" && args[0] != "where" {
		fmt.Fprintf(stderr, "k3sconf kubespray: unknown subcommand %q: name explain, where or runs (k3sconf kubespray --help)\n", args[0])
		return exitUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("kubespray", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var inv, extra multiFlag
	var host, dir, play string
	jsonOut := g.json
	fs.Var(&inv, "i", "")
	fs.Var(&inv, "inventory", "")
	fs.Var(&extra, "e", "")
	fs.Var(&extra, "extra-vars", "")
	fs.StringVar(&host, "host", "", "")
	fs.StringVar(&dir, "kubespray", ".", "")
	fs.StringVar(&play, "play", "", "")
	fs.BoolVar(&jsonOut, "json", g.json, "")
	showSecrets := g.showSecrets
	fs.BoolVar(&showSecrets, "show-secrets", g.showSecrets, "")
	var vars []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				writeCommandHelp(stdout, lookupCommand("kubespray "+sub))
				return exitOK
			}
			fmt.Fprintf(stderr, "k3sconf kubespray %s: %v (k3sconf kubespray %s --help)\n", sub, err, sub)
			return exitUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		vars = append(vars, rest[0])
		rest = rest[1:]
	}
	switch sub {
	case "where":
		if len(vars) != 1 {
			fmt.Fprintln(stderr, "k3sconf kubespray where: name one variable, e.g. `k3sconf kubespray where containerd_version`")
			return exitUsage
		}
		uses, err := kubespray.Where(dir, vars[0])
		if err != nil {
			return kubesprayErr(stderr, err, showSecrets)
		}
		if jsonOut {
			return writeJSON(stdout, stderr, kubespray.WhereJSON(vars[0], uses), exitOK)
		}
		kubespray.WhereText(stdout, vars[0], uses)
		return exitOK
	case "explain":
		if len(vars) == 0 || host == "" || len(inv) == 0 {
			fmt.Fprintln(stderr, "k3sconf kubespray explain: needs VAR..., --host HOST and -i INVENTORY, e.g. `k3sconf kubespray explain container_manager --host node1 -i inventory/mycluster/inventory.ini`")
			return exitUsage
		}
		rep, err := kubespray.Explain(kubespray.Options{Dir: dir, Inventory: inv, Host: host, Vars: vars, Extra: extra, ShowSecrets: showSecrets, Play: play})
		if err != nil {
			return kubesprayErr(stderr, err, showSecrets)
		}
		code := exitOK
		if rep.HasErrors() || rep.Invalid {
			code = exitProblem
		}
		if rep.InputError {
			code = exitInput // 3 wins over 1: the report is incomplete
		}
		if jsonOut {
			return writeJSON(stdout, stderr, kubespray.JSON(rep), code)
		}
		kubespray.Text(stdout, rep)
		return code
	}
	return exitUsage // not reached: sub is explain or where
}

// writeKubesprayHelp is `k3sconf kubespray --help`: both subcommands' help.
func writeKubesprayHelp(w io.Writer) {
	fmt.Fprint(w, "k3sconf kubespray: which value does an Ansible variable take on a host of a kubespray\n"+
		"inventory, from which file, and what did it beat? Resolved as ansible-core 2.14 does for a\n"+
		"play of cluster.yml; nothing is run, nothing is written. Reference: docs/kubespray.md.\n\n")
	writeCommandHelp(w, lookupCommand("kubespray explain"))
	fmt.Fprintln(w)
	writeCommandHelp(w, lookupCommand("kubespray where"))
	fmt.Fprintln(w)
	writeCommandHelp(w, lookupCommand("kubespray runs"))
}

// runKubesprayRuns is `k3sconf kubespray runs LOG…`: what ansible-playbook runs did, and
// whether the last one applied a change (package kubespray/runs).
func runKubesprayRuns(args []string, g globals, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kubespray runs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var inv multiFlag
	var variable, dir string
	jsonOut, showSecrets := g.json, g.showSecrets
	fs.BoolVar(&showSecrets, "show-secrets", g.showSecrets, "")
	fs.Var(&inv, "i", "")
	fs.Var(&inv, "inventory", "")
	fs.StringVar(&variable, "var", "", "")
	fs.StringVar(&dir, "kubespray", ".", "")
	fs.BoolVar(&jsonOut, "json", g.json, "")
	var tags, skipTags multiFlag
	fs.Var(&tags, "t", "")
	fs.Var(&tags, "tags", "")
	fs.Var(&skipTags, "skip-tags", "")
	var logs []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				writeCommandHelp(stdout, lookupCommand("kubespray runs"))
				return exitOK
			}
			fmt.Fprintf(stderr, "k3sconf kubespray runs: %v (k3sconf kubespray runs --help)\n", err)
			return exitUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		logs = append(logs, rest[0])
		rest = rest[1:]
	}
	if len(logs) == 0 {
		fmt.Fprintln(stderr, "k3sconf kubespray runs: name the logs of the runs, oldest first, e.g. `k3sconf kubespray runs run1.log run2.log run3.log` (- for standard input)")
		return exitUsage
	}
	opts := runs.Options{Var: variable, Dir: dir, Inventory: inv, Tags: splitTags(tags), SkipTags: splitTags(skipTags)}
	for _, l := range logs {
		opts.Logs = append(opts.Logs, runs.ReadLog(l, os.Stdin))
	}
	rep, err := runs.Build(opts)
	if err != nil {
		return kubesprayErr(stderr, err, showSecrets)
	}
	rep.Redact(output.NewTextRedactor(showSecrets))
	code := exitOK
	if rep.Failed() {
		code = exitProblem
	}
	if rep.Incomplete() {
		code = exitInput // 3 wins over 1
	}
	if jsonOut {
		return writeJSON(stdout, stderr, runs.JSON(rep), code)
	}
	runs.Text(stdout, rep)
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
	msg := err.Error()
	if !showSecrets {
		msg = kubespray.RedactError(msg) // a malformed -e is echoed back
	}
	fmt.Fprintf(stderr, "k3sconf kubespray: %s\n", msg)
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		return exitProblem // the file does not parse: ansible-playbook stops on it too
	}
	if errors.Is(err, fs.ErrPermission) || isReadError(err) {
		return exitInput // a file named or found that k3sconf cannot read
	}
	return exitUsage
}
