package compose

import (
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/dnslabel"
	"github.com/k3sconf/k3sconf/resolve"
)

// Keep says whether a path in the container outlives the container.
type Keep struct {
	Path string
	// How: "bind" (survives down and down -v), "volume" (a named volume: survives down,
	// not down -v), "anonymous" (a new one for every new container) or "container" (the
	// container's own layer, gone with it).
	How   string
	Mount *Mount
}

// Survives reports whether the path outlives `docker compose down` + `up`.
func (k Keep) Survives() bool { return k.How == "bind" || k.How == "volume" }

// Node is one k3s service and what happens to its identity.
type Node struct {
	Service *Service
	// Role is server or agent.
	Role string
	// Args is the argv k3s gets (without argv[0]); nil when it cannot be known.
	Args   []string
	Result *resolve.Result
	// NodeName is the pinned name, "" when the name is the container ID; NameFrom says
	// how it is pinned.
	NodeName string
	NameFrom string
	NodeDir  Keep
	// DataDir matters for servers only (cluster state).
	DataDir  Keep
	Survives bool
	// Fix is a compose fragment (YAML lines under services:) that makes the identity survive.
	Fix         []string
	FixVolumes  []string
	Diagnostics diag.Diagnostics
}

// Report is the result of [Check].
type Report struct {
	File  *File
	Nodes []*Node
	// Diagnostics about the file as a whole (interpolation, env files).
	Diagnostics diag.Diagnostics
}

// Failed reports whether some node loses its identity, or something compose or k3s refuses.
func (r *Report) Failed() bool {
	for _, n := range r.Nodes {
		if !n.Survives {
			return true
		}
		for _, d := range n.Diagnostics {
			if d.Severity == diag.Error {
				return true
			}
		}
	}
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// imageVolumes are the VOLUMEs the rancher/k3s image declares (package/Dockerfile).
var imageVolumes = []string{"/var/lib/kubelet", "/var/lib/rancher/k3s", "/var/lib/cni", "/var/log"}

// Check resolves every k3s service of f and checks its identity. host is the machine's
// filesystem, from which reachable bind-mounted config files are read.
func Check(host afero.Fs, f *File) *Report {
	rep := &Report{File: f, Diagnostics: f.Diagnostics}
	used := map[string]bool{}
	for k := range f.Volumes {
		used[k] = true
	}
	for _, s := range f.Services {
		if !isK3s(s) {
			continue
		}
		rep.Nodes = append(rep.Nodes, checkService(host, f, s, used))
	}
	if len(rep.Nodes) == 0 {
		rep.Diagnostics = append(rep.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "compose-no-k3s",
			Pos:     diag.Position{File: f.Path},
			Message: fmt.Sprintf("%s has no service that runs k3s (a rancher/k3s image, or a command starting with server or agent)", f.Path),
			Hint:    "point k3sconf compose at the compose file that defines the k3s nodes"})
	}
	return rep
}

func isK3s(s *Service) bool {
	if isK3sImage(s.Image) {
		return true
	}
	return len(s.Command) > 0 && (s.Command[0] == "server" || s.Command[0] == "agent")
}

func isK3sImage(img string) bool {
	name, _, _ := strings.Cut(img, "@")
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i]
	}
	return name == "rancher/k3s" || strings.HasSuffix(name, "/rancher/k3s")
}

// argv works out what k3s gets: the image's entrypoint is /bin/k3s and its command agent;
// `command:` replaces the command, and `entrypoint:` replaces both.
func argv(s *Service) ([]string, bool) {
	if s.hasEntrypoint {
		if len(s.Entrypoint) > 0 && path.Base(s.Entrypoint[0]) == "k3s" {
			return append(append([]string{}, s.Entrypoint[1:]...), s.Command...), true
		}
		return nil, false
	}
	if s.hasCommand {
		return append([]string{}, s.Command...), true
	}
	if isK3sImage(s.Image) {
		return []string{"agent"}, true
	}
	return nil, false
}

func checkService(host afero.Fs, f *File, s *Service, used map[string]bool) *Node {
	n := &Node{Service: s}
	args, ok := argv(s)
	if !ok {
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "compose-command-unknown", Pos: s.Pos,
			Message: fmt.Sprintf("service %s has an entrypoint that is not k3s (%s), so k3sconf cannot tell k3s's arguments; it checks the identity with none", s.Name, strings.Join(s.Entrypoint, " ")),
			Hint:    "use the image's entrypoint and put k3s's arguments in command:"})
		args = []string{}
	}
	n.Args = args
	// The install script (get.k3s.io) reads INSTALL_K3S_*; the k3s binary the image runs
	// never does (k3s reads K3S_* through its flags' EnvVars, pkg/cli/cmds), so in a
	// container these variables change nothing.
	for _, e := range s.Env {
		if strings.HasPrefix(e.Name, "INSTALL_K3S_") || strings.HasPrefix(e.Name, "INSTALL_RKE2_") {
			what := "nothing"
			if e.Name == "INSTALL_K3S_EXEC" || e.Name == "INSTALL_RKE2_EXEC" {
				what = fmt.Sprintf("nothing: its flags (%q) are not passed to k3s", e.Value)
			}
			n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "compose-installer-variable", Pos: e.Pos,
				Message: fmt.Sprintf("%s is read only by the install script, which a container does not run; k3s itself never reads it, so it does %s", e.Name, what),
				Hint:    "put k3s's flags in command: (e.g. command: server --disable traefik), or its settings in a mounted config.yaml; K3S_* variables such as K3S_TOKEN do work"})
		}
	}
	// NoValidate: compose interpolates the environment when the container starts, so k3s's
	// own "--token is required"-style checks would judge values k3sconf cannot know.
	opts := resolve.Options{FS: afero.NewMemMapFs(), Args: args, Env: s.Env, NoValidate: true}
	first, err := resolve.Resolve(opts)
	if err == nil {
		// Place the bind-mounted config files where k3s looks for them, then resolve again.
		mem := afero.NewMemMapFs()
		for _, p := range []string{first.ConfigPath, first.ConfigPath + ".d", nodeDirOf(first)} {
			if p != "" && p != ".d" {
				copyMounted(host, mem, s.Mounts, p)
			}
		}
		opts.FS = mem
		n.Result, _ = resolve.Resolve(opts)
	}
	res := n.Result
	if res == nil {
		res = first
		n.Result = first
	}
	n.Role = res.Command
	for _, d := range res.Diagnostics {
		if d.Severity != diag.Info {
			n.Diagnostics = append(n.Diagnostics, d)
		}
	}
	if res.Error != "" {
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-k3s-refuses", Pos: s.Pos,
			Message: fmt.Sprintf("k3s in service %s refuses to start: %s", s.Name, res.Error),
			Hint:    "run `k3sconf compose` again after fixing the command or environment; `k3sconf check` explains the same rules on a node"})
	}

	// Node name (pkg/util/net.go): node-name from any source, else the container's host
	// name, which is its container ID unless hostname: is set.
	if k := res.Key("node-name"); k != nil {
		if v, _ := k.Value.(string); v != "" {
			n.NodeName = strings.ToLower(v)
			if k.Source != nil {
				n.NameFrom = fmt.Sprintf("node-name from %s %s", k.Source.Kind, k.Source.Pos)
			} else {
				n.NameFrom = "node-name"
			}
		}
	}
	if n.NodeName == "" && s.Hostname != "" {
		n.NodeName, n.NameFrom = strings.ToLower(s.Hostname), fmt.Sprintf("hostname: at %s", s.HostnamePos)
	}
	if n.NodeName == "" && s.NetworkMode == "host" {
		n.NameFrom = "network_mode: host (the Docker host's name)"
	}
	n.NodeDir = keep(s, nodeDirOf(res))
	if n.Role == "server" {
		n.DataDir = keep(s, dataDirOf(res))
	}
	withID := false
	if k := res.Key("with-node-id"); k != nil {
		withID, _ = k.Value.(bool)
	}
	namePinned := n.NameFrom != ""
	n.Survives = namePinned && n.NodeDir.Survives() && (n.Role != "server" || n.DataDir.Survives())

	svcName := nodeNameFor(s.Name)
	if !namePinned {
		msg := fmt.Sprintf("service %s does not pin its node name: no hostname:, --node-name or K3S_NODE_NAME, so k3s registers the container's host name, its container ID, and every container that `docker compose up` creates after `down` joins as a new node while the old one stays NotReady", s.Name)
		if withID {
			msg += " (--with-node-id only appends an id to that changing name)"
		}
		fix := fmt.Sprintf("add `hostname: %s` to service %s", svcName, s.Name)
		if strings.HasPrefix(s.NetworkMode, "container:") || strings.HasPrefix(s.NetworkMode, "service:") {
			fix = fmt.Sprintf("add --node-name %s to the command of service %s (hostname: cannot be combined with network_mode %s)", svcName, s.Name, s.NetworkMode)
		}
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-name-not-pinned", Pos: s.Pos, Key: "node-name", Message: msg, Hint: fix})
	}
	if !n.NodeDir.Survives() {
		msg := fmt.Sprintf("service %s keeps %s (the node password%s) %s, so a new container generates a new password; the server keeps the old one's hash in the secret kube-system/<node-name>.node-password.k3s and rejects the node (\"Node password rejected\") until the old node is deleted", s.Name, n.NodeDir.Path, idText(withID), keepText(n.NodeDir))
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-node-password-lost", Pos: s.Pos, Message: msg,
			Hint: fmt.Sprintf("mount a named volume at %s in service %s", n.NodeDir.Path, s.Name)})
	}
	if n.Role == "server" && !n.DataDir.Survives() {
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-server-state-lost", Pos: s.Pos,
			Message: fmt.Sprintf("server %s keeps its data directory %s (the datastore, certificates, tokens) %s: after `down` + `up` it starts a new, empty cluster, and agents holding the old CA cannot join", s.Name, n.DataDir.Path, keepText(n.DataDir)),
			Hint:    fmt.Sprintf("mount a named volume at %s in service %s", n.DataDir.Path, s.Name)})
	}
	var named []string
	for _, k := range []Keep{n.NodeDir, n.DataDir} {
		if k.How == "volume" && k.Mount != nil {
			named = append(named, k.Mount.Source)
		}
	}
	if n.Survives && len(named) > 0 {
		n.Diagnostics = append(n.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "compose-down-v", Pos: s.Pos,
			Message: fmt.Sprintf("service %s keeps its identity in the named volume(s) %s: `docker compose down` keeps them, `docker compose down -v` deletes them, and then the node comes back with a new password under the same name", s.Name, strings.Join(named, ", ")),
			Hint:    "use `docker compose down` without -v, or bind-mount host folders instead of named volumes"})
	}
	n.fix(f, s, svcName, namePinned, used)
	return n
}

func idText(withID bool) string {
	if withID {
		return " and the --with-node-id id"
	}
	return ""
}

func keepText(k Keep) string {
	switch k.How {
	case "anonymous":
		return "in an anonymous volume, which a new container does not get back"
	case "tmpfs":
		return "on a tmpfs"
	}
	return "in the container's own filesystem, which `docker compose down` deletes"
}

// fix writes the compose lines that make the identity survive.
func (n *Node) fix(f *File, s *Service, name string, namePinned bool, used map[string]bool) {
	var lines, vols []string
	var mounts []string
	if !namePinned {
		if strings.HasPrefix(s.NetworkMode, "container:") || strings.HasPrefix(s.NetworkMode, "service:") {
			words := append(append([]string{}, n.Args...), "--node-name", name)
			q := make([]string, len(words))
			for i, w := range words {
				q[i] = fmt.Sprintf("%q", w)
			}
			lines = append(lines, fmt.Sprintf("command: [%s]", strings.Join(q, ", ")))
		} else {
			lines = append(lines, "hostname: "+name)
		}
	}
	addVol := func(k Keep, suffix string) {
		v := uniqueVolume(name+"-"+suffix, used)
		mounts = append(mounts, fmt.Sprintf("  - %s:%s", v, k.Path))
		vols = append(vols, v+": {}")
	}
	if !n.NodeDir.Survives() {
		addVol(n.NodeDir, "node")
	}
	if n.Role == "server" && !n.DataDir.Survives() {
		addVol(n.DataDir, "data")
	}
	if len(mounts) > 0 {
		lines = append(lines, "volumes:")
		lines = append(lines, mounts...)
	}
	n.Fix, n.FixVolumes = lines, vols
}

func uniqueVolume(v string, used map[string]bool) string {
	c := v
	for i := 2; used[c]; i++ {
		c = fmt.Sprintf("%s-%d", v, i)
	}
	used[c] = true
	return c
}

// nodeNameFor makes a service name a valid node name.
func nodeNameFor(s string) string {
	out := dnslabel.From(s)
	if out == "" {
		out = "k3s"
	}
	return out
}

// nodeDirOf is pkg/agent/config/config.go's nodeConfigPath.
func nodeDirOf(res *resolve.Result) string {
	if k := res.Key("rootless"); k != nil {
		if b, _ := k.Value.(bool); b {
			return path.Join(dataDirOf(res), "agent", "etc", "rancher", "node")
		}
	}
	return "/etc/rancher/node"
}

func dataDirOf(res *resolve.Result) string {
	d := "/var/lib/rancher/" + res.Product
	if k := res.Key("data-dir"); k != nil {
		if s, _ := k.Value.(string); s != "" {
			d = s
		}
	}
	if !path.IsAbs(d) {
		d = path.Join("/", d)
	}
	return path.Clean(d)
}

// keep finds the mount that holds p: the one with the longest target that is p or a folder
// above it; else an image VOLUME; else the container layer.
func keep(s *Service, p string) Keep {
	k := Keep{Path: p, How: "container"}
	best := -1
	for i := range s.Mounts {
		m := &s.Mounts[i]
		if within(p, m.Target) && len(m.Target) > best {
			best = len(m.Target)
			k.Mount, k.How = m, m.Type
		}
	}
	if k.Mount == nil && isK3sImage(s.Image) {
		for _, v := range imageVolumes {
			if within(p, v) {
				k.How = "anonymous"
			}
		}
	}
	return k
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Limits for copying bind-mounted files into the in-memory node.
const (
	maxCopyFiles = 200
	maxCopySize  = 1 << 20
	maxCopyDepth = 4
)

// copyMounted copies what a bind mount puts at node path p (a file or a folder) from the
// host into mem.
func copyMounted(host, mem afero.Fs, mounts []Mount, p string) {
	budget := maxCopyFiles
	for i := range mounts {
		m := &mounts[i]
		if m.Type != "bind" {
			continue
		}
		switch {
		case within(p, m.Target):
			rel := strings.TrimPrefix(strings.TrimPrefix(p, m.Target), "/")
			copyTree(host, mem, filepath.Join(m.Source, filepath.FromSlash(rel)), p, 0, &budget)
		case within(m.Target, p):
			copyTree(host, mem, m.Source, m.Target, 0, &budget)
		}
	}
}

func copyTree(host, mem afero.Fs, src, dst string, depth int, budget *int) {
	if *budget <= 0 || depth > maxCopyDepth {
		return
	}
	fi, err := host.Stat(src)
	if err != nil {
		return
	}
	if fi.IsDir() {
		entries, err := afero.ReadDir(host, src)
		if err != nil {
			return
		}
		for _, e := range entries {
			copyTree(host, mem, filepath.Join(src, e.Name()), path.Join(dst, e.Name()), depth+1, budget)
		}
		return
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxCopySize {
		return
	}
	fh, err := host.Open(src)
	if err != nil {
		return
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxCopySize))
	if err != nil && !errors.Is(err, io.EOF) {
		return
	}
	*budget--
	_ = mem.MkdirAll(path.Dir(dst), 0o755)
	_ = afero.WriteFile(mem, dst, data, 0o644)
}

// FixYAML is the compose fragment that makes every node's identity survive, "" when nothing
// needs fixing. Compose merges it into the file: hostname and command replace, volumes add.
func FixYAML(rep *Report) string {
	var b strings.Builder
	var vols []string
	for _, n := range rep.Nodes {
		if len(n.Fix) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("services:\n")
		}
		fmt.Fprintf(&b, "  %s:\n", n.Service.Name)
		for _, l := range n.Fix {
			fmt.Fprintf(&b, "    %s\n", l)
		}
		vols = append(vols, n.FixVolumes...)
	}
	if len(vols) > 0 {
		b.WriteString("volumes:\n")
		for _, v := range vols {
			fmt.Fprintf(&b, "  %s\n", v)
		}
	}
	return b.String()
}
