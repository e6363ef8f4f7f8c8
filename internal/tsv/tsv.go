// Package tsv reads the tab-separated tables k3sconf embeds (profile/data,
// internal/kubetables/data): a header line, then one row per line.
package tsv

import (
	"fmt"
	"strings"
)

// Parse returns the rows of data, each a map from the header's column names to the row's
// cells; a row with fewer cells than the header leaves the rest out, one with more is an
// error.
func Parse(data string) ([]map[string]string, error) {
	lines := strings.Split(strings.TrimRight(data, "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("no rows")
	}
	header := strings.Split(lines[0], "\t")
	var rows []map[string]string
	for i, l := range lines[1:] {
		cells := strings.Split(l, "\t")
		if len(cells) > len(header) {
			return nil, fmt.Errorf("line %d: %d cells, header has %d", i+2, len(cells), len(header))
		}
		r := make(map[string]string, len(header))
		for j, h := range header {
			if j < len(cells) {
				r[h] = cells[j]
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}
