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

const kubesprayUsage = `k3sconf kubespray: which value does an Ansible variable take on a host of a kubespray
inventory, from which file, and what did it beat? (resolved as ansible-core 2.14 does for a
play of cluster.yml; nothing is run, nothing is written)

Usage:
  k3sconf kubespray explain VAR... --host HOST -i INVENTORY [--kubespray DIR] [-e EXTRA]... [--json]
  k3sconf kubespray where VAR [--kubespray DIR] [--json]

  explain  the value with its type, its source (file:line:column and precedence level),
           every other assignment in precedence order with why it lost, the variables a
           templated value uses, and findings with a fix each
  where    the tasks and templates of the checkout that use VAR and the tags they run
           under: will --tags X apply a change to VAR?

Flags:
  -i, --inventory PATH  inventory file or folder (repeatable, as ansible-playbook -i)
  --host HOST           the inventory host to resolve for
  --kubespray DIR       the kubespray checkout (default: the current folder)
  -e, --extra-vars X    key=value, a YAML/JSON string, or @file (repeatable, as ansible-playbook -e)
  --json                machine-readable output (docs/schema/kubespray-explain.schema.json)
  --show-secrets        print the values of *password*, *secret*, *token* … variables
                        instead of REDACTED

Exit codes: 0 ok, 1 an error finding (e.g. the variable is defined nowhere), 2 usage
(including an unknown host), 3 an input cannot be read or parsed.

Examples:
  k3sconf kubespray explain kube_proxy_strict_arp container_manager --host node1 -i inventory/mycluster/inventory.ini
  k3sconf kubespray explain kube_version --host node1 -i inventory/mycluster -e kube_version=v1.31.1
  k3sconf kubespray where containerd_version
`

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// runKubespray is `k3sconf kubespray explain|where`.
func runKubespray(args []string, g globals, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(stderr, kubesprayUsage)
			return exitUsage
		}
		fmt.Fprint(stdout, kubesprayUsage)
		return exitOK
	}
	sub := args[0]
	fs := flag.NewFlagSet("kubespray", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var inv, extra multiFlag
	var host, dir string
	jsonOut := g.json
	fs.Var(&inv, "i", "")
	fs.Var(&inv, "inventory", "")
	fs.Var(&extra, "e", "")
	fs.Var(&extra, "extra-vars", "")
	fs.StringVar(&host, "host", "", "")
	fs.StringVar(&dir, "kubespray", ".", "")
	fs.BoolVar(&jsonOut, "json", g.json, "")
	showSecrets := g.showSecrets
	fs.BoolVar(&showSecrets, "show-secrets", g.showSecrets, "")
	var vars []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, kubesprayUsage)
				return exitOK
			}
			fmt.Fprintf(stderr, "k3sconf kubespray: %v\n\n%s", err, kubesprayUsage)
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
		rep, err := kubespray.Explain(kubespray.Options{Dir: dir, Inventory: inv, Host: host, Vars: vars, Extra: extra, ShowSecrets: showSecrets})
		if err != nil {
			return kubesprayErr(stderr, err)
		}
		code := exitOK
		if rep.HasErrors() {
			code = exitProblem
		}
		if rep.InputError {
			code = exitInput
		}
		if jsonOut {
			return writeJSON(stdout, stderr, kubespray.JSON(rep), code)
		}
		kubespray.Text(stdout, rep)
		return code
	}
	fmt.Fprintf(stderr, "k3sconf kubespray: unknown subcommand %q\n\n%s", sub, kubesprayUsage)
	return exitUsage
}

func kubesprayErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "k3sconf kubespray: %v\n", err)
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		return exitInput
	}
	if errors.Is(err, fs.ErrPermission) {
		return exitInput
	}
	return exitUsage
}
