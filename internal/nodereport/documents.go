package nodereport

import (
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// ArgsDocument is `k3sconf args --json`: the argv k3s parses, each word with its origin.
type ArgsDocument struct {
	output.Envelope
	Args        []ArgDoc       `json:"args"`
	Error       string         `json:"error,omitempty"`
	ErrorSource *output.Source `json:"errorSource,omitempty"`
}

// ArgDoc is one word of the argv (secret values redacted) and where it came from.
type ArgDoc struct {
	Value  string        `json:"value"`
	Source output.Source `json:"source"`
}

// ArgsJSON builds the args document.
func ArgsJSON(res *resolve.Result, red *output.Redactor) *ArgsDocument {
	d := &ArgsDocument{Envelope: EnvelopeOf(res, "args"), Args: []ArgDoc{}}
	d.Error, d.ErrorSource = errorDoc(res, red)
	for i, v := range Args(res, red) {
		a := res.Args[i]
		d.Args = append(d.Args, ArgDoc{Value: v, Source: output.Source{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column}})
	}
	return d
}

// SourcesDocument is `k3sconf sources --json`: every input considered, in precedence order.
type SourcesDocument struct {
	output.Envelope
	Unit    string      `json:"unit,omitempty"`
	Config  *ConfigDoc  `json:"config,omitempty"`
	Sources []SourceDoc `json:"sources"`
}

// SourceDoc is one input k3sconf considered.
type SourceDoc struct {
	// Role: unit, unit-dropin, envfile, config, config-dropin, config-dir, …
	Role string `json:"role"`
	Path string `json:"path,omitempty"`
	// State: read, missing, missing-optional, ignored, unreadable, …
	State string `json:"state"`
	Why   string `json:"why,omitempty"`
}

// SourcesJSON builds the sources document.
func SourcesJSON(res *resolve.Result) *SourcesDocument {
	d := &SourcesDocument{Envelope: EnvelopeOf(res, "sources"), Unit: res.Unit, Sources: []SourceDoc{}}
	if res.ConfigPath != "" {
		d.Config = &ConfigDoc{Path: res.ConfigPath, Why: res.ConfigWhy}
	}
	for _, s := range res.Sources {
		d.Sources = append(d.Sources, SourceDoc{Role: s.Role, Path: s.Path, State: s.State, Why: s.Why})
	}
	return d
}

// CheckDocument is `k3sconf check --json`: the findings, worst first, and k3s's refusal.
type CheckDocument struct {
	output.Envelope
	Errors      int                 `json:"errors"`
	Warnings    int                 `json:"warnings"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
	Error       string              `json:"error,omitempty"`
	ErrorSource *output.Source      `json:"errorSource,omitempty"`
}

// CheckJSON builds the check document; diagnostics are in the order check prints them.
func CheckJSON(res *resolve.Result, all []diag.Diagnostic, red *output.Redactor) *CheckDocument {
	ds := sortedFindings(all)
	d := &CheckDocument{Envelope: EnvelopeOf(res, "check"), Diagnostics: []output.Diagnostic{},
		Errors: countSeverity(ds, diag.Error), Warnings: countSeverity(ds, diag.Warning)}
	d.Error, d.ErrorSource = errorDoc(res, red)
	if d.Error != "" && d.Errors == 0 {
		d.Errors = 1 // the refusal is an error even when no finding says so (as check's text)
	}
	for _, dg := range ds {
		d.Diagnostics = append(d.Diagnostics, diagDoc(dg, red))
	}
	return d
}

// ExplainDocument is `k3sconf explain KEY… --json`.
type ExplainDocument struct {
	output.Envelope
	// Keys holds each key asked for that the command has, under its primary name.
	Keys map[string]*Key `json:"keys"`
	// Unknown lists the names asked for that the command has no flag for.
	Unknown []UnknownKey `json:"unknown,omitempty"`
	// Running is the value of a key in the running process, when it is known.
	Running map[string]RunningValue `json:"running,omitempty"`
	// Identity is the node identity, for `explain node-name`.
	Identity    any            `json:"identity,omitempty"`
	Error       string         `json:"error,omitempty"`
	ErrorSource *output.Source `json:"errorSource,omitempty"`
}

// UnknownKey is a name explain was asked for that the command has no flag for.
type UnknownKey struct {
	Name       string `json:"name"`
	DidYouMean string `json:"didYouMean,omitempty"`
}

// RunningValue is a key's value in the running process and where it was learnt.
type RunningValue struct {
	Value string `json:"value"`
	From  string `json:"from"`
}

// ExplainJSON starts the explain document; the caller adds keys, unknown names and
// running values.
func ExplainJSON(res *resolve.Result, red *output.Redactor) *ExplainDocument {
	d := &ExplainDocument{Envelope: EnvelopeOf(res, "explain"), Keys: map[string]*Key{}}
	d.Error, d.ErrorSource = errorDoc(res, red)
	return d
}

// KeyJSON is one key as show and explain write it.
func KeyJSON(k *resolve.Key, red *output.Redactor) *Key { return keyDoc(k, red, false) }

func errorDoc(res *resolve.Result, red *output.Redactor) (string, *output.Source) {
	if res.Error == "" {
		return "", nil
	}
	var src *output.Source
	if !res.ErrorPos.IsZero() {
		src = &output.Source{Kind: "input", File: res.ErrorPos.File, Line: res.ErrorPos.Line, Column: res.ErrorPos.Column}
	}
	return red.Scrub(res.Error), src
}

// EnvelopeOf is the envelope of a document about one resolved node: its product and the
// subcommand in its argv.
func EnvelopeOf(res *resolve.Result, document string) output.Envelope {
	return output.NewEnvelope(res.Product, res.Command, document)
}
