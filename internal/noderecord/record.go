package noderecord

import (
	"iter"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
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
}

// Redact is the record of k as red redacts it.
func Redact(k *resolve.Key, red *output.Redactor) *Key {
	r := &Key{k: k, red: red, value: Value(k, red), note: red.Scrub(k.Note)}
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
	return describe(r.k.Name(), r.k.Source, r.red)
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
			if !yield(entry(name, a, r.red, f)) {
				return
			}
		}
	}
}

// Stray is an assignment of a name the command has no flag for (a config key k3s skipped,
// an argument that stopped it), in the text form, redacted.
func Stray(name string, a *resolve.Assignment, red *output.Redactor) Entry {
	return entry(name, a, red, Text)
}

func entry(name string, a *resolve.Assignment, red *output.Redactor, f Form) Entry {
	e := Entry{Kind: a.Kind, Pos: a.Pos, Outcome: string(a.Outcome)}
	if f == JSONWritten && !red.On() && a.Reason == "" {
		e.Compact = a
	} else {
		e.Reason = reason(red, a)
	}
	if f == Text {
		e.Text = describe(name, a, red)
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
	}
	if len(a.Items) > 0 {
		e.Items = redactItems(a.Items, f == JSONWritten, func(it string) string {
			if a.Secret() {
				return red.Scrub(red.Value(name, it))
			}
			return red.String(name, it)
		})
	}
	return e
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
		out := make([]string, len(v))
		for i, s := range v {
			if secret {
				out[i] = red.Scrub(red.Value(k.Name(), s))
				continue
			}
			out[i] = red.String(k.Name(), s)
		}
		return out
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
func describe(key string, a *resolve.Assignment, red *output.Redactor) string {
	v := a.Value
	if a.Secret() {
		v = red.Value(key, v)
	} else {
		v = red.String(key, v)
	}
	if len(a.Items) > 1 {
		items := make([]string, len(a.Items))
		for i, it := range a.Items {
			if a.Secret() {
				items[i] = red.Scrub(red.Value(key, it))
				continue
			}
			items[i] = red.String(key, it)
		}
		v = "[" + strings.Join(items, ", ") + "]"
	}
	switch a.Kind {
	case "env":
		return a.Name + "=" + v
	case "config":
		raw := a.Raw
		if raw == "" || a.Secret() || len(a.Items) > 0 {
			raw = v
		} else {
			raw = red.String(key, raw)
		}
		return red.Scrub(a.Name) + " " + raw
	}
	if strings.HasSuffix(a.Name, ":") {
		return a.Name + " " + v
	}
	if a.Raw != "" && !a.Secret() {
		// As written in the unit, quotes included.
		return red.Arg(a.Raw)
	}
	if a.Secret() {
		return a.Name + " " + v
	}
	return a.Name + "=" + v
}
