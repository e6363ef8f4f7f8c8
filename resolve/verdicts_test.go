package resolve_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestIssue20Verdicts pins, each way, the verdicts issue 20 corrected: the finding (code and
// severity) a node gets, or that it gets none of the codes listed.
func TestIssue20Verdicts(t *testing.T) {
	const agentUnit = "[Service]\nType=exec\nExecStart=/usr/local/bin/k3s agent\n"
	tests := []struct {
		name, reason string
		files        map[string]string
		command      string
		want         map[string]diag.Severity // code → severity; diag.Severity("") = absent
		hint         string                   // part of the first wanted finding's fix
	}{
		{"repeated-command-last", "a second server with nothing after it loses nothing: a note, and no positional warning",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server '--cluster-init' 'server'\n"}, "",
			map[string]diag.Severity{"cli-repeated-command": diag.Info, "cli-positional": ""}, ""},
		{"repeated-command-flags-after", "flags after the second server are ignored: still an error",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server '--cluster-init' 'server' '--disable=traefik'\n"}, "",
			map[string]diag.Severity{"cli-repeated-command": diag.Error}, ""},
		{"json-keys", "a double-quoted key is a string: no yaml-typed-key",
			map[string]string{"/etc/rancher/k3s/config.yaml": "{\"cluster-init\": true, \"node-label\": [\"a=b\"]}\n"}, "server",
			map[string]diag.Severity{"yaml-typed-key": ""}, ""},
		{"typed-key", "a plain on: is still typed (the triggering case)",
			map[string]string{"/etc/rancher/k3s/config.yaml": "on: true\n"}, "server",
			map[string]diag.Severity{"yaml-typed-key": diag.Warning}, ""},
		{"k3s-agent-9345", "a k3s agent at RKE2's supervisor port",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://10.0.0.1:9345\ntoken: t\n"}, "agent",
			map[string]diag.Severity{"server-url-port": diag.Warning}, "https://10.0.0.1:6443"},
		{"k3s-agent-6443", "k3s serves agents on 6443: quiet",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://10.0.0.1:6443\ntoken: t\n"}, "agent",
			map[string]diag.Severity{"server-url-port": "", "join-url-invalid": "", "server-url-loopback": ""}, ""},
		{"no-port", "no port dials 443",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: https://k3s.example.com\ntoken: t\n"}, "agent",
			map[string]diag.Severity{"server-url-port": diag.Warning}, "https://k3s.example.com:6443"},
		{"server-no-token", "a server without a token ignores --server (managed.go): its port is never dialled",
			map[string]string{"/etc/rancher/k3s/config.yaml": "server: https://10.0.0.1:9345\n"}, "server",
			map[string]diag.Severity{"server-url-port": ""}, ""},
		{"server-joining", "a joining server (token set) dials the URL like an agent",
			map[string]string{"/etc/rancher/k3s/config.yaml": "server: https://10.0.0.1:9345\ntoken: t\n"}, "server",
			map[string]diag.Severity{"server-url-port": diag.Warning}, "https://10.0.0.1:6443"},
		{"url-password", "a password in the server URL never reaches the finding (http: k3s's own join-url-invalid, with its message)",
			map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/rancher/k3s/config.yaml": "server: http://admin:hunter2@10.0.0.1:6443\ntoken: t\n"}, "agent",
			map[string]diag.Severity{"join-url-invalid": diag.Error}, "admin:REDACTED@10.0.0.1:6443"},
		{"no-deploy-agent", "agents have no --disable: the fix must not say rename to disable",
			map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nEnvironment=K3S_URL=https://10.0.0.1:6443 K3S_TOKEN=t\nExecStart=/usr/local/bin/k3s agent --no-deploy traefik\n"}, "agent",
			map[string]diag.Severity{"k3s-refuses": diag.Error}, "set disable on the servers"},
		{"second-value", "a stray word after a repeatable flag's value is its second value",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --disable traefik servicelb\n"}, "",
			map[string]diag.Severity{"cli-positional": diag.Warning}, "'--disable' 'servicelb'"},
		{"stray-not-after-value", "a stray word after a bool flag keeps the old fix",
			map[string]string{"/etc/systemd/system/k3s.service": "[Service]\nExecStart=/usr/local/bin/k3s server --cluster-init stray\n"}, "",
			map[string]diag.Severity{"cli-positional": diag.Warning}, "remove the stray word"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for p, c := range tc.files {
				_ = afero.WriteFile(fs, p, []byte(c), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs, Command: tc.command})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]diag.Diagnostic{}
			for _, d := range res.Diagnostics {
				if strings.Contains(d.Message+d.Hint, "hunter2") {
					t.Errorf("%s: a finding shows the URL's password: %s / %s", tc.name, d.Message, d.Hint)
				}
				if _, ok := got[d.Code]; !ok {
					got[d.Code] = d
				}
			}
			first := true
			for code, sev := range tc.want {
				d, ok := got[code]
				switch {
				case sev == "" && ok:
					t.Errorf("%s: unexpected %s %s: %s", tc.reason, d.Severity, code, d.Message)
				case sev != "" && !ok:
					t.Errorf("%s: no %s finding; got %v", tc.reason, code, res.Diagnostics)
				case sev != "" && d.Severity != sev:
					t.Errorf("%s: %s is %s, want %s", tc.reason, code, d.Severity, sev)
				case sev != "" && first && tc.hint != "" && !strings.Contains(d.Hint, tc.hint):
					t.Errorf("%s: fix of %s is %q, want it to contain %q", tc.reason, code, d.Hint, tc.hint)
				}
				if sev != "" {
					first = false
				}
			}
		})
	}
}

// TestRKE2UnitGuard: the rke2-both-units note says what the installed units do: Conflicts=
// before rancher/rke2 edef34d59 (and its backports), ExecCondition= after.
func TestRKE2UnitGuard(t *testing.T) {
	tests := []struct{ name, reason, guard, want string }{
		{"conflicts", "the v1.31 units: starting one stops the other", "[Unit]\nConflicts=rke2-agent.service\n", "Conflicts="},
		{"execcondition", "the v1.36 units refuse to start while the other runs", "[Service]\nExecCondition=/bin/sh -c 'if systemctl is-active --quiet rke2-agent.service; then exit 1; fi'\n", "ExecCondition that refuses"},
		{"none", "hand-written units without a guard can both run", "", "neither refuses the other"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/usr/local/lib/systemd/system/rke2-server.service", []byte(tc.guard+"[Service]\nExecStart=/usr/local/bin/rke2 server\n"), 0o644)
			_ = afero.WriteFile(fs, "/usr/local/lib/systemd/system/rke2-agent.service", []byte("[Service]\nExecStart=/usr/local/bin/rke2 agent\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			msg := ""
			for _, d := range res.Diagnostics {
				if d.Code == "rke2-both-units" {
					msg = d.Message
				}
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%s: note %q, want it to contain %q", tc.reason, msg, tc.want)
			}
		})
	}
}

// TestRepeatedCommandByEra: flags after a second "server" are lost with urfave/cli v2 (k3s
// stops at the first positional argument) but not with v1, which moves the command's flags in
// front of it (releases before v1.31.8, v1.32.4, v1.33.0).
func TestRepeatedCommandByEra(t *testing.T) {
	unit := "[Service]\nExecStart=/usr/local/bin/k3s server '--flannel-backend=none' 'server' '--disable-network-policy'\n"
	for _, tc := range []struct {
		version string
		want    diag.Severity
	}{{"v1.30.5+k3s1", diag.Info}, {"v1.33.1+k3s1", diag.Error}, {"", diag.Error}} {
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte(unit), 0o644)
		res, err := resolve.Resolve(resolve.Options{FS: fs, Version: tc.version})
		if err != nil {
			t.Fatal(err)
		}
		var got diag.Severity
		for _, d := range res.Diagnostics {
			if d.Code == "cli-repeated-command" {
				got = d.Severity
			}
		}
		if got != tc.want {
			t.Errorf("%q: cli-repeated-command is %q, want %q", tc.version, got, tc.want)
		}
	}
}
