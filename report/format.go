package report

import (
	"fmt"
	"strings"
)

// FormatValue renders a key's value for text output: lists in brackets, strings quoted only
// when they are empty or contain spaces.
func FormatValue(v any) string {
	switch x := v.(type) {
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = quoteIfNeeded(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return quoteIfNeeded(x)
	}
	return fmt.Sprint(v)
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t,[]\"") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
