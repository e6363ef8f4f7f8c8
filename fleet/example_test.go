package fleet_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/k3sconf/k3sconf/fleet"
)

// Two servers of one cluster, read from their node folders: the second would be refused
// when it joins (its service range differs), and traefik comes back on it.
func ExampleAnalyze() {
	dir, err := os.MkdirTemp("", "fleet-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	write := func(node, config string) string {
		root := filepath.Join(dir, node)
		_ = os.MkdirAll(filepath.Join(root, "etc/systemd/system"), 0o755)
		_ = os.MkdirAll(filepath.Join(root, "etc/rancher/k3s"), 0o755)
		_ = os.WriteFile(filepath.Join(root, "etc/systemd/system/k3s.service"), []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
		_ = os.WriteFile(filepath.Join(root, "etc/rancher/k3s/config.yaml"), []byte(config), 0o644)
		return root
	}
	var l fleet.Loader
	var nodes []*fleet.Node
	for _, n := range []struct{ name, config string }{
		{"s1", "node-name: s1\ncluster-init: true\ndisable: [traefik]\n"},
		{"s2", "node-name: s2\nserver: https://s1:6443\nservice-cidr: 10.96.0.0/16\n"},
	} {
		node, err := l.Folder(write(n.name, n.config))
		if err != nil {
			panic(err)
		}
		nodes = append(nodes, node)
	}
	rep := fleet.Analyze(nodes, nil)
	for _, f := range rep.Findings {
		fmt.Println(f.Severity, f.Code, f.Nodes)
	}
	fmt.Println("a server would be refused:", rep.Failed())
	// Output:
	// error critical-mismatch [s2 s1]
	// warning component-differs [s1 s2]
	// a server would be refused: true
}
