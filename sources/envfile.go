package sources

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/k3sconf/k3sconf/diag"
)

// ParseEnvFile reads a file named by EnvironmentFile= the way systemd does when it starts the
// service: parse_env_file_internal in src/basic/env-file.c (systemd >= v254, where a comment
// ending in a backslash no longer swallows the next line), then load_env_file_push and the
// validity filter strv_env_clean_with_callback (src/core/execute.c).
//
// systemd.exec(5), EnvironmentFile=: "The text file should contain newline-separated variable
// assignments. Empty lines, lines without an "=" separator, or lines starting with ";" or "#"
// will be ignored, which may be used for commenting. The file must be UTF-8 encoded. Valid
// characters are unicode scalar values other than unicode noncharacters, U+0000 NUL, and
// U+FEFF unicode byte order mark. Control codes other than NUL are allowed." Quoting follows
// the state machine below, which is shell-like but not a shell:
//
//   - whitespace around the name and after "=" is dropped; an unquoted value loses trailing
//     whitespace, and a backslash takes the next character literally (backslash-newline joins
//     lines);
//   - 'single quotes' are literal and may span lines;
//   - in "double quotes" a backslash escapes only ", \, ` and $ (other pairs keep the
//     backslash) and backslash-newline joins lines;
//   - quoted and unquoted pieces concatenate ('it'"'"'s' is it's); blanks between pieces are
//     dropped ('a' 'b' is ab); after a closing quote, text up to the end of the line is part
//     of the value, so there are no trailing comments.
//
// "export NAME=value" is not understood: the name "export NAME" is invalid and systemd drops
// the assignment (reported as envfile-export). Invalid names are dropped likewise.
//
// The result holds every assignment systemd applies, in file order; when a name is assigned
// twice the later one wins (an envfile-duplicate warning points at the earlier one). Pos is
// the line and column of the name. A file that is not UTF-8 is refused by systemd as a whole:
// nil and an error diagnostic are returned.
func ParseEnvFile(path string, data []byte) ([]EnvAssignment, []diag.Diagnostic) {
	return ParseEnvFileSystemd(path, data, 0)
}

// ParseEnvFileSystemd is [ParseEnvFile] as a given systemd version reads the file (0: the
// newest). Before v254 (so in 252, Debian 12 and RHEL 9) a comment line ending in a backslash
// also swallows the next line (the COMMENT_ESCAPE state of parse_env_file_internal went back
// to COMMENT even after a newline); found by the differential test against systemd 252.
func ParseEnvFileSystemd(path string, data []byte, systemdVersion int) ([]EnvAssignment, []diag.Diagnostic) {
	ep := envParser{path: path, data: data, commentContinues: systemdVersion > 0 && systemdVersion < 254}
	ep.run()
	if ep.refused {
		return nil, ep.diags
	}
	// Duplicates: one finding per name, at its first assignment, naming the line that wins
	// (a file with thousands of repeats gets one line, not thousands).
	last := map[string]int{}
	count := map[string]int{}
	for i, a := range ep.out {
		last[a.Name] = i
		count[a.Name]++
	}
	var dups []diag.Diagnostic
	seen := map[string]bool{}
	for _, a := range ep.out {
		if count[a.Name] < 2 || seen[a.Name] {
			continue
		}
		seen[a.Name] = true
		w := ep.out[last[a.Name]]
		times := "twice"
		if n := count[a.Name]; n > 2 {
			times = fmt.Sprintf("%d times", n)
		}
		dups = append(dups, diag.Diagnostic{
			Severity: diag.Warning,
			Code:     "envfile-duplicate",
			Pos:      a.Pos,
			Message: fmt.Sprintf("%s is assigned %s in %s; the last one, at line %d, wins",
				a.Name, times, path, w.Pos.Line),
			Hint: "remove the assignments that do not win",
		})
	}
	diags := append(ep.diags, dups...)
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Pos.Line < diags[j].Pos.Line })
	return ep.out, diags
}

type envState int

const (
	stPreKey envState = iota
	stKey
	stPreValue
	stValue
	stValueEscape
	stSingleQuote
	stDoubleQuote
	stDoubleQuoteEscape
	stComment
	stCommentEscape
)

type envParser struct {
	path    string
	data    []byte
	out     []EnvAssignment
	diags   []diag.Diagnostic
	refused bool
	// commentContinues: systemd < 254, a comment ending in "\\" continues on the next line.
	commentContinues bool

	lineStarts []int
}

// pos converts a byte offset to a position (lines end at "\n"; columns count bytes).
func (ep *envParser) pos(off int) diag.Position {
	if ep.lineStarts == nil {
		ep.lineStarts = []int{0}
		for i, c := range ep.data {
			if c == '\n' {
				ep.lineStarts = append(ep.lineStarts, i+1)
			}
		}
	}
	i := sort.Search(len(ep.lineStarts), func(i int) bool { return ep.lineStarts[i] > off }) - 1
	return diag.Position{File: ep.path, Line: i + 1, Column: off - ep.lineStarts[i] + 1}
}

func isEnvNewline(c byte) bool    { return c == '\n' || c == '\r' }
func isEnvWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (ep *envParser) warn(code string, off int, msg, hint string) {
	ep.diags = append(ep.diags, diag.Diagnostic{Severity: diag.Warning, Code: code, Pos: ep.pos(off), Message: msg, Hint: hint})
}

func (ep *envParser) run() {
	var key, value []byte
	keyStart := 0
	lastKeyWS, lastValueWS := -1, -1
	state := stPreKey

	push := func(end int, trimValue bool) {
		if lastKeyWS >= 0 {
			key = key[:lastKeyWS]
		}
		if trimValue && lastValueWS >= 0 {
			value = value[:lastValueWS]
		}
		ep.push(string(key), string(value), keyStart, end)
		key, value = key[:0], nil
	}

	for i := 0; i < len(ep.data); i++ {
		c := ep.data[i]
		switch state {
		case stPreKey:
			if c == '#' || c == ';' {
				state = stComment
			} else if !isEnvWhitespace(c) {
				state = stKey
				lastKeyWS = -1
				keyStart = i
				key = append(key[:0], c)
			}
		case stKey:
			if isEnvNewline(c) {
				ep.noEquals(keyStart, i)
				state = stPreKey
				key = key[:0]
			} else if c == '=' {
				state = stPreValue
				lastValueWS = -1
			} else {
				if !isEnvWhitespace(c) {
					lastKeyWS = -1
				} else if lastKeyWS < 0 {
					lastKeyWS = len(key)
				}
				key = append(key, c)
			}
		case stPreValue:
			switch {
			case isEnvNewline(c):
				state = stPreKey
				push(i, false)
			case c == '\'':
				state = stSingleQuote
			case c == '"':
				state = stDoubleQuote
			case c == '\\':
				state = stValueEscape
			case !isEnvWhitespace(c):
				state = stValue
				value = append(value, c)
			}
		case stValue:
			switch {
			case isEnvNewline(c):
				state = stPreKey
				push(i, true)
			case c == '\\':
				state = stValueEscape
				lastValueWS = -1
			default:
				if !isEnvWhitespace(c) {
					lastValueWS = -1
				} else if lastValueWS < 0 {
					lastValueWS = len(value)
				}
				value = append(value, c)
			}
		case stValueEscape:
			state = stValue
			if !isEnvNewline(c) {
				value = append(value, c)
			}
		case stSingleQuote:
			if c == '\'' {
				state = stPreValue
			} else {
				value = append(value, c)
			}
		case stDoubleQuote:
			if c == '"' {
				state = stPreValue
			} else if c == '\\' {
				state = stDoubleQuoteEscape
			} else {
				value = append(value, c)
			}
		case stDoubleQuoteEscape:
			state = stDoubleQuote
			if strings.IndexByte("\"\\`$", c) >= 0 {
				value = append(value, c)
			} else if c != '\n' {
				value = append(value, '\\', c)
			}
		case stComment:
			if c == '\\' {
				state = stCommentEscape
			} else if isEnvNewline(c) {
				state = stPreKey
			}
		case stCommentEscape:
			if isEnvNewline(c) && !ep.commentContinues {
				state = stPreKey
				if i+1 < len(ep.data) {
					ep.warn("envfile-syntax", i-1, "this comment ends in a backslash: systemd 254 and later end the comment here, "+
						"but systemd before 254 (252 in Debian 12 and RHEL 9) also ignores the next line",
						"remove the backslash at the end of the comment")
				}
			} else {
				state = stComment
			}
		}
	}
	switch state {
	case stKey:
		ep.noEquals(keyStart, len(ep.data))
	case stSingleQuote, stDoubleQuote, stDoubleQuoteEscape:
		ep.warn("envfile-syntax", keyStart,
			fmt.Sprintf("the quoted value of %s is not closed; systemd takes the rest of the file as its value",
				strings.TrimSpace(string(key))),
			"close the quote")
		push(len(ep.data), false)
	case stPreValue, stValueEscape:
		push(len(ep.data), false)
	case stValue:
		push(len(ep.data), true)
	}
}

func (ep *envParser) noEquals(start, end int) {
	text := strings.TrimSpace(string(ep.data[start:end]))
	ep.warn("envfile-syntax", start,
		fmt.Sprintf("expected NAME=VALUE, found %q without \"=\"; systemd ignores the line", text),
		"write NAME=VALUE, or start the line with # to make it a comment")
}

// push is load_env_file_push followed by the validity check systemd applies before the
// variables reach the service.
func (ep *envParser) push(key, value string, start, end int) {
	if ep.refused {
		return
	}
	p := ep.pos(start)
	if !utf8.ValidString(key) || !utf8.ValidString(value) {
		ep.refused = true
		ep.diags = append(ep.diags, diag.Diagnostic{
			Severity: diag.Error,
			Code:     "envfile-utf8",
			Pos:      p,
			Message:  fmt.Sprintf("invalid UTF-8 in the assignment of %q; systemd fails to load the whole file", key),
			Hint:     "save the file as UTF-8",
		})
		return
	}
	raw := strings.TrimRight(string(ep.data[start:end]), "\r\n")
	if !envNameIsValid(key) {
		if name, ok := strings.CutPrefix(key, "export"); ok && name != "" && isEnvWhitespace(name[0]) && envNameIsValid(strings.TrimSpace(name)) {
			ep.warn("envfile-export", start,
				fmt.Sprintf("systemd does not understand \"export\": the name %q is invalid and the assignment is ignored", key),
				"remove \"export \" from the line")
			return
		}
		ep.warn("envfile-syntax", start,
			fmt.Sprintf("invalid variable name %q (expected letters, digits and _, not starting with a digit); systemd ignores the assignment", key),
			"")
		return
	}
	ep.out = append(ep.out, EnvAssignment{Name: key, Value: value, Raw: raw, Pos: p})
}
