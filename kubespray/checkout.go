package kubespray

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Play is one play of cluster.yml after import_playbook is followed.
type Play struct {
	Name  string
	Pos   diag.Position
	Hosts string
	Tags  []string
	Roles []PlayRole
	Vars  []ansible.Def
}

// PlayRole is a role entry of a play with its tags.
type PlayRole struct {
	Role *ansible.Role
	Tags []string
	Pos  diag.Position
}

// Checkout is a kubespray tree.
type Checkout struct {
	Dir      string
	Playbook string
	Plays    []*Play
	roles    map[string]*ansible.Role
	// depTags are the tags written on a meta dependency entry, by parent and dependency.
	depTags map[[2]*ansible.Role][]string
	// Diagnostics are problems reading the tree.
	Diagnostics diag.Diagnostics
	// roleNames are the roles under roles/ (scanRoleNames, once) and allFiles the files
	// there (scanRoles, once).
	roleNames []string
	allFiles  []string
	roleOnce  sync.Once
	scanOnce  sync.Once
	tree      *TaskTree
	stats     map[string]cachedStat
	vars      map[string]*varsEntry
	under     map[string][]string
	// kinds are the files where searches (roleFileKinds).
	kinds []roleFile
	// patterns are the templated file and role names compiled (namePattern), by name.
	patterns map[string]*compiledName
	// mu guards files, listings, loaded and vars, which the prefetcher fills too.
	mu sync.Mutex
	// files are the files read and parsed, by path.
	files map[string]*fileEntry
	// listings are the folders listed (probed by absent, walked by scanRoles), by path.
	listings map[string]*listing
	// loaded are the roles' defaults and vars read ahead by the prefetcher, by role path.
	loaded map[string]*loadedRole
}

// Load reads dir/cluster.yml and the playbooks it imports.
func Load(dir string) (*Checkout, error) {
	return load(dir, false)
}

// load is Load; with prefetch, a second goroutine reads ahead what compiling the playbook
// and searching its uses will read (see prefetch): explain, where and resolvePlays, which
// read nearly every role, set it.
func load(dir string, prefetch bool) (*Checkout, error) {
	c := &Checkout{Dir: dir, Playbook: filepath.Join(dir, "cluster.yml"), roles: map[string]*ansible.Role{}, depTags: map[[2]*ansible.Role][]string{}}
	if _, err := os.Stat(c.Playbook); err != nil {
		return nil, fmt.Errorf("%s: not a kubespray checkout (no cluster.yml): %w", dir, err)
	}
	if prefetch {
		go c.prefetch()
	}
	if err := c.loadPlaybook(c.Playbook, nil, nil, 0); err != nil {
		return c, err
	}
	return c, nil
}

// fileEntry is one file's content and YAML document, each read once per checkout by
// whichever goroutine asks first (the command's or the prefetcher's; the other waits
// for it): the result is the same whoever reads it.
type fileEntry struct {
	dataOnce sync.Once
	data     []byte
	derr     error
	nodeOnce sync.Once
	n        *yaml.Node
	nerr     error
}

// entry is path's fileEntry.
func (c *Checkout) entry(path string) *fileEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.files[path]
	if e == nil {
		if c.files == nil {
			c.files = map[string]*fileEntry{}
		}
		e = &fileEntry{}
		c.files[path] = e
	}
	return e
}

// node is the YAML document of path, parsed once per checkout (the load, the task
// compiler and where read the same files).
func (c *Checkout) node(path string) (*yaml.Node, error) {
	e := c.entry(path)
	e.nodeOnce.Do(func() {
		data, err := c.read(path)
		if err != nil {
			e.nerr = err
			return
		}
		e.n, e.nerr = parseNode(path, data)
	})
	return e.n, e.nerr
}

// read is the content of path, read once per checkout.
func (c *Checkout) read(path string) ([]byte, error) {
	e := c.entry(path)
	e.dataOnce.Do(func() {
		if e.derr = c.absent(path); e.derr != nil {
			return
		}
		if l := c.listed(path); l != nil && l.Type().IsRegular() {
			e.data, e.derr = rootfs.ReadListedFile(path)
		} else {
			e.data, e.derr = rootfs.ReadHostFile(path)
		}
	})
	return e.data, e.derr
}

// loadedRole is a role's defaults and vars (ansible.LoadRole) read ahead by the
// prefetcher, or by the command where it came first.
type loadedRole struct {
	once  sync.Once
	r     *ansible.Role
	err   error
	taken bool
}

// loadRole is ansible.LoadRole(name, path): the prefetcher's reading of it the first
// time it is asked for (the same files read the same way: only the name is filled in
// here), a fresh one after.
func (c *Checkout) loadRole(name, path string) (*ansible.Role, error) {
	c.mu.Lock()
	e := c.loaded[path]
	if e == nil {
		if c.loaded == nil {
			c.loaded = map[string]*loadedRole{}
		}
		e = &loadedRole{}
		c.loaded[path] = e
	}
	taken := e.taken
	e.taken = true
	c.mu.Unlock()
	if taken {
		return ansible.LoadRole(name, path)
	}
	e.once.Do(func() { e.r, e.err = ansible.LoadRole("", path) })
	e.r.Name = name
	return e.r, e.err
}

// prefetch reads ahead, on a second goroutine (the machine's other core), what the
// command reads next: the folders under roles/ that can hold roles (scanRoleNames), every
// role's defaults and vars and meta/main.yml, last to first (the command loads the
// playbook's roles first to last, so the two meet in the middle), the other folders under
// roles/ (scanRoles), then every tasks and handlers file's YAML document, last to first
// again, then the roles' other vars files (include_vars: the run-time pass reads them
// after the compiler), then the templates where searches. Each is read by the same code
// the command runs, once (node, read, loadRole, varsFile): the output does not depend on
// which goroutine read what. A file the command never asks for is read for nothing;
// explain reads nearly all.
func (c *Checkout) prefetch() {
	c.roleOnce.Do(c.scanRoleNames)
	roles := filepath.Join(c.Dir, "roles")
	for i := len(c.roleNames) - 1; i >= 0; i-- {
		path := filepath.Join(roles, filepath.FromSlash(c.roleNames[i]))
		c.mu.Lock()
		e := c.loaded[path]
		if e == nil {
			if c.loaded == nil {
				c.loaded = map[string]*loadedRole{}
			}
			e = &loadedRole{}
			c.loaded[path] = e
		}
		c.mu.Unlock()
		e.once.Do(func() { e.r, e.err = ansible.LoadRole("", path) })
		_, _ = c.node(filepath.Join(path, "meta", "main.yml"))
	}
	c.scanOnce.Do(c.scanRoles)
	var templates, vars []string
	for i := len(c.allFiles) - 1; i >= 0; i-- {
		p := c.allFiles[i]
		rel := filepath.ToSlash(p[len(roles):])
		switch {
		case strings.Contains(rel, "/templates/"):
			templates = append(templates, p)
		case strings.Contains(rel, "/tasks/") || strings.Contains(rel, "/handlers/"):
			if strings.HasSuffix(rel, ".yml") || strings.HasSuffix(rel, ".yaml") {
				_, _ = c.node(p)
			}
		case strings.Contains(rel, "/vars/") && !strings.HasSuffix(rel, "/vars/main.yml"):
			vars = append(vars, p) // include_vars files (vars/main.yml is the role's, loadRole's)
		}
	}
	for i := len(vars) - 1; i >= 0; i-- {
		_ = c.varsFile(vars[i])
	}
	for _, p := range templates {
		_, _ = c.read(p)
	}
}

// varsEntry is one vars file's definitions, read once per checkout by whichever
// goroutine asks first (the command's or the prefetcher's).
type varsEntry struct {
	once sync.Once
	defs []ansible.Def
}

// varsFile is the definitions of a vars file (an include_vars file), read once per
// checkout; a file that does not read sets nothing.
func (c *Checkout) varsFile(path string) []ansible.Def {
	c.mu.Lock()
	e := c.vars[path]
	if e == nil {
		if c.vars == nil {
			c.vars = map[string]*varsEntry{}
		}
		e = &varsEntry{}
		c.vars[path] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.defs, _ = ansible.LoadVarsFile(path) })
	return e.defs
}

type cachedStat struct {
	fi  os.FileInfo
	err error
}

// stat is os.Stat, once per path and checkout, for its callers' IsDir: answered from the
// folder's listing where it has the entry and the entry is no link (the task compiler
// probes tasks/main.yml, .yaml … and role folders by the hundred).
func (c *Checkout) stat(path string) (os.FileInfo, error) {
	if x, ok := c.stats[path]; ok {
		return x.fi, x.err
	}
	var fi os.FileInfo
	err := c.absent(path)
	if err == nil {
		if e := c.listed(path); e != nil && e.Type()&fs.ModeSymlink == 0 {
			// The folder's listing has its type (a link is followed: os.Stat below).
			fi = listedInfo{e}
		} else {
			fi, err = os.Stat(path)
		}
	}
	if c.stats == nil {
		c.stats = map[string]cachedStat{}
	}
	c.stats[path] = cachedStat{fi, err}
	return fi, err
}

// absent is the error os.Stat gives for a path whose folder's listing (read once per
// folder and checkout) does not hold it, else nil (it may exist: ask the file system).
// The task compiler probes every role for tasks/main.yml, .yaml, .json,
// handlers/, meta/argument_specs.yml …: most of those do not exist, and one listing of
// the folder answers them all.
func (c *Checkout) absent(path string) error {
	dir, base := filepath.Dir(path), filepath.Base(path)
	l := c.listing(dir)
	if l.names == nil {
		return nil // unreadable: do not guess
	}
	if _, ok := l.names[base]; ok || base == "." || base == ".." || base == string(filepath.Separator) {
		return nil
	}
	return &fs.PathError{Op: "stat", Path: path, Err: syscall.ENOENT}
}

// listed is path's entry in its folder's listing (nil: not listed, or the folder did
// not read).
func (c *Checkout) listed(path string) fs.DirEntry {
	return c.listing(filepath.Dir(path)).names[filepath.Base(path)]
}

// listedInfo answers stat's callers, which ask only IsDir, from a listing's entry.
type listedInfo struct{ fs.DirEntry }

func (i listedInfo) Size() int64        { return 0 }
func (i listedInfo) Mode() fs.FileMode  { return i.Type() }
func (i listedInfo) ModTime() time.Time { return time.Time{} }
func (i listedInfo) Sys() any           { return nil }

// listing is one folder's os.ReadDir, and its entries by name (nil when the folder
// could not be read for another reason than its absence: absent does not guess then).
type listing struct {
	once  sync.Once
	ents  []os.DirEntry
	err   error
	names map[string]os.DirEntry
}

// listing is os.ReadDir of dir, once per folder and checkout: absent's probes and
// scanRoles' walk of roles/ read the same folders (a role's tasks/, meta/, defaults/ …).
func (c *Checkout) listing(dir string) *listing {
	c.mu.Lock()
	l := c.listings[dir]
	if l == nil {
		if c.listings == nil {
			c.listings = map[string]*listing{}
		}
		l = &listing{}
		c.listings[dir] = l
	}
	c.mu.Unlock()
	l.once.Do(func() {
		l.ents, l.err = os.ReadDir(dir)
		switch {
		case l.err == nil:
			l.names = make(map[string]os.DirEntry, len(l.ents))
			for _, e := range l.ents {
				l.names[e.Name()] = e
			}
		case errors.Is(l.err, fs.ErrNotExist):
			l.names = map[string]os.DirEntry{}
		}
	})
	return l
}

// filesUnder lists the files under base (slash-separated, relative to base, in walk
// order), once per folder and checkout.
func (c *Checkout) filesUnder(base string) []string {
	if fs, ok := c.under[base]; ok {
		return fs
	}
	var out []string
	_ = filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if c.under == nil {
		c.under = map[string][]string{}
	}
	c.under[base] = out
	return out
}

// roleDirs lists the roles under the checkout's roles/ by their names
// ("container-engine/containerd"): folders holding tasks/, defaults/, vars/ or meta/.
func (c *Checkout) roleDirs() []string {
	c.roleOnce.Do(c.scanRoleNames)
	return c.roleNames
}

// roleFolders are the folders of a role: a folder named so is not itself searched for
// roles below it.
var roleFolders = map[string]bool{"tasks": true, "defaults": true, "vars": true, "meta": true,
	"templates": true, "files": true, "handlers": true, "molecule": true}

// scanRoleNames walks the checkout's roles/ for the role names, in lexical order as
// filepath.WalkDir: a folder is a role when its listing holds tasks/, defaults/, vars/ or
// meta/ (a link there is followed, as os.Stat does). A role's own folders (roleFolders)
// are not searched for roles, nor listed here: a third of the folders under kubespray's
// roles/ are listed, so the prefetcher starts on the roles' defaults sooner (scanRoles
// lists the rest).
func (c *Checkout) scanRoleNames() {
	c.roleNames = []string{}
	root := filepath.Join(c.Dir, "roles")
	var walk func(dir string)
	walk = func(dir string) {
		l := c.listing(dir)
		if l.err != nil {
			return
		}
		if dir != root {
			for _, e := range l.ents {
				switch e.Name() {
				case "tasks", "defaults", "vars", "meta":
				default:
					continue
				}
				isDir := e.IsDir()
				if e.Type()&os.ModeSymlink != 0 {
					fi, err := os.Stat(filepath.Join(dir, e.Name()))
					isDir = err == nil && fi.IsDir()
				}
				if isDir {
					rel, _ := filepath.Rel(root, dir)
					c.roleNames = append(c.roleNames, filepath.ToSlash(rel))
					break
				}
			}
		}
		if roleFolders[filepath.Base(dir)] {
			return
		}
		for _, e := range l.ents {
			if e.IsDir() {
				walk(filepath.Join(dir, e.Name()))
			}
		}
	}
	walk(root)
}

// scanRoles walks the checkout's roles/ once (one directory listing per folder, shared
// with scanRoleNames and absent, in lexical order as filepath.WalkDir) for the files where
// searches (every non-folder entry).
func (c *Checkout) scanRoles() {
	c.allFiles = []string{}
	var walk func(dir string)
	walk = func(dir string) {
		l := c.listing(dir)
		if l.err != nil {
			return
		}
		for _, e := range l.ents {
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				walk(p)
			} else {
				c.allFiles = append(c.allFiles, p)
			}
		}
	}
	walk(filepath.Join(c.Dir, "roles"))
}

func parseNode(path string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &diag.ParseError{Pos: diag.Position{File: path}, Msg: "YAML: " + err.Error(), Err: err}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// tagsOf reads tags: as a string, a comma list or a sequence.
func tagsOf(n *yaml.Node) []string {
	t := get(n, "tags")
	if t == nil {
		return nil
	}
	var out []string
	switch t.Kind {
	case yaml.ScalarNode:
		for _, s := range strings.Split(t.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case yaml.SequenceNode:
		for _, c := range t.Content {
			out = append(out, c.Value)
		}
	}
	return out
}

func (c *Checkout) loadPlaybook(path string, inheritVars []ansible.Def, inheritTags []string, depth int) error {
	if depth > 20 {
		return fmt.Errorf("%s: import_playbook nested too deeply", path)
	}
	root, err := c.node(path)
	if err != nil || root == nil {
		return err
	}
	if root.Kind != yaml.SequenceNode {
		return &diag.ParseError{Pos: diag.Position{File: path, Line: root.Line, Column: root.Column}, Msg: "a playbook is a list of plays"}
	}
	for _, p := range root.Content {
		vars, err := ansible.PlayVars(path, p)
		if err != nil {
			return err
		}
		vars = append(append([]ansible.Def(nil), inheritVars...), vars...)
		tags := append(append([]string(nil), inheritTags...), tagsOf(p)...)
		imp := get(p, "import_playbook")
		if imp == nil {
			imp = get(p, "ansible.builtin.import_playbook")
		}
		if imp != nil {
			if err := c.loadPlaybook(filepath.Join(filepath.Dir(path), imp.Value), vars, tags, depth+1); err != nil {
				return err
			}
			continue
		}
		pl := &Play{Pos: diag.Position{File: path, Line: p.Line, Column: p.Column}, Tags: tags, Vars: vars}
		if n := get(p, "name"); n != nil {
			pl.Name = n.Value
		}
		if h := get(p, "hosts"); h != nil {
			pl.Hosts = h.Value
		}
		if rs := get(p, "roles"); rs != nil && rs.Kind == yaml.SequenceNode {
			for _, re := range rs.Content {
				name := re.Value
				var rtags []string
				if re.Kind == yaml.MappingNode {
					if n := get(re, "role"); n != nil {
						name = n.Value
					} else if n := get(re, "name"); n != nil {
						name = n.Value
					}
					rtags = tagsOf(re)
				}
				r, err := c.role(name, filepath.Dir(path), "")
				if err != nil {
					return err
				}
				pl.Roles = append(pl.Roles, PlayRole{Role: r, Tags: rtags, Pos: diag.Position{File: path, Line: re.Line, Column: re.Column}})
			}
		}
		c.Plays = append(c.Plays, pl)
	}
	return nil
}

// rolePath is playbook/role/definition.py _load_role_path: PLAYBOOK_DIR/roles/NAME, then
// the roles path (kubespray's ansible.cfg: roles_path = roles, i.e. CHECKOUT/roles), then
// the folder of the role that depends on it (meta dependencies), then PLAYBOOK_DIR/NAME.
func (c *Checkout) rolePath(name, playDir, parentBase string) string {
	cands := []string{filepath.Join(playDir, "roles", name), filepath.Join(c.Dir, "roles", name)}
	if parentBase != "" {
		cands = append(cands, filepath.Join(parentBase, name))
	}
	cands = append(cands, filepath.Join(playDir, name))
	for _, p := range cands {
		if fi, err := c.stat(p); err == nil && fi.IsDir() {
			return p
		}
	}
	return ""
}

// role loads a role with its meta dependencies (cached by path).
func (c *Checkout) role(name, playDir, parentBase string) (*ansible.Role, error) {
	path := c.rolePath(filepath.FromSlash(name), playDir, parentBase)
	if path == "" {
		key := "missing:" + name
		if r, ok := c.roles[key]; ok {
			return r, nil
		}
		r := &ansible.Role{Name: name}
		c.roles[key] = r
		c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "KS010", Pos: diag.Position{File: filepath.Join(c.Dir, "roles", name)},
			Message: "role " + name + " not found (looked in the playbook's roles/, the checkout's roles/ and beside the role depending on it); its defaults and vars are missing",
			Hint:    "is --kubespray the root of a kubespray checkout?"})
		return r, nil
	}
	if r, ok := c.roles[path]; ok {
		return r, nil
	}
	r, err := c.loadRole(name, path)
	c.roles[path] = r
	if err != nil {
		return r, err
	}
	meta, err := c.node(filepath.Join(path, "meta", "main.yml"))
	if err == nil && meta != nil {
		if deps := get(meta, "dependencies"); deps != nil && deps.Kind == yaml.SequenceNode {
			for _, d := range deps.Content {
				dn := d.Value
				if d.Kind == yaml.MappingNode {
					if n := get(d, "role"); n != nil {
						dn = n.Value
					} else if n := get(d, "name"); n != nil {
						dn = n.Value
					}
				}
				dr, err := c.role(dn, playDir, filepath.Dir(path))
				if err != nil {
					return r, err
				}
				r.Deps = append(r.Deps, dr)
				if d.Kind == yaml.MappingNode {
					c.depTags[[2]*ansible.Role{r, dr}] = tagsOf(d)
				}
			}
		}
	}
	return r, nil
}

// legacyGroups are kubespray's old group names and what dynamic_groups maps them to.
var legacyGroups = map[string]string{
	"kube-master": "kube_control_plane",
	"kube-node":   "kube_node",
	"calico-rr":   "calico_rr",
	"no-floating": "no_floating",
	"k8s-cluster": "k8s_cluster",
}

// groupMappings is roles/dynamic_groups/tasks/main.yml's group_mappings, in its order.
var groupMappings = []struct {
	group string
	from  []string
}{
	{"kube_control_plane", []string{"kube-master"}},
	{"kube_node", []string{"kube-node"}},
	{"calico_rr", []string{"calico-rr"}},
	{"no_floating", []string{"no-floating"}},
	{"k8s_cluster", []string{"kube_node", "kube_control_plane", "calico_rr"}},
}

// addDynamicGroups adds every host, in inventory order, to the groups kubespray's
// dynamic_groups role creates with group_by, and returns what each host got that it was
// not in before: a group the inventory already puts the host in (`[k8s_cluster:children]`
// naming kube_node) is not "added at run time", though group_by still runs for it. The
// loop's `when` sees group_names as they were when the task started, so a host only in
// kube-master gets kube_control_plane but not k8s_cluster from it.
func addDynamicGroups(inv *ansible.Inventory) map[string][]string {
	type add struct{ group, host string }
	var adds []add
	out := map[string][]string{}
	for _, host := range inv.HostOrder {
		names := map[string]bool{}
		for _, g := range inv.HostGroups(inv.Hosts[host]) {
			names[g.Name] = true
		}
		for _, m := range groupMappings {
			for _, f := range m.from {
				if names[f] {
					adds = append(adds, add{m.group, host})
					if !names[m.group] {
						out[host] = append(out[host], m.group)
					}
					break
				}
			}
		}
	}
	for _, a := range adds {
		inv.AddGroup(a.group, a.host)
	}
	return out
}
