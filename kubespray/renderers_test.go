package kubespray_test

import (
	"github.com/k3sconf/k3sconf/internal/kubesprayreport"
	"github.com/k3sconf/k3sconf/kubespray"
)

// The renderers for this package's own tests (render_test.go): set before any test runs.
func init() {
	kubespray.Renderers.Text = kubesprayreport.Text
	kubespray.Renderers.JSON = kubesprayreport.JSON
	kubespray.Renderers.WhereText = kubesprayreport.WhereText
	kubespray.Renderers.WhereJSON = kubesprayreport.WhereJSON
	kubespray.Renderers.AnswerLine = kubesprayreport.AnswerLine
}
