package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// Exit codes (README "Exit codes").
const (
	exitOK      = 0
	exitProblem = 1 // check found problems; explain got an unknown key
	exitUsage   = 2
	exitInput   = 3 // a node file cannot be read or parsed
)

func main() {
	tuneGC()
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
  compose [FILE] k3s nodes of a docker compose file: does each keep its identity across
                 docker compose down + up? exit 1 if not, with the lines to add

Global flags (also accepted after the command):
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
  --json                 machine-readable output (schemaVersion 1, see the README)
  --show-secrets         print tokens, passwords and keys instead of REDACTED
  --node-json FILE       status: the node object (kubectl get node NAME -o json), to
                         compare its k3s.io/node-args annotation with the files

Exit codes: 0 ok, 1 problems found (check), a restart pending (status) or unknown
key (explain), 2 usage, 3 a node file cannot be read or parsed.

Examples:
  k3sconf explain write-kubeconfig-mode
  k3sconf --root ./support-bundle check
  k3sconf show --json | jq '.keys.disable'
`

type globals struct {
	root, command, unit, config, version, product string
	nodeJSON                                      string
	json, showSecrets                             bool
	all, strict                                   bool
}

func run(args []string, stdout, stderr io.Writer) int {
	var g globals
	fs := flag.NewFlagSet("k3sconf", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&g.root, "root", "/", "")
	fs.StringVar(&g.command, "command", "", "")
	fs.StringVar(&g.unit, "unit", "", "")
	fs.StringVar(&g.config, "config", "", "")
	fs.StringVar(&g.version, "k3s-version", "", "")
	fs.StringVar(&g.product, "product", "", "")
	fs.StringVar(&g.nodeJSON, "node-json", "", "")
	fs.BoolVar(&g.json, "json", false, "")
	fs.BoolVar(&g.showSecrets, "show-secrets", false, "")
	fs.BoolVar(&g.all, "all", false, "")
	fs.BoolVar(&g.strict, "strict", false, "")
	// Accept flags before and after the command and its arguments.
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return exitOK
			}
			fmt.Fprintf(stderr, "k3sconf: %v\n\n%s", err, usage)
			return exitUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	if len(positional) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, cmdArgs := positional[0], positional[1:]
	if cmd == "help" {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	switch cmd {
	case "compose":
		return runCompose(cmdArgs, g, stdout, stderr)
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
	default:
		fmt.Fprintf(stderr, "k3sconf: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
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
	if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "k3sconf: --root %s: not a directory\n", g.root)
		return exitUsage
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(g.root), Profile: prof, Command: g.command, Unit: g.unit, Config: g.config, Version: g.version})
	if err != nil {
		fmt.Fprintf(stderr, "k3sconf: %v\n", err)
		return exitUsage
	}
	red := report.NewRedactor(res, g.showSecrets)
	if !g.json {
		cw := &colorWriter{dst: stdout, on: useColor(stdout)}
		defer cw.Flush()
		stdout = cw
	}
	code := exitOK
	if res.InputInvalid() {
		code = exitInput
	}
	switch cmd {
	case "show":
		if g.json {
			if isTerminal(stdout) {
				return writeJSON(stdout, stderr, report.JSON(res, red), code)
			}
			// Compact, by the hand-written encoder (same bytes as encoding/json), each
			// key's history rendered as it is written.
			if err := report.StreamJSON(stdout, res, red); err != nil {
				fmt.Fprintf(stderr, "k3sconf: %v\n", err)
				return exitInput
			}
			return code
		}
		report.Show(stdout, res, red, g.all)
	case "args":
		if g.json {
			return writeJSON(stdout, stderr, report.Args(res, red), code)
		}
		report.PrintArgs(stdout, res, red)
	case "sources":
		if g.json {
			return writeJSON(stdout, stderr, res.Sources, code)
		}
		report.Sources(stdout, res)
	case "check":
		if g.json {
			doc := report.JSON(res, red)
			c := checkCode(res, g.strict, code)
			return writeJSON(stdout, stderr, map[string]any{"diagnostics": doc.Diagnostics, "error": doc.Error}, c)
		}
		errs, warns := report.Check(stdout, res, red)
		if code == exitInput {
			return code
		}
		if errs > 0 || (g.strict && warns > 0) {
			return exitProblem
		}
		return exitOK
	case "explain":
		return explain(stdout, stderr, res, red, cmdArgs, g, code)
	case "components":
		return runComponents(g, res, red, stdout, stderr)
	case "status":
		return runStatus(stdout, stderr, g, res, red, code)
	}
	return code
}

func checkCode(res *resolve.Result, strict bool, code int) int {
	if code == exitInput {
		return code
	}
	for _, d := range res.Diagnostics {
		if d.Severity == "error" || (strict && d.Severity == "warning") {
			return exitProblem
		}
	}
	if res.Error != "" {
		return exitProblem
	}
	return exitOK
}

func explain(stdout, stderr io.Writer, res *resolve.Result, red *report.Redactor, names []string, g globals, code int) int {
	asJSON, root := g.json, g.root
	out := map[string]*report.Key{}
	var doc *report.Document
	var ident any
	// The running value, when a process (or --node-json) tells it (issue 8).
	st, lerr := inspectLive(g, res)
	running := map[string]map[string]string{}
	runningValue := func(k *resolve.Key) (string, string, bool) {
		if lerr != nil || st == nil {
			return "", "", false
		}
		return st.Value(k.Name(), g.showSecrets)
	}
	for i, n := range names {
		k := res.Key(strings.TrimLeft(n, "-"))
		if k == nil {
			fmt.Fprintf(stderr, "k3sconf: %s %s has no flag %q%s\n", res.Product, res.Command, n, didYouMean(res, n))
			if !asJSON {
				report.ExplainStray(stdout, res, strings.TrimLeft(n, "-"), red)
			}
			if code == exitOK {
				code = exitProblem
			}
			continue
		}
		if asJSON {
			if doc == nil {
				doc = report.JSON(res, red)
			}
			out[k.Name()] = doc.Keys[k.Name()]
			if v, from, ok := runningValue(k); ok {
				running[k.Name()] = map[string]string{"value": v, "from": from}
			}
			if k.Name() == "node-name" {
				ident = nodeNameJSON(res, root)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		report.Explain(stdout, res, k, red)
		if v, from, ok := runningValue(k); ok {
			now := report.FormatValue(report.KeyValue(k, red))
			if v == now {
				fmt.Fprintf(stdout, "\n  running: %s (%s), the same\n", v, from)
			} else {
				fmt.Fprintf(stdout, "\n  running: %s (%s), which differs: restart %s to apply the files (see `k3sconf status`)\n", v, from, res.Product)
			}
		}
		if k.Name() == "node-name" {
			explainNodeName(stdout, res, root)
		}
	}
	if asJSON {
		result := map[string]any{"keys": out}
		if ident != nil {
			result["identity"] = ident
		}
		if len(running) > 0 {
			result["running"] = running
		}
		return writeJSON(stdout, stderr, result, code)
	}
	return code
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
	return fmt.Sprintf("; did you mean %q?", cs[0].name)
}

func writeJSON(stdout, stderr io.Writer, v any, code int) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	// Indented for a person at a terminal; compact for pipes and files, where re-indenting
	// would cost as much as encoding (jq formats it when wanted).
	if isTerminal(stdout) {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "k3sconf: %v\n", err)
		return exitInput
	}
	return code
}

// isTerminal reports whether w is a terminal. A character-device check is not enough:
// /dev/null is one too, and output sent there must not be coloured or indented (colouring
// 300,000 lines cost seconds).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
