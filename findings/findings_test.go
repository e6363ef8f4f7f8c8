package findings_test

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/resolve"
)

func TestAll(t *testing.T) {
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte("disable: [local-path]\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: fs, Command: "server"})
	if err != nil {
		t.Fatal(err)
	}
	st := &live.Status{Diagnostics: []diag.Diagnostic{
		{Severity: diag.Info, Code: "live-no-proc", Message: "no /proc"},
		{Severity: diag.Warning, Code: "live-restart-needed", Pos: diag.Position{File: "/etc/rancher/k3s/config.yaml"}, Message: "changed"},
	}}
	codes := map[string]int{}
	for _, d := range findings.All(fs, res, st, "/node") {
		codes[d.Code]++
	}
	tests := []struct {
		name, reason, code string
		want               int
	}{
		{"components", "a server's components findings are included", "component-disable-unknown", 1},
		{"status", "status findings about the node are included", "live-restart-needed", 1},
		{"no-data", "status notes that only say nothing could be inspected are not", "live-no-proc", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if codes[tc.code] != tc.want {
				t.Errorf("%s: %s appears %d times, want %d (all: %v)", tc.reason, tc.code, codes[tc.code], tc.want, codes)
			}
		})
	}
	// An agent has no components: nothing from them, not even component-not-server.
	res, _ = resolve.Resolve(resolve.Options{FS: fs, Command: "agent"})
	for _, d := range findings.All(fs, res, nil, "/node") {
		if d.Code == "component-not-server" {
			t.Errorf("an agent's check lists %s", d.Code)
		}
	}
}
