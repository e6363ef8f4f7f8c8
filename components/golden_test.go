package components_test

// Golden scenarios: each testdata/components/*.txtar archive is one server. The archive
// comment holds a one-line description followed by options, one per line:
//
//	command: server             resolve.Options.Command
//	version: v1.30.5+k3s1       resolve.Options.Version
//	args: server --disable x    resolve.Options.Args, split on white space
//
// Files named node/<path> are the node's files, loaded at /<path>. The expected outputs are
// want/components.txt (the text report) and want/components.json (the JSON document).
// `go test ./components -run Golden -update` rewrites them.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/internal/componentsreport"
	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/components/*.txtar")

const (
	wantText = "want/components.txt"
	wantJSON = "want/components.json"
)

func TestGolden(t *testing.T) {
	golden.Archives(t, "../testdata/components/*.txtar", runGolden)
}

func runGolden(t *testing.T, path string, ar *txtar.Archive) {
	opts, desc, nodeFiles, err := parseArchive(ar)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	got, err := render(opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	again, _ := render(opts)
	for k := range got {
		if got[k] != again[k] {
			t.Errorf("%s: %s is not deterministic", path, k)
		}
	}
	golden.Check(t, path, ar, nodeFiles, got, []string{wantText, wantJSON}, *update, desc, "go test ./components -run Golden -update")
}

func parseArchive(ar *txtar.Archive) (resolve.Options, string, []txtar.File, error) {
	var opts resolve.Options
	lines := strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return opts, "", nil, fmt.Errorf("the archive comment must start with a one-line description")
	}
	for i, line := range lines[1:] {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || strings.ContainsAny(key, " \t") {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "command":
			opts.Command = val
		case "version":
			opts.Version = val
		case "args":
			opts.Args = strings.Fields(val)
		default:
			return opts, "", nil, fmt.Errorf("comment line %d: unknown option %q (want command, version or args)", i+2, key)
		}
	}
	if err := golden.CheckNames(ar, "node/", "want/"); err != nil {
		return opts, "", nil, err
	}
	fs, nodeFiles, err := golden.LoadFiles(ar, "node/")
	if err != nil {
		return opts, "", nil, err
	}
	opts.FS = fs
	return opts, strings.TrimSpace(lines[0]), nodeFiles, nil
}

func render(opts resolve.Options) (map[string]string, error) {
	res, err := resolve.Resolve(opts)
	if err != nil {
		return nil, err
	}
	red := report.NewRedactor(res, false)
	rep := components.Inspect(opts.FS, res)
	var b bytes.Buffer
	componentsreport.Text(&b, rep, red)
	js, err := json.MarshalIndent(componentsreport.JSON(rep, red), "", "  ")
	if err != nil {
		return nil, err
	}
	return map[string]string{wantText: b.String(), wantJSON: string(js) + "\n"}, nil
}
