package report

import (
	"strings"

	"github.com/k3sconf/k3sconf/internal/noderecord"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// NewRedactor is the redactor of a resolved node: it knows the command's flags (which are
// secret, which are switches, from the profile) and every secret value the node sets; with
// show set it redacts nothing. The rules themselves are [output.Redactor]'s.
func NewRedactor(res *resolve.Result, show bool) *output.Redactor {
	r := output.NewTextRedactor(show)
	if show {
		return r
	}
	for _, k := range res.Keys {
		for _, n := range k.Flag.Names() {
			r.Flag(n, k.Flag.Secret, k.Flag.Type == profile.Bool)
		}
	}
	visit := func(name string, a *resolve.Assignment) {
		if !a.Secret() {
			// Credentials inside other values: URL passwords, NAME=VALUE items. The raw
			// text is most often the value itself: the same words teach the same secrets.
			r.LearnInside(a.Value)
			if a.Raw != a.Value {
				r.LearnInside(a.Raw)
			}
			for _, v := range a.Items {
				r.LearnInside(v)
			}
			return
		}
		r.Learn(name, a.Value)
		r.Learn(name, a.Raw)
		for _, it := range a.Items {
			r.Learn(name, it)
		}
	}
	for _, k := range res.Keys {
		for _, a := range k.History {
			visit(k.Name(), a)
		}
	}
	for _, a := range res.Stray {
		visit(strings.TrimSuffix(strings.TrimLeft(a.Name, "-"), ":"), a)
	}
	for _, ev := range res.Env {
		for _, a := range ev.Assignments {
			visit(ev.Name, a)
		}
	}
	// The list rule (output.Redactor.FlagValue): the item after a secret flag on its own,
	// kubelet-arg: ["--registry-password", "x"], is that flag's secret, in the list in force
	// and in the history, where each item is an assignment of its own: learnt, so a text
	// quoting it (a finding, its fix, explain's history) is redacted too.
	for _, k := range res.Keys {
		if k.Flag == nil || k.Flag.Type != profile.StringSlice {
			continue
		}
		var words []string
		for _, a := range k.History {
			if len(a.Items) > 0 {
				words = append(words, a.Items...)
			} else {
				words = append(words, a.Value)
			}
		}
		learnFlagValues(r, words)
		if v, ok := k.Value.([]string); ok {
			learnFlagValues(r, v)
		}
	}
	strays := map[string][]string{}
	for _, a := range res.Stray {
		if len(a.Items) > 0 {
			strays[a.Name] = append(strays[a.Name], a.Items...)
		} else {
			strays[a.Name] = append(strays[a.Name], a.Value)
		}
	}
	for _, words := range strays {
		learnFlagValues(r, words)
	}
	// A secret flag whose value k3s never parsed (it sits inside a word k3s rejected, such
	// as one ${VAR} holding "--token x --server y", or after a typo of the flag) is in no
	// assignment: find it in the input words (command-line words, stray assignments,
	// environment values) by the word rules, never in prose, and redact it wherever it
	// appears.
	words := make([]string, 0, len(res.Args))
	for _, a := range res.Args {
		words = append(words, a.Value)
	}
	r.LearnArgv(words)
	for _, a := range res.Stray {
		// A stray name is a flag k3s does not know (config keys too: "agent-tokn:").
		name := "--" + strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(a.Name, "-"), ":"), "+")
		r.LearnArgv([]string{name, a.Value})
		r.LearnArgv([]string{name, a.Raw})
	}
	r.Done()
	return r
}

// KeyValue is the key's value for output, redacted when secret (by the node face's one
// redaction step, internal/noderecord).
func KeyValue(k *resolve.Key, red *output.Redactor) any { return noderecord.Value(k, red) }

// learnFlagValues teaches r the items of a list that are the values of a secret flag on
// its own before them (the list rule).
func learnFlagValues(r *output.Redactor, items []string) {
	prev := ""
	for _, it := range items {
		if v, ok := r.FlagValue(prev, it); ok {
			if v != it {
				r.Learn(prev, it)
			}
			prev = ""
			continue
		}
		prev = it
	}
}
