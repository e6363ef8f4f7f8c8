package findings_test

// The real-world corpus: testdata/realworld/<name>.txtar each reproduces, in k3sconf's own
// words, the shape of a k3s or RKE2 node found in a public repository (named in the archive
// comment). The expectations are written from the k3s/RKE2/systemd sources, not from
// k3sconf's output, and pin what check (every finding), explain (values in force) and
// components (states) must say. The comment holds a description, then option lines:
//
//	source: owner/repo path            where the shape was seen (at least one)
//	product: rke2                      the profile (default: detected)
//	command: agent                     resolve.Options.Command
//	version: v1.28.5+k3s1              resolve.Options.Version
//	unit: /etc/systemd/system/x.service resolve.Options.Unit (a unit the installer did not name)
//	check: SEVERITY CODE POSITION      one line per finding check must give; the list is
//	                                   complete: any other error or warning fails the test
//	                                   (notes are checked only when listed)
//	refuses: TEXT                      Result.Error contains TEXT ("refuses: -" for none)
//	value KEY: VALUE                   the value in force as explain prints it
//	component NAME: STATE              components' state of NAME (servers)
//	hint CODE: TEXT                    the fix of finding CODE contains TEXT
//	hint-not CODE: TEXT                the fix of finding CODE does not contain TEXT
//
// On RKE2 nodes no message or fix may name k3s's installer, units or paths.
//
// Files are the node's, at /<path>.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// minCorpus is the number of real-world shapes the corpus must keep (issue 16).
const minCorpus = 40

type want struct {
	checks     []string // "severity code position"
	refuses    string
	values     map[string]string
	comps      map[string]string
	hints      map[string][]string
	hintsNot   map[string][]string
	sources    int
	product    string
	command    string
	version    string
	unit       string
	checkNotes bool
}

func parseWantComment(c string) (*want, error) {
	w := &want{values: map[string]string{}, comps: map[string]string{}, hints: map[string][]string{}, hintsNot: map[string][]string{}}
	for i, line := range strings.Split(c, "\n") {
		line = strings.TrimSpace(line)
		key, val, ok := strings.Cut(line, ":")
		if !ok || i == 0 {
			continue
		}
		val = strings.TrimSpace(val)
		switch f := strings.Fields(key); {
		case key == "source":
			w.sources++
		case key == "product":
			w.product = val
		case key == "command":
			w.command = val
		case key == "version":
			w.version = val
		case key == "unit":
			w.unit = val
		case key == "check":
			w.checks = append(w.checks, val)
			if strings.HasPrefix(val, "info ") {
				w.checkNotes = true
			}
		case key == "refuses":
			w.refuses = val
		case len(f) == 2 && f[0] == "value":
			w.values[f[1]] = val
		case len(f) == 2 && f[0] == "component":
			w.comps[f[1]] = val
		case len(f) == 2 && f[0] == "hint":
			w.hints[f[1]] = append(w.hints[f[1]], val)
		case len(f) == 2 && f[0] == "hint-not":
			w.hintsNot[f[1]] = append(w.hintsNot[f[1]], val)
		}
	}
	if w.sources == 0 {
		return nil, fmt.Errorf("no source: line naming the repository that showed the shape")
	}
	if w.refuses == "" {
		return nil, fmt.Errorf("no refuses: line (write refuses: - when k3s starts)")
	}
	return w, nil
}

func posText(p diag.Position) string {
	if p.IsZero() {
		return "-"
	}
	return p.String()
}

func TestRealWorldCorpus(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/realworld/*.txtar")
	if len(paths) < minCorpus {
		t.Errorf("the real-world corpus holds %d shapes; keep at least %d", len(paths), minCorpus)
	}
	golden.Archives(t, "../testdata/realworld/*.txtar", func(t *testing.T, p string, ar *txtar.Archive) {
		w, err := parseWantComment(string(ar.Comment))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		fs, _, err := golden.LoadFiles(ar, "")
		if err != nil {
			t.Fatal(err)
		}
		opts := resolve.Options{FS: fs, Command: w.command, Version: w.version, Unit: w.unit}
		if w.product != "" {
			if opts.Profile, err = profile.ByName(w.product); err != nil {
				t.Fatal(err)
			}
		}
		res, err := resolve.Resolve(opts)
		if err != nil {
			t.Fatal(err)
		}
		all := findings.All(fs, res, nil, "/node")
		var got []string
		for _, d := range all {
			if d.Severity == diag.Info && !w.checkNotes {
				continue
			}
			got = append(got, fmt.Sprintf("%s %s %s", d.Severity, d.Code, posText(d.Pos)))
		}
		sort.Strings(got)
		wantChecks := append([]string{}, w.checks...)
		sort.Strings(wantChecks)
		if strings.Join(got, "\n") != strings.Join(wantChecks, "\n") {
			var detail strings.Builder
			for _, d := range all {
				fmt.Fprintf(&detail, "  %s %s %s: %s\n    fix: %s\n", d.Severity, d.Code, posText(d.Pos), d.Message, d.Hint)
			}
			t.Errorf("%s: check findings differ\nwant:\n  %s\ngot:\n  %s\ndetail:\n%s", p, strings.Join(wantChecks, "\n  "), strings.Join(got, "\n  "), detail.String())
		}
		if w.refuses == "-" && res.Error != "" {
			t.Errorf("%s: k3s starts, but the result says it refuses: %s", p, res.Error)
		} else if w.refuses != "-" && !strings.Contains(res.Error, w.refuses) {
			t.Errorf("%s: want a refusal containing %q, got %q", p, w.refuses, res.Error)
		}
		for _, d := range all {
			if d.Severity != diag.Info && d.Pos.IsZero() {
				t.Errorf("%s: %s %s has no position (every error and warning names file:line:column)", p, d.Severity, d.Code)
			}
			for _, h := range w.hints[d.Code] {
				if !strings.Contains(d.Hint, h) {
					t.Errorf("%s: the fix of %s is %q; want it to contain %q", p, d.Code, d.Hint, h)
				}
			}
			for _, h := range w.hintsNot[d.Code] {
				if strings.Contains(d.Hint, h) {
					t.Errorf("%s: the fix of %s is %q; it must not contain %q", p, d.Code, d.Hint, h)
				}
			}
			if res.Product == "rke2" {
				for _, k3sism := range []string{"K3S_", "INSTALL_K3S", "get.k3s.io", "k3s.service", "k3s-agent", "/rancher/k3s", "servicelb, traefik"} {
					if strings.Contains(d.Message+d.Hint, k3sism) {
						t.Errorf("%s: an RKE2 finding names k3s's %q: %s / %s", p, k3sism, d.Message, d.Hint)
					}
				}
			}
		}
		for code := range w.hints {
			found := false
			for _, d := range all {
				found = found || d.Code == code
			}
			if !found {
				t.Errorf("%s: hint %s: no such finding", p, code)
			}
		}
		for name, v := range w.values {
			k := res.Key(name)
			if k == nil {
				t.Errorf("%s: value %s: the command has no such key", p, name)
				continue
			}
			if got := report.FormatValue(k.Value); got != v {
				t.Errorf("%s: %s = %s, want %s", p, name, got, v)
			}
		}
		if len(w.comps) > 0 {
			rep := components.Inspect(fs, res)
			states := map[string]string{}
			for _, c := range rep.Components {
				states[c.Name] = string(c.State)
			}
			for name, st := range w.comps {
				if states[name] != st {
					t.Errorf("%s: component %s is %q, want %q", p, name, states[name], st)
				}
			}
		}
	})
}

// TestRealWorldCorpusCount keeps the number docs/real-world.md states in step.
func TestRealWorldCorpusCount(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/realworld/*.txtar")
	data, err := readDoc()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data, "holds "+strconv.Itoa(len(paths))+" ") {
		t.Errorf("docs/real-world.md does not say the corpus holds %d shapes", len(paths))
	}
}

func readDoc() (string, error) {
	b, err := os.ReadFile("../docs/real-world.md")
	return string(b), err
}

// TestWrongNamesDocumented keeps docs/real-world.md's table in step with profile's.
func TestWrongNamesDocumented(t *testing.T) {
	data, err := readDoc()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*profile.Profile{profile.K3s(), profile.RKE2()} {
		for _, w := range p.WrongNames() {
			if !strings.Contains(data, "| "+p.Name+" |") && !(p.Name == "rke2" && w.Kind == "key") {
				t.Errorf("docs/real-world.md has no %s rows", p.Name)
			}
			if !strings.Contains(data, "`"+w.Name+"`") {
				t.Errorf("docs/real-world.md does not list the wrong name %q (%s)", w.Name, p.Name)
			}
		}
	}
}
