package report_test

import (
	"os"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// Explain tells a key's story; secrets stay REDACTED unless the output.Redactor is made with
// show=true.
func ExampleExplain() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte(
		"[Service]\nEnvironment=K3S_TOKEN=from-env-secret\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("token: from-config-secret\n"), 0o644)

	res, _ := resolve.Resolve(resolve.Options{FS: node})
	report.Explain(os.Stdout, res, res.Key("token"), report.NewRedactor(res, false))
	// Output:
	// token = REDACTED
	//   from: config /etc/rancher/k3s/config.yaml:1:8  token: REDACTED
	//
	//   every assignment, in precedence order (defaults, environment, config files, command line):
	//    1. env     /etc/systemd/system/k3s.service:2:13  K3S_TOKEN=REDACTED
	//       shadowed: K3S_TOKEN is used only when the flag is not given as an argument, and token: at /etc/rancher/k3s/config.yaml:1:8 gives it (config-file values are passed as arguments, so they beat environment variables)
	//    2. config  /etc/rancher/k3s/config.yaml:1:8      token: REDACTED
	//       applied: the last occurrence of a single-value flag wins
	//
	//   what to do:
	//   - K3S_TOKEN (/etc/systemd/system/k3s.service:2:13) is ignored because the config file sets the flag (/etc/rancher/k3s/config.yaml:1:8), and config values are passed as arguments. Set the value in the config file, or remove it there to let the variable count; then `systemctl restart k3s`.
	//
	//   warning[env-shadowed] K3S_TOKEN sets token, but token: at /etc/rancher/k3s/config.yaml:1:8 sets it too and wins (k3s uses a flag's variable only when no argument sets it, and config-file values are passed as arguments), so k3s runs with config's value, not the variable's (both hidden)
	//     fix: set the value in /etc/rancher/k3s/config.yaml (or remove token: there so the variable decides), then `systemctl daemon-reload && systemctl restart k3s`
}
