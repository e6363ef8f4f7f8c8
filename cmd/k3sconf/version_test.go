package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuildVersion(t *testing.T) {
	tests := []struct {
		name      string
		bi        *debug.BuildInfo
		ok        bool
		ld        string
		ldRev     string
		wantVer   string
		wantRev   string
		wantDirty bool
		reason    string
	}{
		{"clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0a9847c"}, {Key: "vcs.modified", Value: "true"}}},
			true, "", "", "(devel)", "0a9847c", true, "go build in a checkout with changes"},
		{"go install @tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, true, "", "", "v0.3.0", "", false,
			"the module proxy's zip has no VCS information"},
		{"release", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, true, "0.3.0", "def", "0.3.0", "abc", false,
			"goreleaser's -X main.version wins over (devel); the stamped revision over -X main.revision"},
		{"release in a worktree", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "0.3.0", "def", "0.3.0", "def", false,
			"no VCS stamp (golang/go#58218): -X main.revision fills in"},
		{"no build info", nil, false, "", "", "(unknown)", "", false, "a binary without build info still answers"},
	}
	for _, tc := range tests {
		d := buildVersion(tc.bi, tc.ok, tc.ld, tc.ldRev)
		if d.Version != tc.wantVer || d.Revision != tc.wantRev || d.Modified != tc.wantDirty {
			t.Errorf("%s: got version %q revision %q modified %v; want %q %q %v (%s)", tc.name, d.Version, d.Revision, d.Modified, tc.wantVer, tc.wantRev, tc.wantDirty, tc.reason)
		}
		var b bytes.Buffer
		writeVersion(&b, d)
		if tc.wantDirty && !strings.Contains(b.String(), tc.wantRev+"+dirty") {
			t.Errorf("%s: the text does not mark the revision dirty:\n%s", tc.name, b.String())
		}
		if !strings.Contains(b.String(), "k3s v1.22.4 to v1.36.4+k3s1, RKE2 to v1.36.4+rke2r1") {
			t.Errorf("%s: the text does not name the modelled releases:\n%s", tc.name, b.String())
		}
	}
}

// TestVersionCommand: version, --version and version --json from the test binary; the
// envelope's first fields in order.
func TestVersionCommand(t *testing.T) {
	var a, b, j, e bytes.Buffer
	if code := run([]string{"version"}, &a, &e); code != exitOK {
		t.Fatalf("k3sconf version: exit %d: %s", code, e.String())
	}
	if code := run([]string{"--version"}, &b, &e); code != exitOK {
		t.Fatalf("k3sconf --version: exit %d: %s", code, e.String())
	}
	if diff := cmp.Diff(a.String(), b.String()); diff != "" {
		t.Errorf("--version differs from version:\n%s", diff)
	}
	if code := run([]string{"version", "--json"}, &j, &e); code != exitOK {
		t.Fatalf("k3sconf version --json: exit %d: %s", code, e.String())
	}
	if !strings.HasPrefix(j.String(), `{"schemaVersion":2,"product":"k3sconf","command":"version","document":"version",`) {
		t.Errorf("version --json does not start with the envelope: %s", j.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(j.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "go", "platform", "newestK3s", "newestRKE2", "oldestModelled", "modified"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("version --json lacks %q: %s", k, j.String())
		}
	}
	// The published schema names every field and requires what is always there.
	var schema struct {
		Required   []string       `json:"required"`
		Properties map[string]any `json:"properties"`
	}
	data, err := os.ReadFile("../../docs/schema/version.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	for _, k := range schema.Required {
		if _, ok := doc[k]; !ok {
			t.Errorf("version --json lacks %q, which the schema requires", k)
		}
	}
	for k := range doc {
		if _, ok := schema.Properties[k]; !ok {
			t.Errorf("version --json has %q, which docs/schema/version.schema.json does not describe", k)
		}
	}
	if code := run([]string{"version", "extra"}, &a, &e); code != exitUsage {
		t.Errorf("k3sconf version extra: exit %d, want %d", code, exitUsage)
	}
}

// TestVersionFromAClone builds the real binary in this checkout with VCS stamping (CI sets
// GOFLAGS=-buildvcs=false; the flag on the command line wins) and checks that it reports the
// checkout's HEAD, with +dirty exactly when git status shows changes.
func TestVersionFromAClone(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	head, err := exec.Command(git, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	// The go command finds a repository by its .git folder; a linked worktree has a .git
	// file, so go build stamps nothing there (golang/go#58218, still open in Go 1.26).
	dirs, err := exec.Command(git, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir").Output()
	if f := strings.Fields(string(dirs)); err == nil && len(f) == 2 && f[0] != f[1] {
		t.Skipf("a linked git worktree (%s): go build does not stamp VCS information there (golang/go#58218); a clone does", f[0])
	}
	bin := filepath.Join(t.TempDir(), "k3sconf")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	status, err := exec.Command(git, "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("k3sconf --version: %v", err)
	}
	// Since Go 1.24 the module version of a build in a checkout is a pseudo-version made from
	// the commit (v0.0.0-20261201003459-0b9f3f4de348, +dirty with changes), not (devel).
	rev := strings.TrimSpace(string(head))
	dirty := ""
	if len(bytes.TrimSpace(status)) > 0 {
		dirty = `\+dirty`
	}
	want := regexp.MustCompile(`^k3sconf (\(devel\)|v\S+-` + rev[:12] + dirty + `)\n  revision: ` + rev + dirty + `\n`)
	if !want.Match(out) {
		t.Errorf("k3sconf --version:\n%s\nwant it to match %s", out, want)
	}
}
