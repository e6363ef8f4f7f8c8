package main

import (
	"strings"
	"testing"
)

func TestColorize(t *testing.T) {
	tests := []struct {
		name, reason, in, want string
	}{
		{"error", "severity words are red", "error[k3s-refuses] /x:1\n", "\x1b[1;31merror\x1b[0m[k3s-refuses] /x:1\n"},
		{"warning", "warnings are yellow", "  warning[yaml-octal-mode] x\n", "  \x1b[1;33mwarning\x1b[0m[yaml-octal-mode] x\n"},
		{"header", "the key line of explain is bold", "token = REDACTED\n", "\x1b[1mtoken = \x1b[0mREDACTED\n"},
		{"outcome", "a losing outcome is yellow", "      overridden: by x\n", "      \x1b[33moverridden\x1b[0m: by x\n"},
		{"plain", "other text is untouched", "KEY  VALUE  FROM\n", "KEY  VALUE  FROM\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(colorize([]byte(tc.in))); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
	// A pipe never gets colour.
	var sb strings.Builder
	if useColor(&sb) {
		t.Error("a non-file writer must not get colour")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(&sb) {
		t.Error("NO_COLOR must turn colour off")
	}
}
