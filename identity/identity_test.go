package identity

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

func node(t *testing.T, files map[string]string) afero.Fs {
	t.Helper()
	fs := afero.NewMemMapFs()
	for p, c := range files {
		if err := afero.WriteFile(fs, p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

func TestDerive(t *testing.T) {
	const agentUnit = "[Service]\nExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443\n"
	cases := []struct {
		name, reason string
		files        map[string]string
		root         string
		live         string
		want         Identity
	}{
		{
			name: "hostname-file", reason: "no node-name: /etc/hostname under the root, lowercased",
			files: map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/hostname": "Worker-1\n"},
			root:  "/bundle",
			want: Identity{Name: "worker-1", Base: "Worker-1", BaseFrom: FromHostnameFile, HostnameFile: "/etc/hostname",
				PasswordState: StateMissing, Secret: "worker-1.node-password.k3s"},
		},
		{
			name: "live-hostname-only-on-root", reason: "root / uses the machine's host name, not /etc/hostname",
			files: map[string]string{"/etc/systemd/system/k3s-agent.service": agentUnit, "/etc/hostname": "stale\n"},
			root:  "/", live: "Live",
			want: Identity{Name: "live", Base: "Live", BaseFrom: FromHostname, PasswordState: StateMissing, Secret: "live.node-password.k3s"},
		},
		{
			name: "env-node-name-with-id", reason: "K3S_NODE_NAME from the env file, the id appended trimmed, the password only checked",
			files: map[string]string{
				"/etc/systemd/system/k3s-agent.service":     "[Service]\nEnvironmentFile=/etc/systemd/system/k3s-agent.service.env\nExecStart=/usr/local/bin/k3s agent --with-node-id\n",
				"/etc/systemd/system/k3s-agent.service.env": "K3S_NODE_NAME=Edge\n",
				"/etc/rancher/node/id":                      "1a2b3c4d\n",
				"/etc/rancher/node/password":                "s3cr3t-password\n",
			},
			root: "/bundle",
			want: Identity{Name: "edge-1a2b3c4d", Base: "Edge", BaseFrom: FromNodeName, WithNodeID: true,
				NodeIDState: StateFound, NodeID: "1a2b3c4d", PasswordState: StateFound, Secret: "edge-1a2b3c4d.node-password.k3s"},
		},
		{
			name: "with-id-missing", reason: "with-node-id and no id file: the name is not known yet",
			files: map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent --with-node-id --node-name a\n"},
			root:  "/bundle",
			want:  Identity{Base: "a", BaseFrom: FromNodeName, WithNodeID: true, NodeIDState: StateMissing, PasswordState: StateMissing},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := node(t, tc.files)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			got := derive(fs, res, tc.root, func() (string, error) {
				if tc.live == "" {
					return "", errors.New("no live host name in tests")
				}
				return tc.live, nil
			})
			want := tc.want
			want.Product = "k3s"
			want.NodeIDFile, want.PasswordFile = "/etc/rancher/node/id", "/etc/rancher/node/password"
			got.NameSource, got.WithNodeIDSource, got.Notes, got.Diagnostics = nil, nil, nil, nil
			if diff := cmp.Diff(want, *got); diff != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNameInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{{"under_score", true}, {"ok-name", false}} {
		fs := node(t, map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent --node-name " + tc.name + "\n"})
		res, _ := resolve.Resolve(resolve.Options{FS: fs})
		id := Derive(fs, res, "/bundle")
		got := len(id.Diagnostics) == 1 && id.Diagnostics[0].Code == "identity-name-invalid"
		if got != tc.want {
			t.Errorf("%s: identity-name-invalid = %v, want %v (%v)", tc.name, got, tc.want, id.Diagnostics)
		}
	}
}

func TestHostnameUnknown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"no-hostname-file", map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent\n"}, true},
		{"hostname-file", map[string]string{"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent\n", "/etc/hostname": "a\n"}, false},
	} {
		fs := node(t, tc.files)
		res, _ := resolve.Resolve(resolve.Options{FS: fs})
		id := Derive(fs, res, "/bundle")
		got := len(id.Diagnostics) == 1 && id.Diagnostics[0].Code == "identity-hostname-unknown"
		if got != tc.want {
			t.Errorf("%s: identity-hostname-unknown = %v, want %v", tc.name, got, tc.want)
		}
	}
}
