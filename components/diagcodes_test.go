package components_test

// Diagnostic scenarios: testdata/components/diagnostics/<code>.txtar holds, for one code, a
// server that triggers it and a minimal variation (the fix applied) that does not. The
// comment holds a description, then `want: SEVERITY POSITION` ("-" for no position) and
// optionally `command:` (both nodes), `trigger-command:` or `clean-command:`. Files named
// trigger/<path> and clean/<path> are the two nodes. TestEveryCodeHasAScenario keeps the
// codes in components/*.go and the archives in step.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

const diagDir = "../testdata/components/diagnostics"

func TestDiagnosticScenarios(t *testing.T) {
	golden.Archives(t, filepath.Join(diagDir, "*.txtar"), func(t *testing.T, p string, ar *txtar.Archive) {
		code := strings.TrimSuffix(filepath.Base(p), ".txtar")
		sev, pos, cmds, err := parseDiagComment(string(ar.Comment))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, node := range []string{"trigger", "clean"} {
			fs, _, err := golden.LoadFiles(ar, node+"/")
			if err != nil {
				t.Fatal(err)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs, Command: cmds[node]})
			if err != nil {
				t.Fatal(err)
			}
			rep := components.Inspect(fs, res)
			var found []diag.Diagnostic
			for _, d := range rep.Diagnostics {
				if d.Code == code {
					found = append(found, d)
				}
			}
			if node == "clean" {
				if len(found) > 0 {
					t.Errorf("%s: clean node: want no %s, got %v", p, code, found)
				}
				continue
			}
			ok := false
			for _, d := range found {
				ok = ok || (d.Severity == sev && d.Pos == pos)
			}
			if !ok {
				t.Errorf("%s: trigger node: want %s %s at %q; got %v", p, sev, code, pos, rep.Diagnostics)
			}
		}
	})
}

func parseDiagComment(c string) (diag.Severity, diag.Position, map[string]string, error) {
	cmds := map[string]string{}
	var sev diag.Severity
	var pos diag.Position
	for _, l := range strings.Split(c, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok || strings.ContainsAny(k, " \t") {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "want":
			s, p, _ := strings.Cut(v, " ")
			sev = diag.Severity(s)
			if p != "-" {
				parts := strings.Split(p, ":")
				pos.File = parts[0]
				if len(parts) > 1 {
					pos.Line, _ = strconv.Atoi(parts[1])
				}
				if len(parts) > 2 {
					pos.Column, _ = strconv.Atoi(parts[2])
				}
			}
		case "command":
			cmds["trigger"], cmds["clean"] = v, v
		case "trigger-command":
			cmds["trigger"] = v
		case "clean-command":
			cmds["clean"] = v
		}
	}
	if sev == "" {
		return sev, pos, nil, fmt.Errorf("no want: line")
	}
	return sev, pos, cmds, nil
}

// TestManifestsUnreadable needs a real dangling symbolic link, which MemMapFs cannot hold.
func TestManifestsUnreadable(t *testing.T) {
	for _, dangling := range []bool{true, false} {
		dir := t.TempDir()
		m := filepath.Join(dir, "var/lib/rancher/k3s/server/manifests")
		if err := os.MkdirAll(m, 0o755); err != nil {
			t.Fatal(err)
		}
		target := "/gone.yaml"
		if !dangling {
			target = "/var/lib/rancher/k3s/server/manifests/real.yaml"
			os.WriteFile(filepath.Join(m, "real.yaml"), []byte("kind: Namespace\n"), 0o644)
		}
		if err := os.Symlink(target, filepath.Join(m, "link.yaml")); err != nil {
			t.Skip(err)
		}
		node := k3sconf.Node(dir)
		res, _ := resolve.Resolve(resolve.Options{FS: node, Command: "server"})
		rep := components.Inspect(node, res)
		got := false
		for _, d := range rep.Diagnostics {
			if d.Code == "component-manifests-unreadable" && d.Severity == diag.Error && d.Pos.File == "/var/lib/rancher/k3s/server/manifests/link.yaml" {
				got = true
			}
		}
		if got != dangling {
			t.Errorf("dangling=%v: component-manifests-unreadable reported = %v; diagnostics: %v", dangling, got, rep.Diagnostics)
		}
	}
}

// TestRKE2Components: RKE2's own rules decide its charts (rancher/rke2 pkg/cli/cmds
// server.go validateCNI, root.go validateCloudProvider, pkg/bootstrap updateManifests).
func TestRKE2Components(t *testing.T) {
	tests := []struct {
		name, reason, config string
		want                 map[string]components.State
	}{
		{"default", "cni defaults to canal; ingress to traefik when no ingress-nginx chart is deployed", "",
			map[string]components.State{"rke2-canal": components.Enabled, "rke2-cilium": components.Disabled, "rke2-calico-crd": components.Disabled,
				"rke2-multus": components.Disabled, "rke2-traefik": components.Enabled, "rke2-ingress-nginx": components.Disabled, "rancher-vsphere-cpi": components.Disabled}},
		{"cilium-nginx", "the selected CNI and ingress are enabled, the others disabled", "cni: cilium\ningress-controller: ingress-nginx\n",
			map[string]components.State{"rke2-canal": components.Disabled, "rke2-cilium": components.Enabled, "rke2-traefik": components.Disabled,
				"rke2-traefik-crd": components.Disabled, "rke2-ingress-nginx": components.Enabled}},
		{"multus", "multus first keeps rke2-multus", "cni: [multus, canal]\n",
			map[string]components.State{"rke2-multus": components.Enabled, "rke2-canal": components.Enabled, "rke2-flannel": components.Disabled}},
		{"vsphere", "the selected cloud provider's charts stay", "cloud-provider-name: rancher-vsphere\n",
			map[string]components.State{"rancher-vsphere-cpi": components.Enabled, "rancher-vsphere-csi": components.Enabled, "harvester-csi-driver": components.Disabled}},
		{"user-disable", "disable items from config count as for k3s", "disable: [rke2-metrics-server]\n",
			map[string]components.State{"rke2-metrics-server": components.Disabled, "rke2-coredns": components.Enabled}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := inspectRKE2Server(t, tc.config)
			got := map[string]components.State{}
			for _, c := range rep.Components {
				got[c.Name] = c.State
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s: %s is %q, want %q", tc.reason, name, got[name], want)
				}
			}
		})
	}
}

// TestEveryCodeHasAScenario: every code the package emits has an archive, or a Go test
// named in covered.
func TestEveryCodeHasAScenario(t *testing.T) {
	covered := map[string]bool{"component-manifests-unreadable": true}
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`Code: +"(component-[a-z0-9-]+)"`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			seen++
			if covered[m[1]] {
				continue
			}
			if _, err := os.Stat(filepath.Join(diagDir, m[1]+".txtar")); err != nil {
				t.Errorf("%s emits %s but %s/%s.txtar does not exist", f, m[1], diagDir, m[1])
			}
		}
	}
	if seen == 0 {
		t.Fatal("found no codes; the pattern is out of date")
	}
}

// TestRKE2DisableFindings: RKE2 servers get findings only about what the user wrote, in
// RKE2's names (issue 16: every RKE2 server with cni: got component-disable-unknown for the
// rke2-*-crd items k3sconf itself added, with k3s's component names as the fix).
func TestRKE2DisableFindings(t *testing.T) {
	tests := []struct {
		name, reason, config string
		wantUnknown          []string // items reported as component-disable-unknown
		wantHint             string   // a fix text that must appear
	}{
		{"cni-cilium", "the CNI charts RKE2 disables itself are not the user's items", "cni: cilium\n", nil, ""},
		{"cni-multus-canal", "multus first: still nothing the user wrote is unknown", "cni: [multus, canal]\ndisable: [rke2-ingress-nginx]\n", nil, ""},
		{"k3s-name", "traefik is k3s's name; RKE2's chart is rke2-traefik", "cni: canal\ndisable: [traefik]\n", []string{"traefik"}, "write rke2-traefik instead of traefik"},
		{"unknown", "an unknown item lists RKE2's chart names, not k3s's", "disable: [foo]\n", []string{"foo"}, "rke2-coredns"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			hints := ""
			for _, d := range inspectRKE2Server(t, tc.config).Diagnostics {
				if d.Code == "component-disable-unknown" {
					got = append(got, strings.Split(d.Message, "\"")[1])
					hints += d.Hint + "\n"
					if d.Pos.IsZero() {
						t.Errorf("%s: %s has no position", tc.reason, d.Code)
					}
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.wantUnknown, ",") {
				t.Errorf("%s: unknown items %v, want %v", tc.reason, got, tc.wantUnknown)
			}
			if !strings.Contains(hints, tc.wantHint) {
				t.Errorf("%s: fix %q does not contain %q", tc.reason, hints, tc.wantHint)
			}
			if strings.Contains(hints, "servicelb") {
				t.Errorf("%s: an RKE2 fix names k3s's components: %q", tc.reason, hints)
			}
		})
	}
}

// inspectRKE2Server inspects the components of an RKE2 server whose config.yaml is config.
func inspectRKE2Server(t *testing.T, config string) *components.Report {
	t.Helper()
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "/etc/rancher/rke2/config.yaml", []byte(config), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: fs, Profile: profile.RKE2(), Command: "server"})
	if err != nil {
		t.Fatal(err)
	}
	return components.Inspect(fs, res)
}
