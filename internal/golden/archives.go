package golden

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"
)

// Archives runs fn as a subtest for each archive matching glob, in name order, named by the
// file name without ".txtar". A glob that matches nothing fails the test: a moved testdata
// folder must not turn a golden test into one that passes by checking nothing.
func Archives(t *testing.T, glob string, fn func(t *testing.T, path string, ar *txtar.Archive)) {
	t.Helper()
	paths, err := filepath.Glob(glob)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no archives match %s", glob)
	}
	sort.Strings(paths)
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, p, ar)
		})
	}
}

// CheckNames reports the first archive file whose name starts with none of the prefixes, so
// a misspelt folder in an archive is an error rather than an input silently left out.
func CheckNames(ar *txtar.Archive, prefixes ...string) error {
	for _, f := range ar.Files {
		ok := false
		for _, p := range prefixes {
			ok = ok || strings.HasPrefix(f.Name, p)
		}
		if !ok {
			return fmt.Errorf("file %s: names must start with %s", f.Name, strings.Join(prefixes, " or "))
		}
	}
	return nil
}

// LoadFiles writes the archive's files named prefix<path> into a new in-memory filesystem at
// /<path> and returns it with those files, in archive order.
func LoadFiles(ar *txtar.Archive, prefix string) (afero.Fs, []txtar.File, error) {
	fs := afero.NewMemMapFs()
	var loaded []txtar.File
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			continue
		}
		if err := afero.WriteFile(fs, "/"+rel, f.Data, 0o644); err != nil {
			return nil, nil, err
		}
		loaded = append(loaded, f)
	}
	return fs, loaded, nil
}
