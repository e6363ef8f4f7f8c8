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

// safePrefix returns the length of p's longest prefix that needs no escape: printable
// ASCII, tabs, newlines and whole UTF-8 sequences other than C1 controls. It looks at eight
// bytes at a time: a word needs a closer look only if a byte has its high bit set
// (non-ASCII), is below 0x20 (a newline too) or is 0x7f; after that look it goes back to
// whole words. Output is mostly ASCII, so most of it passes at about a byte per instruction.
// An incomplete UTF-8 sequence at the end stops the prefix (the caller holds or escapes it).
func safePrefix(p []byte) int {
	const ones, highs, spaces = 0x0101010101010101, 0x8080808080808080, 0x2020202020202020
	i := 0
	for i < len(p) {
		// Four words at a time, while they all pass (one test for 32 bytes).
		for ; i+32 <= len(p); i += 32 {
			q := p[i : i+32 : i+32]
			x0, x1 := binary.LittleEndian.Uint64(q[0:8]), binary.LittleEndian.Uint64(q[8:16])
			x2, x3 := binary.LittleEndian.Uint64(q[16:24]), binary.LittleEndian.Uint64(q[24:32])
			m := x0 | x1 | x2 | x3 | (x0 + ones) | (x1 + ones) | (x2 + ones) | (x3 + ones) |
				(x0-spaces)&^x0 | (x1-spaces)&^x1 | (x2-spaces)&^x2 | (x3-spaces)&^x3
			if m&highs != 0 {
				break
			}
		}
		if i+8 <= len(p) {
			x := binary.LittleEndian.Uint64(p[i:])
			if (x|(x+ones)|((x-spaces)&^x))&highs == 0 {
				i += 8
				continue
			}
		}
		// Byte by byte to the end of this word (or of p).
		for stop := min(i+8, len(p)); i < stop; {
			b := p[i]
			switch {
			case b == '\t' || b == '\n' || b >= 0x20 && b < 0x7f:
				i++
			case b < 0x80:
				return i
			default:
				r, size := utf8.DecodeRune(p[i:])
				if r == utf8.RuneError && size == 1 || r <= 0x9f || invisible(r) {
					return i
				}
				i += size
			}
		}
	}
	return i
}

// appendEscaped appends p escaped to out. With hold, an incomplete UTF-8 sequence at the
// end is returned as rest instead of being escaped.
func appendEscaped(out, p []byte, hold bool) (_, rest []byte) {
	for i := 0; i < len(p); {
		if k := safePrefix(p[i:]); k > 0 {
			out = append(out, p[i:i+k]...)
			i += k
			continue
		}
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
		if r >= 0x80 && r <= 0x9f || invisible(r) {
			out = append(out, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out, nil
}

// invisible reports the runes that reorder or break the text a terminal shows without
// showing themselves: the line and paragraph separators and the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), with which a file name can make
// a report read differently from what it says.
func invisible(r rune) bool {
	return r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
