package sources

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestToString(t *testing.T) {
	tests := []struct {
		name, reason string
		in           any
		want         string
	}{
		{"nil", "nil renders empty, so null becomes --key=", nil, ""},
		{"trimmed", "strings are trimmed", "  padded  ", "padded"},
		{"bool", "bools use fmt", true, "true"},
		{"int", "ints are decimal", 420, "420"},
		{"float-whole", "a whole float has no decimals", 1.0, "1"},
		{"float-large", "large floats switch to exponent form", 1000000.0, "1e+06"},
		{"inf", "infinity is +Inf", math.Inf(1), "+Inf"},
		{"list", "a list renders as its first element", []any{"a", "b"}, "a"},
		{"empty-list", "an empty list renders empty", []any{}, ""},
		{"strings", "a []string also renders its first element", []string{" x ", "y"}, "x"},
		{"map", "a mapping renders as Go syntax", MapSlice{{Key: "a", Value: "b"}, {Key: "c", Value: 1}}, "[{a b} {c 1}]"},
		{"time", "time.Time is RFC 3339", time.Date(2001, 12, 14, 0, 0, 0, 0, time.UTC), "2001-12-14T00:00:00Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ToString(tc.in); got != tc.want {
				t.Errorf("%s\nToString(%#v) = %q, want %q", tc.reason, tc.in, got, tc.want)
			}
		})
	}
}

func TestToSlice(t *testing.T) {
	tests := []struct {
		name, reason string
		in           any
		want         []any
	}{
		{"string", "a string is one element, untrimmed and not split", " a,b ", []any{" a,b "}},
		{"empty-string", "an empty string is still an element", "", []any{""}},
		{"list", "a list is itself", []any{"x", 1}, []any{"x", 1}},
		{"nil", "null appends nothing", nil, nil},
		{"int", "other values become their trimmed string", 420, []any{"420"}},
		{"map", "a mapping becomes its Go rendering", MapSlice{{Key: "a", Value: 1}}, []any{"[{a 1}]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ToSlice(tc.in)); diff != "" {
				t.Errorf("%s\nToSlice(%#v) mismatch (-want +got):\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}
