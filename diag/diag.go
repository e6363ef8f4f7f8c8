package diag

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/provenance"
)

// Position is a place in a file as it is on the node: the one [provenance.Position], named
// here too because every finding has one.
type Position = provenance.Position

// Severity orders diagnostics: an error means k3s misbehaves or refuses to start.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rank gives a sortable weight; higher is worse.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Diagnostic is a finding about the inputs: what is wrong (Message), where (Pos) and what to
// do about it (Hint). Code is stable and has its line in [Codes] (docs/diagnostics.md).
type Diagnostic struct {
	Severity Severity
	Code     string
	Pos      Position
	Message  string
	Hint     string
	// Key is the flag the finding is about, when there is one; explain uses it to show
	// the finding next to the key.
	Key string
	// Phase, on one of k3s's own checks after parsing, says when it stops the node:
	// "refuses-to-start", "starts-then-stops" (an in-process component such as the kubelet
	// fails after k3s started) or "retries-forever" (k3s runs and never gets ready).
	Phase string
	// AfterFixing marks a check found by going on past an earlier refusal, as k3s would
	// once that one is fixed: k3s itself reports only the first.
	AfterFixing bool
	// Assumes is the host state the finding depends on: what the node's files show, or
	// what k3sconf assumed where they do not show it.
	Assumes string
	// Rule names the k3s code that makes the check (file:line at a commit) and the
	// releases that make it.
	Rule string
}

// String is a one-line rendering for logs and tests.
func (d Diagnostic) String() string {
	s := string(d.Severity) + " " + d.Code
	if !d.Pos.IsZero() {
		s += " " + d.Pos.String()
	}
	return s + ": " + d.Message
}

// ParseError is an input that cannot be read the way k3s (or systemd) reads it. Error()
// stays on one line and starts with the position.
type ParseError struct {
	Pos Position
	// Msg says what was found and what was expected.
	Msg string
	// Err is the underlying error, if any (for errors.Is / errors.As).
	Err error
}

func (e *ParseError) Error() string {
	if e.Pos.IsZero() {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Diagnostics is a list of findings. It is an error (so a caller may return it), and
// HasErrors says whether any finding is an error.
type Diagnostics []Diagnostic

// HasErrors reports whether any finding has severity Error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Error renders the findings one per line (the first, then a count, when there are more
// than three).
func (ds Diagnostics) Error() string {
	switch len(ds) {
	case 0:
		return "no findings"
	case 1:
		return ds[0].String()
	}
	var b strings.Builder
	for i, d := range ds {
		if i == 3 {
			fmt.Fprintf(&b, "\n(and %d more)", len(ds)-3)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}
