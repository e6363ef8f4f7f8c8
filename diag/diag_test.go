package diag

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestPositionString(t *testing.T) {
	tests := []struct {
		name, reason string
		pos          Position
		want         string
	}{
		{"full", "file:line:column", Position{File: "/etc/rancher/k3s/config.yaml", Line: 3, Column: 24}, "/etc/rancher/k3s/config.yaml:3:24"},
		{"no-column", "a column of 0 is unknown and left out", Position{File: "/f", Line: 3}, "/f:3"},
		{"file-only", "a line of 0 leaves out the column too", Position{File: "/f", Column: 7}, "/f"},
		{"zero", "nothing known", Position{}, ""},
	}
	for _, tc := range tests {
		if got := tc.pos.String(); got != tc.want {
			t.Errorf("%s: %s: got %q, want %q", tc.name, tc.reason, got, tc.want)
		}
	}
}

// ParseError stays one line, starts with the position, and unwraps for errors.Is.
func TestParseError(t *testing.T) {
	err := error(&ParseError{Pos: Position{File: "/c.yaml", Line: 2, Column: 1}, Msg: "yaml: found a tab", Err: fs.ErrInvalid})
	if got, want := err.Error(), "/c.yaml:2:1: yaml: found a tab"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, fs.ErrInvalid) {
		t.Error("a ParseError must unwrap to its cause")
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Pos.Line != 2 {
		t.Error("errors.As must find the position")
	}
	if got := (&ParseError{Msg: "no position"}).Error(); got != "no position" {
		t.Errorf("without a position Error() is the message alone, got %q", got)
	}
}

// Diagnostics is an error and says whether any finding is an error; errors.As finds it in a
// wrapped error.
func TestDiagnostics(t *testing.T) {
	warn := Diagnostic{Severity: Warning, Code: "w", Message: "a warning"}
	bad := Diagnostic{Severity: Error, Code: "e", Pos: Position{File: "/f", Line: 1}, Message: "an error"}
	tests := []struct {
		name, reason string
		ds           Diagnostics
		hasErrors    bool
		text         string
	}{
		{"none", "an empty list has no errors", nil, false, "no findings"},
		{"warning", "a warning is not an error", Diagnostics{warn}, false, "warning w: a warning"},
		{"error", "one error among others", Diagnostics{warn, bad}, true, "warning w: a warning\nerror e /f:1: an error"},
		{"many", "more than three are counted", Diagnostics{warn, warn, warn, bad}, true, "warning w: a warning\nwarning w: a warning\nwarning w: a warning\n(and 1 more)"},
	}
	for _, tc := range tests {
		if got := tc.ds.HasErrors(); got != tc.hasErrors {
			t.Errorf("%s: %s: HasErrors %v, want %v", tc.name, tc.reason, got, tc.hasErrors)
		}
		if got := tc.ds.Error(); got != tc.text {
			t.Errorf("%s: %s: Error %q, want %q", tc.name, tc.reason, got, tc.text)
		}
	}
	var err error = fmt.Errorf("resolving: %w", Diagnostics{bad})
	var ds Diagnostics
	if !errors.As(err, &ds) || !ds.HasErrors() {
		t.Errorf("errors.As must find the Diagnostics in %v", err)
	}
}
