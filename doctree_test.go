package k3sconf_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/internal/apisurface"
)

// TestDocTree keeps the map of the tree in doc.go true: every public package is named
// there with its path, every folder under internal/ by its name, and every path the map
// names exists.
func TestDocTree(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start, end := strings.Index(text, "// # The tree"), strings.Index(text, "// # Example")
	if start < 0 || end < start {
		t.Fatal("doc.go has no \"# The tree\" section before \"# Example\"")
	}
	tree := text[start:end]
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[a-z0-9][a-z0-9/]*`).FindAllString(tree, -1) {
		words[strings.TrimSuffix(w, "/")] = true
	}
	cs, err := apisurface.Measure(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Path != "." && !words[c.Path] {
			t.Errorf("doc.go's tree does not name the public package %s", c.Path)
		}
	}
	ents, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && !words[e.Name()] {
			t.Errorf("doc.go's tree does not name internal/%s", e.Name())
		}
	}
	// Each entry of the map ("  helm/values/   …") is a folder.
	for _, m := range regexp.MustCompile(`(?m)^//\t  ([a-z0-9/]+/) `).FindAllStringSubmatch(tree, -1) {
		if st, err := os.Stat(m[1]); err != nil || !st.IsDir() {
			t.Errorf("doc.go's tree names %s, which is no folder", m[1])
		}
	}
}

// TestEveryPackageHasAnExample: each public package's godoc has a runnable Example (an
// Example function in one of its test files), as docs/library.md says.
func TestEveryPackageHasAnExample(t *testing.T) {
	cs, err := apisurface.Measure(".")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^func Example\w*\(\)`)
	for _, c := range cs {
		files, _ := filepath.Glob(filepath.Join(c.Path, "*_test.go"))
		found := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || re.Match(b)
		}
		if !found {
			t.Errorf("package %s has no runnable Example", c.Path)
		}
	}
}
