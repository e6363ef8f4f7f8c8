package runs

import "io"

// This package's tests read `k3sconf kubespray runs` as it prints it. The renderer is
// internal/runsreport, which imports this package, so a test of this package cannot import
// it: renderers_test.go (package runs_test, which can) sets Renderers in its init, and the
// stand-ins below, named as the renderer's functions are, call them. Tests only.
var Renderers struct {
	Text    func(io.Writer, *Report)
	JSON    func(*Report) any
	VarLine func(*Report, VarHost) string
}

// Text is runsreport.Text: the report as text.
func Text(w io.Writer, r *Report) { Renderers.Text(w, r) }

// JSON is runsreport.JSON: the --json document.
func JSON(r *Report) any { return Renderers.JSON(r) }

// varLine is runsreport.VarLine: one host's answer for the variable, in one line.
func varLine(r *Report, vh VarHost) string { return Renderers.VarLine(r, vh) }
