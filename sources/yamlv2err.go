package sources

import (
	"regexp"
	"strconv"
	"strings"

	yamlv2 "gopkg.in/yaml.v2"

	"github.com/k3sconf/k3sconf/diag"
)

// k3s reads config files with gopkg.in/yaml.v2 v2.4.0 (go.mod at the reference commit). The
// values are decoded by walking yaml.v3 nodes, which keep positions; but when a file does not
// parse, the error k3s prints is yaml.v2's, and the two libraries word and number some
// errors differently (yaml.v3 counts some lines from the construct's start, and reads ahead
// past the end of the first document). So for broken input k3sconf asks yaml.v2 itself.
var v2LineError = regexp.MustCompile(`^yaml: line (\d+): `)

// v2SyntaxError returns yaml.v2's error for data as k3s gets it (nil when yaml.v2 reads the
// file), positioned at the line yaml.v2 names.
func v2SyntaxError(path string, src *sourceText, text []byte) *diag.ParseError {
	var ms yamlv2.MapSlice
	err := yamlv2.Unmarshal(text, &ms)
	if err == nil {
		return nil
	}
	msg := err.Error()
	pos := diag.Position{File: path}
	if m := v2LineError.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
	} else if strings.HasPrefix(msg, "yaml: unmarshal errors:") {
		if l := regexp.MustCompile(`line (\d+):`).FindStringSubmatch(msg); l != nil {
			pos.Line, _ = strconv.Atoi(l[1])
		}
	}
	if pos.Line > len(src.starts) {
		pos.Line = len(src.starts)
	}
	if pos.Line > 0 {
		pos.Column = src.firstNonBlank(pos.Line)
		if strings.Contains(msg, "tab character") {
			if c := src.columnOf(pos.Line, '\t'); c > 0 {
				pos.Column = c
			}
		}
	}
	// Keep yaml.v2's text whole (it is what k3s logs); the position is in Pos.
	return &diag.ParseError{Pos: pos, Msg: strings.Join(strings.Fields(msg), " "), Err: err}
}

// columnOf is the 1-based column (in runes) of the first c on a line, or 0.
func (s *sourceText) columnOf(line int, c rune) int {
	col := 1
	for _, r := range s.line(line) {
		if r == c {
			return col
		}
		col++
	}
	return 0
}
