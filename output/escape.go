package output

import (
	"io"

	"github.com/k3sconf/k3sconf/internal/termesc"
)

// Escaper escapes control characters in what is written through it (see [NewEscaper]).
type Escaper = termesc.Writer

// NewEscaper returns a writer that escapes control characters (terminal escape sequences,
// bidirectional and invisible format characters) in what it passes to w, so input quoted
// in a report cannot drive the terminal that shows it. Flush writes what it holds back (an
// incomplete UTF-8 sequence at the end of a write).
func NewEscaper(w io.Writer) *Escaper { return termesc.NewWriter(w) }

// Escape is s with its control characters escaped as [NewEscaper] escapes them.
func Escape(s string) string { return termesc.String(s) }
