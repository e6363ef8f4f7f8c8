package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"regexp"

	"github.com/k3sconf/k3sconf/internal/termesc"
)

// Colour is for people at a terminal only: never in pipes or files, and never when NO_COLOR
// is set (https://no-color.org). The renderers write plain text; colour is added here, on
// whole lines, so no renderer needs to know about terminals.
func useColor(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminal(w)
}

var (
	colorError   = regexp.MustCompile(`(?m)^(\s*)(error)(\[[a-z0-9-]+\])`)
	colorWarning = regexp.MustCompile(`(?m)^(\s*)(warning)(\[[a-z0-9-]+\])`)
	colorInfo    = regexp.MustCompile(`(?m)^(\s*)(info)(\[[a-z0-9-]+\])`)
	colorRefuse  = regexp.MustCompile(`(?m)^(\s*)(k3s refuses to start:|but k3s refuses to start:)`)
	colorHeader  = regexp.MustCompile(`(?m)^([a-z0-9-]+ = )`)
	colorApplied = regexp.MustCompile(`(?m)^(\s+)(applied|appended)(:)`)
	colorLost    = regexp.MustCompile(`(?m)^(\s+)(overridden|replaced|shadowed|skipped|ignored|rejected|unreached)(:)`)
)

// colorize adds ANSI colours to finished text output.
func colorize(b []byte) []byte {
	b = colorError.ReplaceAll(b, []byte("$1\x1b[1;31m$2\x1b[0m$3"))
	b = colorWarning.ReplaceAll(b, []byte("$1\x1b[1;33m$2\x1b[0m$3"))
	b = colorInfo.ReplaceAll(b, []byte("$1\x1b[36m$2\x1b[0m$3"))
	b = colorRefuse.ReplaceAll(b, []byte("$1\x1b[1;31m$2\x1b[0m"))
	b = colorHeader.ReplaceAll(b, []byte("\x1b[1m$1\x1b[0m"))
	b = colorApplied.ReplaceAll(b, []byte("$1\x1b[32m$2\x1b[0m$3"))
	b = colorLost.ReplaceAll(b, []byte("$1\x1b[33m$2\x1b[0m$3"))
	return b
}

// colorWriter buffers text output and colours it on Flush when the destination is a
// terminal. Otherwise it passes the text on in 64 KiB writes: the renderers write a line
// (or a tabwriter cell) at a time, and on a 2,000-drop-in node `show` made 63,000 write
// calls for 0.8 MB (docs/performance.md).
type colorWriter struct {
	dst io.Writer
	buf bytes.Buffer
	on  bool
	bw  *bufio.Writer
}

func (c *colorWriter) Write(p []byte) (int, error) {
	if !c.on {
		if c.bw == nil {
			c.bw = bufio.NewWriterSize(c.dst, 64<<10)
		}
		return c.bw.Write(p)
	}
	return c.buf.Write(p)
}

func (c *colorWriter) Flush() {
	if c.bw != nil {
		_ = c.bw.Flush()
	}
	if c.on {
		_, _ = c.dst.Write(colorize(c.buf.Bytes()))
		c.buf.Reset()
	}
}

// stdoutWriter is standard output as every command sees it: the escaper, then a colorWriter
// (buffering, and colouring when a node command's text goes to a terminal), then the
// destination.
type stdoutWriter struct {
	*termesc.Writer
	color  *colorWriter
	raw    io.Writer
	format string // "yaml" for -o yaml (printer.go)
}

func newOutput(dst io.Writer) *stdoutWriter {
	cw := &colorWriter{dst: dst}
	return &stdoutWriter{Writer: termesc.NewWriter(cw), color: cw, raw: dst}
}

// colorOutput turns colour on for a node command's text, when w is standard output at a
// terminal and NO_COLOR is unset.
func colorOutput(w io.Writer) {
	if o, ok := w.(*stdoutWriter); ok {
		o.color.on = useColor(o.raw)
	}
}

func (o *stdoutWriter) flush() {
	_ = o.Writer.Flush()
	o.color.Flush()
}
