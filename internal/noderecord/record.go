package noderecord

import (
	"iter"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// Key is one flag of a node with its values redacted. Only [Redact] makes one.
type Key struct {
	k      *resolve.Key
	red    *output.Redactor
	value  any
	note   string
	advice []string
	// prev maps an assignment of a list key to the item before its first one in the key's
	// history, when that item may be a secret flag on its own (PrevItems).
	prev map[*resolve.Assignment]string
}

// Redact is the record of k as red redacts it.
func Redact(k *resolve.Key, red *output.Redactor) *Key {
	r := &Key{k: k, red: red, value: Value(k, red), note: red.Scrub(k.Note), prev: PrevItems(k, red)}
	for _, a := range k.Advice {
		r.advice = append(r.advice, red.Scrub(a))
	}
	return r
}

// Name is the flag's primary name.
func (r *Key) Name() string { return r.k.Name() }

// Value is the value in force, redacted: a string, bool, number or list of strings.
func (r *Key) Value() any { return r.value }

// Note is the key's note (what k3s does with the value), redacted.
func (r *Key) Note() string { return r.note }

// Advice is what to edit so an intended value wins, redacted.
func (r *Key) Advice() []string { return r.advice }

// Default reports whether nothing sets the key.
func (r *Key) Default() bool { return r.k.Source == nil }

// Source is where the value in force was set: its kind, position and the name it was set
// under (not redacted: a flag or variable name as the file writes it). ok is false for a
// default.
func (r *Key) Source() (kind sources.Kind, pos diag.Position, name string, ok bool) {
	s := r.k.Source
	if s == nil {
		return sources.KindDefault, diag.Position{}, "", false
	}
	return s.Kind, s.Pos, s.Name, true
}

// SourceText is the assignment that gave the value as explain quotes it, redacted
// ("--token REDACTED", "K3S_TOKEN=REDACTED", "write-kubeconfig-mode: 0644"); "" for a
// default.
func (r *Key) SourceText() string {
	if r.k.Source == nil {
		return ""
	}
	return describe(r.k.Name(), r.k.Source, r.prev[r.k.Source], r.red)
}

// Form says which renderer an [Entry] is for: the JSON history leaves out the winner (it is
// the key's source) and needs the raw text, value and items apart; the text history lists
// every assignment as written.
type Form int

const (
	// JSON entries: every assignment but the winner, with Name, Raw, Value and Items.
	JSON Form = iota
	// Text entries: every assignment, with Text.
	Text
	// JSONWritten entries are JSON entries for a renderer that writes each one as it comes
	// and keeps nothing of it: Items may then be the assignment's own slice, which must
	// only be read.
	JSONWritten
)

// Entry is one assignment of a key, redacted. Kind, Pos and Outcome are never secret.
type Entry struct {
	Kind    sources.Kind
	Pos     diag.Position
	Outcome string
	// Reason says why the assignment has its Outcome.
	Reason string
	// JSON form: the name it was set under, the text as written, its value and the list
	// items it contributed.
	Name, Raw, Value string
	Items            []string
	// Text form: the assignment as written ("--token REDACTED").
	Text string
	// Compact, in the JSONWritten form with nothing to redact, is the assignment itself
	// when its Reason is empty (resolve may keep it as compact data): Entry.Reason is left
	// empty and the writer appends Compact's (reasonhook.AppendReason, else Compact.Why()).
	Compact *resolve.Assignment
}

// History yields the key's assignments in precedence order, each redacted as it is read.
func (r *Key) History(f Form) iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		name := r.k.Name()
		for _, a := range r.k.History {
			if f != Text && a == r.k.Source {
				continue
			}
			if !yield(entry(name, a, r.prev[a], r.red, f)) {
				return
			}
		}
	}
}

// Stray is an assignment of a name the command has no flag for (a config key k3s skipped,
// an argument that stopped it), in the text form, redacted. prev is the last item of the
// name's assignment before it ("" for the first): a list under a mistyped key
// (kublet-arg: ["--registry-password", "x"]) keeps the list rule.
func Stray(name string, a *resolve.Assignment, prev string, red *output.Redactor) Entry {
	return entry(name, a, prev, red, Text)
}

// LastItem is the last item an assignment gives a list (its value for one item), the
// prev of the assignment after it ([Stray]).
func LastItem(a *resolve.Assignment) string {
	if n := len(a.Items); n > 0 {
		return a.Items[n-1]
	}
	return a.Value
}

// PrevItems maps each assignment of k, a list key (kubelet-arg, node-label, …), to the
// item before its first one when that item is a secret flag on its own (the history in precedence
// order is the list as k3s joins it: each item of a config list is an assignment of its
// own): the list rule (output.Redactor.FlagValue) hides an item after a secret flag on
// its own, `kubelet-arg: ["--registry-password", "x"]`, though x is a separate
// assignment. nil when there is none, or nothing is redacted.
func PrevItems(k *resolve.Key, red *output.Redactor) map[*resolve.Assignment]string {
	if !red.On() || k.Flag == nil || k.Flag.Type != profile.StringSlice || len(k.History) < 2 {
		return nil
	}
	var out map[*resolve.Assignment]string
	prev := ""
	for _, a := range k.History {
		if _, ok := red.FlagValue(prev, a.Value); ok {
			if out == nil {
				out = map[*resolve.Assignment]string{}
			}
			out[a] = prev
			if len(a.Items) < 2 {
				prev = "" // a flag's value is no flag for the item after it
				continue
			}
		}
		prev = LastItem(a)
	}
	return out
}

// items redacts the items of a list in order, the first one after prev, by the list rule
// (a secret flag on its own hides the next item) and otherwise by redact.
func items(its []string, prev string, red *output.Redactor, redact func(string) string) []string {
	out := make([]string, len(its))
	for i, it := range its {
		if v, ok := red.FlagValue(prev, it); ok {
			out[i], prev = v, ""
			continue
		}
		out[i], prev = redact(it), it
	}
	return out
}

func entry(name string, a *resolve.Assignment, prev string, red *output.Redactor, f Form) Entry {
	e := Entry{Kind: a.Kind, Pos: a.Pos, Outcome: string(a.Outcome)}
	if f == JSONWritten && !red.On() && a.Reason == "" {
		e.Compact = a
	} else {
		e.Reason = reason(red, a)
	}
	if f == Text {
		e.Text = describe(name, a, prev, red)
		return e
	}
	e.Name, e.Raw, e.Value = red.Scrub(a.Name), red.String(name, a.Raw), red.String(name, a.Value)
	if a.Kind == sources.KindCLI {
		e.Raw = red.Arg(a.Raw) // command-line words as written: '--token X' is a flag and its value
	}
	if a.Secret() {
		e.Value = red.Value(name, a.Value)
		if e.Raw != "" {
			e.Raw = red.Value(name, a.Raw)
		}
	} else if v, ok := red.FlagValue(prev, a.Value); ok && len(a.Items) == 0 {
		// The value of a secret flag given as the item before (the list rule).
		e.Value = v
		if e.Raw != "" {
			e.Raw, _ = red.FlagValue(prev, a.Raw)
		}
	}
	if len(a.Items) > 0 {
		if a.Secret() {
			e.Items = redactItems(a.Items, f == JSONWritten, func(it string) string { return red.Scrub(red.Value(name, it)) })
		} else if prev != "" || hasFlagWord(a.Items) {
			e.Items = items(a.Items, prev, red, func(it string) string { return red.String(name, it) })
			e.Value = e.Items[0]
		} else {
			e.Items = redactItems(a.Items, f == JSONWritten, func(it string) string { return red.String(name, it) })
		}
	}
	return e
}

// hasFlagWord: an item starts with '-' (it may be a secret flag on its own).
func hasFlagWord(its []string) bool {
	for _, it := range its {
		if strings.HasPrefix(it, "-") {
			return true
		}
	}
	return false
}

// redactItems is items with redact applied to each, in a new slice; with share, items
// itself when redact changes none of them (--show-secrets, or a list that holds no
// secret): a node of 2,000 drop-ins has tens of thousands of list entries, and a copy of
// each was garbage the moment it was written.
func redactItems(items []string, share bool, redact func(string) string) []string {
	var out []string // nil while every item is unchanged and may be shared
	if !share {
		out = make([]string, len(items))
	}
	for i, it := range items {
		r := redact(it)
		if out == nil && r != it {
			out = make([]string, len(items))
			copy(out, items[:i])
		}
		if out != nil {
			out[i] = r
		}
	}
	if out == nil {
		return items
	}
	return out
}

// Value is k's value in force for output, redacted when secret: the value of a secret
// flag, or one an assignment that copies a secret gave (a YAML alias of a secret anchor:
// resolve marks it secret), whatever the flag.
func Value(k *resolve.Key, red *output.Redactor) any {
	secret := k.Flag.Secret || copiesSecret(k)
	switch v := k.Value.(type) {
	case string:
		if secret {
			return red.Value(k.Name(), v)
		}
		return red.String(k.Name(), v)
	case []string:
		if secret {
			out := make([]string, len(v))
			for i, s := range v {
				out[i] = red.Scrub(red.Value(k.Name(), s))
			}
			return out
		}
		// Each item on its own, and the item after a secret flag on its own by the list
		// rule (output.Redactor.FlagValue).
		return items(v, "", red, func(s string) string { return red.String(k.Name(), s) })
	}
	return k.Value
}

// SecretCopy reports whether the value in force copies a secret though the flag is not
// secret (a YAML alias of a secret anchor): the show document marks the key, so a reader
// of a document written with --show-secrets (fleet) knows to hide it.
func (r *Key) SecretCopy() bool { return SecretCopy(r.k) }

// SecretCopy is [Key.SecretCopy] for a key without its record.
func SecretCopy(k *resolve.Key) bool { return k != nil && !k.Flag.Secret && copiesSecret(k) }

// copiesSecret reports whether an assignment that gave k's value in force is secret though
// the flag is not (a copy of a secret).
func copiesSecret(k *resolve.Key) bool {
	for _, a := range k.History {
		if a.Secret() && (a.Outcome == provenance.Applied || a.Outcome == provenance.Appended) {
			return true
		}
	}
	return false
}

// Argv is the spliced argv with secret values redacted: "--token=x" and the word after a
// secret flag written without "=", and the value of a config argument whose assignment is
// secret though its flag is not (a copy of a secret: "--node-name=REDACTED").
func Argv(res *resolve.Result, red *output.Redactor) []string {
	words := make([]string, len(res.Args))
	for i, a := range res.Args {
		words[i] = a.Value
	}
	if !red.On() {
		return words // already a copy: nothing to redact
	}
	words = red.Argv(words)
	var copies map[diag.Position]bool
	for _, k := range res.Keys {
		if k.Flag.Secret {
			continue
		}
		for _, a := range k.History {
			if a.Secret() && a.Kind == sources.KindConfig {
				if copies == nil {
					copies = map[diag.Position]bool{}
				}
				copies[a.Pos] = true
			}
		}
	}
	for i, a := range res.Args {
		if a.Kind == sources.KindConfig && copies[a.Pos] {
			if eq := strings.IndexByte(words[i], '='); eq > 0 && strings.HasPrefix(words[i], "-") {
				words[i] = words[i][:eq+1] + output.Redacted
			}
		}
	}
	return words
}

// reason redacts why an assignment has its outcome. A reason k3sconf rendered from its own
// record of the config entry that replaced it (Assignment.Reason empty) quotes only that
// entry's key and position: only the distinctive secrets are looked for. Any other reason
// may quote input and goes through Scrub.
func reason(red *output.Redactor, a *resolve.Assignment) string {
	if !red.On() {
		return a.Why()
	}
	if a.Reason == "" {
		return red.Known(a.Why())
	}
	return red.Scrub(a.Reason)
}

// describe shows an assignment as written: "write-kubeconfig-mode: 0644" or
// "--token REDACTED" or "K3S_TOKEN=REDACTED".
func describe(key string, a *resolve.Assignment, prev string, red *output.Redactor) string {
	v := a.Value
	flagValue := false
	if a.Secret() {
		v = red.Value(key, v)
	} else if fv, ok := red.FlagValue(prev, v); ok {
		// The value of a secret flag given as the item before (the list rule).
		v, flagValue = fv, true
	} else {
		v = red.String(key, v)
	}
	if len(a.Items) > 1 {
		var its []string
		if a.Secret() {
			its = make([]string, len(a.Items))
			for i, it := range a.Items {
				its[i] = red.Scrub(red.Value(key, it))
			}
		} else {
			its = items(a.Items, prev, red, func(it string) string { return red.String(key, it) })
		}
		v = "[" + strings.Join(its, ", ") + "]"
	}
	switch a.Kind {
	case "env":
		return a.Name + "=" + v
	case "config":
		raw := a.Raw
		if raw == "" || a.Secret() || flagValue || len(a.Items) > 0 {
			raw = v
		} else {
			raw = red.String(key, raw)
		}
		return red.Scrub(a.Name) + " " + raw
	}
	if strings.HasSuffix(a.Name, ":") {
		return a.Name + " " + v
	}
	if a.Raw != "" && !a.Secret() && !flagValue {
		// As written in the unit, quotes included.
		return red.Arg(a.Raw)
	}
	if a.Secret() {
		return a.Name + " " + v
	}
	return a.Name + "=" + v
}
