package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"
)

// recorder captures failures instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.txtar")
	ar := &txtar.Archive{Comment: []byte("a scenario\n"), Files: []txtar.File{
		{Name: "node/x", Data: []byte("in\n")},
		{Name: "want/a", Data: []byte("old\n")},
	}}
	inputs := ar.Files[:1]
	tests := []struct {
		name, reason string
		got          map[string]string
		wantErrors   int
	}{
		{"same", "matching output passes", map[string]string{"want/a": "old\n"}, 0},
		{"changed", "a changed output fails with a diff", map[string]string{"want/a": "new\n"}, 1},
		{"missing", "an expectation the archive lacks fails", map[string]string{"want/a": "old\n", "want/b": "x"}, 1},
		{"gone", "an expectation no longer produced fails", map[string]string{}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Check(r, path, ar, inputs, tc.got, []string{"want/a", "want/b"}, false, "a scenario", "go test -update")
			if len(r.errors) != tc.wantErrors {
				t.Errorf("%s: %d failures (%v), want %d", tc.reason, len(r.errors), r.errors, tc.wantErrors)
			}
		})
	}
	// -update writes the inputs and the new outputs in order.
	Check(t, path, ar, inputs, map[string]string{"want/b": "B\n", "want/a": "A\n"}, []string{"want/a", "want/b"}, true, "", "")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a scenario\n-- node/x --\nin\n-- want/a --\nA\n-- want/b --\nB\n"; string(data) != want {
		t.Errorf("update wrote %q, want %q", data, want)
	}
	if strings.Contains(string(data), "old") {
		t.Error("the old expectation must be replaced")
	}
}

// CheckNames lets through only the named folders, so a misspelt "nodes/" is an error.
func TestCheckNames(t *testing.T) {
	ar := txtar.Parse([]byte("-- node/etc/a --\nx\n-- want/show.json --\n{}\n"))
	if err := CheckNames(ar, "node/", "want/"); err != nil {
		t.Errorf("node/ and want/ are allowed: %v", err)
	}
	ar = txtar.Parse([]byte("-- nodes/etc/a --\nx\n"))
	if err := CheckNames(ar, "node/", "want/"); err == nil || !strings.Contains(err.Error(), "nodes/etc/a") {
		t.Errorf("a misspelt folder must be named in the error, got %v", err)
	}
}

// LoadFiles loads only the prefix's files, at the path after the prefix.
func TestLoadFiles(t *testing.T) {
	ar := txtar.Parse([]byte("-- trigger/etc/a --\nA\n-- clean/etc/a --\nB\n-- want/x --\n"))
	fs, loaded, err := LoadFiles(ar, "clean/")
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != 1 || loaded[0].Name != "clean/etc/a" {
		t.Errorf("loaded = %v, want only clean/etc/a", loaded)
	}
	if data, err := afero.ReadFile(fs, "/etc/a"); err != nil || string(data) != "B\n" {
		t.Errorf("/etc/a = %q, %v; want the clean/ file", data, err)
	}
}
