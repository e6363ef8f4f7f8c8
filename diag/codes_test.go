package diag

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/diagnostics.md from Codes")

const diagnosticsPage = "../docs/diagnostics.md"

// pageIntro opens docs/diagnostics.md; the table after it is Codes.
const pageIntro = `<!-- Generated from diag/codes.go by go generate ./diag. Do not edit: edit Codes there. -->

# Diagnostics

[README](../README.md) · [all docs](README.md)

` + "`k3sconf check`" + ` prints every finding; ` + "`explain`" + ` shows the ones about a key next to it, and
` + "`show --json`" + ` carries them in ` + "`diagnostics`" + `. Severities: **error** — k3s refuses to start or
does something other than what was written; **warning** — a trap that bites now or when a
neighbouring setting changes; **info** — worth knowing. Codes are stable.

Each code has a node that triggers it and one that does not — ` + "`testdata/diagnostics/<code>.txtar`" + `
for the resolver's codes, ` + "`testdata/components/diagnostics/`" + ` for ` + "`component-*`" + `, table
tests in ` + "`compose/`" + `, ` + "`identity/`" + ` and ` + "`live/`" + ` for theirs. This page is generated from the
table in ` + "`diag/codes.go`" + `, and tests fail when a package emits a code that has no row there,
when a row names a code nothing emits, or when this page is out of date.

| code | severity | what it means | example |
|---|---|---|---|
`

// renderPage is docs/diagnostics.md.
func renderPage() string {
	var b strings.Builder
	b.WriteString(pageIntro)
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, c := range Codes {
		b.WriteString("| `" + c.Code + "` | " + cell(c.Severity) + " | " + cell(c.Meaning) + " | " + cell(c.Example) + " |\n")
	}
	return b.String()
}

func TestDiagnosticsPage(t *testing.T) {
	want := renderPage()
	if *update {
		if err := os.WriteFile(diagnosticsPage, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(diagnosticsPage)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s is stale; run go generate ./diag (-want +got):\n%s", diagnosticsPage, diff)
	}
}

func TestCodesTable(t *testing.T) {
	sev := regexp.MustCompile(`^(error|warning|info)(; .+)?$`)
	name := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for i, c := range Codes {
		if !name.MatchString(c.Code) {
			t.Errorf("Codes[%d]: code %q is not lower-case words joined by hyphens", i, c.Code)
		}
		if i > 0 && Codes[i-1].Code >= c.Code {
			t.Errorf("Codes[%d]: %q comes after %q: keep the table sorted and without duplicates", i, c.Code, Codes[i-1].Code)
		}
		if !sev.MatchString(c.Severity) {
			t.Errorf("%s: severity %q must start with error, warning or info", c.Code, c.Severity)
		}
		if strings.TrimSpace(c.Meaning) == "" || strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: meaning and example are both required", c.Code)
		}
		if strings.Contains(c.Meaning+c.Example+c.Severity, "\n") {
			t.Errorf("%s: a table cell cannot hold a line break", c.Code)
		}
	}
	if _, ok := Lookup("k3s-refuses"); !ok {
		t.Error(`Lookup("k3s-refuses") = false`)
	}
	if _, ok := Lookup("no-such-code"); ok {
		t.Error(`Lookup("no-such-code") = true`)
	}
}

// emitPatterns match the ways packages name a code when they emit one: Code: "x" in a
// Diagnostic literal, d.Code = "x", the helpers add(diag.Sev, "x", …), addDiag(…),
// s.diag(diag.Sev, "x", …), warn("x", …), and CodeX = "x" constants.
var emitPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\bCode:\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bCode = "([a-z0-9-]+)"`),
	regexp.MustCompile(`\b(?:add|addDiag|diag)\(diag\.[A-Za-z]+,\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\bwarn\("([a-z0-9-]+)"`),
	regexp.MustCompile(`\bCode[A-Z][A-Za-z0-9]*\s*=\s*"([a-z0-9-]+)"`),
	regexp.MustCompile(`\brefuse\("([a-z0-9-]+)"`),
}

// emittedCodes greps every non-test Go file of the module (but this table) for codes, and
// returns each with the first file that emits it.
func emittedCodes(t *testing.T) map[string]string {
	t.Helper()
	seen := map[string]string{}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Clean(p) == filepath.Join("..", "diag", "codes.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, re := range emitPatterns {
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				if _, ok := seen[m[1]]; !ok {
					seen[m[1]] = p
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Guard against patterns that silently stop matching: one code from each way of
	// emitting, and from each package that emits, must be found.
	for _, c := range []string{"k3s-refuses", "cli-two-forms", "unit-no-execstart", "unit-escape", "envfile-export",
		"unit-syntax", "yaml-extra-document", "component-not-server", "compose-no-k3s", "identity-name-invalid",
		"live-no-proc", "live-value-differs"} {
		if _, ok := seen[c]; !ok {
			t.Fatalf("the code scan no longer finds %q; update emitPatterns", c)
		}
	}
	return seen
}

func TestEveryCodeIsDocumented(t *testing.T) {
	emitted := emittedCodes(t)
	codes := make([]string, 0, len(emitted))
	for c := range emitted {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		if _, ok := Lookup(c); !ok {
			t.Errorf("%s emits %s, which has no line in Codes (diag/codes.go): add\n\t{%q, \"SEVERITY\", \"what it means\", \"an example\"},\nthen run go generate ./diag", emitted[c], c, c)
		}
	}
	for _, c := range Codes {
		if _, ok := emitted[c.Code]; !ok {
			t.Errorf("Codes has %s, which no package emits any more: remove its line (or fix emitPatterns)", c.Code)
		}
	}
}
