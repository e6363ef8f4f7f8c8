package sources

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/k3sconf/k3sconf/diag"
)

// This file reproduces systemd's unit file reader (src/shared/conf-parser.c, config_parse and
// parse_line, systemd v255-v257 as stored in systemd/systemd@2557246cc8; held against systemd
// 252's `systemd --test` by sources/systemd_diff_test.go) and the parts of
// src/core/load-fragment.c that matter for k3s: config_parse_exec, config_parse_environ and
// config_parse_unit_env_file. Positions are 1-based; columns count bytes (a TAB is one column),
// as go/token does.

// UnitFile is one unit file or drop-in as systemd's conf-parser reads it.
type UnitFile struct {
	Path    string
	Entries []UnitEntry
	// Failed is set when systemd stops reading the file (an invalid section header, a line
	// that is not UTF-8 or longer than 1 MiB: parse_line returns an error and config_parse
	// gives up). It holds systemd's message. Entries then holds what was read before the bad
	// line. For the unit file this means the unit does not load; for a drop-in, systemd 252
	// ignores the error and keeps those entries (see [MergeUnitOn]).
	Failed string
}

// UnitEntry is one Key=Value assignment. Value is the logical value: continuation lines
// joined (each continuing backslash replaced by a space) and whitespace trimmed, exactly the
// rvalue systemd hands to the setting's parser.
type UnitEntry struct {
	Section, Key, Value string
	// Pos is where the key starts.
	Pos diag.Position
	// EndLine is the last physical line of the assignment. systemd reports that line in its
	// own log messages ("k3s.service:275: ...") for settings spread over several lines.
	EndLine int

	// segs maps offsets in Value back to the file; see PosAt.
	segs []segment
	// BrokenContinuation is set when the assignment ends at a line whose backslash is
	// followed by spaces or tabs: an intended continuation that systemd does not continue.
	BrokenContinuation bool
}

// segment says that Value[off:] starts at line/col and runs on that physical line until the
// next segment.
type segment struct {
	off, line, col int
}

// PosAt returns the file position of the byte at offset off of Value, following
// continuation lines. An offset at or past the end maps to just after the last byte.
func (e UnitEntry) PosAt(off int) diag.Position {
	if len(e.segs) == 0 {
		return e.Pos
	}
	// Binary search: the segments are in offset order, and a setting with tens of thousands
	// of continuation lines asks for every word's position.
	i := sort.Search(len(e.segs), func(i int) bool { return e.segs[i].off > off }) - 1
	if i < 0 {
		i = 0
	}
	s := e.segs[i]
	if off < s.off {
		off = s.off
	}
	return diag.Position{File: e.Pos.File, Line: s.line, Column: s.col + off - s.off}
}

// logicalLine is a line after continuation joining, with its position map.
type logicalLine struct {
	text    []byte
	segs    []segment
	endLine int
	bsSpace bool
}

func (l *logicalLine) add(b []byte, line, col int) {
	l.segs = append(l.segs, segment{off: len(l.text), line: line, col: col})
	l.text = append(l.text, b...)
	l.endLine = line
}

// slice returns the position map of text[from:to], rebased to offset 0.
func (l *logicalLine) slice(from int) []segment {
	var out []segment
	for i, s := range l.segs {
		end := len(l.text)
		if i+1 < len(l.segs) {
			end = l.segs[i+1].off
		}
		if end <= from && !(i == len(l.segs)-1) {
			continue
		}
		if s.off >= from {
			out = append(out, segment{off: s.off - from, line: s.line, col: s.col})
		} else {
			out = append(out, segment{off: 0, line: s.line, col: s.col + from - s.off})
		}
	}
	return out
}

// physLine is one line as systemd's read_line returns it.
type physLine struct {
	text []byte
	num  int
}

// splitLines splits data the way systemd's read_line (src/basic/fileio.c) does: a line ends at
// "\n", "\r", "\0", or at a "\r\n" / "\n\r" pair (each EOL kind at most once per terminator).
func splitLines(data []byte) []physLine {
	var lines []physLine
	num := 0
	for i := 0; i < len(data); {
		start := i
		for i < len(data) && data[i] != '\n' && data[i] != '\r' && data[i] != 0 {
			i++
		}
		num++
		lines = append(lines, physLine{text: data[start:i], num: num})
		if i >= len(data) {
			break
		}
		if data[i] == 0 {
			i++
			continue
		}
		seen := data[i]
		i++
		if i < len(data) && (data[i] == '\n' || data[i] == '\r') && data[i] != seen {
			i++
		}
	}
	return lines
}

const unitWhitespace = " \t\n\r"

func isUnitSpace(c byte) bool { return strings.IndexByte(unitWhitespace, c) >= 0 }

// ParseUnit reads a unit file or drop-in. It never fails: what systemd warns about becomes a
// diagnostic, and what makes systemd reject the whole file sets [UnitFile.Failed].
// longLineMax is systemd's LONG_LINE_MAX.
const longLineMax = 1 << 20

func ParseUnit(path string, data []byte) (*UnitFile, []diag.Diagnostic) {
	uf := &UnitFile{Path: path}
	var diags []diag.Diagnostic
	p := &unitParser{file: uf, diags: &diags}

	var cont *logicalLine
	bomSeen := false
	lines := splitLines(data)
	for _, pl := range lines {
		buf := pl.text
		// Comment lines are skipped even inside a continuation (conf-parser.c checks this
		// before joining; systemd >= 235).
		lead := 0
		for lead < len(buf) && isUnitSpace(buf[lead]) {
			lead++
		}
		if lead < len(buf) && (buf[lead] == '#' || buf[lead] == ';') {
			continue
		}
		l, col := buf, 1
		if !bomSeen && bytes.HasPrefix(buf, []byte("\xef\xbb\xbf")) {
			l, col = buf[3:], 4
			bomSeen = true
		}
		// conf-parser.c reads lines with LONG_LINE_MAX (1 MiB) and gives up on the whole file
		// past it: "Line too long", or "Continuation line too long" for joined lines
		// (systemd.syntax(7): "The limit on line length is very large (currently 1 MB)").
		if len(buf) > longLineMax {
			p.fail(pl.num, 1, "Line too long")
			return uf, diags
		}
		if cont != nil && len(cont.text)+len(l) > longLineMax {
			p.fail(pl.num, 1, "Continuation line too long")
			return uf, diags
		}
		if cont == nil {
			cont = &logicalLine{}
		}
		prefixLen := len(cont.text)
		cont.add(l, pl.num, col)

		// The text joined so far ends in the space that replaced an unescaped backslash, so
		// the escape state at its end is "not escaped": only the new line needs scanning
		// (scanning everything again made 60,000 continuation lines take seconds).
		if escapedAtEnd(cont.text[prefixLen:]) {
			cont.text[len(cont.text)-1] = ' '
			continue
		}
		// A backslash followed only by blanks looks like a continuation to a human but not to
		// systemd: the assignment ends on this line.
		trimmed := bytes.TrimRight(l, " \t")
		if len(trimmed) < len(l) && len(trimmed) > 0 && trimmed[len(trimmed)-1] == '\\' &&
			escapedAtEnd(cont.text[prefixLen:prefixLen+len(trimmed)]) {
			cont.bsSpace = true
			diags = append(diags, backslashSpaceDiag(path, pl.num, col+len(trimmed)-1))
		}
		if !p.parseLine(cont) {
			return uf, diags
		}
		cont = nil
	}
	if cont != nil {
		// The file ended inside a continuation: systemd parses what it has.
		p.parseLine(cont)
	}
	return uf, diags
}

// escapedAtEnd reports whether the last byte of b is an unescaped backslash, counting
// escapes from the start as conf-parser.c does ("\\\\" at the end is not a continuation).
func escapedAtEnd(b []byte) bool {
	escaped := false
	for _, c := range b {
		if escaped {
			escaped = false
		} else if c == '\\' {
			escaped = true
		}
	}
	return escaped
}

func backslashSpaceDiag(path string, line, col int) diag.Diagnostic {
	pos := diag.Position{File: path, Line: line, Column: col}
	return diag.Diagnostic{
		Severity: diag.Error,
		Code:     "unit-backslash-space",
		Pos:      pos,
		Message: fmt.Sprint("the backslash is followed by spaces or tabs, so it does not continue the line: " +
			"the setting ends here and systemd reads the following lines as separate (invalid) settings. " +
			"Current systemd keeps a literal \"\\\" as the last word of a command line (\"Ignoring unknown escape sequences\"); " +
			"systemd 219 (CentOS/RHEL 7) logs \"Trailing garbage, ignoring.\" and drops an Exec*= setting entirely"),
		Hint: "remove the spaces after the backslash",
	}
}

type unitParser struct {
	file           *UnitFile
	diags          *[]diag.Diagnostic
	section        string
	sectionIgnored bool
}

func (p *unitParser) warn(code string, line, col int, format string, args ...any) {
	*p.diags = append(*p.diags, diag.Diagnostic{
		Severity: diag.Warning,
		Code:     code,
		Pos:      diag.Position{File: p.file.Path, Line: line, Column: col},
		Message:  fmt.Sprintf(format, args...),
	})
}

func (p *unitParser) fail(line, col int, msg string) {
	p.file.Failed = msg
	*p.diags = append(*p.diags, diag.Diagnostic{
		Severity: diag.Error,
		Code:     "unit-syntax",
		Pos:      diag.Position{File: p.file.Path, Line: line, Column: col},
		Message:  msg + "; systemd stops reading this file here: in the unit file the unit does not load, in a drop-in the lines before this one still apply",
	})
}

// parseLine is parse_line from conf-parser.c. It returns false when systemd stops reading
// the file.
func (p *unitParser) parseLine(l *logicalLine) bool {
	text := l.text
	start := 0
	for start < len(text) && isUnitSpace(text[start]) {
		start++
	}
	end := len(text)
	for end > start && isUnitSpace(text[end-1]) {
		end--
	}
	if start == end {
		return true
	}
	s := text[start:end]
	pos := func(off int) diag.Position {
		e := UnitEntry{Pos: diag.Position{File: p.file.Path}, segs: l.segs}
		return e.PosAt(off)
	}
	first := pos(start)
	if !utf8.Valid(s) {
		p.fail(first.Line, first.Column, fmt.Sprintf("String is not UTF-8 clean, ignoring assignment: %q", s))
		return false
	}
	if s[0] == '[' {
		if s[len(s)-1] != ']' {
			p.fail(first.Line, first.Column, fmt.Sprintf("Invalid section header '%s'", s))
			return false
		}
		name := string(s[1 : len(s)-1])
		if !stringIsSafe(name) {
			p.fail(first.Line, first.Column, fmt.Sprintf("Bad characters in section header '%s'", s))
			return false
		}
		p.section, p.sectionIgnored = name, false
		return true
	}
	if p.section == "" {
		if !p.sectionIgnored {
			p.warn("unit-syntax", first.Line, first.Column, "Assignment outside of section. Ignoring.")
		}
		return true
	}
	eq := bytes.IndexByte(s, '=')
	if eq < 0 {
		p.warn("unit-syntax", first.Line, first.Column, "Missing '=', ignoring line.")
		return true
	}
	if eq == 0 {
		p.warn("unit-syntax", first.Line, first.Column, "Missing key name before '=', ignoring line.")
		return true
	}
	key := strings.TrimRight(string(s[:eq]), unitWhitespace)
	vs := start + eq + 1
	for vs < end && isUnitSpace(text[vs]) {
		vs++
	}
	value := string(text[vs:end])
	p.file.Entries = append(p.file.Entries, UnitEntry{
		Section:            p.section,
		Key:                key,
		Value:              value,
		Pos:                first,
		EndLine:            l.endLine,
		segs:               l.slice(vs),
		BrokenContinuation: l.bsSpace,
	})
	return true
}

// stringIsSafe is string_is_safe from src/basic/string-util.c: no control characters, quotes
// or backslashes.
func stringIsSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c > 0 && c < ' ') || c == 0x7f || c == '"' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------
// Command lines

// Command is one command of an Exec*= setting, after unquoting and specifier expansion.
type Command struct {
	// Path is the executable systemd runs (argv[0] unless the '@' prefix was used).
	Path string
	// Argv is the argument vector, argv[0] included.
	Argv []Word
	// Prefix holds the special prefix characters written before the executable, e.g. "-" or
	// "@" or "!!" (see systemd.service(5), "Command lines").
	Prefix string
	Pos    diag.Position
}

// IgnoreFailure reports the '-' prefix. NoEnvExpand reports the ':' prefix: $VAR is not
// expanded in this command (ExpandCommandLine must not be applied).
func (c Command) IgnoreFailure() bool { return strings.Contains(c.Prefix, "-") }

// NoEnvExpand reports the ':' prefix.
func (c Command) NoEnvExpand() bool { return strings.Contains(c.Prefix, ":") }

// knownSpecifiers are the letters systemd's unit specifier table knows (systemd.unit(5),
// "Specifiers"; src/core/unit-printf.c and src/shared/specifier.c). A letter that is known but
// missing from the caller's map stays as written with a warning; a letter systemd does not
// know makes specifier_printf fail with EBADSLT.
//
// %D (shared data directory) came with systemd 254; 252 refuses it like any unknown letter
// (found by the differential test: kd0210, kd0237).
const knownSpecifiers = "aAbBcCdEfgGhHiIjJlLmMnNopPqrRsStTuUvVwWyY"

// ParseCommandLine splits an Exec*= value into commands as config_parse_exec does
// (systemd.service(5) "Command lines": words are unquoted per systemd.syntax(7) "Quoting",
// i.e. extract_first_word with EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE; "%" specifiers are resolved
// in each word after unquoting; a lone ";" separates commands and "\;" is a literal ";").
//
// specifiers maps a specifier letter to its value (see [UnitSpecifiers]).
//
// A non-nil error is a *diag.ParseError: systemd rejects the setting with -ENOEXEC and
// marks the whole unit "bad-setting", so the service cannot start. With the '-' prefix
// systemd ignores just this setting instead; that is reported as a warning and no error.
func ParseCommandLine(e UnitEntry, specifiers map[byte]string) ([]Command, []diag.Diagnostic, error) {
	var cmds []Command
	var diags []diag.Diagnostic
	s := e.Value
	if strings.TrimLeft(s, unitWhitespace) == "" {
		return nil, nil, nil
	}
	addDiag := func(sev diag.Severity, code string, off int, msg string) {
		diags = append(diags, diag.Diagnostic{Severity: sev, Code: code, Pos: e.PosAt(off), Message: msg})
	}
	p := 0
	for {
		fw, ok, d, err := extractFirstWordAndWarn(s, p, exUnquote|exCUnescape)
		if d != "" {
			addDiag(diag.Warning, "unit-escape", fw.start, d)
		}
		if err != nil {
			// extract_first_word_and_warn already failed before the executable: systemd
			// returns 0 here, the setting is ignored without making the unit bad.
			addDiag(diag.Error, "unit-command-syntax", fw.start, err.Error())
			return cmds, diags, nil
		}
		if !ok {
			return cmds, diags, nil
		}
		p = fw.next
		if fw.value == ";" {
			continue
		}
		f := fw.value
		prefix := ""
		for len(f) > 0 {
			c := f[0]
			has := func(x string) bool { return strings.Contains(prefix, x) }
			switch {
			case c == '-' && !has("-"):
			case c == '@' && !has("@"):
			case c == ':' && !has(":"):
			case c == '+' && !has("+") && !has("!"):
			case c == '!' && !has("+") && !strings.Contains(prefix, "!!"):
			default:
				goto donePrefix
			}
			prefix += string(c)
			f = f[1:]
		}
	donePrefix:
		ignore := strings.Contains(prefix, "-")
		fail := func(off int, msg string) ([]Command, []diag.Diagnostic, error) {
			pos := e.PosAt(off)
			if ignore {
				addDiag(diag.Warning, "unit-command-ignored", off, msg+", ignoring")
				return cmds, diags, nil
			}
			addDiag(diag.Error, "unit-bad-setting", off, msg+"; systemd marks the unit bad-setting and refuses to start it")
			return cmds, diags, &diag.ParseError{Pos: pos, Msg: msg}
		}
		path, bad, missing := expandSpecifiers(f, specifiers)
		for _, m := range missing {
			addDiag(diag.Warning, "unit-specifier", fw.start, specifierMissingMsg(m))
		}
		if bad != 0 {
			return fail(fw.start, fmt.Sprintf("Failed to resolve unit specifiers in '%s': unknown specifier %%%c", f, bad))
		}
		if path == "" {
			return fail(fw.start, fmt.Sprintf("Empty path in command line: '%s'", e.Value))
		}
		if !stringIsSafe(path) {
			return fail(fw.start, "Executable name contains special characters: "+path)
		}
		if strings.HasSuffix(path, "/") {
			return fail(fw.start, "Executable path specifies a directory: "+path)
		}
		if !validExecPath(path) {
			return fail(fw.start, "Neither a valid executable name nor an absolute path: "+path)
		}
		cmd := Command{Path: simplifyPath(path), Prefix: prefix, Pos: e.PosAt(fw.start)}
		if !strings.Contains(prefix, "@") {
			// argv[0] is the executable as written; the prefix characters are not part of it.
			cmd.Argv = append(cmd.Argv, Word{Value: path, Raw: s[fw.start:fw.end], Pos: e.PosAt(fw.start)})
		}
		semicolon := false
		for !isEmptyFrom(s, p) {
			if s[p] == ';' && (p+1 == len(s) || isUnitSpace(s[p+1])) {
				p++
				for p < len(s) && isUnitSpace(s[p]) {
					p++
				}
				semicolon = true
				break
			}
			if s[p] == '\\' && p+1 < len(s) && s[p+1] == ';' && (p+2 == len(s) || isUnitSpace(s[p+2])) {
				cmd.Argv = append(cmd.Argv, Word{Value: ";", Raw: `\;`, Pos: e.PosAt(p)})
				p += 2
				for p < len(s) && isUnitSpace(s[p]) {
					p++
				}
				continue
			}
			w, ok, d, err := extractFirstWordAndWarn(s, p, exUnquote|exCUnescape)
			if d != "" {
				addDiag(diag.Warning, "unit-escape", w.start, d)
			}
			if err != nil {
				return fail(w.start, err.Error())
			}
			if !ok {
				break
			}
			p = w.next
			v, bad, missing := expandSpecifiers(w.value, specifiers)
			for _, m := range missing {
				addDiag(diag.Warning, "unit-specifier", w.start, specifierMissingMsg(m))
			}
			if bad != 0 {
				return fail(w.start, fmt.Sprintf("Failed to resolve unit specifiers in %s: unknown specifier %%%c", w.value, bad))
			}
			cmd.Argv = append(cmd.Argv, Word{Value: v, Raw: s[w.start:w.end], Pos: e.PosAt(w.start)})
		}
		if len(cmd.Argv) == 0 {
			return fail(fw.start, "Empty executable name or zeroeth argument: "+e.Value)
		}
		cmds = append(cmds, cmd)
		if !semicolon {
			return cmds, diags, nil
		}
	}
}

func isEmptyFrom(s string, p int) bool { return p >= len(s) }

// validExecPath is path_is_valid for absolute paths and filename_is_valid otherwise
// (src/basic/path-util.c); "Neither a valid executable name nor an absolute path".
func validExecPath(p string) bool {
	if strings.HasPrefix(p, "/") {
		if len(p) >= 4096 {
			return false
		}
		for _, c := range strings.Split(p, "/") {
			if len(c) > 255 {
				return false
			}
		}
		return true
	}
	return p != "" && p != "." && p != ".." && !strings.Contains(p, "/") && len(p) <= 255
}

// simplifyPath is path_simplify: drop duplicate slashes, "." components and a trailing slash;
// ".." is kept.
func simplifyPath(p string) string {
	abs := strings.HasPrefix(p, "/")
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." {
			continue
		}
		parts = append(parts, c)
	}
	out := strings.Join(parts, "/")
	if abs {
		return "/" + out
	}
	if out == "" {
		return "."
	}
	return out
}

// expandSpecifiers is specifier_printf (src/shared/specifier.c): "%%" is "%", a known letter
// is replaced, a letter systemd does not know is an error (returned in bad), and "%" before
// a character that cannot be a specifier, or at the end, stays literal. Letters systemd
// knows but the map lacks are left as written and returned in missing; the deprecated cgroup
// specifiers %c %r %R are expanded and returned in missing too, for systemd's warning about
// them (see specifierMissingMsg).
func expandSpecifiers(s string, spec map[byte]string) (out string, bad byte, missing []byte) {
	if !strings.Contains(s, "%") {
		return s, 0, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		n := s[i]
		switch {
		case n == '%':
			b.WriteByte('%')
		case spec[n] == unreadSpecifier:
			b.WriteByte('%')
			b.WriteByte(n)
		case spec[n] != "" || hasKey(spec, n):
			b.WriteString(spec[n])
			if n == 'c' || n == 'r' || n == 'R' {
				missing = append(missing, n)
			}
		case strings.IndexByte(knownSpecifiers, n) >= 0:
			missing = append(missing, n)
			b.WriteByte('%')
			b.WriteByte(n)
		case isAlnum(n):
			return "", n, missing
		default:
			b.WriteByte('%')
			b.WriteByte(n)
		}
	}
	return b.String(), 0, missing
}

// specifierMissingMsg is the finding for a specifier systemd expands but whose value is not in
// the node's files.
func specifierMissingMsg(c byte) string {
	if c == 'c' || c == 'r' || c == 'R' {
		// unit-printf.c, specifier_cgroup*: systemd's own warning, word for word.
		return fmt.Sprintf("Specifier '%%%c' used in unit configuration, which is deprecated. Please update your unit file, as it does not work as intended. "+
			"systemd expands it before the unit's slice is known, so it is not the service's cgroup", c)
	}
	why := specifierUnknown[c]
	if why == "" {
		why = "its value is not known from the node's files"
	}
	return fmt.Sprintf("specifier %%%c is shown as written: %s; systemd replaces it with the running system's value", c, why)
}

func hasKey(m map[byte]string, k byte) bool { _, ok := m[k]; return ok }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// UnitSpecifiers returns the specifiers that depend only on the unit name (systemd.unit(5),
// "Specifiers"): %n full name, %N name without the type suffix, %p prefix, %P unescaped
// prefix, %i instance, %I unescaped instance, %j final component of the prefix, %J unescaped.
func UnitSpecifiers(unitName string) map[byte]string {
	n := unitName
	N := n
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		N = n[:i]
	}
	prefix, instance := N, ""
	if i := strings.IndexByte(N, '@'); i >= 0 {
		prefix, instance = N[:i], N[i+1:]
	}
	j := prefix
	if i := strings.LastIndexByte(prefix, '-'); i >= 0 {
		j = prefix[i+1:]
	}
	return map[byte]string{
		'n': n, 'N': N,
		'p': prefix, 'P': unitNameUnescape(prefix),
		'i': instance, 'I': unitNameUnescape(instance),
		'j': j, 'J': unitNameUnescape(j),
	}
}

// unitNameUnescape is unit_name_unescape: "-" is "/" and "\xNN" is a byte.
func unitNameUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '-':
			b.WriteByte('/')
		case s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' && unhex(s[i+2]) >= 0 && unhex(s[i+3]) >= 0:
			b.WriteByte(byte(unhex(s[i+2])<<4 | unhex(s[i+3])))
			i += 3
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// ---------------------------------------------------------------------------------------
// extract_first_word (src/basic/extract-word.c) and cunescape_one (src/basic/escape.c)

type extractFlags int

const (
	exUnquote extractFlags = 1 << iota
	exCUnescape
	exCUnescapeRelax
	exRelax
)

type extracted struct {
	value      string
	start, end int // the word as written: s[start:end]
	next       int // where the next word search starts
}

type extractError string

func (e extractError) Error() string { return string(e) }

const (
	errExtractInvalid extractError = "invalid"
)

// extractFirstWord ports extract_first_word with whitespace separators. ok is false when
// there is no further word.
func extractFirstWord(s string, p int, flags extractFlags) (w extracted, ok bool, err error) {
	for p < len(s) && isUnitSpace(s[p]) {
		p++
	}
	w.start = p
	if p >= len(s) {
		w.end, w.next = p, len(s)
		return w, false, nil
	}
	var out []byte
	var quote byte
	for {
		if p >= len(s) {
			if quote != 0 {
				if flags&exRelax != 0 {
					break
				}
				return w, false, errExtractInvalid
			}
			break
		}
		c := s[p]
		if quote != 0 {
			switch {
			case c == quote:
				quote = 0
				p++
			case c == '\\':
				p++
				var e error
				out, p, e = unescapeAfterBackslash(s, p, out, flags, true)
				if e != nil {
					return w, false, e
				}
			default:
				out = append(out, c)
				p++
			}
			continue
		}
		switch {
		case (c == '\'' || c == '"') && flags&exUnquote != 0:
			quote = c
			p++
		case c == '\\':
			p++
			var e error
			out, p, e = unescapeAfterBackslash(s, p, out, flags, false)
			if e != nil {
				return w, false, e
			}
		case isUnitSpace(c):
			w.end = p
			for p < len(s) && isUnitSpace(s[p]) {
				p++
			}
			w.value, w.next = string(out), p
			return w, true, nil
		default:
			out = append(out, c)
			p++
		}
	}
	w.end, w.next = p, len(s)
	w.value = string(out)
	return w, true, nil
}

// unescapeAfterBackslash handles the character(s) after a backslash at s[p-1].
func unescapeAfterBackslash(s string, p int, out []byte, flags extractFlags, quoted bool) ([]byte, int, error) {
	if p >= len(s) {
		if flags&exCUnescapeRelax != 0 && (!quoted || flags&exRelax != 0) {
			return append(out, '\\'), p, nil
		}
		if flags&exRelax != 0 {
			return out, p, nil
		}
		return out, p, errExtractInvalid
	}
	if flags&exCUnescape == 0 {
		return append(out, s[p]), p + 1, nil
	}
	b, n, ok := cunescapeOne(s[p:])
	if !ok {
		if flags&exCUnescapeRelax != 0 {
			return append(out, '\\', s[p]), p + 1, nil
		}
		return out, p, errExtractInvalid
	}
	return append(out, b...), p + n, nil
}

// extractFirstWordAndWarn is extract_first_word_and_warn: on a bad escape it retries keeping
// the backslash verbatim and returns systemd's warning text in warning; unbalanced quoting is
// an error.
func extractFirstWordAndWarn(s string, p int, flags extractFlags) (w extracted, ok bool, warning string, err error) {
	w, ok, err = extractFirstWord(s, p, flags)
	if err == nil {
		return w, ok, "", nil
	}
	w, ok, err = extractFirstWord(s, p, flags|exCUnescapeRelax)
	if err == nil {
		return w, ok, fmt.Sprintf("Ignoring unknown escape sequences: \"%s\"", w.value), nil
	}
	// systemd's own wording, capital letter included, so users can match it to the journal.
	return w, false, "", fmt.Errorf("Unbalanced quoting, ignoring: \"%s\"", s) //lint:ignore ST1005 systemd's message
}

// cunescapeOne decodes the escape whose first character (after the backslash) starts s.
func cunescapeOne(s string) (out []byte, n int, ok bool) {
	if s == "" {
		return nil, 0, false
	}
	switch s[0] {
	case 'a':
		return []byte{'\a'}, 1, true
	case 'b':
		return []byte{'\b'}, 1, true
	case 'f':
		return []byte{'\f'}, 1, true
	case 'n':
		return []byte{'\n'}, 1, true
	case 'r':
		return []byte{'\r'}, 1, true
	case 't':
		return []byte{'\t'}, 1, true
	case 'v':
		return []byte{'\v'}, 1, true
	case '\\', '"', '\'':
		return []byte{s[0]}, 1, true
	case 's':
		return []byte{' '}, 1, true
	case 'x':
		if len(s) < 3 || unhex(s[1]) < 0 || unhex(s[2]) < 0 {
			return nil, 0, false
		}
		v := unhex(s[1])<<4 | unhex(s[2])
		if v == 0 {
			return nil, 0, false // no NUL bytes
		}
		return []byte{byte(v)}, 3, true
	case 'u', 'U':
		digits := 4
		if s[0] == 'U' {
			digits = 8
		}
		if len(s) < 1+digits {
			return nil, 0, false
		}
		var v rune
		for i := 1; i <= digits; i++ {
			h := unhex(s[i])
			if h < 0 {
				return nil, 0, false
			}
			v = v<<4 | rune(h)
		}
		if v == 0 || !unicharIsValid(v) {
			return nil, 0, false
		}
		return utf8.AppendRune(nil, v), 1 + digits, true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if len(s) < 3 {
			return nil, 0, false
		}
		v := 0
		for i := 0; i < 3; i++ {
			if s[i] < '0' || s[i] > '7' {
				return nil, 0, false
			}
			v = v<<3 | int(s[i]-'0')
		}
		if v == 0 || v > 255 {
			return nil, 0, false
		}
		return []byte{byte(v)}, 3, true
	}
	return nil, 0, false
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unicharIsValid is unichar_is_valid from src/basic/utf8.h.
func unicharIsValid(c rune) bool {
	switch {
	case c >= 0x110000:
		return false
	case c&^0x7ff == 0xd800:
		return false
	case c >= 0xfdd0 && c <= 0xfdef:
		return false
	case c&0xfffe == 0xfffe:
		return false
	}
	return true
}

// ---------------------------------------------------------------------------------------
// Environment variable expansion at exec time

// ExpandCommandLine expands environment variables in argv the way systemd does when it
// starts the command (replace_env_argv in src/basic/env-util.c; systemd.service(5),
// "Command lines"):
//
//   - a word that starts with "$" not followed by "{" or "$" names a variable with the
//     whole rest of the word; it is replaced by the value split at whitespace (quotes
//     respected and removed, no C escapes), i.e. zero or more words. An unset variable
//     gives zero words;
//   - elsewhere "${NAME}" is replaced by the value as is (unset: empty), inside the word;
//   - "$$" is a literal "$"; any other "$" stays as written.
//
// Do not call it for a command written with the ':' prefix ([Command.NoEnvExpand]).
// New words keep the Raw and Pos of the word they come from.
func ExpandCommandLine(words []Word, env func(string) (string, bool)) []Word {
	var out []Word
	for _, w := range words {
		v := w.Value
		if len(v) > 0 && v[0] == '$' && (len(v) == 1 || (v[1] != '{' && v[1] != '$')) {
			val, ok := env(v[1:])
			if !ok {
				continue
			}
			p := 0
			for {
				x, ok, err := extractFirstWord(val, p, exUnquote|exRelax)
				if err != nil || !ok {
					break
				}
				out = append(out, Word{Value: x.value, Raw: w.Raw, Pos: w.Pos})
				p = x.next
			}
			continue
		}
		out = append(out, Word{Value: replaceEnv(v, env), Raw: w.Raw, Pos: w.Pos})
	}
	return out
}

// EnvRef is one variable reference in a command line, as [ExpandCommandLine] resolves it.
type EnvRef struct {
	Name string
	// Word is true for a whole-word $NAME (an unset one removes the word); false for
	// ${NAME} inside a word (an unset one becomes "").
	Word bool
	// Index is the word's index in the argv given.
	Index int
	// Pos is where the reference is written ("$" of it, when it can be found in Raw).
	Pos diag.Position
}

// EnvReferences lists the variables ExpandCommandLine would look up in words, in order.
func EnvReferences(words []Word) []EnvRef {
	var out []EnvRef
	for i, w := range words {
		v := w.Value
		if len(v) > 0 && v[0] == '$' && (len(v) == 1 || (v[1] != '{' && v[1] != '$')) {
			out = append(out, EnvRef{Name: v[1:], Word: true, Index: i, Pos: refPos(w, v)})
			continue
		}
		for j := 0; j+1 < len(v); j++ {
			if v[j] != '$' {
				continue
			}
			if v[j+1] == '$' {
				j++
				continue
			}
			if v[j+1] != '{' {
				continue
			}
			end := strings.IndexByte(v[j+2:], '}')
			if end < 0 {
				break
			}
			name := v[j+2 : j+2+end]
			if envNameIsValid(name) {
				out = append(out, EnvRef{Name: name, Index: i, Pos: refPos(w, "${"+name+"}")})
			}
			j += 1 + end
		}
	}
	return out
}

// refPos finds ref in the word as written, for a column; the word's start otherwise.
func refPos(w Word, ref string) diag.Position {
	p := w.Pos
	if k := strings.Index(w.Raw, ref); k > 0 && p.Line > 0 {
		p.Column += k
	}
	return p
}

// replaceEnv is replace_env without the extended (${a:-b}) or brace-less forms, which
// systemd does not enable for command lines.
func replaceEnv(s string, env func(string) (string, bool)) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '{':
			end := strings.IndexByte(s[i+2:], '}')
			name := ""
			if end >= 0 {
				name = s[i+2 : i+2+end]
			}
			if end < 0 || !envNameIsValid(name) {
				// Unterminated or not a plain name: systemd copies it literally.
				b.WriteByte('$')
				continue
			}
			val, _ := env(name)
			b.WriteString(val)
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// envNameIsValid is env_name_is_valid (src/basic/env-util.c): ASCII letters, digits and
// '_', not empty, not starting with a digit.
func envNameIsValid(n string) bool {
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(isAlnum(c) || c == '_') {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------
// Merging a unit with its drop-ins

// Unit is a service unit as systemd sees it after reading the main file and its drop-ins.
type Unit struct {
	Name  string
	Files []string
	// ExecStart is the argv of the ExecStart= command systemd would run (argv[0] included),
	// nil if there is none. When several remain (see Refused), it is the last one.
	ExecStart []Word
	// ExecStartPath is the executable (differs from argv[0] with the '@' prefix).
	ExecStartPath string
	// ExecStartPrefix holds the prefix characters of that command ("-", ":", "@", ...).
	ExecStartPrefix string
	// ExecStartPos is the position of the ExecStart key that gave ExecStart.
	ExecStartPos diag.Position
	// Commands is every ExecStart= command in order (more than one only for Type=oneshot,
	// or in a unit systemd refuses).
	Commands []Command
	// Environment is every Environment= assignment in order (after the last reset);
	// later assignments of a name win.
	Environment []EnvAssignment
	// EnvironmentFiles in order (after the last reset); later files win.
	EnvironmentFiles []EnvFileRef
	// Type is the Type= value as written, "" when unset.
	Type string
	// Refused is systemd's message when it refuses to load or start the unit, "" otherwise.
	Refused     string
	Diagnostics diag.Diagnostics
}

var serviceTypes = map[string]bool{
	"simple": true, "exec": true, "forking": true, "oneshot": true, "dbus": true,
	"notify": true, "notify-reload": true, "idle": true,
}

// MergeUnit applies a service's main unit file and its drop-ins, given in the order systemd
// reads them (main file first, then drop-ins sorted by file name). Only the [Service] keys
// ExecStart, ExecStop (presence only), Type, Environment and EnvironmentFile are
// interpreted, following systemd.service(5) and systemd.exec(5). Diagnostics from
// [ParseUnit] are not repeated; name is the unit name (e.g. "k3s.service") used for the %n,
// %N, %p, %i... specifiers.
func MergeUnit(name string, files []*UnitFile) *Unit {
	return MergeUnitOn(name, files, Host{})
}

// MergeUnitOn is [MergeUnit] with the node's host facts for the host-dependent specifiers
// (%H, %m, %o, …; see [SystemSpecifiers]).
//
// A fatal error in an Exec*= line (one that makes config_parse_exec return an error: a bad
// specifier, unbalanced quoting after the executable, "Executable name contains special
// characters", …) has a different effect in the main file and in a drop-in, as systemd 252
// does it (checked with systemd --test): in the main file the unit does not load
// ("bad-setting"); in a drop-in, unit_load_dropin (src/core/load-dropin.c) ignores
// config_parse's result, so systemd stops reading that drop-in at the bad line, keeps what
// came before it (including the commands of the same ExecStart= line before the failing
// ";"-separated one) and goes on with the next drop-in. The same holds for the errors that end
// config_parse itself ([UnitFile.Failed]).
func MergeUnitOn(name string, files []*UnitFile, host Host) *Unit {
	u := &Unit{Name: name}
	if host.FragmentPath == "" {
		host.FragmentPath = firstPath(files)
	}
	spec := SystemSpecifiers(name, host)
	type execLine struct {
		cmd   Command
		entry UnitEntry
	}
	var execStart []execLine
	var notReset [][2]UnitEntry // {earlier, later} ExecStart= lines without a reset between
	execStop := 0
	remainAfterExit, successAction := false, false
	add := func(sev diag.Severity, code string, pos diag.Position, msg, hint string) {
		u.Diagnostics = append(u.Diagnostics, diag.Diagnostic{Severity: sev, Code: code, Pos: pos, Message: msg, Hint: hint})
	}
	for fi, f := range files {
		if f == nil {
			continue
		}
		dropin := fi > 0
		u.Files = append(u.Files, f.Path)
		if f.Failed != "" && u.Refused == "" && !dropin {
			u.Refused = fmt.Sprintf("%s: %s", f.Path, f.Failed)
		}
	entries:
		for _, e := range f.Entries {
			if e.Section == "Unit" && e.Key == "SuccessAction" {
				// A [Unit] setting; service_verify accepts a service without commands that has one.
				if e.Value == "" || e.Value == "none" {
					successAction = false
				} else if emergencyActions[e.Value] {
					successAction = true
				}
				continue
			}
			if e.Section != "Service" {
				continue
			}
			switch e.Key {
			case "ExecStart":
				if e.Value == "" {
					execStart, notReset = nil, nil
					continue
				}
				u.Diagnostics = append(u.Diagnostics, swallowedLines(e)...)
				cmds, ds, err := ParseCommandLine(e, spec)
				if err != nil && dropin {
					// The last diagnostic is the unit-bad-setting one for err; in a drop-in
					// systemd does not refuse the unit, it stops reading the file.
					ds = dropinStopped(ds, e, f, err, len(cmds))
				}
				u.Diagnostics = append(u.Diagnostics, ds...)
				if err != nil && u.Refused == "" && !dropin {
					u.Refused = err.Error()
				}
				if len(execStart) > 0 && len(cmds) > 0 {
					notReset = append(notReset, [2]UnitEntry{execStart[len(execStart)-1].entry, e})
				}
				for _, c := range cmds {
					execStart = append(execStart, execLine{cmd: c, entry: e})
				}
				if err != nil && dropin {
					break entries
				}
			case "ExecStop", "ExecStartPre", "ExecStartPost", "ExecCondition", "ExecReload", "ExecStopPost":
				// Parsed like ExecStart= (config_parse_exec): a fatal error here refuses the
				// unit too, or ends a drop-in.
				if e.Value == "" {
					if e.Key == "ExecStop" {
						execStop = 0
					}
					continue
				}
				cmds, ds, err := ParseCommandLine(e, spec)
				if err != nil && dropin {
					ds = dropinStopped(ds, e, f, err, len(cmds))
				}
				u.Diagnostics = append(u.Diagnostics, ds...)
				if err != nil && u.Refused == "" && !dropin {
					u.Refused = err.Error()
				}
				if e.Key == "ExecStop" {
					execStop += len(cmds)
				}
				if err != nil && dropin {
					break entries
				}
			case "RemainAfterExit":
				if b, ok := parseBoolean(e.Value); ok {
					remainAfterExit = b
				}
			case "Type":
				if e.Value == "" {
					u.Type = ""
				} else if serviceTypes[e.Value] {
					u.Type = e.Value
				} else {
					add(diag.Warning, "unit-syntax", e.Pos, "Failed to parse service type, ignoring: "+e.Value, "")
				}
			case "Environment":
				if e.Value == "" {
					u.Environment = nil
					continue
				}
				u.Environment = append(u.Environment, parseEnvironment(e, spec, &u.Diagnostics)...)
			case "EnvironmentFile":
				if e.Value == "" {
					u.EnvironmentFiles = nil
					continue
				}
				if ref, ok := parseEnvFileRef(e, spec, &u.Diagnostics); ok {
					u.EnvironmentFiles = append(u.EnvironmentFiles, ref)
				}
			default:
				if strings.ContainsAny(e.Key, " \t'\"") {
					add(diag.Warning, "unit-unknown-key", e.Pos,
						fmt.Sprintf("Unknown key name '%s' in section 'Service', ignoring.", e.Key),
						"this line is probably the continuation of a previous line that did not continue")
				}
			}
		}
	}
	for _, l := range execStart {
		u.Commands = append(u.Commands, l.cmd)
	}
	if len(execStart) > 0 {
		last := execStart[len(execStart)-1]
		u.ExecStart = last.cmd.Argv
		u.ExecStartPath = last.cmd.Path
		u.ExecStartPrefix = last.cmd.Prefix
		u.ExecStartPos = last.entry.Pos
	}
	if u.Refused != "" {
		return u
	}
	typ := u.Type
	if typ == "" {
		typ = "simple"
		if len(execStart) == 0 {
			typ = "oneshot"
		}
	}
	// service_verify (src/core/service.c, v252).
	switch {
	case len(execStart) == 0 && execStop == 0 && !successAction:
		u.Refused = "Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing."
		add(diag.Error, "unit-no-execstart", diag.Position{File: firstPath(files)},
			fmt.Sprintf("%s has no ExecStart=: systemd logs %q (older systemd: \"%s lacks both ExecStart= and ExecStop= setting. Refusing.\")",
				name, u.Refused, name),
			"give the service an ExecStart= line; a drop-in that resets it with an empty \"ExecStart=\" must set a new one")
	case len(execStart) == 0 && typ != "oneshot":
		u.Refused = "Service has no ExecStart= setting, which is only allowed for Type=oneshot services. Refusing."
		add(diag.Error, "unit-no-execstart", diag.Position{File: firstPath(files)}, name+": "+u.Refused, "")
	case len(execStart) == 0 && !remainAfterExit && !successAction:
		// A oneshot service with only ExecStop= (differential test, kd0008 and kd0046).
		u.Refused = "Service has no ExecStart= and no SuccessAction= settings and does not have RemainAfterExit=yes set. Refusing."
		add(diag.Error, "unit-no-execstart", diag.Position{File: firstPath(files)}, name+": "+u.Refused,
			"give the service an ExecStart= line, or set RemainAfterExit=yes")
	case len(execStart) > 1 && typ != "oneshot":
		u.Refused = "Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing."
		for _, pr := range notReset {
			add(diag.Error, "unit-execstart-not-reset", pr[1].Pos,
				fmt.Sprintf("ExecStart= at %s adds a command to the one at %s instead of replacing it; systemd refuses the unit: %q "+
					"(the last command is shown here)", pr[1].Pos, pr[0].Pos, u.Refused),
				"add an empty \"ExecStart=\" line before this one in the drop-in to reset the list")
		}
		if len(notReset) == 0 {
			last := execStart[len(execStart)-1].entry
			add(diag.Error, "unit-execstart-not-reset", last.Pos,
				fmt.Sprintf("ExecStart= at %s holds several commands separated by \";\"; systemd refuses the unit: %q", last.Pos, u.Refused),
				"keep one command, or escape a literal semicolon as \"\\;\"")
		}
	}
	return u
}

// directiveLike is a continuation line that reads as a unit setting or a section header:
// systemd directives are CamelCase names (Environment=, ExecStartPre=, LimitNOFILE=), written
// unquoted at the start of the line, and the name must be one systemd reads (unitDirectives):
// a quoted word ('CriticalAddonsOnly=true:NoExecute' \, as install.sh writes each argument)
// or an unknown name is an argument, and systemd 252 --test shows it in the command line.
var directiveLike = regexp.MustCompile(`^([A-Z][a-z]+[A-Za-z]*)=(.*)$|^\[[A-Za-z]+\]$`)

// envNameInAssignment finds NAME in the value of a swallowed Environment= line.
var envNameInAssignment = regexp.MustCompile(`^(?:"|')?([A-Za-z_][A-Za-z0-9_]*)=`)

// swallowedLines reports continuation lines of an ExecStart= setting that look like a setting
// of their own: the backslash at the end of the line before joined them into the command
// (issue 16, freedyc/tekton-cicd: a trailing "\" on the last ExecStart line pulled
// Environment="HTTP_PROXY=…" into the argv).
func swallowedLines(e UnitEntry) []diag.Diagnostic {
	var out []diag.Diagnostic
	more := 0
	for i := 1; i < len(e.segs); i++ {
		sg := e.segs[i]
		end := len(e.Value)
		if i+1 < len(e.segs) && e.segs[i+1].off < end {
			end = e.segs[i+1].off
		}
		if sg.off < 1 || sg.off >= end {
			continue
		}
		line := strings.TrimRight(strings.TrimLeft(e.Value[sg.off:end], " \t"), " \t")
		m := directiveLike.FindStringSubmatch(line)
		if m == nil || (m[1] != "" && !unitDirectives[m[1]]) {
			continue
		}
		if len(out) == maxSwallowed {
			// A hostile file with thousands of such lines gets a count, not thousands of findings.
			more++
			continue
		}
		// Positions straight from the segments (PosAt would make this quadratic in the number
		// of continuation lines).
		prev := e.segs[i-1]
		bs := diag.Position{File: e.Pos.File, Line: prev.line, Column: prev.col + sg.off - 1 - prev.off}
		first := strings.TrimLeft(e.Value[sg.off:end], " \t")
		lead := diag.Position{File: e.Pos.File, Line: sg.line, Column: sg.col + (end - sg.off - len(first))}
		what := fmt.Sprintf("%q is not a setting", line)
		if m[1] == "Environment" {
			if n := envNameInAssignment.FindStringSubmatch(m[2]); n != nil {
				what = fmt.Sprintf("%q is not a setting, so %s is never set", line, n[1])
			}
		} else if m[1] == "" {
			what = fmt.Sprintf("the section header %s is not read", line)
		}
		out = append(out, diag.Diagnostic{
			Severity: diag.Error,
			Code:     "unit-continuation-swallowed",
			Pos:      lead,
			Message: fmt.Sprintf("the line continuation (the backslash at %s) joined line %d into %s=: %s, and the command sees its words as arguments (%s=%s at line %d)",
				bs, sg.line, e.Key, what, e.Key, truncate(e.Value, 40), e.Pos.Line),
			Hint: fmt.Sprintf("remove the backslash at the end of line %d, then systemctl daemon-reload", bs.Line),
		})
	}
	if more > 0 {
		out[len(out)-1].Message += fmt.Sprintf("; %d more continuation lines of this setting read like settings too", more)
	}
	return out
}

// maxSwallowed caps unit-continuation-swallowed findings per setting.
const maxSwallowed = 20

// dropinStopped replaces the unit-bad-setting finding of a fatal Exec*= error in a drop-in
// with what systemd 252 does there: stop reading the drop-in at that line.
func dropinStopped(ds []diag.Diagnostic, e UnitEntry, f *UnitFile, err error, keptCmds int) []diag.Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Code != "unit-bad-setting" {
			out = append(out, d)
		}
	}
	pos := e.Pos
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		pos = pe.Pos
	}
	rest := "there are no further lines in it"
	for _, later := range f.Entries {
		if later.Pos.Line > e.EndLine {
			rest = fmt.Sprintf("%s=%s at line %d and everything after it in this file are never read",
				later.Key, truncate(later.Value, 40), later.Pos.Line)
			break
		}
	}
	kept := ""
	if keptCmds > 0 {
		kept = fmt.Sprintf("; the commands of this %s= line before the failing one are kept", e.Key)
	}
	return append(out, diag.Diagnostic{
		Severity: diag.Error,
		Code:     "unit-dropin-truncated",
		Pos:      pos,
		Message: fmt.Sprintf("%s: in a drop-in systemd does not refuse the unit for this, it stops reading %s here: %s%s; the unit loads with what came before and with the later drop-ins",
			pe0(err), f.Path, rest, kept),
		Hint: "fix this line; until then the settings below it in this drop-in have no effect",
	})
}

func pe0(err error) string {
	var pe *diag.ParseError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// parseBoolean is parse_boolean (src/basic/parse-util.c).
func parseBoolean(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "1", "yes", "y", "true", "t", "on":
		return true, true
	case "0", "no", "n", "false", "f", "off":
		return false, true
	}
	return false, false
}

// emergencyActions are the SuccessAction= values other than "none" a system unit may use
// (emergency_action_table, src/shared/emergency-action.c, v252).
var emergencyActions = map[string]bool{
	"reboot": true, "reboot-force": true, "reboot-immediate": true,
	"poweroff": true, "poweroff-force": true, "poweroff-immediate": true,
	"exit": true, "exit-force": true, "kexec": true, "kexec-force": true,
	"halt": true, "halt-force": true, "halt-immediate": true,
}

func firstPath(files []*UnitFile) string {
	for _, f := range files {
		if f != nil {
			return f.Path
		}
	}
	return ""
}

// parseEnvironment is config_parse_environ: the value is split into words (quotes and C
// escapes as on command lines), specifiers are resolved in each, and each must be a valid
// NAME=VALUE assignment or it is ignored with a warning. Unbalanced quoting drops the rest.
func parseEnvironment(e UnitEntry, spec map[byte]string, diags *diag.Diagnostics) []EnvAssignment {
	var out []EnvAssignment
	warn := func(off int, msg string) {
		*diags = append(*diags, diag.Diagnostic{Severity: diag.Warning, Code: "unit-environment", Pos: e.PosAt(off), Message: msg})
	}
	s := e.Value
	for p := 0; ; {
		w, ok, err := extractFirstWord(s, p, exUnquote|exCUnescape)
		if err != nil {
			warn(w.start, "Invalid syntax, ignoring: "+s)
			return out
		}
		if !ok {
			return out
		}
		p = w.next
		v, bad, missing := expandSpecifiers(w.value, spec)
		if bad != 0 {
			warn(w.start, fmt.Sprintf("Failed to resolve specifiers in %s, ignoring: unknown specifier %%%c", w.value, bad))
			continue
		}
		for _, m := range missing {
			*diags = append(*diags, diag.Diagnostic{Severity: diag.Warning, Code: "unit-specifier", Pos: e.PosAt(w.start), Message: specifierMissingMsg(m)})
		}
		eq := strings.IndexByte(v, '=')
		if eq < 0 || !envNameIsValid(v[:eq]) || !utf8.ValidString(v[eq+1:]) {
			warn(w.start, "Invalid environment assignment, ignoring: "+v)
			continue
		}
		out = append(out, EnvAssignment{Name: v[:eq], Value: v[eq+1:], Raw: s[w.start:w.end], Pos: e.PosAt(w.start)})
	}
}

// parseEnvFileRef is config_parse_unit_env_file: no unquoting, specifiers resolved in the
// whole value, an optional leading '-', and the path must be absolute.
func parseEnvFileRef(e UnitEntry, spec map[byte]string, diags *diag.Diagnostics) (EnvFileRef, bool) {
	warn := func(msg string) {
		*diags = append(*diags, diag.Diagnostic{Severity: diag.Warning, Code: "unit-environment-file", Pos: e.Pos, Message: msg})
	}
	v, bad, missing := expandSpecifiers(e.Value, spec)
	if bad != 0 {
		warn(fmt.Sprintf("Failed to resolve unit specifiers in '%s', ignoring: unknown specifier %%%c", e.Value, bad))
		return EnvFileRef{}, false
	}
	for _, m := range missing {
		*diags = append(*diags, diag.Diagnostic{Severity: diag.Warning, Code: "unit-specifier", Pos: e.Pos, Message: specifierMissingMsg(m)})
	}
	ref := EnvFileRef{Pos: e.PosAt(0)}
	if strings.HasPrefix(v, "-") {
		ref.Optional = true
		v = v[1:]
	}
	if !strings.HasPrefix(v, "/") {
		warn(fmt.Sprintf("EnvironmentFile= path is not absolute, ignoring: %s", v))
		return EnvFileRef{}, false
	}
	ref.Path = simplifyPath(v)
	return ref, true
}
