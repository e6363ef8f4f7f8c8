package sources

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/yamlalias"
	"github.com/k3sconf/k3sconf/output"
)

// ConfigFile is one config.yaml or drop-in as k3s decodes it.
type ConfigFile struct {
	Path string
	// Entries are the top-level keys in document order, duplicates included, as they appear
	// in the yaml.MapSlice that k3s ranges over. Merge keys ("<<") are not among them:
	// yaml.v2 drops them when it decodes into a MapSlice.
	Entries []ConfigEntry
}

// ConfigEntry is one top-level key: value pair.
type ConfigEntry struct {
	// RawKey is the key as written, quotes and tags included.
	RawKey string
	// Key is ToString of the decoded key with one trailing "+" removed, as k3s
	// pkg/configfilearg/parser.go computes it.
	Key string
	// Value is the Go value yaml.v2 v2.4.0 decodes into an interface{}: nil, bool, int,
	// int64, uint64, float64, string, []any or MapSlice. Timestamps stay strings.
	Value any
	// Raw is the value as written for a scalar; for a collection, its flow text or first line.
	Raw string
	// Type is the YAML 1.1 type yaml.v2 resolved: "null", "bool", "int", "float", "str",
	// "timestamp", "binary", "seq" or "map".
	Type     string
	KeyPos   diag.Position
	ValuePos diag.Position
	// Items has one element per element of Value when Value is a []any, in the same order.
	Items []ConfigItem
	// Append is true when the decoded key ended in "+". (The three flags are last, side by
	// side: a node of 2,000 drop-ins holds 50,000 entries, and apart they took 16 bytes
	// more each.)
	Append bool
	// Quoted is true for a single- or double-quoted scalar.
	Quoted bool
	// SecretCopy is true when the value, or an item of it, is a YAML alias of an anchor set
	// under a secret key (`agent-token: &a x` … `node-name: *a`; the key judged by
	// output.SecretName): a copy of a secret, whatever its text (issue 25).
	SecretCopy bool
}

// ConfigItem is one element of a sequence value.
type ConfigItem struct {
	Value  any
	Raw    string
	Type   string
	Quoted bool
	Pos    diag.Position
}

// Diagnostic codes reported by ParseConfig.
const (
	CodeYAMLMergeKeyDropped = "yaml-merge-key-dropped"
	CodeYAMLExtraDocument   = "yaml-extra-document"
	CodeYAMLAfterFlowRoot   = "yaml-ignored-after-flow"
	CodeYAMLDuplicateKey    = "yaml-duplicate-key"
	CodeYAMLEmptyFlowKey    = "yaml-empty-flow-key"
)

// ParseConfig reads one k3s config file the way k3s does: yaml.Unmarshal from
// gopkg.in/yaml.v2 v2.4.0 into a yaml.MapSlice (k3s pkg/configfilearg/parser.go,
// readConfigFile), with YAML 1.1 typing, while remembering where every key and value was
// written.
//
// yaml.v2 itself is not used: the text is parsed with yaml.v3's node API, which keeps
// positions, and yaml.v2's decoding rules (resolve.go and decode.go of v2.4.0) are applied
// to the nodes. Files of the shape nearly every real config has (plain keys at column 1 with
// one-line scalars or block sequences of them) are read directly by parseFast, which gives
// the same result at a seventh of the cost and declines everything else.
// Anything k3s would refuse to start with is returned as a *diag.ParseError;
// findings that k3s accepts silently are returned as diagnostics.
func ParseConfig(path string, data []byte) (cf *ConfigFile, diags []diag.Diagnostic, err error) {
	text := normalizeEncoding(data)
	if cf, diags, ok := parseFast(path, text); ok {
		return cf, diags, nil
	}
	return parseSlow(path, text)
}

// parseSlow is ParseConfig on the yaml.v3 node path, for every file parseFast declines.
func parseSlow(path string, text []byte) (cf *ConfigFile, diags []diag.Diagnostic, err error) {
	src := newSourceText(text)
	defer func() {
		// Whatever the reason the file is refused, say it in k3s's words: yaml.v2's own
		// message, which is what k3s logs. The position stays the one found here.
		var pe *diag.ParseError
		if err != nil && errors.As(err, &pe) && !strings.HasPrefix(pe.Msg, "yaml: ") {
			if p2 := v2SyntaxError(path, src, text); p2 != nil {
				pe.Msg = p2.Msg
				if pe.Pos.Line == 0 {
					pe.Pos = p2.Pos
				}
			}
		}
	}()
	return parseConfig(path, text, src)
}

func parseConfig(path string, text []byte, src *sourceText) (*ConfigFile, []diag.Diagnostic, error) {
	cf := &ConfigFile{Path: path}

	var first yaml.Node
	var dec *yaml.Decoder
	var err error
	if singleDocument(text) {
		// The common case, parsed from the bytes directly: yaml.v3's reader-based decoder
		// costs a third more (README, Performance). A file with a document marker takes the
		// decoder path, which can look for further documents.
		err = unmarshalNode(text, &first)
		if err == nil && first.Kind == 0 {
			err = io.EOF
		}
	} else {
		dec = yaml.NewDecoder(bytes.NewReader(text))
		err = decodeNode(dec, &first)
	}
	cut := 0
	if err != nil && yamlLineError.MatchString(err.Error()) {
		// yaml.v2 stops reading at the marker that ends the first document, so a syntax
		// error after it does not matter to k3s. yaml.v3 may have looked further ahead
		// (for comments); parse again without the rest.
		perr := syntaxError(path, src, err)
		if end := src.firstDocumentEnd(); end > 0 && perr.Pos.Line > end && dec != nil {
			first = yaml.Node{}
			short := text[:src.starts[end-1]+3]
			dec = yaml.NewDecoder(bytes.NewReader(short))
			err = decodeNode(dec, &first)
			cut = end
		}
	}
	if errors.Is(err, io.EOF) {
		return cf, nil, nil
	}
	if err != nil {
		p3 := syntaxError(path, src, err)
		if p2 := v2SyntaxError(path, src, text); p2 != nil {
			// k3s's words, and the better of the two positions: yaml.v2 numbers scanner
			// errors at the problem; for parser errors and unknown anchors the yaml.v3
			// reading (corrected in syntaxError) points closer.
			if p3.Pos.Line > 0 && (p2.Pos.Line == 0 || isParserProblem(p3.Msg) || unknownAnchor.MatchString("yaml: "+p3.Msg)) {
				p2.Pos = p3.Pos
			}
			return nil, nil, p2
		}
		return nil, nil, p3
	}

	d := &decoder{path: path, src: src, aliases: map[*yaml.Node]bool{}, warned: map[*yaml.Node]bool{}}
	if stop, err := d.emptyCollectionKey(&first); err != nil {
		return nil, nil, err
	} else if stop {
		return cf, d.diags, nil
	}
	if err := d.run(func() { cf.Entries = d.document(&first) }); err != nil {
		return nil, nil, err
	}
	d.duplicates(cf.Entries)
	if !d.afterFlowRoot(&first) && dec != nil {
		d.extraDocument(dec, cut)
	}
	return cf, d.diags, nil
}

// emptyCollectionKey reproduces a yaml.v2 scanner quirk: an empty flow collection ("[]",
// "{}") written as an implicit key is not taken as a key. As the first key of the top-level
// mapping it becomes the whole document, and yaml.v2 stops reading there (stop is true: no
// entries); anywhere else that needs an implicit key it is a syntax error. yaml.v3 reads
// such keys normally, so the nodes are searched for them.
func (d *decoder) emptyCollectionKey(doc *yaml.Node) (stop bool, err error) {
	var parent, key *yaml.Node
	var index int
	var inSeq bool
	var walk func(n *yaml.Node, seqItem bool) bool
	walk = func(n *yaml.Node, seqItem bool) bool {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				if walk(c, n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0) {
					return true
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if (k.Kind == yaml.SequenceNode || k.Kind == yaml.MappingNode) && len(k.Content) == 0 &&
					k.Style&yaml.FlowStyle != 0 && k.Style&yaml.TaggedStyle == 0 && k.Anchor == "" &&
					!d.src.explicitKey(k.Line, k.Column) &&
					!(n.Style&yaml.FlowStyle != 0 && n.Line == k.Line && n.Column == k.Column) {
					parent, key, index, inSeq = n, k, i, seqItem
					return true
				}
				if walk(k, false) || walk(n.Content[i+1], false) {
					return true
				}
			}
		}
		return false
	}
	if !walk(doc, false) {
		return false, nil
	}
	msg := "did not find expected key"
	switch {
	case len(doc.Content) == 1 && parent == doc.Content[0] && index == 0 && parent.Style&yaml.FlowStyle == 0:
		d.diags = append(d.diags, diag.Diagnostic{
			Severity: diag.Warning,
			Code:     CodeYAMLEmptyFlowKey,
			Pos:      d.pos(key),
			Message:  "k3s's YAML parser (yaml.v2) does not read an empty " + d.src.raw(key) + " as a key: it takes it as the whole document and ignores the rest of the file",
			Hint:     "quote the key, or remove it",
		})
		return true, nil
	case parent.Style&yaml.FlowStyle != 0:
		msg = "did not find expected ',' or '}'"
	case inSeq && index == 0:
		msg = "did not find expected '-' indicator"
	}
	return false, &diag.ParseError{Pos: d.pos(key), Msg: msg}
}

// decodeNode reads the next document, turning a panic inside yaml.v3 into an error so that
// no input can crash the caller.
// singleDocument reports whether the text has no line starting with a document marker
// ("---" or "..."), so it holds one document at most.
func singleDocument(text []byte) bool {
	if bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("...")) {
		return false
	}
	return !bytes.Contains(text, []byte("\n---")) && !bytes.Contains(text, []byte("\n...")) &&
		!bytes.Contains(text, []byte("\r---")) && !bytes.Contains(text, []byte("\r..."))
}

// unmarshalNode is yaml.Unmarshal into a node, with the same panic guard as decodeNode.
func unmarshalNode(text []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal error in the YAML parser: %v", r)
		}
	}()
	return yaml.Unmarshal(text, n)
}

func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal error in the YAML parser: %v", r)
		}
	}()
	return dec.Decode(n)
}

// normalizeEncoding returns the input as UTF-8 without a byte order mark. libyaml (in both
// yaml.v2 and yaml.v3) accepts UTF-16 with a BOM and skips a UTF-8 BOM; converting first
// keeps the positions of the nodes in step with the text used for Raw.
func normalizeEncoding(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return data[3:]
	case len(data)%2 == 0 && (bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff"))):
		little := data[0] == 0xff
		u := make([]uint16, 0, len(data)/2-1)
		for i := 2; i < len(data); i += 2 {
			if little {
				u = append(u, uint16(data[i])|uint16(data[i+1])<<8)
			} else {
				u = append(u, uint16(data[i])<<8|uint16(data[i+1]))
			}
		}
		return []byte(string(utf16.Decode(u)))
	}
	return data
}

var yamlLineError = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the messages of libyaml's parser (parserc.go); every other positioned
// message comes from its scanner.
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

func isParserProblem(msg string) bool {
	for _, p := range parserProblems {
		if msg == p {
			return true
		}
	}
	return false
}

var unknownAnchor = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)

// syntaxError turns a yaml.v3 parse error into a ParseError.
//
// The message is the same in yaml.v2 and yaml.v3 (both are ports of libyaml); only the line
// number they print differs in some cases. libyaml counts lines from 0 and the Go ports add
// 1 only for scanner errors, so a parser error's "line N" means line N+1, and no line at
// all means the first line. yaml.v3 reports no column: the position gets the first non-blank
// column of the line.
func syntaxError(path string, src *sourceText, err error) *diag.ParseError {
	msg := err.Error()
	pos := diag.Position{File: path}
	switch m := yamlLineError.FindStringSubmatch(msg); {
	case m != nil:
		line, _ := strconv.Atoi(m[1])
		msg = m[2]
		if isParserProblem(msg) {
			line++
		}
		pos.Line = line
	case unknownAnchor.MatchString(msg):
		pos.Line, pos.Column = src.find(regexp.MustCompile(`\*` + regexp.QuoteMeta(unknownAnchor.FindStringSubmatch(msg)[1]) + `([\s,\]}]|$)`))
		msg = strings.TrimPrefix(msg, "yaml: ")
	default:
		msg = strings.TrimPrefix(msg, "yaml: ")
		if l, c := src.badCharacter(); l > 0 {
			pos.Line, pos.Column = l, c
		} else if !strings.HasPrefix(msg, "internal error") {
			pos.Line = 1
		}
	}
	if pos.Line > len(src.starts) {
		pos.Line = len(src.starts)
	}
	if pos.Line > 0 && pos.Column == 0 {
		pos.Column = src.firstNonBlank(pos.Line)
	}
	return &diag.ParseError{Pos: pos, Msg: msg, Err: err}
}

// yaml.v2's long tag names (yamlh.go).
const (
	tagNull      = "tag:yaml.org,2002:null"
	tagBool      = "tag:yaml.org,2002:bool"
	tagStr       = "tag:yaml.org,2002:str"
	tagInt       = "tag:yaml.org,2002:int"
	tagFloat     = "tag:yaml.org,2002:float"
	tagTimestamp = "tag:yaml.org,2002:timestamp"
	tagSeq       = "tag:yaml.org,2002:seq"
	tagMap       = "tag:yaml.org,2002:map"
	tagBinary    = "tag:yaml.org,2002:binary"
	tagMerge     = "tag:yaml.org,2002:merge"

	longTagPrefix = "tag:yaml.org,2002:"
)

func shortTag(tag string) string {
	if strings.HasPrefix(tag, longTagPrefix) {
		return "!!" + tag[len(longTagPrefix):]
	}
	return tag
}

func longTag(tag string) string {
	if strings.HasPrefix(tag, "!!") {
		return longTagPrefix + tag[2:]
	}
	return tag
}

// typeName is the short name of a resolved tag as ConfigEntry.Type reports it. A value
// with an application tag (!foo) decodes to a string.
func typeName(tag string) string {
	switch tag {
	case tagNull, tagBool, tagInt, tagFloat, tagStr, tagTimestamp, tagBinary, tagSeq, tagMap:
		return tag[len(longTagPrefix):]
	}
	return "str"
}

// resolveKind is yaml.v2's resolveTable: the first byte of a plain scalar says what it may
// be ('S' sign, 'D' digit, 'M' in the map of special words, '.' float or special).
func resolveKind(c byte) byte {
	switch {
	case c == '+' || c == '-':
		return 'S'
	case c >= '0' && c <= '9':
		return 'D'
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return 'M'
	case c == '.':
		return '.'
	}
	return 0
}

type resolved struct {
	tag   string
	value any
}

// resolveWords is yaml.v2's resolveMap (resolve.go init).
var resolveWords = func() map[string]resolved {
	m := map[string]resolved{}
	add := func(v any, tag string, words ...string) {
		for _, w := range words {
			m[w] = resolved{tag, v}
		}
	}
	add(true, tagBool, "y", "Y", "yes", "Yes", "YES")
	add(true, tagBool, "true", "True", "TRUE")
	add(true, tagBool, "on", "On", "ON")
	add(false, tagBool, "n", "N", "no", "No", "NO")
	add(false, tagBool, "false", "False", "FALSE")
	add(false, tagBool, "off", "Off", "OFF")
	add(nil, tagNull, "", "~", "null", "Null", "NULL")
	add(math.NaN(), tagFloat, ".nan", ".NaN", ".NAN")
	add(math.Inf(+1), tagFloat, ".inf", ".Inf", ".INF")
	add(math.Inf(+1), tagFloat, "+.inf", "+.Inf", "+.INF")
	add(math.Inf(-1), tagFloat, "-.inf", "-.Inf", "-.INF")
	add("<<", tagMerge, "<<")
	return m
}()

// maxResolveWord is the length of the longest word in resolveWords
// (TestMaxResolveWord checks it).
const maxResolveWord = 5

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// resolveScalar is yaml.v2 v2.4.0's resolve (resolve.go): the type and Go value of a scalar
// given its explicit tag ("" for none). It fails the way yaml.v2 does when an explicit tag
// does not fit the text ("cannot decode !!str `x` as a !!int").
func resolveScalar(tag, in string) (rtag string, out any, err error) {
	switch tag {
	case "", tagStr, tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
	default:
		// Not resolvable: !!binary, !!seq, !!map, application tags. The text is the value.
		return tag, in, nil
	}
	rtag, out = resolvePlain(tag, in)
	switch tag {
	case "", rtag, tagStr, tagBinary:
		return rtag, out, nil
	case tagFloat:
		if rtag == tagInt {
			switch v := out.(type) {
			case int64:
				return tagFloat, float64(v), nil
			case int:
				return tagFloat, float64(v), nil
			}
		}
	}
	return "", nil, fmt.Errorf("cannot decode %s `%s` as a %s", shortTag(rtag), in, shortTag(tag))
}

func resolvePlain(tag, in string) (string, any) {
	hint := byte('N')
	if in != "" {
		hint = resolveKind(in[0])
	}
	if hint == 0 || tag == tagStr || tag == tagBinary {
		return tagStr, in
	}
	// No word in resolveWords is longer than five bytes ("false", "+.inf"); most values
	// and keys are, and need no lookup.
	if len(in) <= maxResolveWord {
		if item, ok := resolveWords[in]; ok {
			return item.tag, item.value
		}
	}
	switch hint {
	case '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return tagFloat, f
		}
	case 'D', 'S':
		// Only unquoted (or !!timestamp) values are tried as timestamps.
		if tag == "" || tag == tagTimestamp {
			if _, ok := parseTimestamp(in); ok {
				return tagTimestamp, in
			}
		}
		plain := strings.ReplaceAll(in, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return tagInt, intValue(i)
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return tagInt, u
		}
		if yamlStyleFloat.MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return tagFloat, f
			}
		}
		if strings.HasPrefix(plain, "0b") {
			if i, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
				return tagInt, intValue(i)
			}
			if u, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
				return tagInt, u
			}
		} else if strings.HasPrefix(plain, "-0b") {
			if i, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
				return tagInt, int(i)
			}
		}
	}
	return tagStr, in
}

// intValue is int when the value fits (always, on 64-bit platforms), else int64, as yaml.v2
// decides.
func intValue(i int64) any {
	if i == int64(int(i)) {
		return int(i)
	}
	return i
}

// The timestamp layouts yaml.v2 v2.4.0 accepts (resolve.go allowedTimestampFormats).
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func parseTimestamp(s string) (time.Time, bool) {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return time.Time{}, false
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// decodeFailure carries a fatal decoding error through the recursive walk, as yaml.v2's
// failf does.
type decodeFailure struct{ err *diag.ParseError }

// decoder walks yaml.v3 nodes with yaml.v2's decoding rules for a yaml.MapSlice target.
type decoder struct {
	path  string
	src   *sourceText
	diags []diag.Diagnostic

	// yaml.v2's alias accounting (decode.go), so that the same documents are refused.
	budget  yamlalias.Budget
	aliases map[*yaml.Node]bool
	// warned keeps one merge-key warning per node, however often an alias repeats it.
	warned map[*yaml.Node]bool
	// secretAnchors are the anchors set under secret keys (yamlalias.SecretAnchors).
	secretAnchors map[*yaml.Node]bool
	// typeErrors are yaml.v2's non-fatal "cannot unmarshal" errors; any of them fails the
	// whole Unmarshal.
	typeErrors []*diag.ParseError
}

func (d *decoder) run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			df, ok := r.(decodeFailure)
			if !ok {
				panic(r)
			}
			err = df.err
		}
	}()
	f()
	if len(d.typeErrors) > 0 {
		first := d.typeErrors[0]
		if n := len(d.typeErrors) - 1; n > 0 {
			first.Msg += fmt.Sprintf(" (and %d more unmarshal errors)", n)
		}
		return first
	}
	return nil
}

func (d *decoder) pos(n *yaml.Node) diag.Position {
	return diag.Position{File: d.path, Line: n.Line, Column: n.Column}
}

func (d *decoder) fail(n *yaml.Node, format string, args ...any) {
	panic(decodeFailure{&diag.ParseError{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)}})
}

// count does yaml.v2's bookkeeping at the start of every unmarshal call.
func (d *decoder) count(n *yaml.Node) {
	if d.budget.Step() {
		d.fail(n, yamlalias.Excessive)
	}
}

// value is a decoded node: its Go value and resolved type.
type value struct {
	v   any
	typ string
}

// unmarshal decodes a node into an interface{} as yaml.v2 does with a MapSlice map type.
func (d *decoder) unmarshal(n *yaml.Node) value {
	d.count(n)
	switch n.Kind {
	case yaml.AliasNode:
		return d.alias(n, d.unmarshal)
	case yaml.ScalarNode:
		return d.scalar(n)
	case yaml.MappingNode:
		return value{d.mapping(n), "map"}
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			l = append(l, d.unmarshal(c).v)
		}
		return value{l, "seq"}
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return d.unmarshal(n.Content[0])
		}
		return value{nil, "null"}
	}
	return value{nil, "null"}
}

func (d *decoder) alias(n *yaml.Node, then func(*yaml.Node) value) value {
	if d.aliases[n] {
		d.fail(n, "anchor '%s' value contains itself", n.Value)
	}
	if n.Alias == nil {
		d.fail(n, "unknown anchor '%s' referenced", n.Value)
	}
	d.aliases[n] = true
	d.budget.Enter()
	v := then(n.Alias)
	d.budget.Leave()
	delete(d.aliases, n)
	return v
}

// v2Tag is the tag yaml.v2 sees on a node, in long form: "" when none was written, "!" for
// the non-specific tag (which yaml.v3 does not record), else the explicit tag.
func (d *decoder) v2Tag(n *yaml.Node) string {
	if n.Style&yaml.TaggedStyle != 0 {
		return longTag(n.Tag)
	}
	if d.src.nonSpecificTag(n.Line, n.Column) {
		return "!"
	}
	return ""
}

// implicit is libyaml's plain_implicit for a scalar event, which yaml.v2 keeps as
// node.implicit: an untagged plain scalar, or any scalar with the "!" tag.
func (d *decoder) implicit(n *yaml.Node, tag string) bool {
	return tag == "!" || tag == "" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// resolve types a scalar node as yaml.v2's decoder.scalar does; timestamps stay strings.
func (d *decoder) resolve(n *yaml.Node) (tag string, out any) {
	tag = d.v2Tag(n)
	if tag == "" && !d.implicit(n, tag) {
		return tagStr, n.Value
	}
	rtag, out, err := resolveScalar(tag, n.Value)
	if err != nil {
		d.fail(n, "%s", err)
	}
	if rtag == tagBinary {
		b, err := base64.StdEncoding.DecodeString(n.Value)
		if err != nil {
			d.fail(n, "!!binary value contains invalid base64 data")
		}
		return tagBinary, string(b)
	}
	return rtag, out
}

func (d *decoder) scalar(n *yaml.Node) value {
	tag, out := d.resolve(n)
	if out == nil {
		return value{nil, "null"}
	}
	if tag == tagTimestamp {
		// yaml.v2 keeps a timestamp as its text when decoding into interface{}.
		return value{n.Value, "timestamp"}
	}
	return value{out, typeName(tag)}
}

// isMerge is yaml.v2's isMerge: a "<<" scalar that is plain (implicit) or tagged !!merge.
func (d *decoder) isMerge(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Value != "<<" {
		return false
	}
	tag := d.v2Tag(n)
	return d.implicit(n, tag) || tag == tagMerge
}

// mapping is yaml.v2's mappingSlice. Merge keys are decoded (so their errors still fail)
// and then lost, because yaml.v2 overwrites the slice the merge wrote into.
func (d *decoder) mapping(n *yaml.Node) MapSlice {
	var out MapSlice
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if d.isMerge(k) {
			d.dropMerge(k, v)
			continue
		}
		kv := d.unmarshal(k)
		vv := d.unmarshal(v)
		out = append(out, MapItem{Key: kv.v, Value: vv.v})
	}
	return out
}

func (d *decoder) dropMerge(k, v *yaml.Node) {
	if !d.warned[k] {
		d.warned[k] = true
		d.diags = append(d.diags, diag.Diagnostic{
			Severity: diag.Warning,
			Code:     CodeYAMLMergeKeyDropped,
			Pos:      d.pos(k),
			Message:  "merge key \"<<\" is ignored: k3s decodes config files with yaml.v2 into an ordered map, which drops merged keys",
			Hint:     "write the keys out instead of merging them with <<",
		})
	}
	d.merge(v)
}

// merge is yaml.v2's decoder.merge, for its errors and its alias accounting.
func (d *decoder) merge(n *yaml.Node) {
	const wantMap = "map merge requires map or sequence of maps as the value"
	switch n.Kind {
	case yaml.MappingNode:
		d.unmarshal(n)
	case yaml.AliasNode:
		if n.Alias != nil && n.Alias.Kind != yaml.MappingNode {
			d.fail(n, wantMap)
		}
		d.unmarshal(n)
	case yaml.SequenceNode:
		for i := len(n.Content) - 1; i >= 0; i-- {
			c := n.Content[i]
			if c.Kind == yaml.AliasNode {
				if c.Alias != nil && c.Alias.Kind != yaml.MappingNode {
					d.fail(c, wantMap)
				}
			} else if c.Kind != yaml.MappingNode {
				d.fail(c, wantMap)
			}
			d.unmarshal(c)
		}
	default:
		d.fail(n, wantMap)
	}
}

// document decodes the first document into top-level entries.
func (d *decoder) document(doc *yaml.Node) []ConfigEntry {
	d.count(doc) // yaml.v2 counts the document node too
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	root := doc.Content[0]
	d.count(root)
	switch root.Kind {
	case yaml.MappingNode:
		d.secretAnchors = yamlalias.SecretAnchors(root, output.SecretName)
		return d.topLevel(root)
	case yaml.SequenceNode:
		return d.topLevelSequence(root)
	case yaml.ScalarNode:
		tag, out := d.resolve(root)
		if out == nil {
			return nil // a null document is an empty MapSlice
		}
		d.typeError(root, tag, "yaml.MapSlice")
	}
	return nil
}

// typeError records yaml.v2's "cannot unmarshal" error (decoder.terror).
func (d *decoder) typeError(n *yaml.Node, tag, into string) {
	if t := d.v2Tag(n); t != "" {
		tag = t
	}
	v := ""
	if tag != tagSeq && tag != tagMap {
		v = n.Value
		if len(v) > 10 {
			v = v[:7] + "..."
		}
		v = " `" + v + "`"
	}
	d.typeErrors = append(d.typeErrors, &diag.ParseError{
		Pos: d.pos(n),
		Msg: fmt.Sprintf("cannot unmarshal %s%s into %s", shortTag(tag), v, into),
	})
}

// topLevelSequence is what yaml.v2 does with a sequence for a MapSlice target: it decodes
// each element into a MapItem struct. An empty sequence is an empty config; a null element
// becomes an entry with a nil key; other scalars and sequences are unmarshal errors; a
// mapping fills the struct fields "key" and "value".
func (d *decoder) topLevelSequence(root *yaml.Node) []ConfigEntry {
	var entries []ConfigEntry
	for _, c := range root.Content {
		d.count(c)
		n := c
		if n.Kind == yaml.AliasNode {
			n = d.deref(n)
		}
		switch n.Kind {
		case yaml.ScalarNode:
			tag, out := d.resolve(n)
			if out != nil {
				d.typeError(n, tag, "yaml.MapItem")
				continue
			}
			entries = append(entries, ConfigEntry{RawKey: d.src.raw(c), Type: "null", KeyPos: d.pos(c), ValuePos: d.pos(c)})
		case yaml.SequenceNode:
			d.typeError(n, tagSeq, "yaml.MapItem")
		case yaml.MappingNode:
			var e ConfigEntry
			e.KeyPos, e.ValuePos, e.Type = d.pos(c), d.pos(c), "null"
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if d.isMerge(k) {
					d.dropMerge(k, v)
					continue
				}
				d.count(k)
				if k.Kind != yaml.ScalarNode {
					d.typeError(k, "tag:yaml.org,2002:"+kindName(k), "string")
					continue
				}
				switch k.Value {
				case "key":
					kv := d.unmarshal(v)
					e.RawKey, e.KeyPos = d.src.raw(v), d.pos(v)
					e.Key = ToString(kv.v)
				case "value":
					d.fillValue(&e, v)
				}
			}
			e.Append = strings.HasSuffix(e.Key, "+")
			e.Key = strings.TrimSuffix(e.Key, "+")
			entries = append(entries, e)
		}
	}
	return entries
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "seq"
	case yaml.MappingNode:
		return "map"
	}
	return "str"
}

// deref follows aliases to the node they name.
func (d *decoder) deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// topLevel decodes the root mapping into entries, as mappingSlice does.
func (d *decoder) topLevel(root *yaml.Node) []ConfigEntry {
	entries := make([]ConfigEntry, 0, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if d.isMerge(k) {
			d.dropMerge(k, v)
			continue
		}
		kv := d.unmarshal(k)
		key := ToString(kv.v)
		e := ConfigEntry{
			RawKey: d.src.raw(k),
			Key:    strings.TrimSuffix(key, "+"),
			Append: strings.HasSuffix(key, "+"),
			KeyPos: d.pos(k),
		}
		d.fillValue(&e, v)
		entries = append(entries, e)
	}
	return entries
}

// fillValue decodes a value node into the entry, with its source text and, for a
// sequence, one item per element.
func (d *decoder) fillValue(e *ConfigEntry, v *yaml.Node) {
	vv := d.unmarshal(v)
	t := d.deref(v)
	e.Value, e.Type = vv.v, vv.typ
	e.Raw = d.src.raw(v)
	e.Quoted = t.Kind == yaml.ScalarNode && t.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0
	e.ValuePos = d.pos(v)
	e.SecretCopy = yamlalias.CopiesSecret(v, d.secretAnchors)
	e.Items = nil
	if l, ok := vv.v.([]any); ok && t.Kind == yaml.SequenceNode && len(l) == len(t.Content) {
		e.Items = make([]ConfigItem, len(l))
		for i, c := range t.Content {
			ct := d.deref(c)
			e.Items[i] = ConfigItem{
				Value:  l[i],
				Raw:    d.src.raw(c),
				Type:   d.typeOf(ct, l[i]),
				Quoted: ct.Kind == yaml.ScalarNode && ct.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0,
				Pos:    d.pos(c),
			}
		}
	}
}

// typeOf names the type of an already decoded element without decoding it again.
func (d *decoder) typeOf(n *yaml.Node, v any) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "seq"
	case yaml.MappingNode:
		return "map"
	}
	if v == nil {
		return "null"
	}
	tag := d.v2Tag(n)
	if tag == "" && !d.implicit(n, tag) {
		return "str"
	}
	rtag, _, err := resolveScalar(tag, n.Value)
	if err != nil {
		return "str"
	}
	return typeName(rtag)
}

// duplicates reports top-level keys that replace an earlier value in the same file.
func (d *decoder) duplicates(entries []ConfigEntry) {
	// A file of a few dozen keys is searched, not hashed: a map per file cost more than
	// the comparisons, thousands of files per node. Larger files get a map, sized once.
	var first map[string]int
	if len(entries) > 64 {
		first = make(map[string]int, len(entries))
	}
	for i, e := range entries {
		j, seen := 0, false
		if first != nil {
			if j, seen = first[e.Key]; !seen {
				first[e.Key] = i
			}
		} else {
			for j = 0; j < i; j++ {
				if entries[j].Key == e.Key {
					seen = true
					break
				}
			}
		}
		if !seen {
			continue
		}
		if e.Append {
			continue
		}
		d.diags = append(d.diags, diag.Diagnostic{
			Severity: diag.Info,
			Code:     CodeYAMLDuplicateKey,
			Pos:      e.KeyPos,
			Key:      e.Key,
			Message: fmt.Sprintf("key %q on line %d is also set on line %d; k3s reads both in order and the later value replaces the earlier one",
				e.RawKey, e.KeyPos.Line, entries[j].KeyPos.Line),
			Hint: fmt.Sprintf("remove one of them, or write %q to add to the earlier value", e.Key+"+"),
		})
	}
}

// afterFlowRoot warns when the document is a flow collection ("{}" or "[...]") followed by
// more text: yaml.v2 ends the document with the collection and never reads the rest, so
// the keys after it are silently lost. Ansible's to_nice_yaml of an empty dict writes "{}",
// and later tasks that append keys to the file produce exactly this.
func (d *decoder) afterFlowRoot(doc *yaml.Node) bool {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return false
	}
	root := doc.Content[0]
	if (root.Kind != yaml.MappingNode && root.Kind != yaml.SequenceNode) || root.Style&yaml.FlowStyle == 0 {
		return false
	}
	last := maxLine(root)
	for l := last + 1; l <= len(d.src.starts); l++ {
		t := strings.TrimSpace(d.src.line(l))
		if t == "" || strings.HasPrefix(t, "#") || strings.Trim(t, "}], ") == "" {
			continue
		}
		if t == "---" || t == "..." || strings.HasPrefix(t, "--- ") {
			return false
		}
		d.diags = append(d.diags, diag.Diagnostic{
			Severity: diag.Error,
			Code:     CodeYAMLAfterFlowRoot,
			Pos:      diag.Position{File: d.path, Line: l, Column: d.src.firstNonBlank(l)},
			Message:  fmt.Sprintf("the document is the flow collection on line %d; k3s's YAML parser stops there, so everything from line %d on is ignored", root.Line, l),
			Hint:     fmt.Sprintf("delete the %q on line %d (an empty mapping written by a template) so the keys below it are read", strings.TrimSpace(d.src.line(root.Line)), root.Line),
		})
		return true
	}
	return false
}

func maxLine(n *yaml.Node) int {
	m := n.Line
	for _, c := range n.Content {
		if l := maxLine(c); l > m {
			m = l
		}
	}
	return m
}

// extraDocument warns about further documents, which yaml.v2's Unmarshal never reads. cut
// is the line where the text was cut off after the first document, if it was.
func (d *decoder) extraDocument(dec *yaml.Decoder, cut int) {
	line := cut
	for line == 0 {
		var next yaml.Node
		err := decodeNode(dec, &next)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			line = d.src.firstDocumentEnd()
			break
		}
		if len(next.Content) == 1 && next.Content[0].Kind == yaml.ScalarNode && next.Content[0].Tag == "!!null" && next.Content[0].Value == "" {
			continue // an empty document ("---" at the end) holds nothing to ignore
		}
		line = d.src.firstDocumentEnd()
		if line == 0 {
			line = next.Line
		}
	}
	if line == 0 {
		return
	}
	d.diags = append(d.diags, diag.Diagnostic{
		Severity: diag.Warning,
		Code:     CodeYAMLExtraDocument,
		Pos:      diag.Position{File: d.path, Line: line, Column: 1},
		Message:  fmt.Sprintf("k3s reads only the first document; the keys below line %d are ignored", line),
		Hint:     "merge the documents into one, or move the rest into a drop-in file under config.yaml.d/",
	})
}

// sourceText indexes the text by line, as libyaml counts lines (CR, LF, CRLF, NEL, LS, PS)
// and columns (in characters).
type sourceText struct {
	text   string
	starts []int // byte offset of each line
}

func newSourceText(b []byte) *sourceText {
	s := &sourceText{text: string(b), starts: []int{0}}
	t := s.text
	for i := 0; i < len(t); {
		switch {
		case t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n':
			i += 2
		case t[i] == '\r' || t[i] == '\n':
			i++
		case strings.HasPrefix(t[i:], "\u0085"), strings.HasPrefix(t[i:], "\u2028"), strings.HasPrefix(t[i:], "\u2029"):
			_, w := utf8.DecodeRuneInString(t[i:])
			i += w
		default:
			i++
			continue
		}
		s.starts = append(s.starts, i)
	}
	return s
}

// line returns the text of a 1-based line without its line break.
func (s *sourceText) line(n int) string {
	if n < 1 || n > len(s.starts) {
		return ""
	}
	end := len(s.text)
	if n < len(s.starts) {
		end = s.starts[n]
	}
	l := s.text[s.starts[n-1]:end]
	for _, br := range []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"} {
		if strings.HasSuffix(l, br) {
			return l[:len(l)-len(br)]
		}
	}
	return l
}

// offset returns the byte offset of a 1-based line and character column, or -1.
func (s *sourceText) offset(line, col int) int {
	if line < 1 || line > len(s.starts) || col < 1 {
		return -1
	}
	l := s.line(line)
	off := 0
	for c := 1; c < col; c++ {
		if off >= len(l) {
			return -1
		}
		_, w := utf8.DecodeRuneInString(l[off:])
		off += w
	}
	return s.starts[line-1] + off
}

func (s *sourceText) firstNonBlank(line int) int {
	l := s.line(line)
	col := 1
	for _, r := range l {
		if r != ' ' && r != '\t' {
			return col
		}
		col++
	}
	if l == "" {
		return 0
	}
	return 1
}

// skipProperties skips an anchor and a tag (in any order) and the blanks after them.
func skipProperties(t string) (rest string, tagged bool) {
	for range 2 {
		if t == "" || (t[0] != '&' && t[0] != '!') {
			break
		}
		if t[0] == '!' {
			tagged = true
		}
		i := strings.IndexAny(t, " \t\r\n")
		if i < 0 {
			return "", tagged
		}
		t = strings.TrimLeft(t[i:], " \t")
	}
	return t, tagged
}

// nonSpecificTag reports whether the node at line:col is written with the tag "!" alone,
// which yaml.v3 drops but yaml.v2 keeps (it makes the scalar a string).
func (s *sourceText) nonSpecificTag(line, col int) bool {
	off := s.offset(line, col)
	if off < 0 {
		return false
	}
	t := s.text[off:]
	for range 2 {
		switch {
		case strings.HasPrefix(t, "&"):
			i := strings.IndexAny(t, " \t\r\n")
			if i < 0 {
				return false
			}
			t = strings.TrimLeft(t[i:], " \t")
		case t == "!" || strings.HasPrefix(t, "! ") || strings.HasPrefix(t, "!\t") ||
			strings.HasPrefix(t, "!\n") || strings.HasPrefix(t, "!\r"):
			return true
		default:
			return false
		}
	}
	return false
}

// raw returns the source text of a node: a scalar as written (quotes and properties
// included, a block scalar with its content), a flow collection up to its closing bracket,
// and a block collection's first line.
func (s *sourceText) raw(n *yaml.Node) string {
	off := s.offset(n.Line, n.Column)
	if off < 0 {
		return n.Value
	}
	t := s.text[off:]
	if n.Kind == yaml.AliasNode {
		return "*" + n.Value
	}
	body, _ := skipProperties(t)
	prefix := strings.TrimRight(t[:len(t)-len(body)], " \t")
	if body == "" || body[0] == '\n' || body[0] == '\r' {
		// The properties end the line; the value starts on a later one.
		return prefix
	}
	join := func(s string) string {
		if prefix == "" {
			return s
		}
		return prefix + " " + s
	}
	if n.Kind == yaml.ScalarNode {
		switch {
		case n.Style&yaml.DoubleQuotedStyle != 0:
			return join(scanQuoted(body, '"'))
		case n.Style&yaml.SingleQuotedStyle != 0:
			return join(scanQuoted(body, '\''))
		case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
			return join(s.blockScalar(n.Line, body))
		}
		if strings.HasPrefix(body, n.Value) {
			return join(n.Value)
		}
		return join(firstLine(body))
	}
	if n.Style&yaml.FlowStyle != 0 {
		return join(scanFlow(body))
	}
	return join(firstLine(body))
}

func firstLine(t string) string {
	if i := strings.IndexAny(t, "\r\n"); i >= 0 {
		t = t[:i]
	}
	for i := 1; i < len(t); i++ {
		if t[i] == '#' && (t[i-1] == ' ' || t[i-1] == '\t') {
			t = t[:i]
			break
		}
	}
	return strings.TrimRight(t, " \t")
}

func scanQuoted(t string, q byte) string {
	for i := 1; i < len(t); i++ {
		switch {
		case q == '"' && t[i] == '\\':
			i++
		case t[i] == q && q == '\'' && i+1 < len(t) && t[i+1] == '\'':
			i++
		case t[i] == q:
			return t[:i+1]
		}
	}
	return t
}

func scanFlow(t string) string {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return t[:i+1]
			}
		case '"', '\'':
			i += len(scanQuoted(t[i:], c)) - 1
		case '#':
			if i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
				if j := strings.IndexAny(t[i:], "\r\n"); j >= 0 {
					i += j
				} else {
					return t
				}
			}
		}
	}
	return t
}

// blockScalar returns a literal or folded scalar's header and content lines.
func (s *sourceText) blockScalar(line int, body string) string {
	lines := []string{firstLine(body)}
	indent := -1
	for l := line + 1; l <= len(s.starts); l++ {
		text := s.line(l)
		trimmed := strings.TrimLeft(text, " ")
		if strings.TrimSpace(text) == "" {
			lines = append(lines, text)
			continue
		}
		ind := len(text) - len(trimmed)
		if indent < 0 {
			indent = ind
		}
		if ind < indent || ind == 0 {
			break
		}
		lines = append(lines, text)
	}
	for len(lines) > 1 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// firstDocumentEnd returns the line of the "---" or "..." marker that ends the first
// document, or 0. A marker starts at column 1 and is followed by a blank or the line end.
func (s *sourceText) firstDocumentEnd() int {
	marker := func(t, m string) bool {
		return t == m || strings.HasPrefix(t, m+" ") || strings.HasPrefix(t, m+"\t")
	}
	started := false
	for l := 1; l <= len(s.starts); l++ {
		t := s.line(l)
		switch {
		case marker(t, "---"):
			if started {
				return l
			}
			started = true
		case marker(t, "..."):
			if started {
				return l
			}
		case strings.TrimSpace(t) == "", strings.HasPrefix(strings.TrimLeft(t, " \t"), "#"):
		case !started && strings.HasPrefix(t, "%"):
		default:
			started = true
		}
	}
	return 0
}

// explicitKey reports whether the node at line:col follows a "?" explicit-key indicator.
func (s *sourceText) explicitKey(line, col int) bool {
	off := s.offset(line, col)
	if off < 0 {
		return false
	}
	before := strings.TrimRight(s.text[s.starts[line-1]:off], " \t")
	return strings.HasSuffix(before, "?")
}

// find returns the line and column of the first match of re, or zeros.
func (s *sourceText) find(re *regexp.Regexp) (line, col int) {
	loc := re.FindStringIndex(s.text)
	if loc == nil {
		return 0, 0
	}
	return s.lineCol(loc[0])
}

func (s *sourceText) lineCol(off int) (line, col int) {
	line = 1
	for line < len(s.starts) && s.starts[line] <= off {
		line++
	}
	return line, utf8.RuneCountInString(s.text[s.starts[line-1]:off]) + 1
}

// badCharacter finds the first byte libyaml's reader refuses: invalid UTF-8 or a control
// character outside tab, LF, CR and NEL.
func (s *sourceText) badCharacter() (line, col int) {
	for i := 0; i < len(s.text); {
		r, w := utf8.DecodeRuneInString(s.text[i:])
		ok := r != utf8.RuneError || w > 1
		if ok {
			ok = r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0x7E) || r == 0x85 ||
				(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
		}
		if !ok {
			return s.lineCol(i)
		}
		i += w
	}
	return 0, 0
}
