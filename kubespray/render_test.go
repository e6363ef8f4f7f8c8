package kubespray

import (
	"fmt"
	"io"
)

// This package's tests read explain's and where's output as `k3sconf kubespray` prints it.
// The renderers are in internal/kubesprayreport, which imports this package, so a test of
// this package cannot import them: renderers_test.go (package kubespray_test, which can)
// sets Renderers in its init, and the stand-ins below, named as the renderers are, call
// them. They exist in tests only.
var Renderers struct {
	Text       func(io.Writer, *Report)
	JSON       func(*Report) any
	WhereText  func(io.Writer, string, []Use)
	WhereJSON  func(string, []Use) any
	AnswerLine func(TagAnswer) string
}

// Text is kubesprayreport.Text: explain as text.
func Text(w io.Writer, r *Report) { Renderers.Text(w, r) }

// JSON is kubesprayreport.JSON: explain's --json document.
func JSON(r *Report) any { return Renderers.JSON(r) }

// WhereText is kubesprayreport.WhereText: where as text.
func WhereText(w io.Writer, name string, uses []Use) { Renderers.WhereText(w, name, uses) }

// WhereJSON is kubesprayreport.WhereJSON: where's --json document.
func WhereJSON(name string, uses []Use) any { return Renderers.WhereJSON(name, uses) }

// short keeps a value in a test's log to one readable line (kubesprayreport's rule).
func short(s string) string {
	if len(s) > 160 {
		return s[:150] + "… (" + fmt.Sprint(len(s)) + " chars; --json has all)"
	}
	return s
}
