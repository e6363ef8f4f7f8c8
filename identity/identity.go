package identity

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/resolve"
)

// Where the base name comes from.
const (
	FromNodeName     = "node-name"
	FromHostnameFile = "hostname-file"
	FromHostname     = "hostname"
	FromUnknown      = "unknown"
)

// File states.
const (
	StateFound      = "found"
	StateMissing    = "missing"
	StateUnreadable = "unreadable"
)

// Identity is the node's name and the files behind it.
type Identity struct {
	Product string
	// Name is the node name k3s registers; "" when it cannot be known (no node-name and
	// no host name, or --with-node-id before the id exists).
	Name string
	// Base is the name before k3s lowercases it and appends the node id.
	Base string
	// BaseFrom says where Base comes from (FromNodeName, FromHostnameFile, …).
	BaseFrom string
	// NameSource is the assignment of node-name that gave Base, for FromNodeName.
	NameSource *resolve.Assignment
	// HostnameFile is the file read for FromHostnameFile.
	HostnameFile string

	WithNodeID       bool
	WithNodeIDSource *resolve.Assignment
	// NodeIDFile is <node config dir>/id; NodeIDState is StateFound, StateMissing or
	// StateUnreadable; NodeID is its trimmed content.
	NodeIDFile  string
	NodeIDState string
	NodeID      string

	// PasswordFile is <node config dir>/password; PasswordState says whether it exists.
	// Its content is never read.
	PasswordFile  string
	PasswordState string

	// Secret is the kube-system secret that holds the password hash on the server.
	Secret string

	Notes       []string
	Diagnostics diag.Diagnostics
}

// Derive works out the identity of the node whose files node holds and whose configuration
// res is. root is where the files are on this machine ("/" for this machine itself): only
// then is the live host name used as a fallback.
func Derive(node afero.Fs, res *resolve.Result, root string) *Identity {
	return derive(node, res, root, os.Hostname)
}

func derive(node afero.Fs, res *resolve.Result, root string, hostname func() (string, error)) *Identity {
	id := &Identity{Product: res.Product}
	if k := res.Key("node-name"); k != nil {
		if s, _ := k.Value.(string); s != "" {
			id.Base, id.BaseFrom, id.NameSource = s, FromNodeName, k.Source
		}
	}
	if id.BaseFrom == "" {
		id.hostname(node, root, hostname)
	}
	// pkg/agent/config/config.go: the node files live under / (or <data-dir>/agent when
	// rootless), in etc/rancher/node.
	nodeRoot := "/"
	if b, _ := keyBool(res, "rootless"); b {
		dd := "/var/lib/rancher/" + res.Product
		if k := res.Key("data-dir"); k != nil {
			if s, _ := k.Value.(string); s != "" {
				dd = s
			}
		}
		nodeRoot = path.Join(dd, "agent")
		id.Notes = append(id.Notes, fmt.Sprintf("rootless: the node id and password live under %s instead of /", nodeRoot))
	}
	dir := path.Join(nodeRoot, "etc", "rancher", "node")
	id.NodeIDFile = path.Join(dir, "id")
	id.PasswordFile = path.Join(dir, "password")
	id.PasswordState = exists(node, id.PasswordFile)

	var with *resolve.Assignment
	id.WithNodeID, with = keyBool(res, "with-node-id")
	id.WithNodeIDSource = with
	name := strings.ToLower(id.Base)
	if id.WithNodeID {
		st, content := readSmall(node, id.NodeIDFile)
		id.NodeIDState = st
		if st == StateFound {
			id.NodeID = strings.TrimSpace(content)
		}
		switch {
		case id.NodeID != "" && name != "":
			name += "-" + id.NodeID
		case st == StateMissing:
			id.Notes = append(id.Notes, fmt.Sprintf("with-node-id: %s does not exist, so k3s creates a random 8-hex-digit id at its next start and the name becomes %s-<id>; keep %s to keep the name", id.NodeIDFile, orUnknown(name), id.NodeIDFile))
			name = ""
		default:
			name = ""
		}
	}
	id.Name = name
	if name != "" {
		id.Secret = strings.ToLower(name + ".node-password." + res.Product)
		if !validNodeName(name) {
			id.Diagnostics = append(id.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "identity-name-invalid", Pos: id.basePos(), Key: "node-name",
				Message: fmt.Sprintf("the node name %q is not a valid Kubernetes node name (lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters), so the kubelet cannot register the node", name),
				Hint:    "set node-name to a valid name in config.yaml"})
		}
	}
	return id
}

func orUnknown(s string) string {
	if s == "" {
		return "<name>"
	}
	return s
}

func (id *Identity) basePos() diag.Position {
	switch id.BaseFrom {
	case FromNodeName:
		if id.NameSource != nil {
			return id.NameSource.Pos
		}
	case FromHostnameFile:
		return diag.Position{File: id.HostnameFile, Line: 1}
	}
	return diag.Position{}
}

// hostname is os.Hostname as k3s would see it on the node.
func (id *Identity) hostname(node afero.Fs, root string, live func() (string, error)) {
	if root == "/" {
		if h, err := live(); err == nil && h != "" {
			id.Base, id.BaseFrom = h, FromHostname
			return
		}
	}
	st, content := readSmall(node, "/etc/hostname")
	if st == StateFound {
		line, _, _ := strings.Cut(content, "\n")
		if h := strings.TrimSpace(line); h != "" {
			id.Base, id.BaseFrom, id.HostnameFile = h, FromHostnameFile, "/etc/hostname"
			id.Notes = append(id.Notes, "k3s uses the kernel's host name (os.Hostname), which is /etc/hostname unless something (DHCP, cloud-init, hostnamectl --transient) set another one after boot")
			return
		}
	}
	id.BaseFrom = FromUnknown
	why := "the node's files have no /etc/hostname"
	if st == StateUnreadable {
		why = "k3sconf cannot read the node's /etc/hostname (not a regular file, or no permission)"
	}
	id.Diagnostics = append(id.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "identity-hostname-unknown", Key: "node-name",
		Message: "node-name is not set and " + why + ", so the name depends on the host name at k3s's start, which k3sconf cannot see",
		Hint:    "pin the name with node-name: in config.yaml, or include /etc/hostname in the copy of the node's files"})
}

func keyBool(res *resolve.Result, name string) (bool, *resolve.Assignment) {
	k := res.Key(name)
	if k == nil {
		return false, nil
	}
	b, _ := k.Value.(bool)
	return b, k.Source
}

// exists checks a file without reading it.
func exists(node afero.Fs, p string) string {
	_, err := node.Stat(p)
	switch {
	case err == nil:
		return StateFound
	case errors.Is(err, fs.ErrNotExist):
		return StateMissing
	}
	return StateUnreadable
}

// readSmall reads the first 4 KiB of a small file.
func readSmall(node afero.Fs, p string) (string, string) {
	// Never open a FIFO or device: the read could wait forever.
	if err := rootfs.CheckRegular(node, p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return StateMissing, ""
		}
		return StateUnreadable, ""
	}
	f, err := node.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return StateMissing, ""
		}
		return StateUnreadable, ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(bufio.NewReader(f), 4096))
	if err != nil {
		return StateUnreadable, ""
	}
	return StateFound, string(data)
}

var nodeNameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

func validNodeName(s string) bool { return len(s) <= 253 && nodeNameRE.MatchString(s) }

// Rule is what the server does with the node password, in one paragraph.
func (id *Identity) Rule() string {
	secret := "<node-name>.node-password." + id.Product
	if id.Secret != "" {
		secret = id.Secret
	}
	return fmt.Sprintf("the server keeps a hash of the node password in the secret kube-system/%s. A node that registers with the same name but another password (a reinstalled node, a new disk, a container without %s on a volume) is rejected (\"Node password rejected … hash does not match\") until the old node is deleted (kubectl delete node, which removes the secret); a node whose name changed registers as a new node and the old one stays NotReady",
		secret, path.Dir(id.PasswordFile))
}
