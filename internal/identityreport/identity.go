package identityreport

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/output"
)

// Write renders the identity as text (`explain node-name`); pass it through [Redact] first.
func Write(w io.Writer, id *identity.Identity) {
	fmt.Fprintf(w, "node name %s registers: %s\n", id.Product, cmp.Or(id.Name, "<name>"))
	switch id.BaseFrom {
	case identity.FromNodeName:
		if id.NameSource != nil {
			fmt.Fprintf(w, "  name from: node-name %q, %s %s (%s)\n", id.Base, id.NameSource.Kind, id.NameSource.Pos, id.NameSource.Name)
		} else {
			fmt.Fprintf(w, "  name from: node-name %q\n", id.Base)
		}
	case identity.FromHostnameFile:
		fmt.Fprintf(w, "  name from: the host name %q in %s (node-name is not set)\n", id.Base, id.HostnameFile)
	case identity.FromHostname:
		fmt.Fprintf(w, "  name from: this machine's host name %q (node-name is not set)\n", id.Base)
	default:
		fmt.Fprintln(w, "  name from: the host name at k3s's start, which k3sconf cannot see (node-name is not set)")
	}
	if id.Base != "" && strings.ToLower(id.Base) != id.Base && !strings.Contains(id.Base, output.Redacted) {
		fmt.Fprintf(w, "  lowercased: k3s lowercases the name (%q → %q)\n", id.Base, strings.ToLower(id.Base))
	}
	if id.WithNodeID {
		from := "default"
		if id.WithNodeIDSource != nil {
			from = fmt.Sprintf("%s %s", id.WithNodeIDSource.Kind, id.WithNodeIDSource.Pos)
		}
		switch id.NodeIDState {
		case identity.StateFound:
			fmt.Fprintf(w, "  with-node-id: true (%s): id %q from %s is appended\n", from, id.NodeID, id.NodeIDFile)
		case identity.StateMissing:
			fmt.Fprintf(w, "  with-node-id: true (%s): %s does not exist; k3s creates a new random id at its next start\n", from, id.NodeIDFile)
		default:
			fmt.Fprintf(w, "  with-node-id: true (%s): %s cannot be read here\n", from, id.NodeIDFile)
		}
	} else {
		fmt.Fprintln(w, "  with-node-id: false (no id is appended)")
	}
	switch id.PasswordState {
	case identity.StateFound:
		fmt.Fprintf(w, "  node password: %s exists (content not shown)\n", id.PasswordFile)
	case identity.StateMissing:
		fmt.Fprintf(w, "  node password: %s does not exist; k3s generates a new one at its next start\n", id.PasswordFile)
	default:
		fmt.Fprintf(w, "  node password: %s cannot be checked here\n", id.PasswordFile)
	}
	fmt.Fprintf(w, "  rule: %s\n", id.Rule())
	for _, n := range id.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, d := range id.Diagnostics {
		fmt.Fprintf(w, "\n  %s[%s] %s\n", d.Severity, d.Code, d.Message)
		if d.Hint != "" {
			fmt.Fprintf(w, "    fix: %s\n", d.Hint)
		}
	}
}

// identityDocument is the JSON form of an identity.
type identityDocument struct {
	NodeName   string         `json:"nodeName"`
	Base       string         `json:"base,omitempty"`
	From       string         `json:"from"`
	Source     *output.Source `json:"source,omitempty"`
	WithNodeID bool           `json:"withNodeId"`
	NodeID     *fileJSON      `json:"nodeId,omitempty"`
	Password   fileJSON       `json:"password"`
	Secret     string         `json:"secret,omitempty"`
	Rule       string         `json:"rule"`
	Notes      []string       `json:"notes,omitempty"`
	// Diagnostics use the shape of the main JSON document's.
	Diagnostics []output.Diagnostic `json:"diagnostics"`
}

// fileJSON is a node file and its state; Value only for the node id, never the password.
type fileJSON struct {
	File  string `json:"file"`
	State string `json:"state"`
	Value string `json:"value,omitempty"`
}

// JSON builds the JSON form (`explain node-name --json`), for encoding/json; pass the
// identity through [Redact] first. The password's content is never part of it.
func JSON(id *identity.Identity) any {
	d := &identityDocument{NodeName: id.Name, Base: id.Base, From: id.BaseFrom, WithNodeID: id.WithNodeID,
		Password: fileJSON{File: id.PasswordFile, State: id.PasswordState}, Rule: id.Rule(), Notes: id.Notes,
		Diagnostics: []output.Diagnostic{}}
	if id.Secret != "" {
		d.Secret = "kube-system/" + id.Secret
	}
	switch id.BaseFrom {
	case identity.FromNodeName:
		if a := id.NameSource; a != nil {
			d.Source = &output.Source{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column, Name: a.Name}
		}
	case identity.FromHostnameFile:
		d.Source = &output.Source{Kind: "file", File: id.HostnameFile, Line: 1}
	}
	if id.WithNodeID {
		d.NodeID = &fileJSON{File: id.NodeIDFile, State: id.NodeIDState, Value: id.NodeID}
	}
	for _, dg := range id.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, output.Diagnostic{Severity: string(dg.Severity), Code: dg.Code, File: dg.Pos.File,
			Line: dg.Pos.Line, Column: dg.Pos.Column, Key: dg.Key, Message: dg.Message, Hint: dg.Hint})
	}
	return d
}

// Redact returns the identity as output shows it: every string that quotes input (the
// name, its base, the node-password Secret named after it, notes, findings) passed through
// the redactor, so a node-name that copies a secret (a YAML alias of agent-token, its
// lower-case form) is hidden in text and JSON alike. id is not changed.
func Redact(id *identity.Identity, red *output.Redactor) *identity.Identity {
	if !red.On() {
		return id
	}
	c := *id
	c.Name, c.Base, c.Secret, c.NodeID = red.String("node-name", id.Name), red.String("node-name", id.Base), red.Scrub(id.Secret), red.Scrub(id.NodeID)
	if id.BaseFrom == identity.FromNodeName && id.NameSource != nil && id.NameSource.Secret() && id.Base != "" {
		// node-name copies a secret (a YAML alias of a secret anchor): the name is the
		// secret, whatever it spells, in every field that is the name.
		// The name starts with it ("<name>" or "<name>-<node id>"), and so does the
		// node-password Secret ("<name>.node-password.k3s"): only that prefix is the
		// secret (a word such as "password" also occurs in the rest).
		hide := func(s string) string {
			for _, b := range []string{id.Base, strings.ToLower(id.Base)} {
				if strings.HasPrefix(s, b) {
					return output.Redacted + s[len(b):]
				}
			}
			return s
		}
		c.Name, c.Base, c.Secret = hide(c.Name), output.Redacted, hide(c.Secret)
	}
	c.Notes = make([]string, len(id.Notes))
	for i, n := range id.Notes {
		c.Notes[i] = red.Scrub(n)
	}
	c.Diagnostics = make([]diag.Diagnostic, len(id.Diagnostics))
	for i, d := range id.Diagnostics {
		d.Message, d.Hint, d.Key = red.Scrub(d.Message), red.Scrub(d.Hint), red.Key(d.Key)
		c.Diagnostics[i] = d
	}
	return &c
}
