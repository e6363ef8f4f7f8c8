package compose

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
)

// TestDiagnosticCodes: for every code, a project that triggers it and the same project with
// the fix applied, which does not. TestEveryCodeIsCovered keeps this table and the code in
// step.
type diagCase struct {
	code, reason   string
	trigger, clean map[string]string
	want           diag.Severity
}

func diagCases() []diagCase {
	const good = "services:\n  k3s:\n    image: rancher/k3s:v1.33.1-k3s1\n    command: server\n    hostname: k3s\n    volumes:\n      - node:/etc/rancher/node\n      - ./data:/var/lib/rancher/k3s\nvolumes:\n  node: {}\n"
	return []diagCase{
		{"compose-name-not-pinned", "no hostname, node-name or K3S_NODE_NAME",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "", 1)},
			map[string]string{"/p/compose.yaml": good}, diag.Error},
		{"compose-node-password-lost", "/etc/rancher/node on no volume",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "      - node:/etc/rancher/node\n", "", 1)},
			map[string]string{"/p/compose.yaml": good}, diag.Error},
		{"compose-server-state-lost", "the data dir on the image's anonymous volume",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "      - ./data:/var/lib/rancher/k3s\n", "", 1)},
			map[string]string{"/p/compose.yaml": good}, diag.Error},
		{"compose-down-v", "identity on a named volume",
			map[string]string{"/p/compose.yaml": good},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "node:/etc/rancher/node", "./node:/etc/rancher/node", 1)}, diag.Info},
		{"compose-variable-unset", "${TOKEN:?} without TOKEN",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    environment:\n      - K3S_TOKEN=${TOKEN:?set it}\n", 1), "/p/.env": ""},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    environment:\n      - K3S_TOKEN=${TOKEN:?set it}\n", 1), "/p/.env": "TOKEN=x\n"}, diag.Info},
		{"compose-env-file-missing", "a required env_file that does not exist",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    env_file: k3s.env\n", 1)},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    env_file: k3s.env\n", 1), "/p/k3s.env": "A=b\n"}, diag.Error},
		{"compose-env-file-syntax", "an env_file line that is not NAME=value",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    env_file: k3s.env\n", 1), "/p/k3s.env": "NOT A LINE\n"},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    env_file: k3s.env\n", 1), "/p/k3s.env": "A=b\n"}, diag.Warning},
		{"compose-command-unknown", "a shell entrypoint hides k3s's arguments",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    command: server\n", "    entrypoint: [/bin/sh, -c]\n    command: [\"k3s server\"]\n", 1)},
			map[string]string{"/p/compose.yaml": good}, diag.Info},
		{"compose-no-k3s", "no service runs k3s",
			map[string]string{"/p/compose.yaml": "services:\n  web:\n    image: nginx\n"},
			map[string]string{"/p/compose.yaml": good}, diag.Info},
		{"compose-interpolation-invalid", "${VAR:default} (no - after the colon) is no interpolation compose accepts",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "rancher/k3s:v1.33.1-k3s1", "rancher/k3s:${K3S_VERSION:v1.33.1-k3s1}", 1)},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "rancher/k3s:v1.33.1-k3s1", "rancher/k3s:${K3S_VERSION:-v1.33.1-k3s1}", 1)}, diag.Error},
		{"compose-installer-variable", "INSTALL_K3S_EXEC in a container's environment does nothing",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    hostname: k3s\n", "    hostname: k3s\n    environment:\n      - INSTALL_K3S_EXEC=--disable traefik\n", 1)},
			map[string]string{"/p/compose.yaml": strings.Replace(good, "    command: server\n", "    command: server --disable traefik\n", 1)}, diag.Warning},
		{"compose-k3s-refuses", "an unknown flag stops k3s",
			map[string]string{"/p/compose.yaml": strings.Replace(good, "command: server", "command: server --no-deploy traefik", 1)},
			map[string]string{"/p/compose.yaml": good}, diag.Error},
	}
}

func TestDiagnosticCodes(t *testing.T) {
	for _, tc := range diagCases() {
		t.Run(tc.code, func(t *testing.T) {
			for i, files := range []map[string]string{tc.trigger, tc.clean} {
				host := afero.NewMemMapFs()
				for p, c := range files {
					afero.WriteFile(host, p, []byte(c), 0o644)
				}
				f, err := Load(host, "/p/compose.yaml", nil)
				if err != nil {
					t.Fatal(err)
				}
				rep := Check(host, f)
				ds := append([]diag.Diagnostic{}, rep.Diagnostics...)
				for _, n := range rep.Nodes {
					ds = append(ds, n.Diagnostics...)
				}
				found := false
				for _, d := range ds {
					if d.Code == tc.code && d.Severity == tc.want && d.Pos.File != "" {
						found = true
					}
				}
				if i == 0 && !found {
					t.Errorf("%s: trigger: want %s %s, got %v", tc.reason, tc.want, tc.code, ds)
				}
				if i == 1 && found {
					t.Errorf("%s: clean: want no %s, got %v", tc.reason, tc.code, ds)
				}
			}
		})
	}
}

func TestEveryCodeIsCovered(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range diagCases() {
		covered[tc.code] = true
	}
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`Code: +"(compose-[a-z0-9-]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, _ := os.ReadFile(f)
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			if !covered[m[1]] {
				t.Errorf("%s emits %s, which TestDiagnosticCodes does not cover", f, m[1])
			}
		}
	}
}
