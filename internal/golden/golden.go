package golden

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// Check compares got (want-file name → content) with the archive's want/ files. With update
// it writes the archive back instead: the same comment, the inputs, and got's files in the
// order given (files the scenario no longer produces are dropped); an unchanged archive is
// not touched. desc names the scenario in failures; rerun says how to regenerate.
func Check(t testing.TB, path string, ar *txtar.Archive, inputs []txtar.File, got map[string]string, order []string, update bool, desc, rerun string) {
	t.Helper()
	if update {
		next := &txtar.Archive{Comment: ar.Comment, Files: append([]txtar.File(nil), inputs...)}
		for _, name := range order {
			if g, ok := got[name]; ok {
				next.Files = append(next.Files, txtar.File{Name: name, Data: []byte(g)})
			}
		}
		data := txtar.Format(next)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			return
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			want[f.Name] = string(f.Data)
		}
	}
	known := map[string]bool{}
	for _, name := range order {
		known[name] = true
		w, inArchive := want[name]
		g, produced := got[name]
		switch {
		case !inArchive && produced:
			t.Errorf("%s: %s is missing; run %s", path, name, rerun)
		case inArchive && !produced:
			t.Errorf("%s: %s is in the archive but the scenario produces none; run %s", path, name, rerun)
		case w != g:
			t.Errorf("%s (%s): %s mismatch (-want +got):\n%s", path, desc, name, cmp.Diff(w, g))
		}
	}
	for name := range want {
		if !known[name] {
			t.Errorf("%s: unknown expectation %s (want one of %s)", path, name, strings.Join(order, ", "))
		}
	}
}
