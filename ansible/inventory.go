package ansible

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/internal/yamlalias"
)

// Def is one assignment of a variable in an input.
type Def struct {
	Name  string
	Value any
	// Raw is the text as written (the INI word, the YAML scalar), when it is a scalar.
	Raw string
	Pos diag.Position
	// SecretCopy: see [Entry].
	SecretCopy bool
}

// Group is an inventory group.
type Group struct {
	Name     string
	Parents  []*Group
	Children []*Group
	// Hosts directly in the group.
	Hosts []*Host
	// Vars set in the inventory source ([g:vars], YAML vars:), in the order set.
	Vars     []Def
	Priority int
	// Depth is the longest path from "all" (all is 0, its children 1, …).
	Depth int
	// Pos is where the group is first declared.
	Pos diag.Position
	// Runtime marks a group added while the play runs (group_by), not by the inventory.
	Runtime bool
	// RuntimeHosts are hosts added to the group while the play runs (group_by). Their order
	// in the group is the order ansible processed the task results, which with several
	// forks is not fixed (checked with ansible-playbook -f 5).
	RuntimeHosts []*Host
}

// Host is an inventory host.
type Host struct {
	Name   string
	Groups []*Group // direct membership, in the order added
	Vars   []Def
	Pos    diag.Position
}

// Inventory is what ansible's InventoryManager builds from the -i sources.
type Inventory struct {
	// Sources are the -i arguments as given (a file or a folder); group_vars/host_vars are
	// looked up beside each (its folder for a file, itself for a folder).
	Sources []string
	// Files are the inventory files parsed, in order.
	Files  []string
	Groups map[string]*Group
	// GroupOrder lists group names in creation order.
	GroupOrder []string
	Hosts      map[string]*Host
	HostOrder  []string
	// Diagnostics are problems found while parsing (files skipped, warnings ansible prints).
	Diagnostics diag.Diagnostics
	// Unexpanded are the values k3sconf did not expand (also among Diagnostics).
	Unexpanded []*LimitError
}

func newInventory() *Inventory {
	inv := &Inventory{Groups: map[string]*Group{}, Hosts: map[string]*Host{}}
	inv.group("all", diag.Position{})
	inv.group("ungrouped", diag.Position{})
	inv.addChild("all", "ungrouped")
	return inv
}

func (inv *Inventory) group(name string, pos diag.Position) *Group {
	if g, ok := inv.Groups[name]; ok {
		return g
	}
	g := &Group{Name: name, Priority: 1, Pos: pos}
	inv.Groups[name] = g
	inv.GroupOrder = append(inv.GroupOrder, name)
	return g
}

// AddGroup adds a group created at run time (group_by) as a child of all, with the host in
// it, as ansible's strategy _add_group does.
func (inv *Inventory) AddGroup(name string, host string) *Group {
	g, existed := inv.Groups[name]
	if !existed {
		g = inv.group(name, diag.Position{})
		g.Runtime = true
		inv.addChild("all", name)
	}
	if h := inv.Hosts[host]; h != nil {
		before := len(h.Groups)
		inv.addHost(g, h)
		if len(h.Groups) > before {
			g.RuntimeHosts = append(g.RuntimeHosts, h)
		}
	}
	inv.computeDepth()
	return g
}

func (inv *Inventory) host(name string, pos diag.Position) *Host {
	if h, ok := inv.Hosts[name]; ok {
		return h
	}
	h := &Host{Name: name, Pos: pos}
	inv.Hosts[name] = h
	inv.HostOrder = append(inv.HostOrder, name)
	return h
}

func (inv *Inventory) addHost(g *Group, h *Host) {
	for _, x := range h.Groups {
		if x == g {
			return
		}
	}
	h.Groups = append(h.Groups, g)
	g.Hosts = append(g.Hosts, h)
}

func (inv *Inventory) addChild(parent, child string) error {
	p, c := inv.Groups[parent], inv.Groups[child]
	for _, x := range p.Children {
		if x == c {
			return nil
		}
	}
	if p == c || c.isAncestorOf(p) {
		return fmt.Errorf("adding group %q as child to %q creates a recursive dependency loop", child, parent)
	}
	p.Children = append(p.Children, c)
	c.Parents = append(c.Parents, p)
	return nil
}

func (g *Group) isAncestorOf(x *Group) bool {
	seen := map[*Group]bool{}
	var walk func(*Group) bool
	walk = func(y *Group) bool {
		for _, p := range y.Parents {
			if p == g {
				return true
			}
			if !seen[p] {
				seen[p] = true
				if walk(p) {
					return true
				}
			}
		}
		return false
	}
	return walk(x)
}

// Ancestors returns every group above g.
func (g *Group) Ancestors() []*Group {
	var out []*Group
	seen := map[*Group]bool{}
	var walk func(*Group)
	walk = func(y *Group) {
		for _, p := range y.Parents {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
				walk(p)
			}
		}
	}
	walk(g)
	return out
}

// reconcile is inventory/data.py reconcile_inventory: every group without ancestors goes
// under all, a host in no group goes to ungrouped, one in another group leaves ungrouped;
// then depths are computed (the longest path from all, as Group.add_child_group keeps it).
func (inv *Inventory) reconcile() {
	for _, name := range inv.GroupOrder {
		g := inv.Groups[name]
		if name != "all" && len(g.Parents) == 0 {
			_ = inv.addChild("all", name)
		}
	}
	ung := inv.Groups["ungrouped"]
	for _, hn := range inv.HostOrder {
		h := inv.Hosts[hn]
		groups := inv.HostGroups(h)
		inUng := false
		for _, g := range groups {
			if g == ung {
				inUng = true
			}
		}
		if inUng {
			others := 0
			for _, g := range groups {
				if g != ung && g.Name != "all" {
					others++
				}
			}
			if others > 0 {
				inv.removeHost(ung, h)
			}
		} else if len(groups) == 0 || len(groups) == 1 && groups[0].Name == "all" {
			inv.addHost(ung, h)
		}
	}
	inv.computeDepth()
}

func (inv *Inventory) computeDepth() {
	for _, g := range inv.Groups {
		g.Depth = 0
	}
	var visit func(g *Group, d int, stack map[*Group]bool)
	visit = func(g *Group, d int, stack map[*Group]bool) {
		if d <= g.Depth && d != 0 || stack[g] {
			return
		}
		g.Depth = d
		stack[g] = true
		for _, c := range g.Children {
			visit(c, d+1, stack)
		}
		delete(stack, g)
	}
	visit(inv.Groups["all"], 0, map[*Group]bool{})
}

func (inv *Inventory) removeHost(g *Group, h *Host) {
	for i, x := range g.Hosts {
		if x == h {
			g.Hosts = append(g.Hosts[:i:i], g.Hosts[i+1:]...)
			break
		}
	}
	for i, x := range h.Groups {
		if x == g {
			h.Groups = append(h.Groups[:i:i], h.Groups[i+1:]...)
			break
		}
	}
}

// HostGroups is host.get_groups(): the host's groups and all their ancestors ("all"
// included).
func (inv *Inventory) HostGroups(h *Host) []*Group {
	var out []*Group
	seen := map[*Group]bool{}
	for _, g := range h.Groups {
		for _, x := range append([]*Group{g}, g.Ancestors()...) {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// SortGroups is inventory/helpers.py sort_groups: by depth, then ansible_group_priority,
// then name.
func SortGroups(gs []*Group) []*Group {
	out := append([]*Group(nil), gs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		return a.Name < b.Name
	})
	return out
}

// HasHostOrGroup reports whether name is a group of the inventory.
func (inv *Inventory) HasGroup(name string) bool { _, ok := inv.Groups[name]; return ok }

// ignoredInDir is inventory/manager.py IGNORED for 2.14's defaults: hidden names,
// host_vars, group_vars, vars_plugins, and INVENTORY_IGNORE_EXTS (REJECT_EXTS plus .orig,
// .ini, .cfg, .retry). So an .ini file inside a folder given to -i is not read.
var ignoredInDir = regexp.MustCompile(`^\.|^host_vars$|^group_vars$|^vars_plugins$|(\.pyc|\.pyo|\.swp|\.bak|~|\.rpm|\.md|\.txt|\.rst|\.orig|\.ini|\.cfg|\.retry)$`)

// LoadInventory parses the -i sources in order.
func LoadInventory(sources []string) (*Inventory, error) {
	inv := newInventory()
	inv.Sources = sources
	for _, src := range sources {
		var w dirWalk
		if err := inv.parseSource(&w, src, true); err != nil {
			return inv, err
		}
	}
	inv.reconcile()
	return inv, nil
}

func (inv *Inventory) parseSource(w *dirWalk, path string, top bool) error {
	fi, err := os.Stat(path)
	if err != nil {
		if top {
			return err
		}
		return nil
	}
	if fi.IsDir() {
		if ok, d := w.enter(path, fi); !ok {
			if d != nil {
				inv.Diagnostics = append(inv.Diagnostics, *d)
			}
			return nil
		}
		defer w.leave(fi)
		ents, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		for _, n := range names {
			if ignoredInDir.MatchString(n) {
				if strings.HasSuffix(n, ".ini") || strings.HasSuffix(n, ".cfg") {
					inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "AN001",
						Pos:     diag.Position{File: filepath.Join(path, n)},
						Message: "not read: ansible ignores *.ini and *.cfg files inside a folder given to -i (INVENTORY_IGNORE_EXTS)",
						Hint:    "name the file itself with -i, or rename it without the .ini extension"})
				}
				continue
			}
			if err := inv.parseSource(w, filepath.Join(path, n), false); err != nil {
				return err
			}
		}
		return nil
	}
	var data []byte
	if top {
		// Named with -i: the one reader of file arguments (a FIFO, socket or device is
		// refused, the size is bounded).
		data, err = rootfs.ReadArg(path, false)
	} else {
		data, err = rootfs.ReadHostFile(path)
	}
	if !top && err != nil {
		// A FIFO, device or unreadable file in a folder given to -i: ansible would try to
		// parse it (a FIFO waits for a writer); k3sconf reads the rest and says so.
		inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: diag.Position{File: path},
			Message: err.Error() + " (ansible-inventory 2.14.18 waits on a FIFO here for a writer)", Hint: "the report lacks this file's hosts and variables"})
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&0o111 != 0 && !top || fi.Mode()&0o111 != 0 && strings.HasPrefix(string(data), "#!") {
		inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "AN002", Pos: diag.Position{File: path},
			Message: "executable inventory (a script) is not run by k3sconf; its hosts and variables are missing", Hint: "pass the script's output saved as YAML or JSON"})
		return nil
	}
	ext := filepath.Ext(path)
	switch ext {
	case ".yml", ".yaml", ".json":
		return inv.parseYAML(path, data)
	case "":
		// The yaml plugin accepts files without extension; when the content is not a YAML
		// mapping it fails and the ini plugin is tried next.
		if root, err := parseYAMLNode(path, data); err == nil && root != nil && root.Kind == yaml.MappingNode && !strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
			return inv.parseYAML(path, data)
		}
	}
	inv.Files = append(inv.Files, path)
	return inv.parseINI(path, string(data))
}

var (
	reSection   = regexp.MustCompile(`^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$`)
	reGroupName = regexp.MustCompile(`^([^:\]\s]+)\s*(?:#.*)?$`)
)

// parseINI is plugins/inventory/ini.py _parse.
func (inv *Inventory) parseINI(path, text string) error {
	type pending struct {
		line    int
		state   string
		parents []string
	}
	pend := map[string]*pending{}
	var pendOrder []string
	groupname, state := "ungrouped", "hosts"
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	perr := func(ln, col int, f string, a ...any) error {
		return &diag.ParseError{Pos: diag.Position{File: path, Line: ln, Column: col}, Msg: fmt.Sprintf(f, a...)}
	}
	for i, raw := range lines {
		ln := i + 1
		line := strings.TrimSpace(raw)
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if m := reSection.FindStringSubmatch(line); m != nil {
			groupname, state = m[1], m[2]
			if state == "" {
				state = "hosts"
			}
			if state != "hosts" && state != "children" && state != "vars" {
				return perr(ln, lead+1, "Section [%s:%s] has unknown type: %s", m[1], m[2], state)
			}
			if _, ok := inv.Groups[groupname]; !ok {
				if _, ok := pend[groupname]; state == "vars" && !ok {
					pend[groupname] = &pending{line: ln, state: state}
					pendOrder = append(pendOrder, groupname)
				}
				inv.group(groupname, diag.Position{File: path, Line: ln, Column: lead + 2})
			}
			if p, ok := pend[groupname]; ok && state != "vars" {
				if p.state == "children" {
					for _, par := range p.parents {
						if err := inv.addChild(par, groupname); err != nil {
							return perr(ln, lead+1, "%v", err)
						}
					}
				}
				delete(pend, groupname)
			}
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			return perr(ln, lead+1, "Invalid section entry: '%s'. Please make sure that there are no spaces in the section entry, and that there are no other invalid characters", line)
		}
		switch state {
		case "hosts":
			words, offs, ok := ShlexSplit(line)
			if !ok {
				return perr(ln, lead+1, "Error parsing host definition '%s': No closing quotation", line)
			}
			if len(words) == 0 {
				continue
			}
			names, err := expandHostPattern(words[0])
			var le *LimitError
			if errors.As(err, &le) {
				// Too many hosts to expand: this line is left out, the rest is read.
				le.Pos = diag.Position{File: path, Line: ln, Column: lead + 1}
				inv.Diagnostics = append(inv.Diagnostics, rangeDiagnostic(le))
				continue
			}
			if err != nil {
				return perr(ln, lead+1, "%v", err)
			}
			var vars []Def
			for k, w := range words[1:] {
				key, val, ok := strings.Cut(w, "=")
				if !ok {
					return perr(ln, lead+offs[k+1]+1, "Expected key=value host variable assignment, got: %s", w)
				}
				vars = append(vars, Def{Name: key, Value: PyLiteral(val), Raw: val, Pos: diag.Position{File: path, Line: ln, Column: lead + offs[k+1] + 1}})
			}
			g := inv.group(groupname, diag.Position{})
			for _, n := range names {
				h := inv.host(n, diag.Position{File: path, Line: ln, Column: lead + 1})
				inv.addHost(g, h)
				h.Vars = append(h.Vars, vars...)
			}
		case "vars":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return perr(ln, lead+1, "Expected key=value, got: %s", line)
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			g := inv.Groups[groupname]
			d := Def{Name: k, Value: PyLiteral(v), Raw: v, Pos: diag.Position{File: path, Line: ln, Column: lead + 1}}
			if k == "ansible_group_priority" {
				if err := setPriority(g, d.Value); err != nil {
					return perr(ln, lead+1, "%v", err)
				}
				continue
			}
			g.Vars = append(g.Vars, d)
		case "children":
			m := reGroupName.FindStringSubmatch(line)
			if m == nil {
				return perr(ln, lead+1, "Expected group name, got: %s", line)
			}
			child := m[1]
			if _, ok := inv.Groups[child]; !ok {
				if p, ok := pend[child]; ok {
					p.parents = append(p.parents, groupname)
				} else {
					pend[child] = &pending{line: ln, state: "children", parents: []string{groupname}}
					pendOrder = append(pendOrder, child)
				}
			} else if err := inv.addChild(groupname, child); err != nil {
				return perr(ln, lead+1, "%v", err)
			}
		}
	}
	for _, g := range pendOrder {
		p, ok := pend[g]
		if !ok {
			continue
		}
		if p.state == "vars" {
			return perr(p.line, 1, "Section [%s:vars] not valid for undefined group: %s", g, g)
		}
		return perr(p.line, 1, "Section [%s:children] includes undefined group: %s", p.parents[len(p.parents)-1], g)
	}
	return nil
}

func setPriority(g *Group, v any) error {
	switch x := v.(type) {
	case int64:
		g.Priority = int(x)
	case bool:
		g.Priority = map[bool]int{false: 0, true: 1}[x]
	case float64:
		g.Priority = int(x)
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return fmt.Errorf("ansible_group_priority: invalid literal for int(): %q", x)
		}
		g.Priority = n
	default:
		return fmt.Errorf("ansible_group_priority: int() cannot take %s", TypeName(v))
	}
	return nil
}

var reRange = regexp.MustCompile(`^(.*?)\[([^\]]*)\](.*)$`)

// MaxRangeHosts bounds the host names one host pattern's ranges may expand to. Ansible
// expands any range (ansible-core 2.14.18, lib/ansible/plugins/inventory/__init__.py
// expand_hostname_range builds the whole list, recursing for each further range), so
// "h[0:999999]" is a million hosts and "h[0:999][0:999]" too: k3sconf ran past 120 s and
// 1.2 GB on one. A real inventory names far fewer hosts per line; a pattern over the bound
// is left out with an input-unreadable finding at its file:line and the rest is read.
const MaxRangeHosts = 10000

// expandHostPattern is ansible's parse_address + expand_hostname_range (inventory/
// BaseFileInventoryPlugin._expand_hostpattern): "node[01:03]" and "host:port". A pattern
// whose ranges would expand to more than [MaxRangeHosts] names is a [*LimitError] (without
// a position: the caller knows it), counted before anything is expanded.
func expandHostPattern(p string) ([]string, error) {
	if n := countHostPattern(p); n > MaxRangeHosts {
		return nil, &LimitError{Msg: fmt.Sprintf("k3sconf does not expand host pattern %q: its ranges make %s host names, more than k3sconf's bound of %d per pattern", p, hostCount(n), MaxRangeHosts)}
	}
	return expandHostPatternAll(p)
}

// hostCount words a count that may have reached the saturation bound.
func hostCount(n int) string {
	if n >= rangeCountCap {
		return fmt.Sprintf("over %d", rangeCountCap)
	}
	return strconv.Itoa(n)
}

// rangeCountCap is where countHostPattern stops multiplying (so a pattern of many ranges
// cannot overflow).
const rangeCountCap = 1 << 30 // fits a 32-bit int (GOARCH=arm)

// countHostPattern is how many names expandHostPatternAll would return for p, computed
// without building them: the size of the first range times the count of the rest (each
// range is expanded for every name of the ranges before it). A range expandHostPatternAll
// would refuse counts as 1: the error is its to report.
func countHostPattern(p string) int {
	if i := strings.LastIndexByte(p, ':'); i > 0 && strings.Count(p, ":") == 1 && !strings.Contains(p[i:], "]") {
		if _, err := strconv.Atoi(p[i+1:]); err == nil {
			p = p[:i]
		}
	}
	m := reRange.FindStringSubmatch(p)
	if m == nil || !strings.Contains(m[2], ":") {
		return 1
	}
	b := strings.Split(m[2], ":")
	if len(b) != 2 && len(b) != 3 {
		return 1
	}
	step := 1
	if len(b) == 3 {
		s, err := strconv.Atoi(b[2])
		if err != nil || s <= 0 {
			return 1
		}
		step = s
	}
	beg := b[0]
	if beg == "" {
		beg = "0"
	}
	n := 1
	if bi, err := strconv.Atoi(beg); err == nil {
		ei, err := strconv.Atoi(b[1])
		if err != nil {
			return 1
		}
		n = 0
		if ei >= bi {
			n = (ei-bi)/step + 1
		}
	} else if e := b[1]; len(beg) == 1 && len(e) == 1 && beg <= e {
		n = int(e[0]-beg[0])/step + 1
	}
	rest := countHostPattern(m[3])
	if n == 0 || rest == 0 {
		return 0
	}
	if n >= rangeCountCap/rest {
		return rangeCountCap
	}
	return n * rest
}

func expandHostPatternAll(p string) ([]string, error) {
	if strings.HasSuffix(p, ":") {
		return nil, fmt.Errorf("invalid host pattern '%s' supplied, ending in ':' is not allowed, this character is reserved to provide a port", p)
	}
	if p == "---" {
		return nil, fmt.Errorf("invalid host pattern '%s' supplied, '---' is normally a sign this is a YAML file", p)
	}
	if i := strings.LastIndexByte(p, ':'); i > 0 && strings.Count(p, ":") == 1 && !strings.Contains(p[i:], "]") {
		if _, err := strconv.Atoi(p[i+1:]); err == nil {
			p = p[:i]
		}
	}
	m := reRange.FindStringSubmatch(p)
	if m == nil || !strings.Contains(m[2], ":") {
		return []string{p}, nil
	}
	head, rng, tail := m[1], m[2], m[3]
	b := strings.Split(rng, ":")
	if len(b) != 2 && len(b) != 3 {
		return nil, fmt.Errorf("host range must be begin:end or begin:end:step")
	}
	beg, end, step := b[0], b[1], 1
	if len(b) == 3 {
		s, err := strconv.Atoi(b[2])
		if err != nil || s <= 0 {
			return nil, fmt.Errorf("host range step must be a positive integer: %q", b[2])
		}
		step = s
	}
	if beg == "" {
		beg = "0"
	}
	if end == "" {
		return nil, fmt.Errorf("host range must specify end value")
	}
	tails, err := expandHostPatternAll(tail)
	if err != nil {
		return nil, err
	}
	var names []string
	if bi, err := strconv.Atoi(beg); err == nil {
		ei, err := strconv.Atoi(end)
		if err != nil {
			return nil, fmt.Errorf("host range end %q is not a number", end)
		}
		width := 0
		if beg[0] == '0' && len(beg) > 1 {
			width = len(beg)
			if width != len(end) {
				return nil, fmt.Errorf("host range must specify equal-length begin and end formats")
			}
		}
		for i := bi; i <= ei; i += step {
			for _, t := range tails {
				names = append(names, fmt.Sprintf("%s%0*d%s", head, width, i, t))
			}
		}
		return names, nil
	}
	if len(beg) != 1 || len(end) != 1 || beg > end {
		return nil, fmt.Errorf("host range %q: begin and end must be numbers or single letters", rng)
	}
	for c := beg[0]; c <= end[0]; c += byte(step) {
		for _, t := range tails {
			names = append(names, head+string(c)+t)
		}
		if int(c)+step > 255 {
			break
		}
	}
	return names, nil
}

// parseYAML is plugins/inventory/yaml.py: top-level keys are groups, each with vars,
// children and hosts mappings.
func (inv *Inventory) parseYAML(path string, data []byte) error {
	root, err := parseYAMLNode(path, data)
	if err != nil {
		return err
	}
	inv.Files = append(inv.Files, path)
	if root == nil {
		return nil
	}
	if root.Kind != yaml.MappingNode {
		return &diag.ParseError{Pos: diag.Position{File: path, Line: root.Line, Column: root.Column}, Msg: "YAML inventory has invalid structure, it should be a dictionary"}
	}
	if plugin := mapGet(root, "plugin"); plugin != nil {
		inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "AN002", Pos: diag.Position{File: path},
			Message: "inventory plugin configuration (plugin: " + plugin.Value + ") is not run by k3sconf; its hosts and variables are missing", Hint: "save `ansible-inventory -i FILE --list --yaml` output and pass that"})
		return nil
	}
	w := &groupWalk{path: path}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if _, err := inv.yamlGroup(w, root.Content[i], root.Content[i+1]); err != nil {
			var le *LimitError
			if errors.As(err, &le) {
				// The groups read so far stay; the report is incomplete.
				inv.Diagnostics = append(inv.Diagnostics, LimitDiagnostic(le))
				return nil
			}
			return err
		}
	}
	return nil
}

// groupWalk is one YAML inventory file's walk of its groups: children written as aliases
// are expanded as yaml.plugin's _parse_group recurses into them, within yaml.v2's alias
// budget (a group's children that alias a mapping holding them would never end).
type groupWalk struct {
	path   string
	budget yamlalias.Budget
	open   map[*yaml.Node]bool
}

// vars reads a vars mapping; a variable k3sconf does not expand is left out with an
// input-unreadable finding (the report is incomplete), the others are read.
func (inv *Inventory) vars(w *groupWalk, n *yaml.Node) ([]Entry, error) {
	es, err := mappingEntries(w.path, n)
	var le *LimitError
	if errors.As(err, &le) {
		inv.Diagnostics = append(inv.Diagnostics, LimitDiagnostic(le))
		inv.Unexpanded = append(inv.Unexpanded, le)
		return es, nil
	}
	return es, err
}

// rangeDiagnostic is the finding for a host pattern k3sconf does not expand.
func rangeDiagnostic(le *LimitError) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: le.Pos, Message: le.Msg,
		Hint: "k3sconf's bound, not Ansible's: the report lacks the hosts of this line; list the hosts you mean with smaller ranges"}
}

// LimitDiagnostic is the finding for a value k3sconf does not expand.
func LimitDiagnostic(le *LimitError) diag.Diagnostic {
	key := ""
	if len(le.Names) > 0 {
		key = le.Names[0]
	}
	return diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Key: key, Pos: le.Pos, Message: le.message(),
		Hint: "k3sconf's limit, not Ansible's: the report lacks this variable; write the value out without aliases to see it"}
}

func mapGet(n *yaml.Node, key string) *yaml.Node {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return resolveAlias(n.Content[i+1])
		}
	}
	return nil
}

func isNullNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style == 0 && isNull(n.Value)
}

func (inv *Inventory) yamlGroup(w *groupWalk, kn, vn *yaml.Node) (*Group, error) {
	path := w.path
	pos := diag.Position{File: path, Line: kn.Line, Column: kn.Column}
	if w.budget.Step() {
		return nil, &LimitError{Pos: pos, Msg: "k3sconf stops reading the groups here: their YAML aliases multiply (" + yamlalias.Excessive + ", the limit k3s's YAML reader applies)"}
	}
	if vn.Kind == yaml.AliasNode && vn.Alias != nil {
		if w.open[vn] {
			return nil, &LimitError{Pos: pos, Msg: fmt.Sprintf("k3sconf stops reading the groups here: alias *%s is inside the group it names", vn.Value)}
		}
		if w.open == nil {
			w.open = map[*yaml.Node]bool{}
		}
		w.open[vn] = true
		w.budget.Enter()
		defer func() { w.budget.Leave(); delete(w.open, vn) }()
	}
	vn = resolveAlias(vn)
	if vn.Kind != yaml.MappingNode && !isNullNode(vn) {
		inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "AN003", Pos: pos,
			Message: fmt.Sprintf("ansible skips %q: not a valid group definition (a mapping with vars, children, hosts)", kn.Value)})
		return nil, nil
	}
	g := inv.group(kn.Value, pos)
	if g.Pos.File == "" {
		g.Pos = pos
	}
	if isNullNode(vn) {
		return g, nil
	}
	for i := 0; i+1 < len(vn.Content); i += 2 {
		k, v := vn.Content[i], resolveAlias(vn.Content[i+1])
		kpos := diag.Position{File: path, Line: k.Line, Column: k.Column}
		if v.Kind == yaml.ScalarNode && !isNullNode(v) && (k.Value == "vars" || k.Value == "children" || k.Value == "hosts") {
			// A string is allowed and means {string: None}.
			v = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{v, {Kind: yaml.ScalarNode, Value: "", Line: v.Line, Column: v.Column}}}
		}
		if v.Kind != yaml.MappingNode {
			if !isNullNode(v) {
				inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "AN003", Pos: kpos,
					Message: fmt.Sprintf("ansible skips key %q in group %q: it is not a mapping", k.Value, g.Name)})
			}
			continue
		}
		switch k.Value {
		case "vars":
			es, err := inv.vars(w, v)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				if e.Name == "ansible_group_priority" {
					if err := setPriority(g, e.Value); err != nil {
						return nil, &diag.ParseError{Pos: e.Pos, Msg: err.Error()}
					}
					continue
				}
				g.Vars = append(g.Vars, Def(e))
			}
		case "children":
			for j := 0; j+1 < len(v.Content); j += 2 {
				sub, err := inv.yamlGroup(w, v.Content[j], v.Content[j+1])
				if err != nil {
					return nil, err
				}
				if sub == nil {
					sub = inv.group(v.Content[j].Value, diag.Position{File: path, Line: v.Content[j].Line, Column: v.Content[j].Column})
				}
				if err := inv.addChild(g.Name, sub.Name); err != nil {
					return nil, &diag.ParseError{Pos: diag.Position{File: path, Line: v.Content[j].Line, Column: v.Content[j].Column}, Msg: err.Error()}
				}
			}
		case "hosts":
			for j := 0; j+1 < len(v.Content); j += 2 {
				hk, hv := v.Content[j], resolveAlias(v.Content[j+1])
				names, err := expandHostPattern(hk.Value)
				hpos := diag.Position{File: path, Line: hk.Line, Column: hk.Column}
				var le *LimitError
				if errors.As(err, &le) {
					le.Pos = hpos
					inv.Diagnostics = append(inv.Diagnostics, rangeDiagnostic(le))
					continue
				}
				if err != nil {
					return nil, &diag.ParseError{Pos: hpos, Msg: err.Error()}
				}
				var vars []Def
				if hv.Kind == yaml.MappingNode {
					es, err := inv.vars(w, hv)
					if err != nil {
						return nil, err
					}
					for _, e := range es {
						vars = append(vars, Def(e))
					}
				} else if !isNullNode(hv) {
					return nil, &diag.ParseError{Pos: hpos, Msg: fmt.Sprintf("host %q: expected a mapping of variables", hk.Value)}
				}
				for _, n := range names {
					h := inv.host(n, hpos)
					inv.addHost(g, h)
					h.Vars = append(h.Vars, vars...)
				}
			}
		default:
			inv.Diagnostics = append(inv.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "AN003", Pos: kpos,
				Message: fmt.Sprintf("ansible skips unexpected key %q in group %q: only vars, children and hosts are valid", k.Value, g.Name)})
		}
	}
	return g, nil
}

var _ fs.FileInfo
