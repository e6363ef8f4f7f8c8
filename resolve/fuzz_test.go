package resolve_test

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// FuzzResolve runs the whole resolver and the JSON renderer on arbitrary unit, env file,
// config and drop-in contents: it must never panic, and never return an error for node
// content (only Options can be wrong).
func FuzzResolve(f *testing.F) {
	f.Add([]byte("[Service]\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server '--disable' 'traefik' --token=x\n"),
		[]byte("K3S_TOKEN='abc'\nK3S_KUBECONFIG_MODE=600\n"),
		[]byte("write-kubeconfig-mode: 0644\ndisable: [a, b]\ntoken: t\n"),
		[]byte("disable+: c\nnode-label+: [x=y]\n"))
	f.Add([]byte("[Service]\nExecStart=/usr/local/bin/k3s agent --server https://x:6443\n"), []byte(""),
		[]byte("disable: traefik\n"), []byte("a: &a [1]\nb: *a\n<<: {c: d}\n---\nx: y\n"))
	f.Add([]byte("[Service]\nExecStart=/usr/local/bin/k3s etcd-snapshot save --name x\nExecStart=\n"), []byte("K3S_DEBUG=yes\n"),
		[]byte("t: x\ntoken: y\n"), []byte("cluster-init:\n"))
	f.Fuzz(func(t *testing.T, unit, env, config, dropin []byte) {
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", unit, 0o644)
		_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service.env", env, 0o600)
		_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", config, 0o644)
		_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml.d/50-x.yaml", dropin, 0o644)
		for _, cmd := range []string{"", "agent", "etcd-snapshot"} {
			res, err := resolve.Resolve(resolve.Options{FS: fs, Command: cmd})
			if err != nil {
				t.Fatalf("Resolve(%q): %v", cmd, err)
			}
			doc := nodereport.JSON(res, report.NewRedactor(res, false))
			if err := json.NewEncoder(io.Discard).Encode(doc); err != nil {
				t.Fatalf("JSON: %v", err)
			}
			for _, k := range res.Keys {
				nodereport.Explain(io.Discard, res, k, report.NewRedactor(res, false))
			}
		}
	})
}
