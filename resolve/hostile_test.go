package resolve_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

const unitPath = "/etc/systemd/system/k3s.service"
const configPath = "/etc/rancher/k3s/config.yaml"

func deep(n int) string {
	return "a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
}

func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 12; i++ {
		b.WriteString("a")
		b.WriteString(string(rune('0' + i%10)))
		b.WriteString(strings.Repeat("z", i))
		b.WriteString(": &b")
		b.WriteString(strings.Repeat("z", i))
		b.WriteString(" [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			if i == 1 {
				b.WriteString("*a0")
			} else {
				b.WriteString("*b" + strings.Repeat("z", i-1))
			}
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestHostileNodes feeds broken and malicious inputs through the whole resolver and the JSON
// renderer: each must end with a positioned error or a valid report, never a panic, and the
// JSON document must stay one valid object.
func TestHostileNodes(t *testing.T) {
	tests := []struct {
		name, reason string
		files        map[string]string
		wantInvalid  bool   // k3sconf reports the input as unreadable or invalid (InputInvalid)
		wantErrPart  string // part of Result.Error
	}{
		{"garbage-config", "random bytes are a YAML error with a line", map[string]string{configPath: "\x00\x01\xff\xfe]]]{{{:::\n"}, true, "config.yaml:"},
		{"nul-in-value", "a NUL byte is not allowed in YAML", map[string]string{configPath: "token: a\x00b\n"}, true, "config.yaml:1"},
		{"non-utf8-config", "invalid UTF-8 is a YAML error", map[string]string{configPath: "node-name: \xc3\x28\n"}, true, "config.yaml:1"},
		{"crlf-config", "CRLF line endings read as LF", map[string]string{configPath: "node-name: a\r\ncluster-init: true\r\n"}, false, ""},
		{"alias-bomb", "exponential aliases stop at yaml.v2's limit", map[string]string{configPath: aliasBomb()}, true, "excessive aliasing"},
		{"deep-nesting", "ten thousand nested lists are valid YAML for yaml.v2 (k3s keeps the first innermost item); no stack overflow", map[string]string{configPath: deep(10000)}, false, ""},
		{"long-unit-line", "a 0.9 MB ExecStart line is within systemd's 1 MiB line limit and is read", map[string]string{unitPath: "[Service]\nExecStart=/usr/local/bin/k3s server " + strings.Repeat("'--node-label=a=b' ", 50000) + "\n"}, false, ""},
		{"huge-unit-line", "a 1.9 MB line is over systemd's LONG_LINE_MAX: systemd refuses the unit (\"Line too long\")", map[string]string{unitPath: "[Service]\nExecStart=/usr/local/bin/k3s server " + strings.Repeat("'--node-label=a=b' ", 100000) + "\n"}, true, "Line too long"},
		{"huge-continuation", "joined continuation lines over 1 MiB: \"Continuation line too long\"", map[string]string{unitPath: "[Service]\nExecStart=/usr/local/bin/k3s server \\\n" + strings.Repeat("'--node-label=a=b' \\\n", 60000) + "\n"}, true, "Continuation line too long"},
		{"huge-env-file", "a large env file is read", map[string]string{unitPath: "[Service]\nEnvironmentFile=/e\nExecStart=/usr/local/bin/k3s server\n", "/e": strings.Repeat("K3S_NODE_NAME=x\n", 200000)}, false, ""},
		{"config-is-dir", "a directory where config.yaml should be is a read error, as for k3s", map[string]string{configPath + "/x": "a: b\n"}, true, "is a directory"},
		{"dropins-is-file", "a file where config.yaml.d should be is fatal for k3s too", map[string]string{configPath: "a: b\n", configPath + ".d": "x"}, true, "config.yaml.d"},
		{"unit-is-dir", "a directory named like the unit is skipped (the config file makes it a node)", map[string]string{unitPath + "/x": "x", configPath: "node-name: a\n"}, false, ""},
		{"binary-unit", "binary garbage in the unit is reported, not fatal to k3sconf", map[string]string{unitPath: "\x00\x01\x02[Service\nExecStart=\xff\n"}, true, ""},
		{"too-large", "a file over k3sconf's size limit: incomplete, and not refused (k3s reads a file of any size; checked below)", map[string]string{configPath: strings.Repeat("#", 17<<20)}, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for p, c := range tc.files {
				if err := afero.WriteFile(fs, p, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatalf("%s: Resolve returned %v; node problems belong in the result", tc.reason, err)
			}
			if res.InputInvalid() != tc.wantInvalid {
				t.Errorf("%s: InputInvalid = %v, want %v (error %q)", tc.reason, res.InputInvalid(), tc.wantInvalid, res.Error)
			}
			if tc.name == "too-large" {
				if res.Refused() || !res.Incomplete() {
					t.Errorf("%s: Refused %v (error %q), Incomplete %v", tc.reason, res.Refused(), res.Error, res.Incomplete())
				}
				named := false
				for _, d := range res.Diagnostics {
					named = named || d.Code == "input-unreadable" && strings.Contains(d.Message, "limit")
				}
				if !named {
					t.Errorf("%s: the finding must name the limit: %v", tc.reason, res.Diagnostics)
				}
			}
			if tc.wantErrPart != "" && !strings.Contains(res.Error, tc.wantErrPart) {
				t.Errorf("%s: error %q does not mention %q", tc.reason, res.Error, tc.wantErrPart)
			}
			var buf bytes.Buffer
			if err := json.NewEncoder(&buf).Encode(nodereport.JSON(res, report.NewRedactor(res, false))); err != nil {
				t.Fatalf("%s: JSON: %v", tc.reason, err)
			}
			var doc map[string]any
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatalf("%s: the JSON document does not parse: %v", tc.reason, err)
			}
			if tc.wantInvalid {
				if _, ok := doc["error"]; !ok && res.Error != "" {
					t.Errorf("%s: JSON lacks the error field", tc.reason)
				}
			}
		})
	}
}

// TestHostileLinks: symlink loops and links out of the root, on a real directory.
func TestHostileLinks(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("token: host-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "etc/rancher/k3s")
	if err := os.MkdirAll(dir+"/config.yaml.d", 0o755); err != nil {
		t.Fatal(err)
	}
	// config.yaml is an absolute link to the host's file; a drop-in loops.
	if err := os.Symlink(outside, filepath.Join(dir, "config.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop.yaml", filepath.Join(dir, "config.yaml.d/loop.yaml")); err != nil {
		t.Fatal(err)
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(root)})
	if err != nil {
		t.Fatal(err)
	}
	if k := res.Key("token"); k != nil && k.Value == "host-secret" {
		t.Fatal("a link out of the root was followed to the host's file")
	}
	if !strings.Contains(res.Error, "too many levels of symbolic links") {
		t.Errorf("the drop-in loop must be reported as k3s would see it, got %q", res.Error)
	}
}
