package values

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestNamedCasesDocumented keeps the number of named Helm cases that docs/values.md and
// docs/testing.md state true.
func TestNamedCasesDocumented(t *testing.T) {
	for _, doc := range []struct{ file, phrase string }{
		{"../../docs/values.md", "plus %d named ones"},
		{"../../docs/testing.md", "%d named cases and"},
		{"../../docs/testing.md", "%d named + 100 generated"},
	} {
		b, err := os.ReadFile(doc.file)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(doc.phrase, len(namedCases)); !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s does not say %q: namedCases has %d cases", doc.file, want, len(namedCases))
		}
	}
}
