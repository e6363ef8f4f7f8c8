package resolve

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// TestNoContributingMarkLeaves: decide marks the assignments that gave an item of a list
// with the internal Outcome contributing and must replace every mark. Lists from config
// files of both shapes, flags sharing a Destination (kube-controller-arg and
// kube-controller-manager-arg), list flags read from the environment (RKE2_CNI), urfave/cli
// v1 and v2: no assignment of the result may keep the mark, and the ones that gave items are
// applied or appended.
func TestNoContributingMarkLeaves(t *testing.T) {
	blockFS, _ := benchnode.NodeShape(3, 25, benchnode.Block)
	flowFS, _ := benchnode.NodeShape(3, 25, benchnode.Flow)
	rke2 := profile.RKE2()
	rke2FS := afero.NewMemMapFs()
	_ = afero.WriteFile(rke2FS, "/etc/rancher/rke2/config.yaml", []byte("cni: [calico, multus]\n"), 0o644)
	cases := []struct {
		name string
		opts Options
	}{
		{"block", Options{FS: blockFS}},
		{"flow", Options{FS: flowFS}},
		{"flow v1", Options{FS: flowFS, Version: "v1.27.4+k3s1"}},
		{"shared destination", Options{FS: flowFS, Args: []string{"server", "--kube-controller-arg=a", "--kube-controller-manager-arg=b", "--kube-controller-arg", "c"}}},
		{"shared destination v1", Options{FS: flowFS, Version: "v1.27.4+k3s1", Args: []string{"server", "--kube-controller-arg=a", "--kube-controller-manager-arg=b"}}},
		{"env list v2", Options{FS: rke2FS, Profile: rke2, Command: "server", Args: []string{"server", "--cni=canal"}}},
		{"env list only", Options{FS: rke2FS, Profile: rke2, Command: "server", Args: []string{"server"}}},
	}
	for _, tc := range cases {
		for _, env := range [][]string{nil, {"RKE2_CNI=cilium,flannel", "K3S_NODE_LABEL=x"}} {
			opts := tc.opts
			for _, kv := range env {
				opts.Env = append(opts.Env, envAssign(kv))
			}
			res, err := Resolve(opts)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			appended := 0
			for _, k := range res.Keys {
				for _, a := range k.History {
					if a.Outcome == contributing || a.Outcome == "" && a.Kind != "default" {
						t.Errorf("%s %v: %s %s at %s keeps outcome %q", tc.name, env, k.Name(), a.Name, a.Pos, a.Outcome)
					}
					if a.Outcome == provenance.Appended {
						appended++
					}
				}
			}
			for _, a := range res.Stray {
				if a.Outcome == contributing {
					t.Errorf("%s: stray %s keeps the mark", tc.name, a.Name)
				}
			}
			if appended == 0 {
				t.Errorf("%s %v: no appended assignment: the case tests nothing", tc.name, env)
			}
		}
	}
}

func envAssign(kv string) sources.EnvAssignment {
	name, value, _ := strings.Cut(kv, "=")
	return sources.EnvAssignment{Name: name, Value: value, Raw: kv, Pos: diag.Position{File: "(test)", Line: 1}}
}
