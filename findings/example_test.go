package findings_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/resolve"
)

// Every finding about one node in one list, as `k3sconf check` prints them: here the
// resolver's, a drop-in that replaces config.yaml's list because it has no "+". The list
// is a diag.Diagnostics: an error, with HasErrors.
func ExampleAll() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("disable: [traefik]\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml.d/10-local.yaml", []byte("disable: [local-storage]\n"), 0o644)

	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		panic(err)
	}
	ds := findings.All(node, res, nil, "/")
	for _, d := range ds {
		fmt.Println(d.Severity, d.Code, d.Pos)
	}
	fmt.Println("errors:", ds.HasErrors())
	// Output:
	// warning config-list-replaced /etc/rancher/k3s/config.yaml.d/10-local.yaml:1:1
	// errors: false
}
