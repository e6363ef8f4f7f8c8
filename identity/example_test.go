package identity_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/resolve"
)

// The name a node registers with, and where it comes from: here /etc/hostname, since no
// node-name is set (root is not "/", so the live host name is never used).
func ExampleDerive() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s-agent.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s agent --server https://s1:6443 --token x\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/hostname", []byte("Worker-1\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		panic(err)
	}
	id := identity.Derive(node, res, "/bundle")
	fmt.Printf("%s (%q, lowercased) from %s\n", id.Name, id.Base, id.BaseFrom)
	fmt.Println("password file:", id.PasswordFile, id.PasswordState)
	// Output:
	// worker-1 ("Worker-1", lowercased) from hostname-file
	// password file: /etc/rancher/node/password missing
}
