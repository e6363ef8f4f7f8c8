package resolve

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// Error stages: what k3s runs first decides which error it reports.
const (
	stageSystemd       = 1 // systemd refuses to start the unit
	stageWrapperConfig = 2 // the wrapper's debug/data-dir lookups read the config files
	stageWrapper       = 3 // the k3s multicall wrapper parses the command line alone
	stageConfig        = 4 // configfilearg reads the config files
	stageMain          = 5 // k3s-server/k3s-agent parses the spliced argv
	stageValidate      = 6 // the command's action checks the values (resolve/validate.go)
)

func (r *resolver) failAt(stage int, msg string, pos diag.Position) {
	if r.res.Error == "" || stage < r.res.errStage {
		r.res.Error, r.res.ErrorPos, r.res.errStage = msg, pos, stage
	}
}

// cliRun is one pass of the CLI library over an argv.
type cliRun struct {
	cmd *profile.Command
	sub string
	// helpOnly says why k3s prints help (or its version) and exits 0 instead of running.
	helpOnly string
	final    *flagSet   // the flag set whose values k3s uses
	lost     []*flagSet // flag sets parsed earlier whose values the final one reset
	rest     []token    // positional arguments left after the final flag set
	err      *cliError
	errSet   *flagSet
	// unreached are tokens never looked at because of err.
	unreached []token
}

// helpMarker is the "error" parseCommand returns for --help; it is not a failure.
const helpMarker = "\x00help"

var versionFlag = &profile.Flag{Name: "version", Aliases: []string{"v"}, Type: profile.Bool, Default: "false"}

// runCLI reproduces app.Run on an argv (without argv[0]): the app's own flags up to the
// subcommand name, then the subcommand's flags (v1: after reordering), then for etcd-snapshot
// a second level of subcommands.
func (r *resolver) runCLI(toks []token) *cliRun {
	run := &cliRun{}
	rootFlags := append(append([]*profile.Flag{}, r.p.RootFlags...), helpFlag, versionFlag)
	rootFS, err := newFlagSet(r.era, rootFlags, r.flagEnv, nil)
	if err != nil {
		run.err, run.errSet, run.unreached = err, rootFS, toks
		return run
	}
	rest, err := rootFS.parse(toks)
	if err == nil {
		err = rootFS.normalize()
	}
	if err != nil {
		run.err, run.errSet = err, rootFS
		if len(rest) > 0 {
			run.unreached = rest[1:]
		}
		return run
	}
	run.lost = append(run.lost, rootFS)
	if rootFS.vals[helpFlag].b || rootFS.vals[versionFlag].b {
		run.helpOnly = fmt.Sprintf("--help or --version before the command: %s prints its help or version and exits without starting", r.p.Program)
		return run
	}
	if len(rest) == 0 {
		run.helpOnly = fmt.Sprintf("no command: %s prints its help and exits without starting", r.p.Program)
		return run
	}
	cmd := r.p.Command(rest[0].text)
	if cmd == nil {
		// urfave/cli runs the app's help action with the word, which fails (exit 3).
		run.err = &cliError{msg: fmt.Sprintf("No help topic for '%s'", rest[0].text), tok: &rest[0]}
		run.unreached = rest[1:]
		return run
	}
	run.cmd = cmd
	fs, rest2, err := r.parseCommand(cmd.Flags, rest[1:], cmd.Subcommands == nil && !cmd.SkipArgReorder)
	run.final = fs
	if err != nil && err.msg == helpMarker {
		run.helpOnly = fmt.Sprintf("--help: %s %s prints its help and exits without starting", r.p.Program, cmd.Name)
		return run
	}
	if err != nil {
		run.err, run.errSet = err, fs
		run.unreached = rest2
		return run
	}
	if len(cmd.Subcommands) > 0 {
		if len(rest2) == 0 || rest2[0].text == "" {
			// No Action: urfave shows the command's help and k3s exits without doing anything
			// (an empty first argument is not looked up as a subcommand).
			run.helpOnly = fmt.Sprintf("%s %s without a subcommand prints its help and exits; nothing runs", r.p.Program, cmd.Name)
			return run
		}
		sub := canonicalSub(rest2[0].text)
		if sub == "" {
			run.err = &cliError{msg: fmt.Sprintf("No help topic for '%s'", rest2[0].text), tok: &rest2[0]}
			run.unreached = rest2[1:]
			return run
		}
		run.sub = sub
		flags := cmd.Flags
		if sub == "ls" {
			flags = append(append([]*profile.Flag{}, cmd.Flags...), lsOutputFlag)
		}
		run.lost = append(run.lost, fs)
		sfs, rest3, err := r.parseCommand(flags, rest2[1:], !cmd.SkipArgReorder)
		run.final = sfs
		if err != nil && err.msg == helpMarker {
			run.helpOnly = fmt.Sprintf("--help: %s %s %s prints its help and exits without running", r.p.Program, cmd.Name, sub)
			return run
		}
		if err != nil {
			run.err, run.errSet = err, sfs
			run.unreached = rest3
			return run
		}
		rest2 = rest3
	}
	run.rest = rest2
	return run
}

// lsOutputFlag is the extra flag of "etcd-snapshot ls" (pkg/cli/cmds/etcd_snapshot.go).
var lsOutputFlag = &profile.Flag{Name: "output", Aliases: []string{"o"}, Type: profile.String}

// canonicalSub maps an etcd-snapshot subcommand name or alias to its name
// (pkg/cli/cmds/etcd_snapshot.go: ls has aliases list and l).
func canonicalSub(s string) string {
	switch s {
	case "save", "delete", "prune", "ls":
		return s
	case "list", "l":
		return "ls"
	}
	return ""
}

// parseCommand builds a command's flag set and parses its arguments. A command that
// dispatches to subcommands parses its own flags without reordering in v1 (startApp).
func (r *resolver) parseCommand(flags []*profile.Flag, args []token, reorder bool) (*flagSet, []token, *cliError) {
	all := append(append([]*profile.Flag{}, flags...), helpFlag)
	fs, err := newFlagSet(r.era, all, r.flagEnv, map[string]*sliceValue{})
	if err != nil {
		return fs, args, err
	}
	for name, n := range r.argCount {
		if f := fs.byName[name]; f != nil && n > 8 {
			fv := fs.vals[f]
			fv.occurrences = make([]*Assignment, 0, n)
			if fv.slice != nil {
				fv.slice.capHint = n
			}
		}
	}
	if r.era == EraV1 && reorder {
		args = reorderV1(fs.byName, args)
	}
	rest, err := fs.parse(args)
	if err != nil {
		if len(rest) > 0 {
			rest = rest[1:]
		}
		return fs, rest, err
	}
	if err := fs.normalize(); err != nil {
		return fs, nil, err
	}
	if fs.vals[helpFlag].b {
		return fs, nil, &cliError{msg: helpMarker}
	}
	return fs, rest, nil
}

// parse splices the config values into the argv and runs the CLI passes.
func (r *resolver) parse(files []*sources.ConfigFile) {
	argv := r.argv
	before, after := argv[:r.res.splitAt], argv[r.res.splitAt:]
	// spliced is argv with the config values spliced in at splitAt, built in one array:
	// configTokens leaves room for the command-line words around the config's, and strip
	// filters in place. A node with 2,000 drop-ins of lists has ~90,000 config tokens; each
	// copy of them was 10 MB live at the peak (docs/performance.md).
	var spliced []token
	if len(files) > 0 {
		program := ""
		if r.p.Program != "k3s" {
			program = r.p.Program
		}
		keys := mergeConfig(files, &r.seq, program)
		r.argCount = make(map[string]int, len(keys))
		for _, mk := range keys {
			r.argCount[mk.name] = len(mk.pieces)
		}
		r.entriesByKey = make(map[string][]*configEntry, len(keys))
		n := 0
		for _, mk := range keys {
			n += len(mk.entries)
		}
		r.entries = make([]*configEntry, 0, n)
		r.configKeys = make([]string, 0, len(keys))
		for _, mk := range keys {
			r.entries = append(r.entries, mk.entries...)
			r.entriesByKey[mk.name] = mk.entries
			r.configKeys = append(r.configKeys, mk.name)
		}
		spliced = configTokens(keys, len(before), len(after))
		kept := r.strip(spliced[len(before):])
		spliced = spliced[:len(before)+len(kept)]
	} else {
		spliced = make([]token, len(before), len(argv))
	}
	copy(spliced, before)
	spliced = append(spliced, after...)
	r.res.Args = make([]Arg, 0, len(spliced))
	for i := range spliced {
		r.res.Args = append(r.res.Args, Arg{Value: spliced[i].text, Kind: spliced[i].kind, Pos: spliced[i].pos()})
	}

	// The multicall wrapper (cmd/k3s/main.go) runs app.Run on the raw argv with the same flag
	// definitions before it execs k3s-server or k3s-agent, so a command-line error is
	// reported there first, without the config file's values.
	wrapper := &cliRun{}
	if r.p.Wrapper {
		wrapper = r.runCLI(cloneTokens(argv))
		if wrapper.err != nil {
			r.failAt(stageWrapper, wrapper.err.msg, tokPos(wrapper.err.tok))
		}
	}
	main := r.runCLI(spliced)
	if main.err != nil {
		r.failAt(stageMain, main.err.msg, tokPos(main.err.tok))
	}
	r.collect(main, wrapper)
}

func cloneTokens(ts []token) []token { return append([]token(nil), ts...) }

func tokPos(t *token) diag.Position {
	if t == nil {
		return diag.Position{}
	}
	return t.pos()
}

// strip reproduces stripInvalidFlags: when os.Args[1] is a command with ValidFlags (server,
// etcd-snapshot), every generated argument whose name (regexp ^-+([^=]*)=) the command does
// not define is dropped with a warning. agent has no entry, so nothing is dropped there.
func (r *resolver) strip(toks []token) []token {
	if len(r.argv) == 0 {
		return toks
	}
	cmd := r.p.Command(r.argv[0].text)
	if cmd == nil || !cmd.FiltersConfig {
		return toks
	}
	out := toks[:0] // in place: out never passes the token being read
	for _, t := range toks {
		name := configArgName(t.text)
		if cmd.ConfigValid[name] {
			out = append(out, t)
			continue
		}
		a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: sources.KindConfig, Pos: t.pos()}, Value: t.text[strings.IndexByte(t.text, '=')+1:], Outcome: provenance.Skipped, Reason: fmt.Sprintf("k3s %s does not know the flag %q, so k3s skips this config key (\"Unknown flag %s found in config.yaml, skipping\")", cmd.Name, name, strings.Split(t.text, "=")[0])}, Name: t.from.colonKey, Raw: t.raw(), order: t.order}
		r.stray = append(r.stray, a)
		hint := r.suggest(name, cmd)
		sev, effect := diag.Warning, ""
		if w := r.p.WrongName("key", name); w != nil {
			hint = r.wrongNameFix(w, cmd.Name)
			if name == "url" && cmd.Name == "server" {
				// A join setting that is skipped: the node starts a cluster of its own.
				sev, effect = diag.Error, ": this server does not join the cluster at that URL but starts a cluster of its own"
			}
		} else if r.p.Name != "k3s" && profile.K3s().Command(cmd.Name) != nil && profile.K3s().Command(cmd.Name).Lookup(name) != nil {
			hint = fmt.Sprintf("%s is a k3s flag that %s %s does not have (%s drops it); remove the key", name, r.p.Program, cmd.Name, r.p.Program)
		} else if other := r.otherCommandWith(name, cmd.Name); other != "" {
			// The key is another command's flag in a file several commands read (the
			// server's snapshot settings when etcd-snapshot runs, k3s-io/k3s#10292: "an
			// artifact of how the config parser converts the config file"): nothing is
			// lost, so a note. Unless that flag is this command's under another name
			// (etcd-snapshot's snapshot-compress is the server's etcd-snapshot-compress,
			// pkg/cli/cmds/etcd_snapshot.go Aliases): then the setting meant for this
			// command is lost, and the fix is the name it knows.
			if own := r.ownNameOf(name, other, cmd); own != "" {
				hint = fmt.Sprintf("%s is the %s name of this setting; %s %s calls it %s: rename the key to %s (%s reads that name too)", name, other, r.p.Program, cmd.Name, own, own, other)
			} else {
				sev = diag.Info
				hint = fmt.Sprintf("%s is a %s flag: harmless here (a config shared by several nodes or commands), but it does nothing for %s %s", name, other, r.p.Program, cmd.Name)
			}
		}
		r.diag(diag.Diagnostic{Severity: sev, Code: "config-unknown-key", Pos: keyPos(t), Key: name,
			Message: fmt.Sprintf("k3s %s does not know %q; k3s skips it with \"Unknown flag %s found in config.yaml, skipping\"%s", cmd.Name, name, strings.Split(t.text, "=")[0], effect),
			Hint:    hint})
	}
	return out
}

// keyPos is where a config argument's key is written (a list's items each become an
// argument, and each has its own position); for a command-line word, the word.
func keyPos(t token) diag.Position {
	if t.from != nil && t.from.entry != nil && !t.from.entry.KeyPos.IsZero() {
		return t.from.entry.KeyPos
	}
	return t.pos()
}

// suggest is suggestHint, remembered per name: a hostile file can repeat one unknown key
// many times, and only the first few hundred distinct names get a search.
func (r *resolver) suggest(name string, cmd *profile.Command) string {
	if h, ok := r.hints[name]; ok {
		return h
	}
	if r.hints == nil {
		r.hints = map[string]string{}
	}
	h := fmt.Sprintf("remove the key, or check `k3s %s --help` for the flag you meant", cmd.Name)
	if len(r.hints) < 500 {
		h = suggestHint(name, cmd)
	}
	r.hints[name] = h
	return h
}

// suggestion is the closest flag name to a misspelt one, or "".
func suggestion(name string, cmd *profile.Command) string {
	h := suggestHint(name, cmd)
	if s, ok := strings.CutPrefix(h, "did you mean \""); ok {
		return strings.TrimSuffix(s, "\"?")
	}
	return ""
}

// suggestHint proposes the closest flag name for a misspelt key.
func suggestHint(name string, cmd *profile.Command) string {
	if f := foldedFlag(name, cmd); f != "" && f != name {
		return fmt.Sprintf("did you mean %q?", f)
	}
	best, bestD := "", max(2, len(name)/3+1)
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			// The distance is at least the difference in length: skip hopeless names, so
			// a file with thousands of unknown keys stays fast.
			if diff := len(name) - len(n); diff >= bestD || -diff >= bestD {
				continue
			}
			if d := fuzzy.Distance(name, n); d < bestD {
				best, bestD = f.Name, d
			}
		}
	}
	if best != "" && best != name {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return fmt.Sprintf("remove the key, or check `k3s %s --help` for the flag you meant", cmd.Name)
}

// foldedFlag is the flag a key names in another spelling: the Go field of k3s's config
// struct (NodeLabels, WriteKubeconfigMode, TLSSan; pkg/cli/cmds) or snake_case, with or
// without a plural s. Case, "-" and "_" are dropped before comparing. "" when none matches.
// Such a key is a rename, not a removal: removing it would lose the setting (issue 29).
func foldedFlag(name string, cmd *profile.Command) string {
	fold := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	n := fold(name)
	if n == "" {
		return ""
	}
	for _, f := range cmd.Flags {
		for _, fn := range f.Names() {
			if len(fn) < 2 {
				continue
			}
			if k := fold(fn); k == n || k+"s" == n {
				return f.Name
			}
		}
	}
	// RKE1's cluster.yml and its Ansible/Terraform descendants write a component's extra
	// arguments as kubelet_extra_args / extra_args (rancher/rke2#4123 put
	// `kubelet_extra_args:` in an RKE2 config.yaml): the component's *-arg flag.
	if stripped := strings.Replace(n, "extraargs", "args", 1); stripped != n {
		for _, f := range cmd.Flags {
			if strings.HasSuffix(f.Name, "-arg") && fold(f.Name)+"s" == stripped {
				return f.Name
			}
		}
	}
	return ""
}

// argvCommand is the command the argv names: the first word after the app-level flags, as
// Go's flag package (under urfave/cli) stops at it; "" when that word is no command. A
// non-boolean app flag written without "=" takes the next word as its value.
func (r *resolver) argvCommand() string {
	root := map[string]*profile.Flag{}
	for _, f := range r.p.RootFlags {
		for _, n := range f.Names() {
			root[n] = f
		}
	}
	for i := 0; i < len(r.argv); i++ {
		t := r.argv[i].text
		if t == "--" {
			i++
			if i < len(r.argv) && r.p.Command(r.argv[i].text) != nil {
				return r.argv[i].text
			}
			return ""
		}
		if len(t) < 2 || t[0] != '-' {
			if r.p.Command(t) != nil {
				return t
			}
			return ""
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if f := root[name]; f != nil && f.Type != profile.Bool && !hasValue {
			i++
		}
	}
	return ""
}

// collect turns the final flag set into keys with their histories and outcomes.
func (r *resolver) collect(main, wrapper *cliRun) {
	cmdName := r.opts.Command
	if main.cmd != nil {
		cmdName = main.cmd.Name
	} else if c := r.argvCommand(); c != "" {
		// k3s stopped before it reached the command (an app-level error such as
		// K3S_DEBUG=yes, "could not parse yes as bool value for flag debug"): the node is
		// still the command its argv names.
		cmdName = c
	}
	if cmdName == "" {
		cmdName = "server"
	}
	r.res.Command = cmdName
	r.res.Subcommand = main.sub
	cmd := r.p.Command(cmdName)
	final := main.final
	if final == nil || main.cmd == nil || main.cmd.Name != cmdName {
		// The command line never reached the command: show defaults and environment.
		fs, _ := newFlagSet(r.era, cmd.Flags, r.flagEnv, map[string]*sliceValue{})
		final = fs
	}
	if main.helpOnly != "" && main.err == nil && r.res.errStage != stageSystemd {
		d := diag.Diagnostic{Severity: diag.Warning, Code: "cli-help-only", Message: main.helpOnly,
			Hint: "remove --help/--version, or give the command k3s should run"}
		if strings.Contains(main.helpOnly, "without a subcommand") {
			d.Code = "cli-no-subcommand"
			d.Hint = fmt.Sprintf("add a subcommand: %s %s save (or ls, delete, prune)", r.p.Program, cmdName)
		}
		r.diag(d)
	}
	// Occurrences parsed by a flag set whose values were then reset (flags before the
	// subcommand) are reported as ignored.
	lostBy := map[string][]*Assignment{}
	for _, fs := range main.lost {
		for _, fv := range fs.vals {
			for _, a := range fv.occurrences {
				a.Outcome = provenance.Ignored
				a.Reason = "given before the subcommand: k3s parses it, then setting up the subcommand's own flags (the same flag objects) resets it to its default or environment value"
				lostBy[fv.flag.Name] = append(lostBy[fv.flag.Name], a)
			}
		}
	}
	// Tokens after the first positional argument, or never reached because of an error.
	ignoredBy := map[string][]*Assignment{}
	for _, t := range main.rest {
		r.res.Positional = append(r.res.Positional, Arg{Value: t.text, Kind: t.kind, Pos: t.pos()})
	}
	// etcd-snapshot delete takes the snapshot names as its arguments
	// (pkg/cli/etcdsnapshot/etcd_snapshot.go deleteSnapshot): they are not stray words
	// unless a flag follows them, which urfave/cli then reads as one more name.
	namesOnly := main.sub == "delete" && !slices.ContainsFunc(main.rest, func(t token) bool { return strings.HasPrefix(t.text, "-") })
	if len(main.rest) > 0 && !namesOnly {
		first := main.rest[0]
		msg := fmt.Sprintf("%q is a positional argument; urfave/cli v2 stops reading flags there, so it and everything after it is ignored", first.text)
		if r.era == EraV1 {
			msg = fmt.Sprintf("%q is a positional argument; urfave/cli v1 moves the command's flags in front of positional arguments, then ignores everything from %q on", first.text, first.text)
		}
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "cli-positional", Pos: first.pos(),
			Message: msg,
			Hint:    fmt.Sprintf("remove the stray word from ExecStart (for a bool flag write --flag=false as one word): %s", fmt.Sprintf(r.p.ExecStartEdit, r.serviceName()))})
		r.markIgnored(final, main.rest[1:], ignoredBy, provenance.Ignored,
			fmt.Sprintf("after the positional argument %q at %s: urfave/cli stops parsing flags at the first argument that is not a flag", first.text, first.pos()))
		if len(main.rest[1:]) > 0 && r.era == EraV1 {
			for _, as := range ignoredBy {
				for _, a := range as {
					a.Reason = fmt.Sprintf("after the positional argument %q at %s: urfave/cli v1 moved the command's own flags in front of it; this is not one of them (or is the value of a bool flag), so it is never parsed", first.text, first.pos())
				}
			}
		}
	}
	if main.err != nil {
		r.markIgnored(final, main.unreached, ignoredBy, provenance.Unreached, "never parsed: k3s stopped at an earlier error ("+main.err.msg+")")
		r.refusal(main, cmdName)
	} else if wrapper.err != nil {
		r.refusal(wrapper, cmdName)
	}
	for _, f := range final.flags {
		if f == helpFlag {
			continue
		}
		fv := final.vals[f]
		k := &Key{Entry: provenance.Entry[Assignment]{Name: f.Name, Value: fv.value()}, Flag: f}
		if r.era == EraV1 && f.Name == "disable" {
			k.Value = v1StringSliceLookup(k.Value.([]string), "")
		}
		h := append([]*Assignment{}, lostBy[f.Name]...)
		h = append(h, ignoredBy[f.Name]...)
		h = append(h, r.decide(final, fv)...)
		h = append(h, r.swallowed[f.Name]...)
		h = append(h, r.configEntryAssignments(f)...)
		for _, n := range f.Names() {
			for _, a := range r.ignoredFileEntries[n] {
				a.secret = f.Secret
				h = append(h, a)
			}
		}
		for _, name := range f.EnvVars {
			if ev := r.env[name]; ev != nil && len(ev.Assignments) > 1 {
				h = append(h, ev.Assignments[:len(ev.Assignments)-1]...)
			}
			if _, _, seen := r.flagEnv(name); !seen {
				if ev := r.env[name]; ev != nil {
					last := *ev.Assignments[len(ev.Assignments)-1]
					last.Outcome = provenance.Ignored
					last.Reason = fmt.Sprintf("%s %s does not read %s: the flag got its environment variable in v1.27.16, v1.28.12, v1.29.7, v1.30.3 and v1.31.0", r.p.Program, r.beh.Version, name)
					h = append(h, &last)
				}
			}
		}
		sortHistory(h)
		k.History = h
		for _, a := range h {
			if a.Outcome == provenance.Applied {
				k.Source = a
			}
		}
		r.res.Keys = append(r.res.Keys, k)
		for _, n := range f.Names() {
			r.res.keyIndex[n] = k
		}
	}
	for name, as := range r.ignoredFileEntries {
		if cmd.Lookup(name) == nil {
			r.stray = append(r.stray, as...)
		}
	}
	// Config entries and tokens for names that are no key of this command.
	for _, ce := range r.entries {
		if ce.assignment != nil && cmd.Lookup(ce.entry.Key) == nil {
			r.stray = append(r.stray, ce.assignment)
		}
	}
	r.res.Stray = r.stray
}

// markIgnored records tokens that name flags but were never parsed.
func (r *resolver) markIgnored(fs *flagSet, toks []token, into map[string][]*Assignment, out provenance.Outcome, reason string) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		s := t.text
		if len(s) < 2 || s[0] != '-' || s == "--" {
			continue
		}
		name := strings.TrimLeft(s, "-")
		value, hasValue := "", false
		if j := strings.IndexByte(name, '='); j >= 0 {
			name, value, hasValue = name[:j], name[j+1:], true
		}
		f := fs.byName[name]
		a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: t.kind, Pos: t.pos()}, Value: value, Outcome: out, Reason: reason}, Name: displayName(t, strings.Count(s[:len(s)-len(strings.TrimLeft(s, "-"))], "-"), name), Raw: t.raw(), order: t.order}
		if f == nil {
			r.stray = append(r.stray, a)
			continue
		}
		if !hasValue && f.Type != profile.Bool && i+1 < len(toks) {
			a.Value = toks[i+1].text
			i++
		} else if !hasValue && f.Type == profile.Bool {
			a.Value = "true"
		}
		a.secret = f.Secret
		into[f.Name] = append(into[f.Name], a)
	}
}

// decide sets the outcome of every assignment the final flag set saw for a flag.
func (r *resolver) decide(fs *flagSet, fv *flagValue) []*Assignment {
	f := fv.flag
	occ := fv.occurrences
	// Flags sharing a Destination see each other's values.
	if f.Destination != "" {
		for _, other := range fs.flags {
			if other != f && other.Destination == f.Destination {
				occ = append(occ, fs.vals[other].occurrences...)
			}
		}
		sortHistory(occ)
	}
	var out []*Assignment
	if f.Type == profile.StringSlice {
		// The assignments not decided yet that gave an item of the list in force are marked
		// contributing (instead of a set of them: a list of 8,000 items made a map of 8,000
		// per flag). Every mark is replaced below, or by the decide of the flag that shares
		// the Destination and owns the environment assignment marked.
		for _, it := range fv.slice.items {
			if it.by.Outcome == "" {
				it.by.Outcome = contributing
			}
		}
		var last *Assignment
		for _, a := range occ {
			switch a.Outcome {
			case contributing:
				a.Outcome, a.Reason = provenance.Appended, "adds its item to the list in force (a repeatable flag collects every occurrence that reaches the parser, config-file values first)"
				last = a
			case "":
				a.Outcome, a.Reason = provenance.Replaced, "its items were dropped"
			}
		}
		if fv.env != nil {
			switch {
			case fv.env.Outcome == provenance.Rejected:
				// k3s stopped at this variable (see newFlagSet); it stays the reason.
			case fv.env.Outcome == contributing && last == nil:
				fv.env.Outcome, fv.env.Reason = provenance.Applied, "no argument sets the flag, so urfave/cli uses the environment variable"
			case fv.env.Outcome == contributing:
				fv.env.Outcome, fv.env.Reason = provenance.Appended, "urfave/cli v1 keeps the environment's items and appends the arguments' items after them"
			default:
				fv.env.Outcome, fv.env.Reason = provenance.Replaced, "the first value given as an argument replaces the list that came from the environment (urfave/cli v2 StringSlice.Set)"
			}
			out = append(out, fv.env)
		}
		if last != nil {
			last.Outcome, last.Reason = provenance.Applied, "adds the last item of the list in force (items from the other appended assignments are kept)"
		}
		out = append(out, fv.occurrences...)
		return out
	}
	var winner *Assignment
	for i := len(occ) - 1; i >= 0; i-- {
		if occ[i].Outcome == "" {
			winner = occ[i]
			break
		}
	}
	for _, a := range occ {
		if a.Outcome != "" {
			continue
		}
		if a == winner {
			a.Outcome, a.Reason = provenance.Applied, "the last occurrence of a single-value flag wins"
			continue
		}
		a.Outcome = provenance.Overridden
		a.Reason = fmt.Sprintf("overridden by %s at %s: for a single-value flag the last occurrence wins", winner.Name, winner.Pos)
		if a.Kind == sources.KindConfig && winner.Kind == sources.KindCLI {
			a.Reason += "; k3s puts config-file values before the command line, so the command line wins"
		}
	}
	if fv.env != nil {
		switch {
		case fv.env.Outcome == provenance.Rejected:
			// k3s stopped at this variable (see newFlagSet); it stays the reason.
		case winner != nil:
			fv.env.Outcome = provenance.Shadowed
			fv.env.Reason = fmt.Sprintf("%s is used only when the flag is not given as an argument, and %s at %s gives it", fv.env.Name, winner.Name, winner.Pos)
			if winner.Kind == sources.KindConfig {
				fv.env.Reason += " (config-file values are passed as arguments, so they beat environment variables)"
			}
		default:
			fv.env.Outcome, fv.env.Reason = provenance.Applied, "no argument sets the flag, so urfave/cli uses the environment variable"
		}
		out = append(out, fv.env)
	}
	return append(out, fv.occurrences...)
}

// configEntryAssignments are the config entries of a flag that produced no argument:
// replaced by a later file, an empty list, "+" with null.
func (r *resolver) configEntryAssignments(f *profile.Flag) []*Assignment {
	var out []*Assignment
	for _, n := range f.Names() {
		for _, ce := range r.entriesByKey[n] {
			if ce.assignment == nil {
				continue
			}
			ce.assignment.secret = f.Secret
			out = append(out, ce.assignment)
		}
	}
	return out
}

// v1StringSliceLookup reproduces urfave/cli v1.22 lookupStringSlice, through which k3s reads
// `disable` (pkg/cli/server/server.go, app.StringSlice("disable")): unless the list equals
// the default text split on commas, the first occurrence of each default item is removed.
// With no default the default text is "", so the first empty item disappears.
func v1StringSliceLookup(list []string, defValue string) []string {
	def := strings.Split(defValue, ",")
	if slices.Equal(list, def) {
		return list
	}
	out := append([]string{}, list...)
	for _, d := range def {
		if i := slices.Index(out, d); i >= 0 {
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out
}

// refusal turns the CLI error that stops k3s into a diagnostic with a fix, and records the
// argument that caused it when it names no flag of the command.
func (r *resolver) refusal(run *cliRun, cmdName string) {
	e := run.err
	d := diag.Diagnostic{Severity: diag.Error, Code: "k3s-refuses", Message: "k3s refuses to start: " + e.msg}
	if e.tok != nil {
		d.Pos = e.tok.pos()
	} else if pos, ok := r.envErrorPos(e.msg); ok {
		// urfave/cli names the variable whose value it could not parse: point at the line
		// that set it (K3S_CLUSTER_INIT=yes in /etc/default/k3s).
		d.Pos = pos
		d.Hint = fmt.Sprintf("give the variable a value its flag accepts (a bool takes true or false) in %s, then `systemctl restart %s`", pos.File, r.serviceName())
		if r.res.ErrorPos.IsZero() && r.res.Error == e.msg {
			r.res.ErrorPos = pos
		}
	}
	if rest, ok := strings.CutPrefix(e.msg, "Cannot use two forms of the same flag: "); ok {
		names := strings.Fields(rest)
		if len(names) == 2 {
			d.Key = names[1]
			d.Code = "cli-two-forms"
			d.Hint = fmt.Sprintf("use one spelling everywhere: either %s or %s (config-file keys count as flags: a %q key and a %q flag are the same flag)", dash(names[0]), dash(names[1]), names[0], dash(names[1]))
		}
	}
	if strings.HasPrefix(e.msg, "flag provided but not defined: ") && e.tok != nil {
		name := strings.TrimPrefix(e.msg, "flag provided but not defined: -")
		d.Key = name
		a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: e.tok.kind, Pos: e.tok.pos()}, Value: e.tok.text, Outcome: provenance.Rejected, Reason: "k3s refuses to start: " + e.msg}, Name: displayName(*e.tok, 2, name), Raw: e.tok.raw(), order: e.tok.order}
		r.stray = append(r.stray, a)
		switch {
		case e.tok.kind == sources.KindConfig && cmdName == "agent":
			d.Code = "config-unknown-key-agent"
			d.Pos = keyPos(*e.tok)
			d.Message = fmt.Sprintf("k3s agent has no flag %q and, unlike k3s server, does not skip unknown config keys: it refuses to start (%s)", name, e.msg)
			// A key another command has is that command's setting, not a typo: the nearest
			// agent flag would be the wrong way (flannel-backend is not flannel-iface).
			switch w, s := r.p.WrongName("key", name), suggestion(name, r.p.Command("agent")); {
			case w != nil:
				d.Hint = r.wrongNameFix(w, "agent")
			case r.otherCommandWith(name, "agent") != "":
				d.Hint = fmt.Sprintf("remove %s: from the agent's config (it is a %s key)", name, r.otherCommandWith(name, "agent"))
			case s != "":
				d.Hint = fmt.Sprintf("rename %s: to %s: (the agent flag of that name)", name, s)
			default:
				d.Hint = fmt.Sprintf("remove %s: from the agent's config (`k3s agent --help` lists its flags)", name)
			}
		case e.tok.kind == sources.KindCLI && strings.Contains(e.tok.text, " "):
			d.Code = "cli-flag-with-space"
			fields := strings.Fields(e.tok.text)
			d.Message = fmt.Sprintf("the argument %q is one word holding a flag and its value, so k3s sees a flag named %q: %s", e.tok.text, strings.TrimLeft(fields[0], "-")+" "+strings.Join(fields[1:], " "), e.msg)
			d.Hint = fmt.Sprintf("split it into two words in the unit: '%s' '%s' (or write '%s=%s')", fields[0], strings.Join(fields[1:], " "), fields[0], strings.Join(fields[1:], " "))
			r.swallowedBy(e, fields, cmdName)
			if v := bracedVariable(e.tok.raw()); v != "" {
				d.Message = fmt.Sprintf("${%s} holds several words (%q), and systemd passes a braced variable as one argument, so k3s sees a flag named %q: %s", v, e.tok.text, strings.TrimLeft(fields[0], "-")+" "+strings.Join(fields[1:], " "), e.msg)
				d.Hint = fmt.Sprintf("write $%s without braces in ExecStart (systemd splits an unbraced variable at white space), or give each flag its own word", v)
			}
		default:
			switch w, s := r.p.WrongName("key", name), suggestion(name, r.p.Command(cmdName)); {
			case w != nil:
				d.Hint = r.wrongNameFix(w, cmdName)
			case r.otherCommandWith(name, cmdName) != "":
				d.Hint = fmt.Sprintf("remove %s: it is a %s flag, and this unit runs %s %s", dash(name), r.otherCommandWith(name, cmdName), r.p.Program, cmdName)
			case s != "":
				d.Hint = fmt.Sprintf("write --%s instead of %s (did you mean it?)", s, dash(name))
			default:
				d.Hint = fmt.Sprintf("remove %s (`k3s %s --help` lists the flags)", dash(name), cmdName)
			}
		}
	}
	r.diag(d)
}

// swallowedBy records, in the history of the flag the user meant, the one word that holds
// that flag and its value ("'--disable traefik'"): k3s reads it as a flag named
// "disable traefik" and stops, so `explain disable` must point at it (issue 11).
func (r *resolver) swallowedBy(e *cliError, fields []string, cmdName string) {
	cmd := r.p.Command(cmdName)
	if cmd == nil || len(fields) < 2 {
		return
	}
	f := cmd.Lookup(strings.TrimLeft(fields[0], "-"))
	if f == nil {
		return
	}
	value := strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(e.tok.text, " \t"), fields[0]))
	a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: e.tok.kind, Pos: e.tok.pos()}, Value: value, Outcome: provenance.Rejected, Reason: fmt.Sprintf("one word holding the flag %s and its value: k3s reads it as a flag named %q, which it does not define, and refuses to start (%s); split it into two words: '%s' '%s'",
		fields[0], strings.TrimLeft(e.tok.text, "-"), e.msg, fields[0], value)}, Name: fields[0], Raw: e.tok.raw(), order: e.tok.order, secret: f.Secret}
	if v := bracedVariable(e.tok.raw()); v != "" {
		// Quoting is not the fix here: the word comes from ${VAR} (issue 16, ifurther/k3s-bin).
		a.Reason = fmt.Sprintf("${%s} is passed by systemd as one word holding the flag %s and its value: k3s reads it as a flag named %q, which it does not define, and refuses to start (%s); write $%s without braces (systemd splits an unbraced variable at white space) or give each flag its own word",
			v, fields[0], strings.TrimLeft(e.tok.text, "-"), e.msg, v)
	}
	if r.swallowed == nil {
		r.swallowed = map[string][]*Assignment{}
	}
	r.swallowed[f.Name] = append(r.swallowed[f.Name], a)
}

// bracedVariable is VAR when a unit word is exactly ${VAR}.
func bracedVariable(raw string) string {
	if v, ok := strings.CutPrefix(strings.Trim(raw, `"'`), "${"); ok && strings.HasSuffix(v, "}") && !strings.ContainsAny(v, "${ ") {
		return strings.TrimSuffix(v, "}")
	}
	return ""
}

// envErrorPos finds the assignment of the variable a CLI error names (`from environment
// variable "K3S_X"`, urfave/cli v1 and v2).
func (r *resolver) envErrorPos(msg string) (diag.Position, bool) {
	_, rest, ok := strings.Cut(msg, `environment variable "`)
	if !ok {
		return diag.Position{}, false
	}
	name, _, ok := strings.Cut(rest, `"`)
	if !ok {
		return diag.Position{}, false
	}
	if _, a, found := r.lookupEnv(name); found && a != nil {
		return a.Pos, true
	}
	return diag.Position{}, false
}

func dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// otherCommandWith names another command that has the flag, if any.
// ownNameOf is the name under which cmd knows the flag that the other command (as
// otherCommandWith names it, "k3s etcd-snapshot") calls name, through that flag's aliases;
// "" when cmd has none of them.
func (r *resolver) ownNameOf(name, other string, cmd *profile.Command) string {
	oc := r.p.Command(strings.TrimPrefix(other, r.p.Program+" "))
	if oc == nil {
		return ""
	}
	f := oc.Lookup(name)
	if f == nil {
		return ""
	}
	for _, n := range f.Names() {
		// One-letter aliases name different flags in different commands (the server's -t is
		// token, etcd-snapshot's is etcd-token): only a long name is the same flag.
		if n != name && len(n) > 1 && cmd.ConfigValid[n] {
			return n
		}
	}
	return ""
}

func (r *resolver) otherCommandWith(name, except string) string {
	for _, c := range []string{"server", "agent", "etcd-snapshot"} {
		if c != except && r.p.Command(c).Lookup(name) != nil {
			return r.p.Program + " " + c
		}
	}
	return ""
}
