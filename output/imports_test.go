package output

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsNoProduct: the shared output layer imports no product package, directly or
// through another package of the module: only itself and internal/ helpers that import
// none either (docs/design.md, "Layers"). A face hands the redactor what it knows.
func TestImportsNoProduct(t *testing.T) {
	const module = "github.com/k3sconf/k3sconf/"
	seen := map[string]bool{}
	var visit func(path, from string)
	visit = func(path, from string) {
		if seen[path] {
			return
		}
		seen[path] = true
		rel := strings.TrimPrefix(path, module)
		if rel != "output" && !strings.HasPrefix(rel, "internal/") {
			t.Errorf("%s imports %s, a product package", from, path)
			return
		}
		pkg, err := build.Import(path, ".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			if strings.HasPrefix(imp, module) {
				visit(imp, path)
			}
		}
	}
	visit(module+"output", "")
	if len(seen) < 2 {
		t.Fatalf("only %d packages visited: the walk found no import", len(seen))
	}
}
