package fleetreport

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/output"
)

// fleetDocument is the JSON output of `k3sconf fleet --json` (docs/schema/fleet.schema.json).
type fleetDocument struct {
	output.Envelope
	Consistent bool               `json:"consistent"`
	Nodes      []fleetNodeJSON    `json:"nodes"`
	Inputs     []fleet.InputError `json:"unreadable"`
	// Keys are the keys that differ, the table's columns.
	Keys     []string      `json:"keys"`
	Findings []findingJSON `json:"findings"`
}

// fleetNodeJSON is one node of the fleet.
type fleetNodeJSON struct {
	Name     string     `json:"name"`
	Input    string     `json:"input"`
	Kind     fleet.Kind `json:"kind"`
	Product  string     `json:"product"`
	Role     string     `json:"role"`
	Release  string     `json:"release,omitempty"`
	CLI      string     `json:"cli,omitempty"`
	NodeName string     `json:"nodeName,omitempty"`
	Hostname string     `json:"hostname,omitempty"`
	SaltID   string     `json:"saltId,omitempty"`
	Error    string     `json:"error,omitempty"`
}

// findingJSON is one finding.
type findingJSON struct {
	output.Diagnostic
	Keys       []string                     `json:"keys"`
	Nodes      []string                     `json:"nodes"`
	Values     map[string]map[string]string `json:"values"`
	Refused    string                       `json:"refused,omitempty"`
	JoinTarget string                       `json:"joinTarget,omitempty"`
	Fields     []fleet.FieldDiff            `json:"fields,omitempty"`
	LogLines   []string                     `json:"logLines,omitempty"`
}

// JSON builds the `fleet --json` document (docs/json.md), for encoding/json.
func JSON(r *fleet.Report) any {
	d := &fleetDocument{Envelope: output.NewEnvelope(product(r), "fleet", "fleet"),
		Consistent: !r.Failed() && !r.Incomplete(), Nodes: []fleetNodeJSON{}, Inputs: []fleet.InputError{}, Keys: keys(r), Findings: []findingJSON{}}
	d.Inputs = append(d.Inputs, r.Inputs...)
	for _, n := range r.Nodes {
		d.Nodes = append(d.Nodes, fleetNodeJSON{Name: n.Name, Input: n.Input, Kind: n.Kind, Product: n.Product, Role: n.Role,
			Release: n.Release, CLI: n.CLI, NodeName: n.NodeName, Hostname: n.Hostname, SaltID: publicSalt(n.SaltID), Error: n.Error})
	}
	for _, f := range r.Findings {
		d.Findings = append(d.Findings, findingJSON{
			Diagnostic: output.Diagnostic{Severity: string(f.Severity), Code: f.Code, File: f.Pos.File, Line: f.Pos.Line,
				Column: f.Pos.Column, Key: f.Key, Message: f.Message, Hint: f.Hint},
			Keys: f.Keys, Nodes: f.Nodes, Values: f.Values, Refused: f.Refused, JoinTarget: f.JoinTarget, Fields: f.Fields, LogLines: f.LogLines})
	}
	return d
}

// publicSalt hides the in-process key's label: only salts a collector chose are named.
func publicSalt(id string) string {
	if id == "this run" {
		return ""
	}
	return id
}

func product(r *fleet.Report) string {
	for _, n := range r.Nodes {
		if n.Product != "" {
			return n.Product
		}
	}
	return "k3s"
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// keys are the keys of the findings, in order of first appearance: the table's columns.
// Notes (info) add none: they are about the inputs, not differences.
func keys(r *fleet.Report) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, f := range r.Findings {
		if f.Severity == diag.Info {
			continue
		}
		for _, k := range f.Keys {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// maxCell keeps the table readable; the JSON has every value whole.
const maxCell = 36

// Text writes the node × differing-key table, then the findings, worst first.
func Text(w io.Writer, r *fleet.Report) {
	servers, agents := 0, 0
	for _, n := range r.Nodes {
		if n.Role == "server" {
			servers++
		} else {
			agents++
		}
	}
	fmt.Fprintf(w, "fleet: %s (%s, %s)", count(len(r.Nodes), "node"), count(servers, "server"), count(agents, "agent"))
	if len(r.Inputs) > 0 {
		fmt.Fprintf(w, ", %d inputs unreadable", len(r.Inputs))
	}
	fmt.Fprintln(w)
	keys := keys(r)
	header := append([]string{"NODE", "ROLE", "RELEASE"}, keys...)
	rows := [][]string{header}
	for _, n := range r.Nodes {
		row := []string{n.Name, n.Role, cmp.Or(n.Release, "-")}
		for _, k := range keys {
			row = append(row, cell(r, n, k))
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	fmt.Fprintln(w)
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	for _, in := range r.Inputs {
		fmt.Fprintf(w, "\nunreadable: %s: %s\n", in.Input, in.Error)
	}
	if len(r.Nodes) == 0 {
		// Nothing read is nothing compared: never "consistent".
		fmt.Fprintln(w, "\nno node to compare: no input gave a node")
		return
	}
	if len(r.Findings) == 0 {
		if r.Incomplete() {
			fmt.Fprintf(w, "\nno difference among the %d nodes read, but some input could not be read: the fleet is not known to be consistent\n", len(r.Nodes))
			return
		}
		fmt.Fprintln(w, "\nconsistent: the servers would accept each other, and nothing else differs")
		return
	}
	fmt.Fprintln(w)
	for _, f := range r.Findings {
		pos := "-"
		if !f.Pos.IsZero() {
			pos = f.Pos.String()
		}
		fmt.Fprintf(w, "%s[%s] %s\n  %s\n", f.Severity, f.Code, pos, f.Message)
		for _, l := range f.LogLines {
			fmt.Fprintf(w, "  k3s logs: %s\n", l)
		}
		if f.Hint != "" {
			fmt.Fprintf(w, "  fix: %s\n", f.Hint)
		}
	}
}

// cell is a node's value of key in the table: what a finding says, else the node's own
// value for keys that are not secret, else "·" (not involved).
func cell(r *fleet.Report, n *fleet.Node, key string) string {
	for _, f := range r.Findings {
		if v, ok := f.Values[n.Name][key]; ok {
			return clip(v)
		}
	}
	if k := n.Keys[key]; k != nil && !isSecretKey(key) {
		return clip(n.Display(key))
	}
	return "·"
}

func isSecretKey(k string) bool {
	switch k {
	case "token", "agent-token", "datastore-endpoint", "etcd-s3-access-key", "etcd-s3-secret-key", "etcd-s3-session-token", "vpn-auth":
		return true
	}
	return false
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxCell {
		return s
	}
	r := []rune(s)
	return string(r[:maxCell-1]) + "…"
}
