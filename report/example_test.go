package report_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// A program that prints a node's values redacts them with the node's redactor: a secret
// flag's value is REDACTED, and so is a copy of it under another key; other values are
// shown as k3sconf shows them.
func ExampleKeyValue() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte(
		"[Service]\nExecStart=/usr/local/bin/k3s server --tls-san a.example --tls-san b.example\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte(
		"token: K10abc::server:s3cret-value\nnode-label: [\"owner=K10abc::server:s3cret-value\"]\n"), 0o644)

	res, _ := resolve.Resolve(resolve.Options{FS: node})
	red := report.NewRedactor(res, false)
	for _, name := range []string{"token", "node-label", "tls-san"} {
		fmt.Println(name, "=", report.FormatValue(report.KeyValue(res.Key(name), red)))
	}
	// Output:
	// token = REDACTED
	// node-label = [owner=REDACTED]
	// tls-san = [a.example, b.example]
}
