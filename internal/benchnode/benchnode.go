package benchnode

import (
	"fmt"
	"strings"

	"github.com/spf13/afero"
)

// Unit is an install.sh-style server unit.
const Unit = `[Unit]
Description=Lightweight Kubernetes
Documentation=https://k3s.io
Wants=network-online.target
After=network-online.target

[Install]
WantedBy=multi-user.target

[Service]
Type=notify
EnvironmentFile=-/etc/default/%N
EnvironmentFile=-/etc/sysconfig/%N
EnvironmentFile=-/etc/systemd/system/k3s.service.env
KillMode=process
Delegate=yes
User=root
LimitNOFILE=1048576
LimitNPROC=infinity
LimitCORE=infinity
TasksMax=infinity
TimeoutStartSec=0
Restart=always
RestartSec=5s
ExecStartPre=-/sbin/modprobe br_netfilter
ExecStartPre=-/sbin/modprobe overlay
ExecStart=/usr/local/bin/k3s \
    server \
	'--write-kubeconfig-mode' \
	'644' \
	'--disable=traefik' \
	'--node-label' \
	'role=edge' \

`

// EnvFile is what install.sh writes next to the unit.
const EnvFile = "K3S_TOKEN='K10abc::server:secret'\nK3S_KUBECONFIG_MODE='600'\n"

// keys cycles through real flags of each kind: lists appended with "+", scalars replaced.
var keys = []string{"node-label+", "tls-san+", "kubelet-arg+", "kube-apiserver-arg+", "disable+",
	"node-taint+", "etcd-arg+", "write-kubeconfig-mode", "cluster-init", "etcd-snapshot-retention",
	"node-name", "flannel-backend", "cluster-domain", "secrets-encryption", "etcd-expose-metrics",
	"kube-proxy-arg+", "kube-scheduler-arg+", "kube-controller-manager-arg+", "helm-controller-arg+",
	"egress-selector-mode", "servicelb-namespace", "snapshotter", "default-local-storage-path",
	"etcd-snapshot-schedule-cron", "embedded-registry"}

// Shape is how a node's list keys are written.
type Shape int

const (
	// Block writes each list as a block sequence of one item ("key+:\n  - item").
	Block Shape = iota
	// Flow writes each list as a one-line flow sequence of FlowItems items
	// ("key+: [a, b, c, d]"), the shape of issue 19's memory figures.
	Flow
	// Flow2 writes each list as a one-line flow sequence of two items ("key+: [a, b]"),
	// the shape of issue 25's time figures: twice the list items of Block, each list
	// entry's two assignments and its items kept.
	Flow2
)

// FlowItems is the number of items of each list in the Flow shape.
const FlowItems = 4

// items is the number of items of each list written in the shape (flow shapes only).
func (s Shape) items() int {
	if s == Flow2 {
		return 2
	}
	return FlowItems
}

// Config returns the text of one drop-in with n keys; i makes the values differ per file.
func Config(i, n int) string { return ConfigShape(i, n, Block) }

// ConfigShape is Config with the list keys written in the given shape.
func ConfigShape(i, n int, shape Shape) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		key := keys[k%len(keys)]
		switch {
		case strings.HasSuffix(key, "+") && shape != Block:
			fmt.Fprintf(&b, "%s: [", key)
			for j := 0; j < shape.items(); j++ {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "item-%d-%d-%d=x", i, k, j)
			}
			b.WriteString("]\n")
		case strings.HasSuffix(key, "+"):
			fmt.Fprintf(&b, "%s:\n  - item-%d-%d=x\n", key, i, k)
		case key == "write-kubeconfig-mode":
			fmt.Fprintf(&b, "%s: \"0%d44\"\n", key, i%8)
		case key == "cluster-init" || key == "secrets-encryption" || key == "etcd-expose-metrics" || key == "embedded-registry":
			fmt.Fprintf(&b, "%s: %v\n", key, i%2 == 0)
		case key == "egress-selector-mode":
			// k3s refuses any other value (pkg/cli/server/server.go): keep the node startable.
			fmt.Fprintf(&b, "%s: %s\n", key, []string{"agent", "cluster", "pod", "disabled"}[i%4])
		case key == "etcd-snapshot-retention":
			fmt.Fprintf(&b, "%s: %d\n", key, i%10+1)
		default:
			fmt.Fprintf(&b, "%s: value-%d-%d\n", key, i, k)
		}
	}
	return b.String()
}

// Node writes a node with a unit, an env file, config.yaml and dropins drop-ins of keys
// keys each into an in-memory filesystem, and returns it with the config file paths.
func Node(dropins, keysPer int) (afero.Fs, []string) { return NodeShape(dropins, keysPer, Block) }

// NodeShape is Node with the list keys written in the given shape.
func NodeShape(dropins, keysPer int, shape Shape) (afero.Fs, []string) {
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte(Unit), 0o644)
	_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service.env", []byte(EnvFile), 0o600)
	files := []string{"/etc/rancher/k3s/config.yaml"}
	_ = afero.WriteFile(fs, files[0], []byte(ConfigShape(0, keysPer, shape)), 0o644)
	for i := 1; i <= dropins; i++ {
		p := fmt.Sprintf("/etc/rancher/k3s/config.yaml.d/%05d.yaml", i)
		files = append(files, p)
		_ = afero.WriteFile(fs, p, []byte(ConfigShape(i, keysPer, shape)), 0o644)
	}
	return fs, files
}

// WriteDir writes the same node as Node under dir on disk and returns the config file
// paths (as on disk).
func WriteDir(dir string, dropins, keysPer int) ([]string, error) {
	return WriteDirShape(dir, dropins, keysPer, Block)
}

// WriteDirShape is WriteDir with the list keys written in the given shape.
func WriteDirShape(dir string, dropins, keysPer int, shape Shape) ([]string, error) {
	mem, files := NodeShape(dropins, keysPer, shape)
	osfs := afero.NewOsFs()
	var out []string
	for _, p := range append([]string{"/etc/systemd/system/k3s.service", "/etc/systemd/system/k3s.service.env"}, files...) {
		data, err := afero.ReadFile(mem, p)
		if err != nil {
			return nil, err
		}
		if err := osfs.MkdirAll(dir+p[:strings.LastIndex(p, "/")], 0o755); err != nil {
			return nil, err
		}
		if err := afero.WriteFile(osfs, dir+p, data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		out = append(out, dir+f)
	}
	return out, nil
}
