package nodereport

import (
	"bufio"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/k3sconf/k3sconf/internal/noderecord"
	"github.com/k3sconf/k3sconf/internal/reasonhook"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// WriteJSON writes the document compactly, byte for byte what encoding/json writes with
// SetEscapeHTML(false), followed by a newline. It exists for speed: a node with thousands
// of drop-ins has tens of thousands of history entries, and reflection-based encoding cost
// a fifth of `show --json` (README, Performance). TestWriteJSONMatchesEncodingJSON keeps the
// two identical.
func WriteJSON(w io.Writer, d *Document) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	j := jsonWriter{w: bw}
	j.raw(`{"schemaVersion":`)
	j.int(int64(d.SchemaVersion))
	j.field(`,"product":`, d.Product)
	j.field(`,"command":`, d.Command)
	j.field(`,"document":`, d.Document)
	if d.Subcommand != "" {
		j.field(`,"subcommand":`, d.Subcommand)
	}
	j.field(`,"version":`, d.Version)
	j.field(`,"cli":`, d.CLI)
	if d.Unit != "" {
		j.field(`,"unit":`, d.Unit)
	}
	if d.Config != nil {
		j.raw(`,"config":{"path":`)
		j.str(d.Config.Path)
		j.field(`,"why":`, d.Config.Why)
		j.raw("}")
	}
	j.raw(`,"args":`)
	j.strs(d.Args)
	j.raw(`,"keys":{`)
	names := make([]string, 0, len(d.Keys))
	for n := range d.Keys {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			j.raw(",")
		}
		j.str(n)
		j.raw(":")
		j.key(d.Keys[n])
	}
	j.raw(`},"diagnostics":[`)
	for i, dg := range d.Diagnostics {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"severity":`)
		j.str(dg.Severity)
		j.field(`,"code":`, dg.Code)
		j.optField(`,"file":`, dg.File)
		j.optInt(`,"line":`, dg.Line)
		j.optInt(`,"column":`, dg.Column)
		j.optField(`,"key":`, dg.Key)
		j.field(`,"message":`, dg.Message)
		j.optField(`,"hint":`, dg.Hint)
		j.optField(`,"phase":`, dg.Phase)
		if dg.AfterFixing {
			j.raw(`,"afterFixing":true`)
		}
		j.optField(`,"assumes":`, dg.Assumes)
		j.optField(`,"rule":`, dg.Rule)
		j.raw("}")
	}
	j.raw("]")
	j.optField(`,"error":`, d.Error)
	if s := d.ErrorSource; s != nil {
		j.raw(`,"errorSource":`)
		j.source(*s)
	}
	if f := d.Fleet; f != nil {
		j.fleet(f)
	}
	j.raw("}\n")
	if j.err != nil {
		return j.err
	}
	return bw.Flush()
}

func (j *jsonWriter) fleet(f *FleetDoc) {
	j.raw(`,"fleet":{"saltId":`)
	j.str(f.SaltID)
	j.raw(`,"secretFingerprints":`)
	if f.Fingerprints == nil {
		j.raw("null")
	} else {
		names := make([]string, 0, len(f.Fingerprints))
		for n := range f.Fingerprints {
			names = append(names, n)
		}
		sort.Strings(names)
		j.raw("{")
		for i, n := range names {
			if i > 0 {
				j.raw(",")
			}
			j.str(n)
			j.raw(":")
			j.str(f.Fingerprints[n])
		}
		j.raw("}")
	}
	j.optField(`,"nodeName":`, f.NodeName)
	j.optField(`,"nodeNameFrom":`, f.NodeNameFrom)
	j.optField(`,"hostname":`, f.Hostname)
	j.raw("}")
}

type jsonWriter struct {
	w   *bufio.Writer
	err error
	buf []byte
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) int(n int64) {
	j.buf = strconv.AppendInt(j.buf[:0], n, 10)
	if j.err == nil {
		_, j.err = j.w.Write(j.buf)
	}
}

// field writes `,"name":"v"`; prefix is the literal `,"name":` (no concatenation per call).
func (j *jsonWriter) field(prefix, v string) {
	j.raw(prefix)
	j.str(v)
}

func (j *jsonWriter) optField(prefix, v string) {
	if v != "" {
		j.field(prefix, v)
	}
}

func (j *jsonWriter) optInt(prefix string, v int) {
	if v != 0 {
		j.raw(prefix)
		j.int(int64(v))
	}
}

func (j *jsonWriter) strs(ss []string) {
	if ss == nil {
		j.raw("null")
		return
	}
	j.raw("[")
	for i, s := range ss {
		if i > 0 {
			j.raw(",")
		}
		j.str(s)
	}
	j.raw("]")
}

func (j *jsonWriter) source(s output.Source) {
	j.raw(`{"kind":`)
	j.str(s.Kind)
	j.optField(`,"file":`, s.File)
	j.optInt(`,"line":`, s.Line)
	j.optInt(`,"column":`, s.Column)
	j.optField(`,"name":`, s.Name)
	j.raw("}")
}

func (j *jsonWriter) key(k *Key) {
	j.raw(`{"value":`)
	switch v := k.Value.(type) {
	case string:
		j.str(v)
	case bool:
		j.raw(strconv.FormatBool(v))
	case int64:
		j.int(v)
	case int:
		j.int(int64(v))
	case []string:
		j.strs(v)
	default:
		j.raw("null")
	}
	j.raw(`,"source":`)
	j.source(k.Source)
	j.raw(`,"history":[`)
	if k.rec != nil {
		n := 0
		for e := range k.rec.History(noderecord.JSONWritten) {
			if n > 0 {
				j.raw(",")
			}
			n++
			h := historyDoc(e)
			j.history(&h, e.Compact)
		}
	}
	for i := range k.History {
		if i > 0 {
			j.raw(",")
		}
		j.history(&k.History[i], nil)
	}
	j.raw("]")
	j.optField(`,"note":`, k.Note)
	if len(k.Advice) > 0 {
		j.raw(`,"advice":`)
		j.strs(k.Advice)
	}
	if k.Critical {
		j.raw(`,"critical":true`)
	}
	if k.SecretCopy {
		j.raw(`,"secretCopy":true`)
	}
	j.raw("}")
}

// history writes one history entry; with compact, the reason is compact's (h.Reason is
// empty), appended to the writer's buffer instead of built as a string.
func (j *jsonWriter) history(h *output.History, compact *resolve.Assignment) {
	j.raw(`{"kind":`)
	j.str(h.Kind)
	j.optField(`,"file":`, h.File)
	j.optInt(`,"line":`, h.Line)
	j.optInt(`,"column":`, h.Column)
	j.optField(`,"name":`, h.Name)
	j.optField(`,"raw":`, h.Raw)
	j.field(`,"value":`, h.Value)
	if len(h.Items) > 0 {
		j.raw(`,"items":`)
		j.strs(h.Items)
	}
	j.field(`,"outcome":`, h.Outcome)
	if compact != nil {
		j.compactReason(compact)
	} else {
		j.optField(`,"reason":`, h.Reason)
	}
	j.raw("}")
}

// compactReason writes `,"reason":"…"` for a's reason, as optField(`,"reason":`, a.Why())
// would: straight from resolve's compact record when it keeps one and the sentence needs no
// escaping (no quote, backslash, control or non-ASCII byte in the key or path it quotes).
func (j *jsonWriter) compactReason(a *resolve.Assignment) {
	if reasonhook.AppendReason != nil {
		if b, ok := reasonhook.AppendReason(j.buf[:0], a); ok {
			j.buf = b
			plain := true
			for _, c := range b {
				if !jsonPlain[c] {
					plain = false
					break
				}
			}
			switch {
			case len(b) == 0:
			case plain:
				j.raw(`,"reason":"`)
				if j.err == nil {
					_, j.err = j.w.Write(b)
				}
				j.raw(`"`)
			default:
				j.field(`,"reason":`, string(b))
			}
			return
		}
	}
	j.optField(`,"reason":`, a.Why())
}

const hexDigits = "0123456789abcdef"

// plain8 reports whether all eight bytes of w are plain (jsonPlain): none is a control
// byte (below 0x20), a quote, a backslash or non-ASCII (0x80 and up). Each test is the
// word-at-a-time one for "some byte is below n" (exact for whether one is, with n at most
// 0x80), the quote and backslash tests being "some byte of w XOR the byte is zero".
func plain8(w uint64) bool {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^('"'*lsb), w^('\\'*lsb)
	control := (w - 0x20*lsb) &^ w
	quotes := (quote - lsb) &^ quote
	backslashes := (backslash - lsb) &^ backslash
	return (w|control|quotes|backslashes)&msb == 0
}

// jsonPlain[c] is true for a byte str writes as it is: printable ASCII but the quote and
// the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str writes a JSON string as encoding/json does without HTML escaping: quotes, backslashes
// and control characters escaped, invalid UTF-8 replaced by U+FFFD, U+2028 and U+2029
// escaped. Runs of plain bytes are written straight through, found with a table (the
// show --json of a 2,000-drop-in node is 25-40 MB, and this loop ran over every byte of
// it).
func (j *jsonWriter) str(s string) {
	if j.err != nil {
		return
	}
	w := j.w
	_ = w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes at a time while there are eight (most of the document is
		// plain ASCII: paths, names, values).
		for i+8 <= len(s) && plain8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			_, _ = w.WriteString(s[start:i])
			switch c {
			case '\\', '"':
				_ = w.WriteByte('\\')
				_ = w.WriteByte(c)
			case '\b':
				_, _ = w.WriteString(`\b`)
			case '\f':
				_, _ = w.WriteString(`\f`)
			case '\n':
				_, _ = w.WriteString(`\n`)
			case '\r':
				_, _ = w.WriteString(`\r`)
			case '\t':
				_, _ = w.WriteString(`\t`)
			default:
				_, _ = w.WriteString(`\u00`)
				_ = w.WriteByte(hexDigits[c>>4])
				_ = w.WriteByte(hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			_, _ = w.WriteString(s[start:i])
			_, _ = w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			_, _ = w.WriteString(s[start:i])
			_, _ = w.WriteString(`\u202`)
			_ = w.WriteByte(hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	_, _ = w.WriteString(s[start:])
	j.err = w.WriteByte('"')
}
