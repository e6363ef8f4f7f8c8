package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/k3sconf/k3sconf/output"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The command tree (spf13/cobra, as kubectl, helm and k3s): each command a constructor that
// returns its *cobra.Command with its own flags (flags.go). cobra parses and dispatches;
// k3sconf keeps what is its own: the exit codes (0, 1, 2, 3: cobra's errors and usage
// printing are silenced and every error it returns is a usage error, exit 2), the help
// text (help.go), and the writers every byte passes through (the redactor and the
// control-character escaper, cobra's own messages included).

// app is one run of k3sconf: the values of its flags, its writers, and the exit code the
// command chose.
type app struct {
	g            globals
	output       string // -o json|yaml
	printVersion bool   // --version before any command
	ks           kubesprayFlags
	out          *stdoutWriter
	errw         io.Writer
	stdin        io.Reader
	code         int
	// tree lists the commands in the order the overview, help and docs/cli.md show them;
	// "kubespray explain" is one entry, kubespray itself none.
	tree []*cobra.Command
}

// kubesprayFlags are the flags of the kubespray subcommands.
type kubesprayFlags struct {
	inventory, extraVars, tags, skipTags []string
	host, dir, play, variable, facts     string
}

// usageError is a usage error worded for the user (exit 2), with the command whose --help
// the message points to.
type usageError struct {
	msg string
	cmd *cobra.Command
}

func (e *usageError) Error() string { return e.msg }

// execute runs the command line args and returns the exit code.
func (a *app) execute(args []string) int {
	completing := len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
	root := a.newRoot(completing)
	root.SetArgs(args)
	root.SetOut(a.out)
	root.SetErr(a.errw)
	root.SetIn(a.stdin)
	cmd, err := root.ExecuteC()
	if err != nil {
		a.usageError(cmd, err, args)
		return exitUsage
	}
	if completing {
		return exitOK
	}
	return a.code
}

func (a *app) newRoot(completing bool) *cobra.Command {
	root := &cobra.Command{
		Use:               "k3sconf",
		Short:             "explains a k3s or RKE2 node's effective configuration",
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		Args:              a.rootArgs,
		PersistentPreRunE: a.preRun,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.printVersion {
				a.code = runVersion(nil, a.g, a.out, a.errw)
				return nil
			}
			fmt.Fprint(a.errw, usage)
			a.code = exitUsage
			return nil
		},
		ValidArgsFunction:          noCompletion,
		SuggestionsMinimumDistance: 2,
	}
	root.SetHelpFunc(a.help)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{msg: err.Error(), cmd: c} })

	kubespray, kubespraySubs := a.kubesprayCommand()
	a.tree = []*cobra.Command{
		a.showCommand(), a.explainCommand(), a.argsCommand(), a.sourcesCommand(), a.checkCommand(),
		a.statusCommand(), a.componentsCommand(), a.valuesCommand(), a.composeCommand(), a.fleetCommand(),
	}
	a.tree = append(a.tree, kubespraySubs...)
	help := a.helpCommand()
	a.tree = append(a.tree, a.versionCommand(), a.completionCommand(), help)
	for _, c := range a.tree {
		c.Flags().SortFlags = false
		if c.Parent() == nil {
			root.AddCommand(c)
		}
	}
	root.AddCommand(kubespray)
	root.SetHelpCommand(help)

	// The root knows every flag (hidden unless global), so that a flag may come before the
	// command name: cobra finds the command by skipping the flags it knows, and the command's
	// own flag set then parses them (`k3sconf --root X show`).
	rfs := root.Flags()
	rfs.SortFlags = false
	boolFlag(rfs, &a.printVersion, "version", "print the version and exit (as k3sconf version)")
	copyFlags(root, a.tree, true)
	copyFlags(kubespray, kubespraySubs, false)
	root.InitDefaultHelpFlag()
	if completing {
		// cobra keeps flag completions in a process-wide map keyed by flag; they are only
		// registered for a completion request, so ordinary runs leave nothing behind.
		a.registerFlagCompletions(root)
		for _, c := range append(a.tree, kubespray) {
			a.registerFlagCompletions(c)
		}
	}
	return root
}

// copyFlags gives a command with subcommands a copy of each flag of the commands below it
// that it lacks, so that cobra, which skips the flags it knows to find the command named
// after them, finds it behind a flag of the command (`k3sconf --json kubespray where V`). A
// copy is hidden (from help and completion) unless it is a global flag of the root.
func copyFlags(parent *cobra.Command, below []*cobra.Command, showGlobal bool) {
	fs := parent.Flags()
	fs.SortFlags = false
	for _, c := range below {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if fs.Lookup(f.Name) != nil {
				return
			}
			cp := *f
			cp.Hidden = !showGlobal || annotation(f, annGlobal) == ""
			fs.AddFlag(&cp)
		})
	}
}

// rootArgs refuses an unknown command, with a suggestion for a mistyped one.
func (a *app) rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return &usageError{msg: fmt.Sprintf("unknown command %q%s", args[0], suggest(cmd, args[0])), cmd: cmd}
}

func suggest(cmd *cobra.Command, typed string) string {
	s := cmd.SuggestionsFor(typed)
	if len(s) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(s, " or ") + "?"
}

// preRun applies the printer flags: -o json is --json, -o yaml the same document as YAML.
func (a *app) preRun(cmd *cobra.Command, args []string) error {
	switch a.output {
	case "":
	case "json", "yaml":
		a.g.json = true
		a.out.format = a.output
	default:
		return &usageError{msg: fmt.Sprintf("-o %s: give -o json or -o yaml", a.output), cmd: cmd}
	}
	return nil
}

var (
	unknownFlag      = regexp.MustCompile(`^unknown flag: --([^ =]+)`)
	unknownShorthand = regexp.MustCompile(`^unknown shorthand flag: '.' in (-\S+)`)
)

// usageError says what was wrong with the command line, on standard error, in cobra's
// words ("Error: unknown flag: --bogus") with k3sconf's additions: the command a flag
// belongs to, the two dashes of a long flag, and one line pointing to the command's help.
// The message may quote the command line: it passes the redactor, and then the escaper
// every byte on standard error passes.
func (a *app) usageError(cmd *cobra.Command, err error, args []string) {
	msg := err.Error()
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd != nil {
		cmd = ue.cmd
	}
	if cmd == nil {
		cmd = &cobra.Command{Use: "k3sconf"}
	}
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		if owners := a.flagOwners(m[1]); len(owners) > 0 {
			msg = fmt.Sprintf("--%s belongs to %s, not to `%s`", m[1], strings.Join(owners, ", "), cmd.CommandPath())
		}
	} else if m := unknownShorthand.FindStringSubmatch(msg); m != nil {
		if name, ok := longFlagName(m[1], append(a.tree, cmd.Root())); ok {
			msg = fmt.Sprintf("%s: a long flag takes two dashes: --%s", m[1], name)
		}
	}
	msg = output.NewTextRedactor(false).Scrub(msg)
	fmt.Fprintf(a.errw, "Error: %s\n", msg)
	fmt.Fprintf(a.errw, "Run '%s --help' for usage.\n", cmd.CommandPath())
}

// flagOwners lists the commands that have a flag, as `k3sconf values`.
func (a *app) flagOwners(name string) []string {
	var out []string
	for _, c := range a.tree {
		if f := c.Flags().Lookup(name); f != nil && !f.Hidden {
			out = append(out, "`"+c.CommandPath()+"`")
		}
	}
	return out
}

// nodeCommand is a command that resolves one node: the node flags, the printer flags,
// --show-secrets, and its own flags (added first, so help lists them first).
func (a *app) nodeCommand(use, short, long, example string, own func(fs *pflag.FlagSet)) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short, Long: long, Example: example,
		ValidArgsFunction: noCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = a.runNode(cmd.Name(), args)
			return nil
		}}
	fs := c.Flags()
	fs.SortFlags = false
	if own != nil {
		own(fs)
	}
	addNodeFlags(fs, &a.g)
	addPrintFlags(fs, a, "")
	addSecretsFlag(fs, &a.g, "")
	return c
}

func (a *app) nodeJSONFlag(fs *pflag.FlagSet) {
	strFlag(fs, &a.g.nodeJSON, "node-json", "", "", "the node object (kubectl get node NAME -o json), to compare its\nk3s.io/node-args annotation with the files",
		argName("FILE"), kind("file"))
}

func (a *app) strictFlag(fs *pflag.FlagSet) {
	boolFlag(fs, &a.g.strict, "strict", "exit 1 on warnings too")
}

func (a *app) showCommand() *cobra.Command {
	return a.nodeCommand("show", "the effective configuration, one key per line with its origin",
		"Prints every key that is set, with its value and the assignment that gave it (file:line:column).\n--all adds the keys left at their defaults. The last line counts the findings check lists\n(errors, warnings, notes), but not those about the running process: show does not inspect it.",
		"k3sconf show --all\nk3sconf show --json | jq '.keys.disable'",
		func(fs *pflag.FlagSet) {
			boolFlag(fs, &a.g.all, "all", "also the keys left at their defaults")
			strFlag(fs, &a.g.secretSalt, "secret-salt", "", "", "show --json: add fingerprints of the secrets (HMAC with SALT) and\nthe node name, for k3sconf fleet; use one salt per collection run",
				argName("SALT"))
		})
}

func (a *app) explainCommand() *cobra.Command {
	c := a.nodeCommand("explain KEY…", "the value in force, where it came from, and why every other assignment lost",
		"For each key: the value in force, what k3s does with it, the assignment that gave it, and\n"+
			"every other assignment in precedence order with its outcome and reason. Keys may be\n"+
			"aliases (t, s, d, i). With a running k3s (or --node-json) the running value is shown too;\n"+
			"explain node-name adds the name the node registers. Exit 1 on a key the command does\n"+
			"not have (with a did-you-mean).",
		"k3sconf explain write-kubeconfig-mode disable", a.nodeJSONFlag)
	c.ValidArgsFunction = a.completeKeys
	return c
}

func (a *app) argsCommand() *cobra.Command {
	return a.nodeCommand("args", "the argv k3s really parses, one argument per line with its origin",
		"Config-file values are spliced in after the subcommand, before the command-line arguments,\nas k3s does.",
		"k3sconf args", nil)
}

func (a *app) sourcesCommand() *cobra.Command {
	return a.nodeCommand("sources", "every input considered, missing and ignored ones included",
		"Units and drop-ins, env files (missing-but-optional ones too), the config file and why it\nwas chosen, each drop-in read or ignored.",
		"k3sconf --root ./support-bundle sources", nil)
}

func (a *app) checkCommand() *cobra.Command {
	return a.nodeCommand("check", "findings with a fix each; exit 1 on errors",
		"Every finding (diagnostic) about the node, worst first, each with a fix. Exit 1 when\n"+
			"there are errors (--strict: warnings too). With a running k3s (or --node-json) the\n"+
			"findings about what runs are included. Codes: docs/diagnostics.md.",
		"k3sconf check --strict",
		func(fs *pflag.FlagSet) { a.strictFlag(fs); a.nodeJSONFlag(fs) })
}

func (a *app) statusCommand() *cobra.Command {
	return a.nodeCommand("status", "do the files say what runs? exit 1 if a restart or daemon-reload is pending",
		"When the running k3s started, every source file changed since, a pending daemon-reload,\n"+
			"and each key whose running value differs from the files' value now. Exit 1 when anything\n"+
			"is pending, or when there is nothing to compare with.",
		"sudo k3sconf status\nk3sconf status --node-json node.json   # kubectl get node NAME -o json > node.json", a.nodeJSONFlag)
}

func (a *app) componentsCommand() *cobra.Command {
	return a.nodeCommand("components", "packaged components and AddOns of a server: enabled, disabled or skipped, and why",
		"The packaged components and every user AddOn in <data-dir>/server/manifests, with the\neffective disable list and the assignments behind each item. Exit 1 on error findings\n(--strict: warnings too).",
		"k3sconf components", a.strictFlag)
}

func (a *app) valuesCommand() *cobra.Command {
	c := a.nodeCommand("values CHART [PATH…]", "the values a HelmChart is installed with, where each came from, and why the others lost",
		"For the HelmChart CHART (--namespace, default kube-system) of a server: every leaf value the\n"+
			"Helm job gets (a dotted path, a dot inside a key written \\., a list is one leaf), its source\n"+
			"(file:line:column; inside valuesContent mapped to the manifest's lines) and every other\n"+
			"assignment, lowest first, with why it lost: the chart's defaults < the HelmChart's\n"+
			"valuesContent < values < valuesSecrets < the HelmChartConfig of the same name and namespace\n"+
			"(valuesContent, values, valuesSecrets) < spec.set (--set, then --set-string). Values from\n"+
			"Secrets are read from --objects when it has them (and REDACTED), else named. With the release\n"+
			"Secrets and Jobs in --objects, each value says whether the release has it. PATHs limit the\n"+
			"output; --all adds the chart's defaults\n"+
			"nobody overrode. Exit 1 on an unknown chart or path (with a did-you-mean) or an error\n"+
			"finding (--strict: warnings too); 3 when --chart or --objects cannot be read.\n"+
			"Reference: docs/values.md.",
		"k3sconf values traefik\nk3sconf values traefik logs.general.level --chart traefik.tgz\nkubectl get helmcharts,helmchartconfigs -A -o json | k3sconf values traefik --objects -",
		func(fs *pflag.FlagSet) {
			strFlag(fs, &a.g.namespace, "namespace", "", "kube-system", "the HelmChart's namespace (default kube-system)", argName("NS"))
			strFlag(fs, &a.g.chart, "chart", "", "", "the chart archive (.tgz, what helm pull writes) for its defaults,\nwhen the node does not have it",
				argName("FILE"), kind("file"))
			strFlag(fs, &a.g.objects, "objects", "", "", "kubectl get helmcharts,helmchartconfigs,jobs,secrets -n kube-system -o json\n(- for standard input); these objects win over the manifests' for the same name",
				argName("FILE"), kind("file"))
			strFlag(fs, &a.g.render, "render", "", "", "render the chart with this helm binary (helm template, no network) to\ncatch template and schema failures",
				argName("HELM"), kind("file"))
			strFlag(fs, &a.g.helm, "helm", "", "4", "the Helm of the Helm job image: 4 (v4.1.4, klipper-helm v0.11.0\nand later; default), 3 (v3.20.2, v0.9.15 to v0.10.x), 3.19.5 (v0.9.13,\nv0.9.14), 3.19 (v3.18.4 to v3.19.4, v0.9.8 to v0.9.12)",
				argName("4|3|3.19.5|3.19"), fixed("4", "3", "3.19.5", "3.19"))
			boolFlag(fs, &a.g.all, "all", "also the chart's defaults nobody overrode")
			a.strictFlag(fs)
		})
	c.ValidArgsFunction = a.completeCharts
	return c
}

func (a *app) composeCommand() *cobra.Command {
	c := &cobra.Command{Use: "compose [FILE]", Short: "k3s nodes of a docker compose file: does each keep its identity across down + up?",
		Long: "Resolves each k3s service of the compose file (default: compose.yaml, compose.yml,\n" +
			"docker-compose.yml or docker-compose.yaml in the current folder) and checks that its node\n" +
			"name, node password and server data survive docker compose down + up. Exit 1 if not,\n" +
			"with the lines to add; 2 when there is no compose file. The node flags (--root …) do not\n" +
			"apply and are refused.",
		Example:           "k3sconf compose docker-compose.yml",
		ValidArgsFunction: completeFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runCompose(args, a.g, a.out, a.errw)
			return nil
		}}
	addPrintFlags(c.Flags(), a, "")
	addSecretsFlag(c.Flags(), &a.g, "")
	return c
}

func (a *app) fleetCommand() *cobra.Command {
	c := &cobra.Command{Use: "fleet [INPUT…]", Short: "compare the nodes of one cluster as k3s compares a server that joins",
		Long: "Which server would be refused (\"critical configuration value mismatch\") and which flag to\n" +
			"change where, plus what differs with consequences: packaged components, tls-san, data\n" +
			"store, server URLs, tokens (by fingerprint), releases, node names. Inputs, in any mix:\n" +
			"--nodes-json (kubectl get nodes -o json; - for standard input), node folders as --root\n" +
			"takes them, and documents written by k3sconf --json show --secret-salt SALT (a folder of\n" +
			"them counts as its documents). Exit 1 when a server would be refused or a release skew\n" +
			"is unsupported; 3 when some input could not be read. Node folders are resolved as the\n" +
			"release --k3s-version names (before or after fleet; newest without it); write\n" +
			"FOLDER@VERSION to give one input its own. Reference: docs/fleet.md.",
		Example:           "kubectl get nodes -o json | k3sconf fleet --nodes-json -\nk3sconf fleet ./bundles/server-1 ./bundles/server-2 ./bundles/agent-1\nk3sconf --k3s-version v1.31.4+k3s1 fleet ./s1 ./s2 ./s3@v1.32.2+k3s1",
		ValidArgsFunction: completeFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runFleet(args, a.g, a.out, a.errw)
			return nil
		}}
	fs := c.Flags()
	strFlag(fs, &a.g.nodesJSON, "nodes-json", "", "", "kubectl get nodes -o json (- for standard input)", argName("FILE"), kind("file"))
	strFlag(fs, &a.g.secretSalt, "secret-salt", "", "", "fingerprint the secrets of node folders with SALT, to compare them\nwith show documents made with the same salt", argName("SALT"))
	strFlag(fs, &a.g.version, "k3s-version", "", "", "the release of every node folder (FOLDER@VERSION: of one)", argName("VERSION"), kind("version"))
	addPrintFlags(fs, a, "fleet")
	addSecretsFlag(fs, &a.g, "accepted for symmetry; fleet never prints a secret")
	return c
}

func (a *app) versionCommand() *cobra.Command {
	c := &cobra.Command{Use: "version", Short: "the k3sconf version, its VCS revision, and the newest k3s and RKE2 releases it models",
		Long: "The version (the release; the @version of go install; a pseudo-version from the commit\n" +
			"when built in a clone, or (devel) without VCS information), the VCS revision (+dirty for\n" +
			"uncommitted changes), and the newest k3s and RKE2 releases the flag catalogs model.\n" +
			"k3sconf --version prints the same.",
		Example:           "k3sconf version --json",
		ValidArgsFunction: noCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runVersion(args, a.g, a.out, a.errw)
			return nil
		}}
	addPrintFlags(c.Flags(), a, "")
	return c
}

func noCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completeFiles asks the shell for its own file completion.
func completeFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterFileExt
}
