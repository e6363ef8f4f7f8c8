package k3sconf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// readmeLimit keeps the README a page a newcomer reads; the reference lives in docs/.
const readmeLimit = 20000

func TestREADMEFitsTheLimit(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCount(data); n > readmeLimit {
		t.Errorf("README.md has %d characters; the limit is %d: move reference material to docs/", n, readmeLimit)
	}
	for _, must := range []string{"## Quick start", "go test ./...", "go install github.com/k3sconf/k3sconf/cmd/k3sconf@", "docs/fleet.md", "docs/kubespray.md"} {
		if !strings.Contains(string(data), must) {
			t.Errorf("README.md lost %q", must)
		}
	}
}

// TestDocLinks: every relative link in README.md and docs/*.md names a file that exists,
// and its #anchor a heading of that file as GitHub renders it.
func TestDocLinks(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md"}, files...)
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(data)) {
			target := l.target
			if regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`).MatchString(target) {
				continue // https:, mailto:
			}
			checked++
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: link %q: %v", f, l.line, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s:%d: link %q: an anchor into a file that is not markdown", f, l.line, target)
				continue
			}
			text, err := os.ReadFile(dest)
			if err != nil {
				t.Fatal(err)
			}
			if anchors := headingAnchors(string(text)); !anchors[anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", f, l.line, target, dest, anchor)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d relative links; the link pattern is out of date", checked)
	}
}

type mdLink struct {
	line   int
	target string
}

var linkRE = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// markdownLinks finds [text](target) outside fenced code blocks and code spans.
func markdownLinks(s string) []mdLink {
	var out []mdLink
	fenced := false
	for i, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		line = regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			out = append(out, mdLink{i + 1, m[1]})
		}
	}
	return out
}

// headingAnchors returns the anchors GitHub gives the headings of a markdown file: the
// heading's text without markup, lower-cased, with every character that is not a letter,
// digit, space, hyphen or underscore removed and spaces made hyphens; a repeated anchor gets
// -1, -2, … Explicit <a id="x"> and <a name="x"> count too.
func headingAnchors(s string) map[string]bool {
	anchors := map[string]bool{}
	count := map[string]int{}
	fenced := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range regexp.MustCompile(`<a (?:id|name)="([^"]+)"`).FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		slug := githubSlug(text)
		if n := count[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		count[slug]++
	}
	return anchors
}

func githubSlug(heading string) string {
	// Links keep their text; the rest of the markup goes.
	heading = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGithubSlug(t *testing.T) {
	tests := []struct{ name, heading, want, reason string }{
		{"code span", "Packaged components (`k3sconf components`)", "packaged-components-k3sconf-components", "backticks and parentheses are dropped"},
		{"question", "Has my change taken effect? (`status`)", "has-my-change-taken-effect-status", "punctuation is dropped, each space is a hyphen"},
		{"dots", "JSON output (schemaVersion 1)", "json-output-schemaversion-1", "lower-cased"},
		{"link", "See [RKE2](rke2.md) now", "see-rke2-now", "a link keeps its text"},
		{"underscore", "the my_app case", "the-my_app-case", "underscores stay"},
	}
	for _, tc := range tests {
		if got := githubSlug(tc.heading); got != tc.want {
			t.Errorf("%s: githubSlug(%q) = %q, want %q (%s)", tc.name, tc.heading, got, tc.want, tc.reason)
		}
	}
}

// TestReleaseConfig: .goreleaser.yaml builds what the README's install section promises —
// static linux amd64, arm64 and armv7 binaries in k3sconf_<version>_linux_<arch>.tar.gz with
// checksums.txt. (goreleaser check, in CI, validates the file itself.)
func TestReleaseConfig(t *testing.T) {
	data, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main   string   `yaml:"main"`
			Env    []string `yaml:"env"`
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
			Goarm  []string `yaml:"goarm"`
		} `yaml:"builds"`
		Archives []struct {
			Formats      []string `yaml:"formats"`
			NameTemplate string   `yaml:"name_template"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("want version: 2, one build and one archive; got %+v", cfg)
	}
	b, a := cfg.Builds[0], cfg.Archives[0]
	got := fmt.Sprintf("main=%s env=%v goos=%v goarch=%v goarm=%v formats=%v checksum=%s",
		b.Main, b.Env, b.Goos, b.Goarch, b.Goarm, a.Formats, cfg.Checksum.NameTemplate)
	want := "main=./cmd/k3sconf env=[CGO_ENABLED=0] goos=[linux] goarch=[amd64 arm64 arm] goarm=[7] formats=[tar.gz] checksum=checksums.txt"
	if got != want {
		t.Errorf(".goreleaser.yaml:\n got %s\nwant %s", got, want)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(a.NameTemplate) != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}{{ with .Arm }}v{{ . }}{{ end }}" ||
		!strings.Contains(string(readme), "k3sconf_${V}_linux_$ARCH.tar.gz") || !strings.Contains(string(readme), "# amd64, arm64 or armv7") {
		t.Errorf("the archive name template %q and the README's install section disagree", a.NameTemplate)
	}
}
