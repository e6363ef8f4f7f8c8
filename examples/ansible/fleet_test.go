// Package ansible_test runs examples/ansible/fleet.yml with the real ansible-playbook
// against an inventory of local hosts, each with its own k3sconf_root: once over a
// consistent fleet (the play succeeds) and once over a fleet with a server k3s would refuse
// (the play fails).
package ansible_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestFleetPlaybook(t *testing.T) {
	playbook, err := exec.LookPath("ansible-playbook")
	if err != nil {
		t.Skip("ansible-playbook not installed (Debian: apt-get install ansible-core); .ci/run installs it")
	}
	bin := filepath.Join(t.TempDir(), "k3sconf")
	build := exec.Command("go", "build", "-o", bin, "github.com/k3sconf/k3sconf/cmd/k3sconf")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The node folders of a fleet scenario: trigger/ refuses server-2, clean/ does not.
	ar, err := txtar.ParseFile("../../testdata/fleet/critical-mismatch--folders.txtar")
	if err != nil {
		t.Fatal(err)
	}
	nodes := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		p := filepath.Join(nodes, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, reason string
		fleet        string
		wantFail     bool
		want         string
	}{
		{"consistent", "two servers that agree: the play succeeds and prints the table", "clean", false, "consistent"},
		{"mismatch", "server-2 sets another cluster-cidr: fleet exits 1 and the play fails", "trigger", true, "critical-mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			var inv strings.Builder
			inv.WriteString("[nodes]\n")
			for _, h := range []string{"server-1", "server-2"} {
				fmt.Fprintf(&inv, "%s ansible_connection=local ansible_python_interpreter=%q k3sconf_root=%q\n",
					h, "{{ ansible_playbook_python }}", filepath.Join(nodes, tc.fleet, h))
			}
			invPath := filepath.Join(work, "inventory.ini")
			if err := os.WriteFile(invPath, []byte(inv.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			// Run from another folder with a relative k3sconf_fleet_dir: the documents land
			// there, not next to the playbook (where fetch would put a relative path).
			docs := filepath.Join(work, "fleet")
			pb, err := filepath.Abs("fleet.yml")
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(playbook, "-i", invPath, pb,
				"-e", "k3sconf_binary="+bin, "-e", "k3sconf_fleet_dir=fleet", "-e", "k3sconf_become=false")
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PWD="+work,
				"ANSIBLE_LOCAL_TEMP="+filepath.Join(work, "tmp"), "ANSIBLE_REMOTE_TEMP="+filepath.Join(work, "tmp"),
				"ANSIBLE_HOME="+filepath.Join(work, "home"), "ANSIBLE_NOCOLOR=1", "ANSIBLE_RETRY_FILES_ENABLED=false",
				"ANSIBLE_HOST_KEY_CHECKING=false", "ANSIBLE_DEPRECATION_WARNINGS=false")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err = cmd.Run()
			log := out.String()
			if failed := err != nil; failed != tc.wantFail {
				t.Fatalf("%s: play failed=%v (%v), want %v:\n%s", tc.reason, failed, err, tc.wantFail, log)
			}
			if !strings.Contains(log, tc.want) || !strings.Contains(log, "NODE") {
				t.Errorf("%s: the play's output has no fleet table with %q:\n%s", tc.reason, tc.want, log)
			}
			// One document per host, all with the same salt id.
			ids := map[string]bool{}
			for _, h := range []string{"server-1", "server-2"} {
				b, err := os.ReadFile(filepath.Join(docs, h+".json"))
				if err != nil {
					t.Fatalf("document of %s not fetched: %v", h, err)
				}
				m := regexp.MustCompile(`"saltId":"([0-9a-f]+)"`).FindSubmatch(b)
				if m == nil {
					t.Fatalf("%s.json has no salt id: the salt did not reach show", h)
				}
				ids[string(m[1])] = true
				if bytes.Contains(b, []byte("s3cr3t")) {
					t.Errorf("%s.json holds the token", h)
				}
			}
			if len(ids) != 1 {
				t.Errorf("the hosts used %d salts, want one for the run", len(ids))
			}
			// No secret in the log: neither the token nor the salt.
			if strings.Contains(log, "s3cr3t") || regexp.MustCompile(`--secret-salt\s+[A-Za-z0-9]{20,}|K3SCONF_SALT.{0,5}[A-Za-z0-9]{40}`).MatchString(log) {
				t.Errorf("a secret reached the play's log:\n%s", log)
			}
		})
	}
}
