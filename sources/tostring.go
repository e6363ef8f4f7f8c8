package sources

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ToString renders a decoded YAML value the way k3s renders it into a command-line argument.
//
// It reproduces ToString from k3s pkg/configfilearg/convert.go, which k3s copied from
// rancher/wrangler v3.7.0 pkg/data/convert: a time.Time is formatted as RFC 3339; a list
// renders as its first element only (an empty list as ""); nil is ""; anything else goes
// through fmt.Sprint and has its surrounding white space trimmed. A nested mapping therefore
// renders as Go syntax ("[{a b} {c 1}]"), which is what k3s passes on.
func ToString(v any) string {
	if t, ok := v.(time.Time); ok {
		return strings.TrimSpace(t.Format(time.RFC3339))
	}
	single := singular(v)
	// Fast paths give fmt.Sprint's exact text for the common types without its cost
	// (config files are mostly strings, bools and ints).
	switch x := single.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	return strings.TrimSpace(fmt.Sprint(single))
}

// singular is wrangler's convert.Singular: the first element of a []string or []any, nil for
// an empty one, and any other value unchanged.
func singular(v any) any {
	switch s := v.(type) {
	case []string:
		if len(s) == 0 {
			return nil
		}
		return s[0]
	case []any:
		if len(s) == 0 {
			return nil
		}
		return s[0]
	}
	return v
}

// ToSlice turns a value into the list that a "key+:" entry appends, as toSlice in k3s
// pkg/configfilearg/parser.go does (reference commit f646604010af): a string is one element, kept as it is (neither split on
// commas nor trimmed); a []any is itself; anything else is its trimmed ToString as one
// element, or no element at all when that is empty (so "x+: null" appends nothing).
func ToSlice(v any) []any {
	switch v := v.(type) {
	case string:
		return []any{v}
	case []any:
		return v
	}
	if s := strings.TrimSpace(ToString(v)); s != "" {
		return []any{s}
	}
	return nil
}
