package nodereport

import (
	"io"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/noderecord"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// Document is the JSON output contract of `k3sconf show --json` (docs/json.md).
type Document struct {
	output.Envelope
	Subcommand  string              `json:"subcommand,omitempty"`
	Version     string              `json:"version"`
	CLI         string              `json:"cli"`
	Unit        string              `json:"unit,omitempty"`
	Config      *ConfigDoc          `json:"config,omitempty"`
	Args        []string            `json:"args"`
	Keys        map[string]*Key     `json:"keys"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
	Error       string              `json:"error,omitempty"`
	ErrorSource *output.Source      `json:"errorSource,omitempty"`
	// Fleet is present only when a secret salt was given (`show --secret-salt`).
	Fleet *FleetDoc `json:"fleet,omitempty"`
}

// ConfigDoc says which config file k3s reads and why.
type ConfigDoc struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Key is one flag in the JSON document.
type Key struct {
	// Value is a string, bool, number, or list of strings for repeatable flags.
	Value   any              `json:"value"`
	Source  output.Source    `json:"source"`
	History []output.History `json:"history"`
	Note    string           `json:"note,omitempty"`
	Advice  []string         `json:"advice,omitempty"`
	// Critical keys must match on every server of the cluster.
	Critical bool `json:"critical,omitempty"`
	// SecretCopy marks a key whose value copies a secret (a YAML alias of a secret
	// anchor): hidden like a secret flag's, and marked so a document written with
	// --show-secrets still says what it is.
	SecretCopy bool `json:"secretCopy,omitempty"`

	// rec, when set, is the redacted key whose history WriteJSON renders entry by entry
	// instead of reading History (StreamJSON).
	rec *noderecord.Key
}

// JSON builds the document for a result. Keys holds every flag of the command.
func JSON(res *resolve.Result, red *output.Redactor) *Document { return jsonDoc(res, red, false) }

// StreamJSON writes the document of JSON(res, red) compactly, the same bytes as WriteJSON,
// without building every key's history first: each history entry is rendered as it is
// written. On a node with thousands of drop-ins the histories were most of the document's
// memory (docs/performance.md).
func StreamJSON(w io.Writer, res *resolve.Result, red *output.Redactor) error {
	return WriteJSON(w, StreamingJSON(res, red))
}

// StreamingJSON is the document StreamJSON writes, for a caller that adds to it (the fleet
// block of show --secret-salt) before WriteJSON. Its keys' histories are rendered by
// WriteJSON as it writes them, so it is for WriteJSON only; encoding/json would see them
// empty.
func StreamingJSON(res *resolve.Result, red *output.Redactor) *Document {
	return jsonDoc(res, red, true)
}

// jsonDoc builds the document; with stream the keys' histories are left to WriteJSON.
func jsonDoc(res *resolve.Result, red *output.Redactor, stream bool) *Document {
	d := &Document{
		Envelope:    EnvelopeOf(res, "show"),
		Subcommand:  res.Subcommand,
		Version:     res.Version,
		CLI:         "urfave/cli " + res.Era,
		Unit:        res.Unit,
		Args:        Args(res, red),
		Keys:        map[string]*Key{},
		Diagnostics: []output.Diagnostic{},
		Error:       red.Scrub(res.Error),
	}
	if res.ConfigPath != "" {
		d.Config = &ConfigDoc{Path: res.ConfigPath, Why: res.ConfigWhy}
	}
	if res.Error != "" && !res.ErrorPos.IsZero() {
		d.ErrorSource = &output.Source{Kind: "input", File: res.ErrorPos.File, Line: res.ErrorPos.Line, Column: res.ErrorPos.Column}
	}
	for _, k := range res.Keys {
		d.Keys[k.Name()] = keyDoc(k, red, stream)
	}
	for _, dg := range res.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, diagDoc(dg, red))
	}
	return d
}

func keyDoc(k *resolve.Key, red *output.Redactor, stream bool) *Key {
	r := noderecord.Redact(k, red)
	kd := &Key{Value: r.Value(), Source: output.Source{Kind: string(sources.KindDefault)}, Note: r.Note(), Advice: r.Advice()}
	kd.Critical, kd.SecretCopy = k.Flag.Critical, r.SecretCopy()
	if kind, pos, name, ok := r.Source(); ok {
		kd.Source = output.Source{Kind: string(kind), File: pos.File, Line: pos.Line, Column: pos.Column, Name: name}
	}
	if stream {
		kd.rec = r
		return kd
	}
	kd.History = make([]output.History, 0, len(k.History))
	for e := range r.History(noderecord.JSON) {
		kd.History = append(kd.History, historyDoc(e))
	}
	return kd
}

// historyDoc is a redacted history entry in the JSON shape.
func historyDoc(e noderecord.Entry) output.History {
	return output.History{Kind: string(e.Kind), File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Column,
		Name: e.Name, Raw: e.Raw, Value: e.Value, Items: e.Items, Outcome: e.Outcome, Reason: e.Reason}
}

// Diagnostics renders findings for a JSON document, secrets scrubbed; never nil.
func Diagnostics(ds []diag.Diagnostic, red *output.Redactor) []output.Diagnostic {
	out := make([]output.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, diagDoc(d, red))
	}
	return out
}

func diagDoc(d diag.Diagnostic, red *output.Redactor) output.Diagnostic {
	return output.Diagnostic{Severity: string(d.Severity), Code: d.Code, File: d.Pos.File, Line: d.Pos.Line,
		Column: d.Pos.Column, Key: red.Key(d.Key), Message: red.Scrub(d.Message), Hint: red.Scrub(d.Hint),
		Phase: d.Phase, AfterFixing: d.AfterFixing, Assumes: red.Scrub(d.Assumes), Rule: red.Scrub(d.Rule)}
}

// Args is the spliced argv with secret values redacted: "--token=x" and the word after a
// secret flag written without "=".
func Args(res *resolve.Result, red *output.Redactor) []string { return noderecord.Argv(res, red) }
