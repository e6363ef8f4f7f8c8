package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Flags. Every command owns its flag set, built from the shared constructors below, so a
// command accepts exactly the flags it uses and `k3sconf args --helm 3` is a usage error
// that names the command --helm belongs to (cli.go, flagError). The node flags are added to
// every command that reads a node, the printer flags (--json, -o) to every command that
// writes a document; the root command holds a hidden copy of all of them, so that they may
// come before the command name too (docs/design.md, "The command line").
//
// What help and completion need beyond pflag's own fields is kept in the flag's
// annotations.
const (
	annArg    = "k3sconf.arg"    // the value's name in help: DIR, PATH
	annGlobal = "k3sconf.global" // listed under "Global flags (before or after the command)"
	annKind   = "k3sconf.kind"   // dir, file or version: what completion offers
	annValues = "k3sconf.values" // the fixed values, for completion
)

type flagOpt func(*pflag.Flag)

func argName(name string) flagOpt { return annotate(annArg, name) }
func global() flagOpt             { return annotate(annGlobal, "true") }
func kind(k string) flagOpt       { return annotate(annKind, k) }
func fixed(v ...string) flagOpt {
	return func(f *pflag.Flag) { setAnnotation(f, annValues, v...) }
}

func annotate(key, value string) flagOpt {
	return func(f *pflag.Flag) { setAnnotation(f, key, value) }
}

func setAnnotation(f *pflag.Flag, key string, values ...string) {
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[key] = values
}

func annotation(f *pflag.Flag, key string) string {
	if v := f.Annotations[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func strFlag(fs *pflag.FlagSet, p *string, name, short, def, usage string, opts ...flagOpt) {
	fs.StringVarP(p, name, short, def, usage)
	apply(fs.Lookup(name), opts)
}

func boolFlag(fs *pflag.FlagSet, p *bool, name, usage string, opts ...flagOpt) {
	fs.BoolVar(p, name, false, usage)
	apply(fs.Lookup(name), opts)
}

// listFlag is a repeatable flag whose values are kept as given (no comma splitting, which is
// the caller's business: --tags splits, -e must not).
func listFlag(fs *pflag.FlagSet, p *[]string, name, short, usage string, opts ...flagOpt) {
	fs.StringArrayVarP(p, name, short, nil, usage)
	apply(fs.Lookup(name), opts)
}

func apply(f *pflag.Flag, opts []flagOpt) {
	for _, o := range opts {
		o(f)
	}
}

// addNodeFlags adds the flags that say which node to read: every command that resolves one.
func addNodeFlags(fs *pflag.FlagSet, g *globals) {
	strFlag(fs, &g.root, "root", "", "/", "read the node's files under DIR (a support bundle, a mounted disk);\npaths in the output are as on the node (default /)",
		argName("DIR"), global(), kind("dir"))
	strFlag(fs, &g.product, "product", "", "", "the product (default: detected from the units and /etc/rancher/*)",
		argName("k3s|rke2"), global(), fixed("k3s", "rke2"))
	strFlag(fs, &g.command, "command", "", "", "server, agent or etcd-snapshot (default: from the unit found)",
		argName("NAME"), global(), fixed("server", "agent", "etcd-snapshot"))
	strFlag(fs, &g.unit, "unit", "", "", "the systemd unit to read (default: k3s.service or k3s-agent.service)",
		argName("PATH"), global(), kind("file"))
	strFlag(fs, &g.config, "config", "", "", "the config file to read instead of the one k3s would choose",
		argName("PATH"), global(), kind("file"))
	strFlag(fs, &g.version, "k3s-version", "", "", "model this k3s or RKE2 release, e.g. v1.30.5+k3s1 (default: newest)",
		argName("VERSION"), global(), kind("version"))
}

// addPrintFlags is the one printer flag set (kubectl's PrintFlags): --json, and -o json|yaml
// for the same document as JSON or YAML. doc names the document in docs/json.md when it is
// not the node's.
func addPrintFlags(fs *pflag.FlagSet, a *app, doc string) {
	help := "machine-readable output (docs/json.md)"
	if doc != "" {
		help = "machine-readable output (docs/json.md, document \"" + doc + "\")"
	}
	boolFlag(fs, &a.g.json, "json", help, global())
	strFlag(fs, &a.output, "output", "o", "", "json or yaml: the --json document, as JSON or as YAML",
		argName("FORMAT"), global(), fixed("json", "yaml"))
}

// addSecretsFlag adds --show-secrets with what it reveals for the command.
func addSecretsFlag(fs *pflag.FlagSet, g *globals, help string) {
	if help == "" {
		help = "print tokens, passwords and keys instead of REDACTED"
	}
	boolFlag(fs, &g.showSecrets, "show-secrets", help, global())
}

// flagHead is a flag as help shows it: "--root DIR", "-i, --inventory PATH".
func flagHead(f *pflag.Flag) string {
	head := "--" + f.Name
	if f.Shorthand != "" {
		head = "-" + f.Shorthand + ", " + head
	}
	if a := annotation(f, annArg); a != "" {
		head += " " + a
	}
	return head
}

// visibleFlags lists the flags of fs that help shows, in the order they were added.
func visibleFlags(fs *pflag.FlagSet) (own, globals []*pflag.Flag) {
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if annotation(f, annGlobal) != "" {
			globals = append(globals, f)
		} else {
			own = append(own, f)
		}
	})
	return own, globals
}

// longFlagName reports whether a single-dash word such as -root names a long flag of some
// command: pflag reads it as the shorthands -r -o -o -t.
func longFlagName(word string, tree []*cobra.Command) (string, bool) {
	name, _, _ := strings.Cut(strings.TrimPrefix(word, "-"), "=")
	if len(name) < 2 || strings.HasPrefix(word, "--") {
		return "", false
	}
	for _, c := range tree {
		if c.Flags().Lookup(name) != nil {
			return name, true
		}
	}
	return "", false
}
