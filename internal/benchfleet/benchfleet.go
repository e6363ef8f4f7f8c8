// Package benchfleet writes fleets of `k3sconf --json show --secret-salt` documents for
// fleet's benchmarks.
package benchfleet

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// Salt is the salt the documents are made with.
const Salt = "bench-salt"

// WriteDocs writes n show documents into dir: three servers (the first initialises the
// cluster, the others join it) and n-3 agents, each a node with a unit, an env file and a
// config.yaml, as `show --json --secret-salt` writes them. The fleet is consistent.
func WriteDocs(dir string, n int) error {
	return each(n, func(i int, res *resolve.Result) error {
		doc := nodereport.JSON(res, report.NewRedactor(res, false))
		doc.Fleet = &nodereport.FleetDoc{SaltID: nodereport.SaltID(Salt), Fingerprints: nodereport.SecretFingerprints(res, Salt),
			NodeName: fmt.Sprintf("node-%04d", i), NodeNameFrom: "node-name"}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("node-%04d.json", i)))
		if err != nil {
			return err
		}
		if err := nodereport.WriteJSON(f, doc); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// WriteNodeList writes the same n nodes as `kubectl get nodes -o json` shows them: each
// Node object's k3s.io/node-args annotation is the node's argv (k3s writes it at start),
// k3s.io/node-env its K3S_ variables (secrets written as k3s writes them, "********"); the
// first three have the control-plane label.
func WriteNodeList(path string, n int) error {
	var items []any
	err := each(n, func(i int, res *resolve.Result) error {
		args := []string{}
		for _, a := range res.Args {
			args = append(args, a.Value)
		}
		ann, err := json.Marshal(args)
		if err != nil {
			return err
		}
		labels := map[string]string{}
		if i < 3 {
			labels["node-role.kubernetes.io/control-plane"] = "true"
		}
		items = append(items, map[string]any{"kind": "Node", "apiVersion": "v1",
			"metadata": map[string]any{"name": fmt.Sprintf("node-%04d", i), "labels": labels,
				"annotations": map[string]string{"k3s.io/node-args": string(ann), "k3s.io/node-env": `{"K3S_TOKEN":"********"}`}},
			"status": map[string]any{"nodeInfo": map[string]string{"kubeletVersion": "v1.31.4+k3s1"}}})
		return nil
	})
	if err != nil {
		return err
	}
	data, err := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": items})
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// each resolves the n nodes of the fleet and hands each result to f.
func each(n int, f func(i int, res *resolve.Result) error) error {
	for i := 0; i < n; i++ {
		cmd, unit := "agent", "k3s-agent.service"
		if i < 3 {
			cmd, unit = "server", "k3s.service"
		}
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, "/etc/systemd/system/"+unit, []byte(fmt.Sprintf(
			"[Service]\nType=notify\nEnvironmentFile=-/etc/systemd/system/%s.env\nExecStart=/usr/local/bin/k3s \\\n    %s \\\n\t'--node-label' \\\n\t'rack=r%d' \\\n", unit, cmd, i%20)), 0o644)
		_ = afero.WriteFile(fs, "/etc/systemd/system/"+unit+".env", []byte("K3S_TOKEN='K10c0ffee::server:s3cr3t'\n"), 0o600)
		cfg := fmt.Sprintf("node-name: node-%04d\nnode-ip: 10.0.%d.%d\n", i, i/250, i%250+1)
		switch {
		case i == 0:
			cfg += "cluster-init: true\ndisable: [traefik]\ntls-san: [k3s.example.com]\n"
		case i < 3:
			cfg += "server: https://10.0.0.1:6443\ndisable: [traefik]\ntls-san: [k3s.example.com]\n"
		default:
			cfg += "server: https://k3s.example.com:6443\nkubelet-arg: [max-pods=150]\n"
		}
		_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(cfg), 0o600)
		res, err := resolve.Resolve(resolve.Options{FS: fs})
		if err != nil {
			return err
		}
		if err := f(i, res); err != nil {
			return err
		}
	}
	return nil
}
