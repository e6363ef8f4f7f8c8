package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	// The collector's first percentage before the packages' initialisation allocates
	// (internal/startgc); tuneGC takes over in main.
	_ "github.com/k3sconf/k3sconf/internal/startgc"
	"github.com/k3sconf/k3sconf/internal/termesc"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// Exit codes, one rule for every command (docs/exit-codes.md). When both 1 and 3 apply, 3
// wins: the report is incomplete, so "no problem found" in it cannot be trusted either.
const (
	exitOK      = 0
	exitProblem = 1 // the node has a problem: k3s or systemd would refuse it, check found errors, …
	exitUsage   = 2
	exitInput   = 3 // k3sconf could not read some of its input: the report is incomplete
)

// worst combines exit codes by the precedence 3 > 1 > 0 (2 never reaches here).
func worst(codes ...int) int {
	w := exitOK
	for _, c := range codes {
		w = max(w, c)
	}
	return w
}

// nodeCode is the exit code a node's resolution gives every command: 3 when some input
// could not be read, 1 when k3s or systemd would refuse to start the node.
func nodeCode(res *resolve.Result) int {
	switch {
	case res.Incomplete():
		return exitInput
	case res.Refused():
		return exitProblem
	}
	return exitOK
}

//go:generate go test -run TestCLIReference -update

func main() {
	tuneGC()
	go adviseHugePages()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `k3sconf explains a k3s node's effective configuration: the value of every flag,
where it came from (file:line), and why every other setting lost.

Usage:
  k3sconf [global flags] COMMAND [command flags] [args]

Commands:
  show           the effective configuration, one key per line with its origin
                 (--all adds keys left at their defaults)
  explain KEY…   the value in force, where it came from, and every other assignment
                 in precedence order with the reason it lost
  args           the argv k3s really parses: config-file values spliced in after the
                 subcommand, before the command-line arguments
  sources        every input considered, missing and ignored ones included
  check          findings with a fix each; exit 1 on errors (--strict: on warnings too)
  status         do the files say what runs? when k3s started, files changed since,
                 a pending daemon-reload, keys whose running value differs; exit 1 if
                 anything is pending
  components     packaged components and AddOns of a server: enabled, disabled or
                 skipped, and why
  values CHART [PATH…]
                 the values a HelmChart is installed with (traefik, …), where each came
                 from (HelmChart, HelmChartConfig, spec.set, chart defaults) and why the
                 others lost
  compose [FILE] k3s nodes of a docker compose file: does each keep its identity across
                 docker compose down + up? exit 1 if not, with the lines to add
  fleet INPUT…   compare many nodes as k3s compares a joining server (k3sconf fleet --help)
  kubespray      explain VAR… --host H -i INV: an Ansible variable of a kubespray inventory,
                 its source and what it beat; where VAR: the tasks and tags using it
                 runs LOG…: ansible-playbook runs per host; did the last apply a change?
  version        the k3sconf version and the newest k3s and RKE2 releases it models
  completion SHELL
                 a completion script for bash, zsh, fish or powershell
  help [COMMAND] this text, or one command's flags and an example
                 (also: k3sconf COMMAND --help)

Global flags (before or after the command; each command takes only the flags its help
lists, and names the command a flag of another belongs to):
  --root DIR             read the node's files under DIR (a support bundle, a mounted disk);
                         paths in the output are as on the node (default /)
  --product k3s|rke2     the product (default: detected from the units and /etc/rancher/*)
  --command NAME         server, agent or etcd-snapshot (default: from the unit found)
  --unit PATH            the systemd unit to read (default: k3s.service or k3s-agent.service
                         in /etc/systemd/system, /usr/local/lib/systemd/system, /lib/systemd/system)
  --config PATH          the config file to read instead of the one k3s would choose
  --k3s-version VERSION  model this k3s or RKE2 release, e.g. v1.30.5+k3s1 or v1.30.5+rke2r1
                         (default: newest); releases before v1.31.8, v1.32.4 and v1.33.0
                         parse flags with urfave/cli v1
  --json                 machine-readable output (schemaVersion 2, see docs/json.md)
  -o, --output FORMAT    json or yaml: the --json document, as JSON or as YAML
  --show-secrets         print tokens, passwords and keys instead of REDACTED
Long flags take two dashes (--root, not -root). Command flags: k3sconf help COMMAND.

Exit codes (every command): 0 ok; 1 the node has a problem: k3s or systemd would
refuse to start it (broken YAML, a unit systemd refuses, a fatal flag), check found
errors, a restart is pending (status), an unknown key (explain), an identity lost
(compose); 2 usage; 3 k3sconf could not read some of its input (permission, a FIFO or
device, an I/O error, a missing --root or no node found), so the report is incomplete.
3 wins over 1.

Examples:
  k3sconf explain write-kubeconfig-mode
  k3sconf --root ./support-bundle check
  k3sconf show --json | jq '.keys.disable'
  k3sconf help explain
`

// globals holds the values of the flags, shared by the commands that take them (flags.go
// defines each flag once; cli.go gives every command the ones it takes).
type globals struct {
	root, command, unit, config, version, product string
	nodeJSON, secretSalt, nodesJSON               string
	namespace, chart, objects, helm, render       string
	json, showSecrets                             bool
	all, strict                                   bool
}

// run is the whole command. Every byte it writes, on standard output and standard error,
// in text and JSON, passes one control-character escaper (internal/termesc) after the
// renderers (and so after the redactor) made it: names and values from a stranger's files
// cannot drive the terminal. Colour, added for terminals, comes after the escaper.
func run(args []string, stdout, stderr io.Writer) int {
	out := newOutput(stdout)
	errw := termesc.NewWriter(stderr)
	a := &app{out: out, errw: errw, stdin: os.Stdin}
	code := a.execute(args)
	out.flush()
	_ = errw.Flush()
	return code
}

// runNode runs a command that reads one node (show, explain, args, sources, check, status,
// components, values) with its positional arguments.
func (a *app) runNode(cmd string, cmdArgs []string) int {
	g, stdout, stderr := a.g, io.Writer(a.out), a.errw
	switch cmd {
	case "show", "args", "sources", "check", "components", "status":
		if len(cmdArgs) > 0 {
			fmt.Fprintf(stderr, "k3sconf %s: takes no arguments (got %q)\n", cmd, cmdArgs)
			return exitUsage
		}
	case "explain":
		if len(cmdArgs) == 0 {
			fmt.Fprintln(stderr, "k3sconf explain: name at least one key, e.g. `k3sconf explain write-kubeconfig-mode`")
			return exitUsage
		}
	case "values":
		if len(cmdArgs) == 0 {
			fmt.Fprintln(stderr, "k3sconf values: name a HelmChart, e.g. `k3sconf values traefik`")
			return exitUsage
		}
	}
	var prof *profile.Profile
	if g.product != "" && g.product != "auto" {
		p, err := profile.ByName(g.product)
		if err != nil {
			fmt.Fprintf(stderr, "k3sconf: --product: %v\n", err)
			return exitUsage
		}
		prof = p
	}
	// A --root that is not there is input k3sconf cannot read, not a usage error: the
	// command line is well formed (a support bundle not unpacked yet, a disk not mounted).
	if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
		why := "not a directory"
		if err != nil {
			why = err.Error()
		}
		fmt.Fprintf(stderr, "k3sconf: --root %s: %s\n", g.root, why)
		return exitInput
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(g.root), Profile: prof, Command: g.command, Unit: g.unit, Config: g.config, Version: g.version})
	collectAfterResolve()
	if err != nil {
		fmt.Fprintf(stderr, "k3sconf: %v\n", err)
		return exitUsage
	}
	if res.NotFound != "" {
		// Nothing to report on: not "every key has its default". Said on stderr, exit 3, as
		// for a --root that is not there; `sources` still lists what was looked for.
		where := "on this machine"
		if !isLiveRoot(g.root) {
			where = "under --root " + g.root
		}
		fmt.Fprintf(stderr, "k3sconf: %s: %s\n", where, res.NotFound)
		if cmd != "sources" || g.json {
			return exitInput
		}
	}
	red := report.NewRedactor(res, g.showSecrets)
	if !g.json {
		colorOutput(stdout)
	}
	code := nodeCode(res)
	switch cmd {
	case "show":
		if g.json {
			if isTerminal(stdout) || outputFormat(stdout) == "yaml" {
				doc := nodereport.JSON(res, red)
				doc.Fleet = showFleet(g, res)
				return writeJSON(stdout, stderr, doc, code)
			}
			// Compact, by the hand-written encoder (same bytes as encoding/json), each
			// key's history rendered as it is written.
			doc := nodereport.StreamingJSON(res, red)
			doc.Fleet = showFleet(g, res)
			if err := nodereport.WriteJSON(stdout, doc); err != nil {
				fmt.Fprintf(stderr, "k3sconf: %v\n", err)
				return exitInput
			}
			return code
		}
		nodereport.Show(stdout, res, red, g.all)
		// Counted as check counts, over the same findings (without what runs: show does
		// not inspect the running process).
		nodereport.FindingsSummary(stdout, res, findings.All(k3sconf.Node(g.root), res, nil, g.root))
	case "args":
		if g.json {
			return writeJSON(stdout, stderr, nodereport.ArgsJSON(res, red), code)
		}
		nodereport.PrintArgs(stdout, res, red)
	case "sources":
		if g.json {
			return writeJSON(stdout, stderr, nodereport.SourcesJSON(res), code)
		}
		nodereport.Sources(stdout, res)
	case "check":
		return runCheck(g, res, red, stdout, stderr, code)
	case "explain":
		return explain(stdout, stderr, res, red, cmdArgs, g, code)
	case "components":
		return runComponents(g, res, red, stdout, stderr)
	case "status":
		return runStatus(stdout, stderr, g, res, red, code)
	case "values":
		return runValues(g, res, red, cmdArgs, a.stdin, stdout, stderr)
	}
	return code
}

func explain(stdout, stderr io.Writer, res *resolve.Result, red *output.Redactor, names []string, g globals, code int) int {
	asJSON, root := g.json, g.root
	doc := nodereport.ExplainJSON(res, red)
	// The running value, when a process (or --node-json) tells it (issue 8).
	st, lerr := inspectLive(g, res)
	code = worst(code, nodeJSONCode(stderr, g, lerr))
	runningValue := func(k *resolve.Key) (string, string, bool) {
		if lerr != nil || st == nil {
			return "", "", false
		}
		return st.Value(k.Name(), g.showSecrets)
	}
	for i, n := range names {
		k := res.Key(strings.TrimLeft(n, "-"))
		if k == nil {
			guess := didYouMean(res, n)
			fmt.Fprintf(stderr, "k3sconf: %s %s has no flag %q%s\n", res.Product, res.Command, n, didYouMeanText(guess))
			if !asJSON {
				nodereport.ExplainStray(stdout, res, strings.TrimLeft(n, "-"), red)
			}
			doc.Unknown = append(doc.Unknown, nodereport.UnknownKey{Name: n, DidYouMean: guess})
			code = worst(code, exitProblem)
			continue
		}
		if asJSON {
			doc.Keys[k.Name()] = nodereport.KeyJSON(k, red)
			if v, from, ok := runningValue(k); ok {
				if doc.Running == nil {
					doc.Running = map[string]nodereport.RunningValue{}
				}
				doc.Running[k.Name()] = nodereport.RunningValue{Value: v, From: from}
			}
			if k.Name() == "node-name" {
				doc.Identity = nodeNameJSON(res, root, red)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		nodereport.Explain(stdout, res, k, red)
		if v, from, ok := runningValue(k); ok {
			now := report.FormatValue(report.KeyValue(k, red))
			if v == now {
				fmt.Fprintf(stdout, "\n  running: %s (%s), the same\n", v, from)
			} else {
				fmt.Fprintf(stdout, "\n  running: %s (%s), which differs: restart %s to apply the files (see `k3sconf status`)\n", v, from, res.Product)
			}
		}
		if k.Name() == "node-name" {
			explainNodeName(stdout, res, root, red)
		}
	}
	if asJSON {
		return writeJSON(stdout, stderr, doc, code)
	}
	return code
}

func didYouMeanText(guess string) string {
	if guess == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", guess)
}

func didYouMean(res *resolve.Result, name string) string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, k := range res.Keys {
		for _, n := range k.Flag.Names() {
			if d := fuzzy.Distance(name, n); d <= 3 {
				cs = append(cs, cand{k.Name(), d})
			}
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	return cs[0].name
}

// writeJSON writes a command's document: JSON, or YAML for -o yaml (the same document,
// converted from its JSON, so the two cannot differ in content or key order).
func writeJSON(stdout, stderr io.Writer, v any, code int) int {
	if outputFormat(stdout) == "yaml" {
		if err := writeYAML(stdout, v); err != nil {
			fmt.Fprintf(stderr, "k3sconf: %v\n", err)
			return exitInput
		}
		return code
	}
	// Indented for a person at a terminal; compact for pipes and files, where re-indenting
	// would cost as much as encoding (jq formats it when wanted).
	if err := output.WriteJSON(stdout, v, isTerminal(stdout)); err != nil {
		fmt.Fprintf(stderr, "k3sconf: %v\n", err)
		return exitInput
	}
	return code
}

// isTerminal reports whether w is a terminal. A character-device check is not enough:
// /dev/null is one too, and output sent there must not be coloured or indented (colouring
// 300,000 lines cost seconds).
func isTerminal(w io.Writer) bool {
	if o, ok := w.(*stdoutWriter); ok {
		w = o.raw
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
