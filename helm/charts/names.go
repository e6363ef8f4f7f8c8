package charts

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/helm/values"
)

// These name and format values in findings as internal/chartsreport does in the report
// (the same rules there; keep them alike).

// lastKey is the nearest key of a dotted leaf path (its last key).
func lastKey(p string) string {
	ks := values.SplitPath(p)
	if len(ks) == 0 {
		return ""
	}
	return ks[len(ks)-1]
}

// setKeyName is the nearest key of a --set key: its last key without a list index
// ("hosts[0]" is under hosts).
func setKeyName(k string) string {
	k = lastKey(k)
	for strings.HasSuffix(k, "]") {
		i := strings.LastIndexByte(k, '[')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return k
}

// formatValue is a value as a finding quotes it: its JSON.
func formatValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
