package fleet_test

// Finding scenarios: testdata/fleet/<code>.txtar (and <code>--<variant>.txtar) hold a
// fleet that triggers the code (trigger/…) and a minimal variation that does not
// (clean/…). The comment holds a description and `want: SEVERITY`. Each top-level entry of
// a fleet is one input as on the command line: nodes.json is --nodes-json, a folder is a
// node folder, a *.json file a show document. want/trigger.txt and want/clean.txt are the
// text reports (go test ./fleet -update rewrites them).

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/internal/fleetreport"
	"github.com/k3sconf/k3sconf/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/fleet/*.txtar")

const scenarioDir = "../testdata/fleet"

// runFleet loads every top-level entry of dir/side as one input, as the command does.
func runFleet(t *testing.T, side string) *fleet.Report {
	t.Helper()
	ents, err := os.ReadDir(side)
	if err != nil {
		t.Fatal(err)
	}
	l := &fleet.Loader{}
	var nodes []*fleet.Node
	var bad []fleet.InputError
	for _, e := range ents {
		p := filepath.Join(side, e.Name())
		if e.Name() == "nodes.json" {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			n, b := l.Data(data, p)
			nodes, bad = append(nodes, n...), append(bad, b...)
			continue
		}
		n, b := l.Path(p)
		nodes, bad = append(nodes, n...), append(bad, b...)
	}
	return fleet.Analyze(nodes, bad)
}

func extract(t *testing.T, ar *txtar.Archive) []txtar.File {
	t.Helper()
	var inputs []txtar.File
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		inputs = append(inputs, f)
		if err := os.MkdirAll(filepath.Dir(f.Name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return inputs
}

var wantRE = regexp.MustCompile(`(?m)^want: (error|warning|info)$`)

func TestScenarios(t *testing.T) {
	golden.Archives(t, filepath.Join(scenarioDir, "*.txtar"), func(t *testing.T, p string, ar *txtar.Archive) {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		code, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(p), ".txtar"), "--")
		m := wantRE.FindStringSubmatch(string(ar.Comment))
		if m == nil {
			t.Fatalf("%s: the comment has no `want: SEVERITY` line", p)
		}
		if err := golden.CheckNames(ar, "trigger/", "clean/", "want/"); err != nil {
			t.Fatal(err)
		}
		t.Chdir(t.TempDir())
		inputs := extract(t, ar)
		got := map[string]string{}
		for _, side := range []string{"trigger", "clean"} {
			rep := runFleet(t, side)
			var found []*fleet.Finding
			for _, f := range rep.Findings {
				if f.Code == code {
					found = append(found, f)
				}
			}
			switch {
			case side == "trigger" && len(found) == 0:
				t.Errorf("%s: trigger fleet: no %s finding", p, code)
			case side == "trigger" && found[0].Severity != diag.Severity(m[1]):
				t.Errorf("%s: trigger fleet: %s has severity %s, want %s", p, code, found[0].Severity, m[1])
			case side == "clean" && len(found) > 0:
				t.Errorf("%s: clean fleet: want no %s, got %q", p, code, found[0].Message)
			}
			if side == "clean" && rep.Incomplete() {
				t.Errorf("%s: clean fleet: some input is unreadable: %+v", p, rep.Inputs)
			}
			var buf bytes.Buffer
			fleetreport.Text(&buf, rep)
			got["want/"+side+".txt"] = buf.String()
		}
		golden.Check(t, abs, ar, inputs, got, []string{"want/trigger.txt", "want/clean.txt"}, *update, "fleet "+code, "go test ./fleet -update")
	})
}

// TestEveryCodeHasAScenario keeps Codes, the codes in the source and the archives in step.
func TestEveryCodeHasAScenario(t *testing.T) {
	// The codes of analyze.go and of the checks in files beside it (ipfamily.go).
	var src []byte
	for _, f := range []string{"analyze.go", "ipfamily.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	inSource := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:diag\.(?:Error|Warning|Info)|sev), "([a-z0-9-]+)"`).FindAllStringSubmatch(string(src), -1) {
		inSource[m[1]] = true
	}
	for c := range inSource {
		if !slices.Contains(fleet.Codes, c) {
			t.Errorf("code %s is reported by analyze.go but not listed in fleet.Codes", c)
		}
	}
	for _, c := range fleet.Codes {
		if !inSource[c] {
			t.Errorf("fleet.Codes lists %s, which analyze.go never reports", c)
		}
		if _, err := os.Stat(filepath.Join(scenarioDir, c+".txtar")); err != nil {
			t.Errorf("code %s has no scenario %s.txtar", c, c)
		}
	}
}

func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, reason, path, want string
	}{
		{"missing", "a path that does not exist", filepath.Join(dir, "nope"), "no such file"},
		{"not-json", "a syntax error names line and column", write("bad.json", "{\n  \"kind\": \"List\",\n  oops\n}\n"), "line 3 column 3"},
		{"explain-doc", "a schemaVersion 2 document of another command", write("explain.json", `{"schemaVersion":2,"product":"k3s","command":"server","document":"explain","keys":{}}`), "a k3sconf explain document"},
		{"other-json", "JSON that is neither input", write("other.json", `{"a":1}`), "neither"},
		{"not-a-node", "a List of something else", write("pods.json", `{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p"}}]}`), `kind "Pod"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &fleet.Loader{}
			_, bad := l.Path(tc.path)
			if len(bad) != 1 || !strings.Contains(bad[0].Error, tc.want) {
				t.Errorf("%s: got %+v, want one error containing %q", tc.reason, bad, tc.want)
			}
		})
	}
}
