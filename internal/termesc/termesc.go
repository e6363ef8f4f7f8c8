package termesc

import (
	"encoding/binary"
	"io"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// Writer escapes what is written to it and passes it on. A UTF-8 sequence split across two
// Write calls is held until it is whole; Flush writes what is held at the end.
type Writer struct {
	dst  io.Writer
	pend []byte
	buf  []byte
}

// NewWriter returns a Writer that writes escaped text to dst.
func NewWriter(dst io.Writer) *Writer { return &Writer{dst: dst} }

// Unwrap returns the destination (to ask whether it is a terminal).
func (w *Writer) Unwrap() io.Writer { return w.dst }

// Write escapes p and writes it; it reports len(p) when the escaped text was written.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.pend) > 0 {
		p = append(w.pend, p...)
		w.pend = nil
	}
	i := safePrefix(p)
	if i == len(p) {
		if _, err := w.dst.Write(p); err != nil {
			return 0, err
		}
		return n, nil
	}
	out := append(w.buf[:0], p[:i]...)
	out, w.pend = appendEscaped(out, p[i:], true)
	w.buf = out[:0]
	if _, err := w.dst.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a held incomplete UTF-8 sequence, escaped byte by byte.
func (w *Writer) Flush() error {
	if len(w.pend) == 0 {
		return nil
	}
	out, _ := appendEscaped(nil, w.pend, false)
	w.pend = nil
	_, err := w.dst.Write(out)
	return err
}

// String escapes s as Writer does (for a caller that needs the escaped text itself).
func String(s string) string {
	if safePrefix([]byte(s)) == len(s) {
		return s
	}
	out, _ := appendEscaped(nil, []byte(s), false)
	return string(out)
}

// safePrefix returns the length of p's longest prefix of printable ASCII, tabs and
// newlines, eight bytes at a time: a word needs a closer look if a byte has its high bit
// set (non-ASCII), is below 0x20 (newline included: it is then looked at byte by byte) or
// is 0x7f. Output is mostly ASCII, so most of it passes here.
func safePrefix(p []byte) int {
	const ones, highs, spaces = 0x0101010101010101, 0x8080808080808080, 0x2020202020202020
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		if (x|(x+ones)|((x-spaces)&^x))&highs != 0 {
			break
		}
	}
	for ; i < len(p); i++ {
		if b := p[i]; b >= 0x7f || b < 0x20 && b != '\t' && b != '\n' {
			return i
		}
	}
	return i
}

// appendEscaped appends p escaped to out. With hold, an incomplete UTF-8 sequence at the
// end is returned as rest instead of being escaped.
func appendEscaped(out, p []byte, hold bool) (_, rest []byte) {
	for i := 0; i < len(p); {
		b := p[i]
		if b < 0x80 {
			if b < 0x20 && b != '\t' && b != '\n' || b == 0x7f {
				out = append(out, '\\', 'u', '0', '0', hex[b>>4], hex[b&15])
			} else {
				out = append(out, b)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			if hold && !utf8.FullRune(p[i:]) {
				return out, append([]byte(nil), p[i:]...)
			}
			out = append(out, '\\', 'x', hex[b>>4], hex[b&15])
			i++
			continue
		}
		if r >= 0x80 && r <= 0x9f {
			out = append(out, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out, nil
}
