package resolve_test

// Diagnostic scenarios: testdata/diagnostics/<code>.txtar holds, for one diagnostic code, a
// node that triggers it and a minimal variation of the same node (the fix applied) that does
// not. The archive comment holds a one-line description, then option lines:
//
//	command: agent              resolve.Options.Command (both nodes)
//	version: v1.29.6+k3s1       resolve.Options.Version
//	unit: /etc/systemd/system/x resolve.Options.Unit
//	config: /path               resolve.Options.Config
//	args: server --debug        resolve.Options.Args, split on white space
//	unreadable: /path           reading this node file fails with "permission denied"
//	dangling: /path             the file is listed in its folder but opening it fails with
//	                            "no such file or directory", as for a dangling symlink
//	                            (MemMapFs has no permissions; this is how a 0600 file
//	                            looks to a user without sudo)
//	want: error /etc/rancher/k3s/config.yaml:2:24
//
// An option written trigger-X: or clean-X: applies to that node only and replaces X: there.
// want: names the severity and the exact position of the expected diagnostic: FILE,
// FILE:LINE or FILE:LINE:COLUMN, or "-" for a diagnostic about no file in particular.
// Other comment lines are free text. Files named trigger/<path> and clean/<path> are the
// two nodes' files, loaded at /<path>.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/resolve"
)

const diagScenarioDir = "../testdata/diagnostics"

// diagScenario is one archive: a code, where it is expected, and the two nodes.
type diagScenario struct {
	code        string
	description string
	severity    diag.Severity
	pos         diag.Position
	trigger     resolve.Options
	clean       resolve.Options
}

func TestDiagnosticScenarios(t *testing.T) {
	golden.Archives(t, filepath.Join(diagScenarioDir, "*.txtar"), func(t *testing.T, p string, ar *txtar.Archive) {
		sc, err := parseDiagScenario(p, ar)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := resolve.Resolve(sc.trigger)
		if err != nil {
			t.Fatalf("trigger node: %v", err)
		}
		var found []diag.Diagnostic
		for _, d := range got.Diagnostics {
			if d.Code == sc.code {
				found = append(found, d)
			}
		}
		matched := false
		for _, d := range found {
			if d.Severity == sc.severity && d.Pos == sc.pos {
				matched = true
			}
		}
		if !matched {
			t.Errorf("%s (%s)\ntrigger node: want %s %s at %s; got:\n%s", p, sc.description,
				sc.severity, sc.code, posText(sc.pos), listDiags(got.Diagnostics))
		}

		res, err := resolve.Resolve(sc.clean)
		if err != nil {
			t.Fatalf("clean node: %v", err)
		}
		for _, d := range res.Diagnostics {
			if d.Code == sc.code {
				t.Errorf("%s (%s)\nclean node: want no %s; got:\n%s", p, sc.description, sc.code, listDiags(res.Diagnostics))
				break
			}
		}
	})
}

func posText(p diag.Position) string {
	if p.IsZero() {
		return "- (no position)"
	}
	return p.String()
}

func listDiags(ds []diag.Diagnostic) string {
	if len(ds) == 0 {
		return "  (no diagnostics)"
	}
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s %s %s: %s\n", d.Severity, d.Code, posText(d.Pos), d.Message)
	}
	return b.String()
}

// parseDiagScenario reads an archive into its expectation and two nodes.
func parseDiagScenario(path string, ar *txtar.Archive) (*diagScenario, error) {
	var err error
	sc := &diagScenario{code: strings.TrimSuffix(filepath.Base(path), ".txtar")}
	lines := strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return nil, fmt.Errorf("the archive comment must start with a one-line description")
	}
	sc.description = strings.TrimSpace(lines[0])

	// opts[node][option]: node "" holds the options for both.
	opts := map[string]map[string]string{"": {}, "trigger": {}, "clean": {}}
	haveWant := false
	for i, line := range lines[1:] {
		line = strings.TrimSpace(line)
		key, val, ok := strings.Cut(line, ":")
		if line == "" || strings.HasPrefix(line, "#") || !ok || strings.ContainsAny(key, " \t") {
			continue // free text
		}
		val = strings.TrimSpace(val)
		if key == "want" {
			if sc.severity, sc.pos, err = parseWant(val); err != nil {
				return nil, fmt.Errorf("comment line %d: %v", i+2, err)
			}
			haveWant = true
			continue
		}
		node := ""
		for _, n := range []string{"trigger", "clean"} {
			if rest, ok := strings.CutPrefix(key, n+"-"); ok {
				node, key = n, rest
			}
		}
		switch key {
		case "command", "version", "unit", "config", "args", "unreadable", "dangling":
			opts[node][key] = val
		default:
			return nil, fmt.Errorf("comment line %d: unknown option %q (want command, version, unit, config, args, unreadable, dangling or want, optionally prefixed trigger- or clean-)", i+2, key)
		}
	}
	if !haveWant {
		return nil, fmt.Errorf("no want: line")
	}

	fss := map[string]afero.Fs{"trigger": afero.NewMemMapFs(), "clean": afero.NewMemMapFs()}
	count := map[string]int{}
	for _, f := range ar.Files {
		node, rel, ok := strings.Cut(f.Name, "/")
		if !ok || fss[node] == nil {
			return nil, fmt.Errorf("file %s: names must start with trigger/ or clean/", f.Name)
		}
		if err := afero.WriteFile(fss[node], "/"+rel, f.Data, 0o644); err != nil {
			return nil, err
		}
		count[node]++
	}
	for _, node := range []string{"trigger", "clean"} {
		if count[node] == 0 {
			return nil, fmt.Errorf("no %s/ files", node)
		}
		o := map[string]string{}
		for k, v := range opts[""] {
			o[k] = v
		}
		for k, v := range opts[node] {
			o[k] = v
		}
		ro := resolve.Options{FS: fss[node], Command: o["command"], Version: o["version"], Unit: o["unit"], Config: o["config"]}
		if a, ok := o["args"]; ok {
			ro.Args = strings.Fields(a)
			if ro.Args == nil {
				ro.Args = []string{}
			}
		}
		if p := o["unreadable"]; p != "" {
			if _, err := ro.FS.Stat(p); err != nil {
				return nil, fmt.Errorf("%s-unreadable: %v (the file must exist to be unreadable)", node, err)
			}
			ro.FS = unreadableFs{Fs: ro.FS, path: p, err: fs.ErrPermission}
		}
		if p := o["dangling"]; p != "" {
			if _, err := ro.FS.Stat(p); err != nil {
				return nil, fmt.Errorf("%s-dangling: %v (the file must exist to be listed)", node, err)
			}
			ro.FS = unreadableFs{Fs: ro.FS, path: p, err: fs.ErrNotExist}
		}
		if node == "trigger" {
			sc.trigger = ro
		} else {
			sc.clean = ro
		}
	}
	return sc, nil
}

// parseWant reads "SEVERITY POSITION".
func parseWant(s string) (diag.Severity, diag.Position, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return "", diag.Position{}, fmt.Errorf("want: %q: want SEVERITY FILE[:LINE[:COLUMN]] or SEVERITY -", s)
	}
	sev := diag.Severity(f[0])
	if sev.Rank() == 0 {
		return "", diag.Position{}, fmt.Errorf("want: unknown severity %q (want error, warning or info)", f[0])
	}
	if f[1] == "-" {
		return sev, diag.Position{}, nil
	}
	parts := strings.Split(f[1], ":")
	if len(parts) > 3 {
		return "", diag.Position{}, fmt.Errorf("want: position %q has too many colons", f[1])
	}
	pos := diag.Position{File: parts[0]}
	for i, dst := range []*int{&pos.Line, &pos.Column} {
		if len(parts) > i+1 {
			n, err := strconv.Atoi(parts[i+1])
			if err != nil || n <= 0 {
				return "", diag.Position{}, fmt.Errorf("want: position %q: %q is not a line or column number", f[1], parts[i+1])
			}
			*dst = n
		}
	}
	return sev, pos, nil
}

// unreadableFs makes one file exist (Stat works) but refuse to open, as a root-owned 0600
// file does for an ordinary user.
type unreadableFs struct {
	afero.Fs
	path string
	err  error
}

func (u unreadableFs) Open(name string) (afero.File, error) {
	if filepath.Clean(name) == u.path {
		return nil, &os.PathError{Op: "open", Path: name, Err: u.err}
	}
	return u.Fs.Open(name)
}

func (u unreadableFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if filepath.Clean(name) == u.path {
		return nil, &os.PathError{Op: "open", Path: name, Err: u.err}
	}
	return u.Fs.OpenFile(name, flag, perm)
}

func (u unreadableFs) Stat(name string) (os.FileInfo, error) {
	if filepath.Clean(name) == u.path && u.err == fs.ErrNotExist {
		return nil, &os.PathError{Op: "stat", Path: name, Err: u.err}
	}
	return u.Fs.Stat(name)
}

// emitPatterns match the ways the resolver and the readers name a code when they emit it:
// Code: "x" in a diag.Diagnostic literal, d.Code = "x", the helpers add(diag.Sev, "x", …),
// addDiag(…), warn("x", …), refuse("x", …) of resolve/validate.go, and the CodeX = "x" constants of sources/yaml.go.
var emitPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\bCode:\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bCode = "([a-z0-9-]+)"`),
	regexp.MustCompile(`\b(?:add|addDiag)\(diag\.[A-Za-z]+,\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bwarn\("([a-z0-9-]+)"`),
	regexp.MustCompile(`\brefuse\("([a-z0-9-]+)"`),
	regexp.MustCompile(`\bCode[A-Z][A-Za-z0-9]*\s*=\s*"([a-z0-9-]+)"`),
}

// emittedCodes greps the non-test Go files of resolve/ and sources/ for diagnostic codes.
func emittedCodes(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, dir := range []string{".", "../sources"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, re := range emitPatterns {
				for _, m := range re.FindAllStringSubmatch(string(data), -1) {
					seen[m[1]] = true
				}
			}
		}
	}
	// Guard against patterns that silently stop matching: one code from each way of
	// emitting must be found.
	for _, c := range []string{"k3s-refuses", "cli-two-forms", "unit-no-execstart", "unit-escape", "envfile-export", "unit-syntax", "yaml-extra-document", "agent-token-required"} {
		if !seen[c] {
			t.Fatalf("the code scan no longer finds %q; update emitPatterns", c)
		}
	}
	codes := make([]string, 0, len(seen))
	for c := range seen {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

func TestEveryCodeHasAScenario(t *testing.T) {
	codes := emittedCodes(t)
	emitted := map[string]bool{}
	for _, c := range codes {
		emitted[c] = true
		p := filepath.Join(diagScenarioDir, c+".txtar")
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			t.Errorf("code %s has no scenario: write %s (a trigger/ node and a clean/ node)", c, p)
		} else if err != nil {
			t.Error(err)
		}
	}
	paths, err := filepath.Glob(filepath.Join(diagScenarioDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if c := strings.TrimSuffix(filepath.Base(p), ".txtar"); !emitted[c] {
			t.Errorf("%s: no code %q is emitted any more; remove or rename the scenario", p, c)
		}
	}
}

// That every code has its row in docs/diagnostics.md is tested in package diag, over the
// codes of every package (diag/codes_test.go).
