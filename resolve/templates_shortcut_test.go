package resolve

import (
	"math/rand"
	"strings"
	"testing"
)

// TestMayHoldTemplateIsNecessary checks checkTemplates' shortcut on generated values (fixed
// seed): whenever one of the templateMarkers matches, mayHoldTemplate says so, so skipping
// the values it rejects loses no finding.
func TestMayHoldTemplateIsNecessary(t *testing.T) {
	pieces := []string{"{", "}", "{{", "}}", "%", "{%", "%}", "$", "${", "A", "_", "x", "<", ">", " ", "-", ".",
		"REPLACE", "CHANGE", "ME", "CHANGEME", "_ME", "-ME", "\n", "9", "é"}
	r := rand.New(rand.NewSource(1))
	matched := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for n := r.Intn(7); n >= 0; n-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		v := b.String()
		for _, m := range templateMarkers {
			if m.re.MatchString(v) {
				matched++
				if !mayHoldTemplate(v) {
					t.Fatalf("marker %s matches %q but mayHoldTemplate says no", m.re, v)
				}
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d generated values matched: the test does not exercise the shortcut", matched)
	}
}
