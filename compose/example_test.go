package compose_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/compose"
)

// A k3s server in a compose file whose identity is lost on `docker compose down`: no
// hostname and no volume for /var/lib/rancher/k3s.
func ExampleCheck() {
	host := afero.NewMemMapFs()
	file := []byte("services:\n  server:\n    image: rancher/k3s:v1.33.5-k3s1\n    command: server --token example\n")
	f, err := compose.Parse(host, "compose.yaml", file, func(string) (string, bool) { return "", false })
	if err != nil {
		panic(err)
	}
	rep := compose.Check(host, f)
	for _, n := range rep.Nodes {
		fmt.Println(n.Service.Name, n.Role, "survives down/up:", n.Survives)
	}
	fmt.Print(compose.FixYAML(rep))
	// Output:
	// server server survives down/up: false
	// services:
	//   server:
	//     hostname: server
	//     volumes:
	//       - server-node:/etc/rancher/node
	//       - server-data:/var/lib/rancher/k3s
	// volumes:
	//   server-node: {}
	//   server-data: {}
}
