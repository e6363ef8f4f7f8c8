package resolve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// This file reproduces the decisions of the CLI library k3s uses: urfave/cli v2.27.7 (with
// DisableSliceFlagSeparator) in current k3s and urfave/cli v1.22 in older releases. Both sit
// on Go's flag package, whose parsing rules (flag.FlagSet.parseOne) decide most outcomes:
// "-x" and "--x" are the same, "--x=v" or "--x v" for non-bool flags, "--b" or "--b=v" for
// bools, parsing stops at the first non-flag argument or after "--".

// Era is the urfave/cli major version a k3s release uses.
type Era int

const (
	// EraV1 is urfave/cli v1.22 (k3s before the 2025 migration).
	EraV1 Era = 1
	// EraV2 is urfave/cli v2.27 (k3s-io/k3s PR #11831 and its backports).
	EraV2 Era = 2
)

func (e Era) String() string {
	if e == EraV1 {
		return "v1"
	}
	return "v2"
}

// cliError is a failure k3s reports before it starts.
type cliError struct {
	msg string
	tok *token // the argument that caused it, when there is one
}

func (e *cliError) Error() string { return e.msg }

// helpFlag is urfave's help flag, which every command and the app have.
var helpFlag = &profile.Flag{Name: "help", Aliases: []string{"h"}, Type: profile.Bool, Default: "false"}

// sliceValue is a StringSlice that may be shared by two flags with one Destination.
type sliceValue struct {
	items      []sliceItem
	hasBeenSet bool
	// capHint is how many items the arguments can give (the config tokens of the flag):
	// the items are allocated once for them instead of growing (see resolver.argCount).
	capHint int
}

type sliceItem struct {
	text string
	by   *Assignment
}

// flagValue is the state of one flag in one flag set.
type flagValue struct {
	flag  *profile.Flag
	str   string
	b     bool
	i     int64
	d     time.Duration
	slice *sliceValue
	// env is the environment assignment applied when the flag set was created.
	env *Assignment
	// occurrences are the arguments that set it, in order.
	occurrences []*Assignment
}

type flagSet struct {
	era    Era
	flags  []*profile.Flag
	vals   map[*profile.Flag]*flagValue
	byName map[string]*profile.Flag
	// visited lists names given on the command line, for normalizeFlags.
	visited map[string]bool
	// arena holds the occurrences' records.
	arena assignmentArena
}

// envLookup returns the process environment's value of a variable and the assignment that
// set it.
type envLookup func(name string) (value string, by *Assignment, ok bool)

// newFlagSet declares flags as urfave does when a command runs: defaults first, then each
// flag's environment variables (the first one present wins, even when empty). A malformed
// environment value is fatal here, before any argument is parsed, and even when the flag is
// also given as an argument.
func newFlagSet(era Era, flags []*profile.Flag, env envLookup, shared map[string]*sliceValue) (*flagSet, *cliError) {
	fs := &flagSet{era: era, flags: flags, vals: map[*profile.Flag]*flagValue{},
		byName: map[string]*profile.Flag{}, visited: map[string]bool{}}
	for _, f := range flags {
		fv := &flagValue{flag: f}
		fs.vals[f] = fv
		for _, n := range f.Names() {
			fs.byName[n] = f
		}
		switch f.Type {
		case profile.Bool:
			fv.b = f.Default == "true"
		case profile.Int:
			fv.i, _ = strconv.ParseInt(f.Default, 0, 64)
		case profile.Duration:
			fv.d, _ = time.ParseDuration(f.Default)
		case profile.StringSlice:
			if f.Destination != "" && shared != nil {
				if sv, ok := shared[f.Destination]; ok {
					fv.slice = sv
				} else {
					fv.slice = &sliceValue{}
					shared[f.Destination] = fv.slice
				}
			} else {
				fv.slice = &sliceValue{}
			}
		default:
			fv.str = f.Default
		}
	}
	for _, f := range flags {
		fv := fs.vals[f]
		for _, name := range f.EnvVars {
			val, by, ok := env(name)
			if !ok {
				continue
			}
			a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: sources.KindEnv, Pos: by.Pos}, Value: val}, Name: name, Raw: by.Raw, order: by.order, secret: f.Secret || by.secret}
			fv.env = a
			if err := fs.applyEnv(fv, name, val, a); err != nil {
				a.Outcome, a.Reason = provenance.Rejected, err.msg
				// The refusal points at the assignment (the env file line), as its message
				// names the variable.
				err.tok = &token{cli: &cliOrigin{pos: by.Pos}}
				return fs, err
			}
			break
		}
	}
	return fs, nil
}

func (fs *flagSet) applyEnv(fv *flagValue, name, val string, a *Assignment) *cliError {
	f := fv.flag
	from := fmt.Sprintf("environment variable %q", name)
	// Wording from urfave/cli: v1 flag_*.go ApplyWithError ("as duration", without
	// "value"), v2 flag_*.go Apply.
	fail := func(kind string, err error) *cliError {
		if fs.era == EraV1 {
			if kind == "duration" {
				return &cliError{msg: fmt.Sprintf("could not parse %s as duration for flag %s: %s", val, f.Name, err)}
			}
			return &cliError{msg: fmt.Sprintf("could not parse %s as %s value for flag %s: %s", val, kind, f.Name, err)}
		}
		return &cliError{msg: fmt.Sprintf("could not parse %q as %s value from %s for flag %s: %s", val, kind, from, f.Name, err)}
	}
	switch f.Type {
	case profile.Bool:
		if val == "" {
			fv.b = false
			return nil
		}
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fail("bool", err)
		}
		fv.b = b
	case profile.Int:
		if val == "" {
			if fs.era == EraV1 {
				_, err := strconv.ParseInt(val, 0, 64)
				return fail("int", err)
			}
			return nil
		}
		i, err := strconv.ParseInt(val, 0, 64)
		if err != nil {
			return fail("int", err)
		}
		fv.i = i
	case profile.Duration:
		if val == "" {
			if fs.era == EraV1 {
				_, err := time.ParseDuration(val)
				return fail("duration", err)
			}
			return nil
		}
		d, err := time.ParseDuration(val)
		if err != nil {
			return fail("duration", err)
		}
		fv.d = d
	case profile.StringSlice:
		if fs.era == EraV1 {
			// v1 has no separator switch: env values are split on commas and trimmed, and
			// later arguments append to them.
			for _, s := range strings.Split(val, ",") {
				fv.slice.items = append(fv.slice.items, sliceItem{text: strings.TrimSpace(s), by: a})
			}
			return nil
		}
		fv.slice.items = []sliceItem{{text: strings.TrimSpace(val), by: a}}
		// v2: "Set this to false so that we reset the slice if we then parse other values
		// from flags" (StringSliceFlag.Apply).
		fv.slice.hasBeenSet = false
	default:
		fv.str = val
	}
	return nil
}

// parse reproduces flag.FlagSet.Parse: it consumes flags until the first non-flag argument
// (returned with everything after it) or "--" (dropped), or the first error.
func (fs *flagSet) parse(toks []token) (rest []token, err *cliError) {
	i := 0
	for i < len(toks) {
		t := toks[i]
		s := t.text
		if len(s) < 2 || s[0] != '-' {
			return toks[i:], nil
		}
		minuses := 1
		if s[1] == '-' {
			minuses++
			if len(s) == 2 {
				return toks[i+1:], nil
			}
		}
		name := s[minuses:]
		if len(name) == 0 || name[0] == '-' || name[0] == '=' {
			return toks[i:], &cliError{msg: "bad flag syntax: " + s, tok: &toks[i]}
		}
		i++
		value, hasValue := "", false
		if j := strings.IndexByte(name[1:], '='); j >= 0 {
			value, hasValue = name[j+2:], true
			name = name[:j+1]
		}
		f := fs.byName[name]
		if f == nil {
			return toks[i-1:], &cliError{msg: "flag provided but not defined: -" + name, tok: &toks[i-1]}
		}
		a := fs.arena.new()
		*a = Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: t.kind, Pos: t.pos()}}, Name: displayName(t, minuses, name), Raw: t.raw(), order: t.order}
		if f.Type == profile.Bool {
			if hasValue {
				b, perr := strconv.ParseBool(value)
				if perr != nil {
					a.Value = value
					shown := value
					if toks[i-1].copiesSecret() {
						shown = redacted // a copy of a secret by YAML alias (secretcopy.go)
					}
					e := &cliError{msg: fmt.Sprintf("invalid boolean value %q for -%s: parse error", shown, name), tok: &toks[i-1]}
					a.Outcome, a.Reason = provenance.Rejected, "k3s refuses to start: "+e.msg
					fs.record(f, a)
					return toks[i-1:], e
				}
				a.Value = strconv.FormatBool(b)
				fs.vals[f].b = b
			} else {
				a.Value = "true"
				fs.vals[f].b = true
			}
		} else {
			valueTok := &toks[i-1]
			if !hasValue && i < len(toks) {
				value, hasValue, valueTok = toks[i].text, true, &toks[i]
				if a.Raw != "" || toks[i].raw() != "" {
					a.Raw = strings.TrimSpace(a.Raw + " " + toks[i].raw())
				}
				i++
			}
			if !hasValue {
				e := &cliError{msg: "flag needs an argument: -" + name, tok: &toks[i-1]}
				a.Outcome, a.Reason = provenance.Rejected, "k3s refuses to start: "+e.msg
				fs.record(f, a)
				return toks[i-1:], e
			}
			a.Value = value
			if perr := fs.set(f, value, a); perr != nil {
				shown := value
				if valueTok.copiesSecret() {
					shown = redacted
				}
				e := &cliError{msg: fmt.Sprintf("invalid value %q for flag -%s: %s", shown, name, perr), tok: &toks[i-1]}
				a.Outcome, a.Reason = provenance.Rejected, "k3s refuses to start: "+e.msg
				fs.record(f, a)
				return toks[i-1:], e
			}
		}
		fs.visited[name] = true
		fs.record(f, a)
	}
	return nil, nil
}

// displayName is how an explanation names an occurrence: the config key as written, or the
// flag as given on the command line.
func displayName(t token, minuses int, name string) string {
	if t.kind == sources.KindConfig && t.name() != "" {
		return t.from.colonKey
	}
	return strings.Repeat("-", minuses) + name
}

func (fs *flagSet) record(f *profile.Flag, a *Assignment) {
	a.secret = a.secret || f.Secret
	fs.vals[f].occurrences = append(fs.vals[f].occurrences, a)
}

var errParse = errors.New("parse error")

func numError(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		return errors.New("value out of range")
	}
	return errParse
}

// set stores a value given as an argument.
func (fs *flagSet) set(f *profile.Flag, value string, a *Assignment) error {
	fv := fs.vals[f]
	switch f.Type {
	case profile.Int:
		v, err := strconv.ParseInt(value, 0, 64)
		if err != nil {
			return numError(err)
		}
		fv.i = v
	case profile.Duration:
		v, err := time.ParseDuration(value)
		if err != nil {
			return errParse
		}
		fv.d = v
	case profile.StringSlice:
		fs.appendSlice(fv.slice, value, a)
	default:
		fv.str = value
	}
	return nil
}

// appendSlice is StringSlice.Set. v2: the first Set replaces whatever the default or the
// environment put there, and items are trimmed (its "sl:::<start time>:::" JSON prefix is
// internal to one process and cannot come from a user). v1: plain append, no trimming.
func (fs *flagSet) appendSlice(sv *sliceValue, value string, a *Assignment) {
	if fs.era == EraV1 {
		if sv.items == nil && sv.capHint > 0 {
			sv.items = make([]sliceItem, 0, sv.capHint)
		}
		sv.items = append(sv.items, sliceItem{text: value, by: a})
		return
	}
	if !sv.hasBeenSet {
		sv.items = nil
		if sv.capHint > 0 {
			sv.items = make([]sliceItem, 0, sv.capHint)
		}
		sv.hasBeenSet = true
	}
	sv.items = append(sv.items, sliceItem{text: strings.TrimSpace(value), by: a})
}

// normalize reproduces urfave's normalizeFlags: a flag given under two of its names is fatal.
// Flags are checked in declaration order and names in Names() order, which fixes the wording.
func (fs *flagSet) normalize() *cliError {
	for _, f := range fs.flags {
		names := f.Names()
		if len(names) == 1 {
			continue
		}
		first := ""
		for _, n := range names {
			if !fs.visited[n] {
				continue
			}
			if first != "" {
				e := &cliError{msg: "Cannot use two forms of the same flag: " + n + " " + first}
				for _, a := range fs.vals[f].occurrences {
					a.Outcome = provenance.Rejected
					a.Reason = fmt.Sprintf("k3s refuses to start: %s (urfave/cli allows a flag under one of its names only, and config-file keys count: %s: in a config file is the same flag as --%s)", e.msg, n, first)
				}
				if len(fs.vals[f].occurrences) > 0 {
					e.tok = &token{cli: &cliOrigin{pos: fs.vals[f].occurrences[len(fs.vals[f].occurrences)-1].Pos}}
				}
				return e
			}
			first = n
		}
	}
	return nil
}

// reorderV1 reproduces urfave/cli v1.22's reorderArgs (command.go): an argument naming one
// of the command's flags is moved in front, together with the argument after it when the flag
// was written without "=" and that argument is not itself a flag of the command (bool flags
// included, so "--cluster-init true" keeps "true" right behind it). Everything else keeps its
// order behind them; "--" and what follows it go last, "--" first among the rest.
func reorderV1(flags map[string]*profile.Flag, toks []token) []token {
	var reordered, remaining []token
	nextMayBeValue := false
	for i, t := range toks {
		arg := t.text
		switch {
		case nextMayBeValue && !argIsFlagV1(flags, arg):
			nextMayBeValue = false
			reordered = append(reordered, t)
		case arg == "--":
			remaining = append([]token{t}, remaining...)
			remaining = append(remaining, toks[i+1:]...)
			return append(reordered, remaining...)
		case argIsFlagV1(flags, arg):
			reordered = append(reordered, t)
			nextMayBeValue = !strings.Contains(arg, "=")
		default:
			remaining = append(remaining, t)
		}
	}
	return append(reordered, remaining...)
}

func argIsFlagV1(flags map[string]*profile.Flag, arg string) bool {
	if arg == "-" || arg == "--" || !strings.HasPrefix(arg, "-") {
		return false
	}
	if strings.HasPrefix(arg, "--") {
		arg = strings.Replace(arg, "-", "", 2)
	}
	if strings.HasPrefix(arg, "-") {
		arg = strings.Replace(arg, "-", "", 1)
	}
	arg = strings.Split(arg, "=")[0]
	_, ok := flags[arg]
	return ok
}

// value returns the flag's value as the CLI layer hands it to k3s.
func (fv *flagValue) value() any {
	switch fv.flag.Type {
	case profile.Bool:
		return fv.b
	case profile.Int:
		return fv.i
	case profile.Duration:
		return fv.d.String()
	case profile.StringSlice:
		out := make([]string, 0, len(fv.slice.items))
		for _, it := range fv.slice.items {
			out = append(out, it.text)
		}
		return out
	default:
		return fv.str
	}
}
