package k3sconf_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// A config.yaml sets the kubeconfig mode, but the install script put the flag on ExecStart:
// the command line comes after the config values, so it wins.
func Example() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte(
		"[Service]\nExecStart=/usr/local/bin/k3s server '--write-kubeconfig-mode' '644'\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte(
		"write-kubeconfig-mode: \"0600\"\n"), 0o644)

	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		panic(err)
	}
	k := res.Key("write-kubeconfig-mode")
	fmt.Println("value:", k.Value, "from", k.Source.Kind, k.Source.Pos)
	for _, a := range k.History {
		fmt.Println(a.Outcome, a.Pos)
	}
	// Output:
	// value: 644 from cli /etc/systemd/system/k3s.service:2:37
	// overridden /etc/rancher/k3s/config.yaml:1:24
	// applied /etc/systemd/system/k3s.service:2:37
}
