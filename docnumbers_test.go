package k3sconf_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestREADMECorpusCount keeps the README's count of the real-world corpus true: the shapes
// under testdata/realworld/, split into RKE2 (a "product: rke2" line in the archive's
// comment, which findings' corpus test resolves them with) and k3s (the rest).
func TestREADMECorpusCount(t *testing.T) {
	paths, err := filepath.Glob("testdata/realworld/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no real-world shapes under testdata/realworld (%v)", err)
	}
	rke2 := 0
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		isRKE2 := false
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if strings.TrimSpace(line) == "product: rke2" {
				isRKE2 = true
			}
		}
		if isRKE2 {
			rke2++
			continue
		}
		for _, f := range ar.Files {
			if strings.Contains(f.Name, "rancher/rke2/") || strings.Contains(f.Name, "rke2-server.service") {
				t.Errorf("%s holds RKE2 files but no product: rke2 line; the count below would call it k3s", p)
				break
			}
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(len(paths)) + " real-world shapes (" + strconv.Itoa(len(paths)-rke2) + " k3s, " + strconv.Itoa(rke2) + " RKE2)"
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q (count of testdata/realworld/*.txtar)", want)
	}
}
