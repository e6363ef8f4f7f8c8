package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// TestDropinTypesOnRealRoot: on a node read with --root (rootfs), a drop-in's type comes
// from the folder listing and the file is opened without following a final symlink first
// (docs/performance.md). What k3s does must not change: dotDFiles skips a real directory
// named *.yaml (DirEntry.IsDir), but not a symlink to a directory, which readConfigFile
// then fails to read; a symlink to a file is read through.
func TestDropinTypesOnRealRoot(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		setup        func(t *testing.T, d string)
		wantValue    string
		wantStates   []string // config sources, "role path state"
		wantErr      string   // substring of Result.Error; "" for none
	}{
		{
			name:   "real directory is skipped",
			reason: "dotDFiles skips entries whose DirEntry.IsDir is true",
			setup: func(t *testing.T, d string) {
				mkdir(t, filepath.Join(d, "20-dir.yaml"))
			},
			wantValue: "from-10",
			wantStates: []string{"config-dropin /etc/rancher/k3s/config.yaml.d/10-a.yaml read",
				"config-dropin /etc/rancher/k3s/config.yaml.d/20-dir.yaml ignored"},
		},
		{
			name:   "symlink to a file is read",
			reason: "the link is followed inside the root when the file is opened",
			setup: func(t *testing.T, d string) {
				write(t, filepath.Join(d, "..", "elsewhere.txt"), "node-name: from-link\n")
				link(t, "../elsewhere.txt", filepath.Join(d, "30-link.yaml"))
			},
			wantValue: "from-link",
			wantStates: []string{"config-dropin /etc/rancher/k3s/config.yaml.d/10-a.yaml read",
				"config-dropin /etc/rancher/k3s/config.yaml.d/30-link.yaml read"},
		},
		{
			name:   "symlink to a directory is not skipped",
			reason: "DirEntry describes the link, so k3s tries to read it and refuses to start",
			setup: func(t *testing.T, d string) {
				mkdir(t, filepath.Join(d, "..", "somedir"))
				link(t, "../somedir", filepath.Join(d, "40-dirlink.yaml"))
			},
			wantValue: "from-10",
			wantStates: []string{"config-dropin /etc/rancher/k3s/config.yaml.d/10-a.yaml read",
				"config-dropin /etc/rancher/k3s/config.yaml.d/40-dirlink.yaml unreadable"},
			wantErr: "is a directory",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			d := filepath.Join(root, "etc/rancher/k3s/config.yaml.d")
			mkdir(t, d)
			write(t, filepath.Join(d, "10-a.yaml"), "node-name: from-10\n")
			tc.setup(t, d)
			res, err := Resolve(Options{FS: rootfs.New(root), Command: "server"})
			if err != nil {
				t.Fatal(err)
			}
			var states []string
			for _, s := range res.Sources {
				if strings.HasPrefix(s.Role, "config-dropin") {
					states = append(states, s.Role+" "+s.Path+" "+s.State)
				}
			}
			if diff := cmp.Diff(tc.wantStates, states); diff != "" {
				t.Errorf("sources (-want +got) (%s):\n%s", tc.reason, diff)
			}
			if tc.wantErr == "" && res.Error != "" || !strings.Contains(res.Error, tc.wantErr) {
				t.Errorf("Error = %q, want containing %q (%s)", res.Error, tc.wantErr, tc.reason)
			}
			if tc.wantErr == "" {
				if got := res.Key("node-name").Value; got != tc.wantValue {
					t.Errorf("node-name = %v, want %s (%s)", got, tc.wantValue, tc.reason)
				}
			}
		})
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
