package compose_test

// Golden scenarios: each testdata/compose/*.txtar archive is a project folder. The archive
// comment holds a one-line description and a line `file: project/<name>` naming the compose
// file. Files named project/<path> are loaded into an in-memory filesystem at /<path>. The
// expected outputs are want/compose.txt and want/compose.json; `go test ./compose -run
// Golden -update` rewrites them.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/compose"
	"github.com/k3sconf/k3sconf/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/compose/*.txtar")

func TestGolden(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/compose/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no scenarios in ../testdata/compose")
	}
	sort.Strings(paths)
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			got, keep, err := renderArchive(ar)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			golden.Check(t, p, ar, keep, got, []string{"want/compose.txt", "want/compose.json"}, *update, filepath.Base(p), "go test ./compose -run Golden -update")
		})
	}
}

func renderArchive(ar *txtar.Archive) (map[string]string, []txtar.File, error) {
	file := ""
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "file:"); ok {
			file = "/" + strings.TrimPrefix(strings.TrimSpace(v), "project/")
		}
	}
	if file == "" {
		return nil, nil, fmt.Errorf("the comment needs a line file: project/<name>")
	}
	host := afero.NewMemMapFs()
	var keep []txtar.File
	for _, f := range ar.Files {
		if rel, ok := strings.CutPrefix(f.Name, "project/"); ok {
			if err := afero.WriteFile(host, "/"+rel, f.Data, 0o644); err != nil {
				return nil, nil, err
			}
			keep = append(keep, f)
		}
	}
	f, err := compose.Load(host, file, nil)
	if err != nil {
		return nil, nil, err
	}
	rep := compose.Check(host, f)
	red := compose.NewRedactor(rep, false)
	var b bytes.Buffer
	compose.Text(&b, rep, red)
	fmt.Fprintf(&b, "\nfailed: %v\n", rep.Failed())
	js, err := json.MarshalIndent(compose.JSON(rep, red), "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return map[string]string{"want/compose.txt": b.String(), "want/compose.json": string(js) + "\n"}, keep, nil
}
