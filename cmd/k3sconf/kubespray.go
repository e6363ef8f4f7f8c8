package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/kubespray"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// runKubespray is `k3sconf kubespray explain|where`.
func runKubespray(args []string, g globals, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "k3sconf kubespray: name explain or where (k3sconf kubespray --help)")
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		writeKubesprayHelp(stdout)
		return exitOK
	}
	if args[0] != "explain" && args[0] != "where" {
		fmt.Fprintf(stderr, "k3sconf kubespray: unknown subcommand %q: name explain or where (k3sconf kubespray --help)\n", args[0])
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
			return kubesprayErr(stderr, err)
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
			return kubesprayErr(stderr, err)
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
}

func kubesprayErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "k3sconf kubespray: %v\n", err)
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		return exitProblem // the file does not parse: ansible-playbook stops on it too
	}
	if errors.Is(err, fs.ErrPermission) {
		return exitInput
	}
	return exitUsage
}
