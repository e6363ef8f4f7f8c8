package main

import (
	"fmt"
	"io"
	"strings"
)

// command is one row of the command table: what `k3sconf help CMD`, `k3sconf CMD --help`
// and shell completion know about a command. The dispatch stays the switch in run(); a new
// subcommand adds its row here (TestCommandTable fails when usage names a command that has
// none). A subcommand with its own flag set (parsed in its own file, before the global
// flags) documents those flags in own; a name may be two words ("kubespray explain").
type command struct {
	name     string
	args     string    // the positional arguments, as in the usage line: "KEY…", "[FILE]"
	synopsis string    // one line
	help     string    // what it does, its exit codes; wrapped at 92 columns
	flags    []string  // flags of the shared flag set (flagDocs) that apply
	own      []flagDoc // flags of the command's own flag set
	example  string
	hidden   bool
	// complete lists the candidates for a positional argument; nil: none, or files.
	complete func(c *completion) []string
	// files: positional arguments are files (shell completion).
	files bool
}

// nodeFlags are the global flags of every command that reads one node.
var nodeFlags = []string{"root", "product", "command", "unit", "config", "k3s-version", "json", "show-secrets"}

func withNode(own ...string) []string { return append(own, nodeFlags...) }

var commands = []*command{
	{name: "show", synopsis: "the effective configuration, one key per line with its origin",
		help:  "Prints every key that is set, with its value and the assignment that gave it (file:line:column).\n--all adds the keys left at their defaults.",
		flags: withNode("all", "secret-salt"), example: "k3sconf show --all\nk3sconf show --json | jq '.keys.disable'"},
	{name: "explain", args: "KEY…", synopsis: "the value in force, where it came from, and why every other assignment lost",
		help: "For each key: the value in force, what k3s does with it, the assignment that gave it, and\n" +
			"every other assignment in precedence order with its outcome and reason. Keys may be\n" +
			"aliases (t, s, d, i). With a running k3s (or --node-json) the running value is shown too;\n" +
			"explain node-name adds the name the node registers. Exit 1 on a key the command does\n" +
			"not have (with a did-you-mean).",
		flags: withNode("node-json"), example: "k3sconf explain write-kubeconfig-mode disable", complete: completeKeys},
	{name: "args", synopsis: "the argv k3s really parses, one argument per line with its origin",
		help:  "Config-file values are spliced in after the subcommand, before the command-line arguments,\nas k3s does.",
		flags: withNode(), example: "k3sconf args"},
	{name: "sources", synopsis: "every input considered, missing and ignored ones included",
		help:  "Units and drop-ins, env files (missing-but-optional ones too), the config file and why it\nwas chosen, each drop-in read or ignored.",
		flags: withNode(), example: "k3sconf --root ./support-bundle sources"},
	{name: "check", synopsis: "findings with a fix each; exit 1 on errors",
		help:  "Every finding (diagnostic) about the node, worst first, each with a fix. Exit 1 when\nthere are errors (--strict: warnings too). Codes: docs/diagnostics.md.",
		flags: withNode("strict"), example: "k3sconf check --strict"},
	{name: "status", synopsis: "do the files say what runs? exit 1 if a restart or daemon-reload is pending",
		help: "When the running k3s started, every source file changed since, a pending daemon-reload,\n" +
			"and each key whose running value differs from the files' value now. Exit 1 when anything\n" +
			"is pending, or when there is nothing to compare with.",
		flags: withNode("node-json"), example: "sudo k3sconf status\nk3sconf status --node-json node.json   # kubectl get node NAME -o json > node.json"},
	{name: "components", synopsis: "packaged components and AddOns of a server: enabled, disabled or skipped, and why",
		help:  "The packaged components and every user AddOn in <data-dir>/server/manifests, with the\neffective disable list and the assignments behind each item. Exit 1 on error findings\n(--strict: warnings too).",
		flags: withNode("strict"), example: "k3sconf components"},
	{name: "values", args: "CHART [PATH…]", synopsis: "the values a HelmChart is installed with, where each came from, and why the others lost",
		help: "For the HelmChart CHART (--namespace, default kube-system) of a server: every leaf value the\n" +
			"Helm job gets (a dotted path, a dot inside a key written \\., a list is one leaf), its source\n" +
			"(file:line:column; inside valuesContent mapped to the manifest's lines) and every other\n" +
			"assignment, lowest first, with why it lost: the chart's defaults < the HelmChart's\n" +
			"valuesContent < values < valuesSecrets < the HelmChartConfig of the same name and namespace\n" +
			"(valuesContent, values, valuesSecrets) < spec.set (--set, then --set-string). Values from\n" +
			"Secrets are named, never read. PATHs limit the output; --all adds the chart's defaults\n" +
			"nobody overrode. Exit 1 on an unknown chart or path (with a did-you-mean) or an error\n" +
			"finding (--strict: warnings too); 3 when --chart or --objects cannot be read.\n" +
			"Reference: docs/values.md.",
		flags:    withNode("namespace", "chart", "objects", "helm", "all", "strict"),
		example:  "k3sconf values traefik\nk3sconf values traefik logs.general.level --chart traefik.tgz\nkubectl get helmcharts,helmchartconfigs -A -o json | k3sconf values traefik --objects -",
		complete: completeCharts},
	{name: "compose", args: "[FILE]", synopsis: "k3s nodes of a docker compose file: does each keep its identity across down + up?",
		help: "Resolves each k3s service of the compose file (default: compose.yaml, compose.yml,\n" +
			"docker-compose.yml or docker-compose.yaml in the current folder) and checks that its node\n" +
			"name, node password and server data survive docker compose down + up. Exit 1 if not,\n" +
			"with the lines to add; 2 when there is no compose file. --root does not apply.",
		flags: []string{"json", "show-secrets"}, example: "k3sconf compose docker-compose.yml", files: true},
	{name: "fleet", args: "[INPUT…]", synopsis: "compare the nodes of one cluster as k3s compares a server that joins",
		help: "Which server would be refused (\"critical configuration value mismatch\") and which flag to\n" +
			"change where, plus what differs with consequences: packaged components, tls-san, data\n" +
			"store, server URLs, tokens (by fingerprint), releases, node names. Inputs, in any mix:\n" +
			"--nodes-json (kubectl get nodes -o json; - for standard input), node folders as --root\n" +
			"takes them, and documents written by k3sconf --json show --secret-salt SALT (a folder of\n" +
			"them counts as its documents). Exit 1 when a server would be refused or a release skew\n" +
			"is unsupported; 3 when some input could not be read. Node folders are resolved as the\n" +
			"release --k3s-version names (before or after fleet; newest without it); write\n" +
			"FOLDER@VERSION to give one input its own. Reference: docs/fleet.md.",
		own: []flagDoc{
			{name: "nodes-json", arg: "FILE", valueKind: "file", help: "kubectl get nodes -o json (- for standard input)"},
			{name: "secret-salt", arg: "SALT", help: "fingerprint the secrets of node folders with SALT, to compare them\nwith show documents made with the same salt"},
			{name: "json", help: "the report as JSON (docs/json.md, document \"fleet\")"},
			{name: "show-secrets", help: "accepted for symmetry; fleet never prints a secret"},
			{name: "k3s-version", arg: "VERSION", help: "the release of every node folder (FOLDER@VERSION: of one)"},
		},
		example: "kubectl get nodes -o json | k3sconf fleet --nodes-json -\nk3sconf fleet ./bundles/server-1 ./bundles/server-2 ./bundles/agent-1\nk3sconf --k3s-version v1.31.4+k3s1 fleet ./s1 ./s2 ./s3@v1.32.2+k3s1", files: true},
	{name: "kubespray explain", args: "VAR…", synopsis: "the value an Ansible variable takes on a host of a kubespray inventory, where it came from, and what it beat",
		help: "Resolved as ansible-core 2.14 does at the variable's use sites: each task, template and\n" +
			"handler using it, for each play and role of kubespray's cluster.yml that runs it on that host\n" +
			"(said once when the value is the same everywhere, each value otherwise): the\n" +
			"value with its type, its source (file:line:column and precedence level), every other\n" +
			"assignment in precedence order with why it lost, the variables a templated value uses,\n" +
			"and findings with a fix each. Exit 1 on an error finding (a variable defined nowhere) or a\n" +
			"file that does not parse; 2 on usage or an unknown host; 3 when an input cannot be read.",
		own: []flagDoc{
			{name: "inventory", arg: "PATH", valueKind: "file", help: "inventory file or folder (-i; repeatable, as ansible-playbook -i)"},
			{name: "host", arg: "HOST", help: "the inventory host to resolve for"},
			{name: "kubespray", arg: "DIR", valueKind: "dir", help: "the kubespray checkout (default: the current folder)"},
			{name: "extra-vars", arg: "X", help: "key=value, a YAML/JSON string, or @file (-e; repeatable)"},
			{name: "play", arg: "NAME", help: "only the use sites in this play of cluster.yml (its name:)"},
			{name: "json", help: "machine-readable output (document \"kubespray explain\")"},
			{name: "show-secrets", help: "print *password*, *secret*, *token* … variables instead of REDACTED"},
		},
		example: "k3sconf kubespray explain container_manager --host node1 -i inventory/mycluster/inventory.ini\n" +
			"k3sconf kubespray explain kube_version --host node1 -i inventory/mycluster -e kube_version=v1.31.1"},
	{name: "kubespray where", args: "VAR", synopsis: "the tasks and templates of a kubespray checkout that use a variable, and the tags they run under",
		help: "Answers \"will re-running with --tags X apply my change to VAR?\": the tasks of cluster.yml\n" +
			"that use the variable or render a template using it, the --tags that run them as\n" +
			"ansible-core 2.14 selects them (imports, includes, tasks_from, apply:, always, never),\n" +
			"the handlers they notify and what those restart, and one line per tag.",
		own: []flagDoc{
			{name: "kubespray", arg: "DIR", valueKind: "dir", help: "the kubespray checkout (default: the current folder)"},
			{name: "json", help: "machine-readable output (document \"kubespray where\")"},
		},
		example: "k3sconf kubespray where containerd_version"},
	{name: "kubespray runs", args: "LOG…", synopsis: "what ansible-playbook runs did per host, and whether the last one applied your change",
		help: "Reads ansible-playbook output (the default callback's text, with or without profile_tasks\n" +
			"or as log_path writes it, or the json or jsonl callback's; - for standard input), oldest\n" +
			"run first. Per run: the PLAY RECAP per host and its verdict, ignored and rescued failures\n" +
			"(not the verdict), the slowest tasks, the tasks changed per host. Then the last run's\n" +
			"changes per host, split into those every earlier run made too and the new ones. With\n" +
			"--var: did the tasks that use the variable change, and did their handlers run? With\n" +
			"--tags/--skip-tags (the last run's: its log does not print them): which of those tasks\n" +
			"the run could reach, as ansible-core 2.14 selects them. Task output is never printed.\n" +
			"Exit 1 when the last run failed or has no PLAY RECAP; 3 when a log cannot be read.\n" +
			"Reference: docs/kubespray.md.",
		own: []flagDoc{
			{name: "var", arg: "VAR", help: "follow the tasks of the checkout that use VAR and the handlers they notify"},
			{name: "kubespray", arg: "DIR", valueKind: "dir", help: "the kubespray checkout, for --var (default: the current folder)"},
			{name: "tags", arg: "TAGS", help: "the last run's --tags (-t; comma-separated, repeatable), for --var: the tasks they select"},
			{name: "skip-tags", arg: "TAGS", help: "the last run's --skip-tags (comma-separated, repeatable), for --var"},
			{name: "inventory", arg: "PATH", valueKind: "file", help: "inventory file or folder (-i; repeatable): its hosts missing from the last run are named"},
			{name: "json", help: "machine-readable output (document \"kubespray runs\")"},
			{name: "show-secrets", help: "print the secrets in task names and ERROR! lines instead of REDACTED"},
		},
		example: "ansible-playbook -i inventory/mycluster cluster.yml > run1.log   # and run2.log, run3.log\n" +
			"k3sconf kubespray runs run1.log run2.log run3.log --var containerd_max_container_log_line_size", files: true},
	{name: "version", synopsis: "the k3sconf version, its VCS revision, and the newest k3s and RKE2 releases it models",
		help: "The version (the release; the @version of go install; a pseudo-version from the commit\n" +
			"when built in a clone, or (devel) without VCS information), the VCS revision (+dirty for\n" +
			"uncommitted changes), and the newest k3s and RKE2 releases the flag catalogs model.\n" +
			"k3sconf --version prints the same.",
		flags: []string{"json"}, example: "k3sconf version --json"},
	{name: "completion", args: "bash|zsh|fish", synopsis: "a shell completion script",
		help: "Prints a script that completes commands, flags, the keys of the node's product\n" +
			"(k3sconf explain wri<TAB>) and --k3s-version values.",
		example:  "source <(k3sconf completion bash)\nk3sconf completion zsh > \"${fpath[1]}/_k3sconf\"\nk3sconf completion fish > ~/.config/fish/completions/k3sconf.fish",
		complete: func(*completion) []string { return []string{"bash", "zsh", "fish"} }},
	{name: "help", args: "[COMMAND]", synopsis: "this text, or one command's flags and an example",
		example: "k3sconf help explain"},
}

// help completes command names; set here, as the table cannot refer to itself.
func init() {
	lookupCommand("help").complete = func(*completion) []string { return commandNames() }
}

// flagDoc documents one flag of the shared flag set (newFlagSet).
type flagDoc struct {
	name, arg, help string
	global          bool     // shown under "Global flags"
	values          []string // fixed values, for completion
	valueKind       string   // "dir", "file" or "version": what completion offers
	hidden          bool
}

var flagDocs = []flagDoc{
	{name: "root", arg: "DIR", global: true, valueKind: "dir",
		help: "read the node's files under DIR (a support bundle, a mounted disk);\npaths in the output are as on the node (default /)"},
	{name: "product", arg: "k3s|rke2", global: true, values: []string{"k3s", "rke2"},
		help: "the product (default: detected from the units and /etc/rancher/*)"},
	{name: "command", arg: "NAME", global: true, values: []string{"server", "agent", "etcd-snapshot"},
		help: "server, agent or etcd-snapshot (default: from the unit found)"},
	{name: "unit", arg: "PATH", global: true, valueKind: "file",
		help: "the systemd unit to read (default: k3s.service or k3s-agent.service)"},
	{name: "config", arg: "PATH", global: true, valueKind: "file",
		help: "the config file to read instead of the one k3s would choose"},
	{name: "k3s-version", arg: "VERSION", global: true, valueKind: "version",
		help: "model this k3s or RKE2 release, e.g. v1.30.5+k3s1 (default: newest)"},
	{name: "json", global: true, help: "machine-readable output (docs/json.md)"},
	{name: "show-secrets", global: true, help: "print tokens, passwords and keys instead of REDACTED"},
	{name: "node-json", arg: "FILE", valueKind: "file",
		help: "the node object (kubectl get node NAME -o json), to compare its\nk3s.io/node-args annotation with the files"},
	{name: "secret-salt", arg: "SALT",
		help: "show --json: add fingerprints of the secrets (HMAC with SALT) and\nthe node name, for k3sconf fleet; use one salt per collection run"},
	{name: "namespace", arg: "NS", help: "values: the HelmChart's namespace (default kube-system)"},
	{name: "chart", arg: "FILE", valueKind: "file", help: "values: the chart archive (.tgz, what helm pull writes) for its defaults,\nwhen the node does not have it"},
	{name: "objects", arg: "FILE", valueKind: "file", help: "values: kubectl get helmcharts,helmchartconfigs -A -o json (- for standard\ninput); these objects win over the manifests' for the same name"},
	{name: "helm", arg: "4|3|3.19.5|3.19", values: []string{"4", "3", "3.19.5", "3.19"}, help: "values: the Helm of the Helm job image: 4 (v4.1.4, klipper-helm v0.11.0\nand later; default), 3 (v3.20.2, v0.9.15 to v0.10.x), 3.19.5 (v0.9.13,\nv0.9.14), 3.19 (v3.18.4 to v3.19.4, v0.9.8 to v0.9.12)"},
	{name: "all", help: "also the keys left at their defaults"},
	{name: "strict", help: "exit 1 on warnings too"},
	{name: "version", help: "print the version and exit (as k3sconf version)", hidden: true},
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flag finds a flag of the command: its own, then the shared ones.
func (c *command) flag(name string) *flagDoc {
	if c != nil {
		for i := range c.own {
			if c.own[i].name == name {
				return &c.own[i]
			}
		}
	}
	return lookupFlag(name)
}

func lookupFlag(name string) *flagDoc {
	for i := range flagDocs {
		if flagDocs[i].name == name {
			return &flagDocs[i]
		}
	}
	return nil
}

// commandNames lists the commands' first words, in table order.
func commandNames() []string { return subcommandNames("") }

// subcommandNames lists the next words of the commands whose names start with the words of
// prefix ("" for the first word; "kubespray" for explain and where).
func subcommandNames(prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range commands {
		rest, ok := c.name, true
		if prefix != "" {
			rest, ok = strings.CutPrefix(c.name, prefix+" ")
		}
		if word, _, _ := strings.Cut(rest, " "); ok && !c.hidden && !seen[word] {
			seen[word] = true
			out = append(out, word)
		}
	}
	return out
}

// runHelp implements `k3sconf help [COMMAND]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	name := strings.Join(args, " ")
	if c := lookupCommand(name); c != nil {
		writeCommandHelp(stdout, c)
		return exitOK
	}
	if subs := subcommandNames(name); len(subs) > 0 {
		fmt.Fprintf(stderr, "k3sconf help: name one of %s %s\n", name, strings.Join(subs, ", "))
		return exitUsage
	}
	if len(args) > 1 && lookupCommand(args[0]) != nil {
		fmt.Fprintf(stderr, "k3sconf help: name one command (got %q)\n", args)
		return exitUsage
	}
	fmt.Fprintf(stderr, "k3sconf help: unknown command %q (commands: %s)\n", name, strings.Join(commandNames(), ", "))
	return exitUsage
}

// writeCommandHelp prints one command's usage line, what it does, its flags and an example.
func writeCommandHelp(w io.Writer, c *command) {
	line := "k3sconf " + c.name
	if c.args != "" {
		line += " " + c.args
	}
	if len(c.flags)+len(c.own) > 0 {
		line += " [flags]"
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", line, sentence(c.synopsis))
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", c.help)
	}
	var own, global []*flagDoc
	for i := range c.own {
		own = append(own, &c.own[i])
	}
	for _, name := range c.flags {
		if f := lookupFlag(name); f == nil {
			own = append(own, &flagDoc{name: name})
		} else if f.global {
			global = append(global, f)
		} else {
			own = append(own, f)
		}
	}
	writeFlags(w, "Flags", own)
	writeFlags(w, "Global flags (before or after the command)", global)
	if c.example != "" {
		fmt.Fprintf(w, "\nExample:\n")
		for _, l := range strings.Split(c.example, "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

func writeFlags(w io.Writer, title string, flags []*flagDoc) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range flags {
		head := "--" + f.name
		if f.arg != "" {
			head += " " + f.arg
		}
		for i, l := range strings.Split(f.help, "\n") {
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
