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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/compose"
	"github.com/k3sconf/k3sconf/internal/composereport"
	"github.com/k3sconf/k3sconf/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/compose/*.txtar")

func TestGolden(t *testing.T) {
	golden.Archives(t, "../testdata/compose/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
		got, keep, err := renderArchive(ar)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		golden.Check(t, p, ar, keep, got, []string{"want/compose.txt", "want/compose.json"}, *update, filepath.Base(p), "go test ./compose -run Golden -update")
	})
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
	if err := golden.CheckNames(ar, "project/", "want/"); err != nil {
		return nil, nil, err
	}
	host, keep, err := golden.LoadFiles(ar, "project/")
	if err != nil {
		return nil, nil, err
	}
	f, err := compose.Load(host, file, nil)
	if err != nil {
		return nil, nil, err
	}
	rep := compose.Check(host, f)
	red := composereport.NewRedactor(rep, false)
	var b bytes.Buffer
	composereport.Text(&b, rep, red)
	fmt.Fprintf(&b, "\nfailed: %v\n", rep.Failed())
	js, err := json.MarshalIndent(composereport.JSON(rep, red), "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return map[string]string{"want/compose.txt": b.String(), "want/compose.json": string(js) + "\n"}, keep, nil
}

// TestLoadNeverBlocks: a compose file that is a FIFO is an error, not a wait.
func TestLoadNeverBlocks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "compose.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := compose.Load(afero.NewOsFs(), p, nil); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Fatalf("Load of a FIFO: got %v, want an error naming the FIFO", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load of a FIFO did not return")
	}
}
