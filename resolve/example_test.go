package resolve_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// A drop-in wrote `disable:` without "+", so it replaced config.yaml's list
// (lf-edge/eve#6232): the history says so, with the files and positions.
func ExampleResolve() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("disable: [servicelb, traefik]\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml.d/03-local-path.yaml", []byte("disable: local-storage\n"), 0o644)

	res, err := resolve.Resolve(resolve.Options{FS: node, Command: "server"})
	if err != nil {
		panic(err)
	}
	k := res.Key("disable")
	fmt.Println(k.Value)
	for _, a := range k.History {
		fmt.Printf("%s %s %s\n", a.Pos, a.Name, a.Outcome)
	}
	// Output:
	// [local-storage]
	// /etc/rancher/k3s/config.yaml:1:11 disable: replaced
	// /etc/rancher/k3s/config.yaml.d/03-local-path.yaml:1:10 disable: applied
}

// An agent refuses to start when its config carries a server-only key: k3s registers no
// config filter for agents (pkg/configfilearg/defaultparser.go).
func ExampleResult_Error() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s-agent.service", []byte(
		"[Service]\nExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("token: x\ndisable: [traefik]\n"), 0o644)

	res, _ := resolve.Resolve(resolve.Options{FS: node, Command: "agent"})
	fmt.Println(res.Error)
	fmt.Println(res.ErrorPos)
	// Output:
	// flag provided but not defined: -disable
	// /etc/rancher/k3s/config.yaml:2:11
}
