package resolve

import (
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// contributing marks, inside decide only, an assignment that gave an item of the list in
// force; it never leaves the resolver.
const contributing provenance.Outcome = "\x00contributing"

// Assignment is one place that sets (or tries to set) a key: a [provenance.Assignment]
// (Kind, Pos, Value, Outcome, Reason) with what only a node's assignments have. Value is
// what it sets, as a string the CLI parser receives; for a config list entry it is one
// item, and Items holds them all. Read the reason through Why, which also renders the
// reasons kept as compact data.
//
// A node's assignments have these outcomes ([provenance.Outcome]):
//
//   - Applied: this assignment gave the key its value (the source).
//   - Appended: it contributed items to a list that is in force.
//   - Overridden: a later assignment of the same single-value flag won.
//   - Replaced: a later config file set the key without '+', dropping this value before
//     k3s built its arguments; or a list set from the environment or a default was
//     replaced by the first value given as an argument.
//   - Shadowed: an environment variable not used because the flag was given as an argument
//     (config-file values are arguments too).
//   - Skipped: k3s dropped the config key because the subcommand does not know it.
//   - Ignored: never parsed: it sits after a positional argument, or another source of the
//     same variable took precedence.
//   - Rejected: this assignment makes k3s refuse to start.
//   - Unreached: never parsed because k3s stopped at an earlier error.
//   - Unused: only a default; something else was set.
type Assignment struct {
	provenance.Assignment[string]
	// Name is how the key was named there: "--token", "-t", "token+:" (config), "K3S_TOKEN".
	Name string
	// Raw is the text as written (a config value before typing, a quoted unit word).
	Raw string
	// Items are the list items a config entry contributed (config lists only).
	Items []string
	// by, when Reason is empty, is the config entry that replaced this one in the merge:
	// the sentence is rendered from it on demand. A node with thousands of drop-ins has
	// tens of thousands of replaced entries, and their sentences were a sixth of the
	// result's memory (docs/performance.md).
	by *replacer
	// order sorts history into precedence order.
	order int64
	// secret marks a value that must be redacted in output.
	secret bool
}

// Secret reports whether the assignment's value must be redacted in output.
func (a *Assignment) Secret() bool { return a.secret }

// Why says why the assignment has its Outcome: Reason, or the sentence rendered from the
// compact record of what replaced it.
func (a *Assignment) Why() string {
	if a.Reason != "" || a.by == nil {
		return a.Reason
	}
	return a.by.reason()
}

// Key is one flag of the command with its value in force and its story: a
// [provenance.Entry] of the flag's primary name, whose Value is string, bool, int64, string
// (duration, Go syntax) or []string; whose Source is the assignment that gave it (nil means
// the default); and whose History is every assignment of the key in precedence order
// (default first, then environment, config files in order, command line), the source
// included.
type Key struct {
	provenance.Entry[Assignment]
	Flag *profile.Flag
	// Note explains what k3s does with the value after parsing, when that matters
	// (e.g. write-kubeconfig-mode read as octal).
	Note string
	// Advice lists the concrete edits that make an intended value win, when some
	// assignment lost.
	Advice []string
}

// Name is the flag's primary name (the Entry's Name).
func (k *Key) Name() string { return k.Flag.Name }

// Arg is one element of the argv k3s parses, with where it came from. Secret values are
// redacted when the argv is rendered (report.Args), which knows the flags.
type Arg struct {
	Value string
	Kind  sources.Kind
	Pos   diag.Position
}

// Source is one input k3sconf considered, in precedence order.
type Source struct {
	// Role: "unit", "unit-dropin", "envfile", "config", "config-dropin", "config-dir".
	Role string
	Path string
	// State: "read", "missing", "missing-optional", "ignored", "unreadable".
	State string
	// Why explains the state or how the path was chosen.
	Why string
}

// EnvVar is one variable of the k3s process environment with every assignment of it.
type EnvVar struct {
	Name  string
	Value string
	// Assignments in the order systemd applies them; the last is in force.
	Assignments []*Assignment
}

// Result is the one resolution of a node: everything the CLI renders comes from here.
type Result struct {
	Product string
	Command string
	// Subcommand of etcd-snapshot (save, list, …), if any.
	Subcommand string
	// Version is the k3s version modelled; Era is the urfave/cli major version ("v1", "v2").
	Version string
	Era     string
	// Unit is the systemd unit read, if any.
	Unit string
	// ConfigPath is the config file k3s reads, and ConfigWhy how it was chosen.
	ConfigPath string
	ConfigWhy  string
	// Args is the argv k3s parses after splicing, without argv[0].
	Args []Arg
	// Positional are the arguments left after the command's flags (the snapshot names of
	// etcd-snapshot delete; a stray word elsewhere, reported as cli-positional).
	Positional []Arg
	// Keys holds every flag of the command, in declaration order.
	Keys []*Key
	// Env is the process environment from the unit, sorted by name.
	Env         []*EnvVar
	Sources     []Source
	Diagnostics diag.Diagnostics
	// Error is set when k3s would refuse to start, with k3s's own reason.
	Error string
	// ErrorPos points at the input that causes Error, when known.
	ErrorPos diag.Position
	// NotFound is set when the node's files hold no node of the product at all: no unit,
	// no config file, no env file, no /etc/rancher/<product> and no data directory. It says
	// what was looked for and where. Every key then has its default only because nothing
	// was there to read, which is no answer: the result is Incomplete too (exit 3, as for a
	// --root that is not there).
	NotFound string

	// Stray are assignments to names the command has no flag for (config keys k3s
	// skipped, flags after a positional argument that the command does not define, …).
	Stray []*Assignment

	keyIndex    map[string]*Key
	splitAt     int
	incomplete  bool
	brokenInput bool
	errStage    int
	errPhase    string
}

// RefusalPhrase says how k3s fails for Error: "refuses to start", "starts, then stops" (the
// kubelet it runs exits after k3s started) or, for a check of k3s etcd-snapshot, "etcd-snapshot
// fails". Empty when there is no Error.
func (r *Result) RefusalPhrase() string {
	switch {
	case r.Error == "":
		return ""
	case r.errPhase == PhaseAfterStart:
		return "starts, then stops"
	case r.errStage == stageValidate && r.Command == "etcd-snapshot":
		return "etcd-snapshot fails"
	}
	return "refuses to start"
}

// AfterFixing counts the findings of k3s's own checks found past the first refusal, as k3s
// would report them once it is fixed, one restart at a time.
func (r *Result) AfterFixing() int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.AfterFixing {
			n++
		}
	}
	return n
}

// Incomplete reports whether k3sconf could not read some of the node's input (no
// permission, a FIFO or device, an I/O error): what that input sets is missing from the
// result. k3sconf exits 3 (docs/exit-codes.md).
func (r *Result) Incomplete() bool { return r.incomplete }

// Refused reports whether k3s or systemd would refuse to start the node (Error says why):
// broken YAML, a unit systemd refuses, a fatal flag. k3sconf exits 1 unless the result is
// also Incomplete.
func (r *Result) Refused() bool { return r.Error != "" }

// InputInvalid reports whether an input file could not be read (Incomplete) or could not
// be parsed (broken YAML, a unit systemd refuses).
func (r *Result) InputInvalid() bool { return r.incomplete || r.brokenInput }

// Key finds a key by its primary name or an alias; nil when the command has no such flag.
func (r *Result) Key(name string) *Key {
	return r.keyIndex[name]
}
