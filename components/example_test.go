package components_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/resolve"
)

// A server that disables traefik and has one AddOn of its own: the packaged components in
// their states, the AddOn file, and each disable item with where it was set.
func ExampleInspect() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("disable: [traefik]\n"), 0o644)
	_ = afero.WriteFile(node, "/var/lib/rancher/k3s/server/manifests/hello.yaml", []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: hello\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		panic(err)
	}
	rep := components.Inspect(node, res)
	for _, c := range rep.Components {
		fmt.Println(c.Name, c.Packaged, c.State, c.Files)
	}
	for _, d := range rep.Disable {
		fmt.Println("disable", d.Item, "from", d.From[0].Kind, d.From[0].Pos)
	}
	// Output:
	// coredns true enabled []
	// servicelb true enabled []
	// traefik true disabled []
	// local-storage true enabled []
	// metrics-server true enabled []
	// runtimes true enabled []
	// ccm true enabled []
	// rolebindings true enabled []
	// hello false enabled [/var/lib/rancher/k3s/server/manifests/hello.yaml]
	// disable traefik from config /etc/rancher/k3s/config.yaml:1:11
}
