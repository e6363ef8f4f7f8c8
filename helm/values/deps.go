package values

import (
	"fmt"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/k3sconf/k3sconf/provenance"
)

// This file is Helm's handling of a chart's dependencies and of the values it gives them,
// reproduced step by step from helm/helm v3.20.2 pkg/chartutil (dependencies.go
// ProcessDependenciesWithMerge, processDependencyEnabled, processDependencyTags,
// processDependencyConditions, getAliasDependency, processImportValues; coalesce.go
// CoalesceValues, coalesceValues, coalesceDeps, coalesceGlobals, coalesceTablesFullKey)
// and v4.1.4 pkg/chart/v2/util/dependencies.go and pkg/chart/common/util/coalesce.go. The
// install and upgrade actions of both (pkg/action install.go, upgrade.go) process the
// dependencies with merge (nulls kept) and then coalesce the user values with the result.
// The releases differ in the null rule of coalesceTablesFullKey ([NullRule]) and in
// getAliasDependency: v4 copies the aliased chart's dependency list, v3 shares it between
// every alias of one chart (so a second alias sees the names the first one renamed).
//
// The merge runs on values that carry their provenance: every leaf (a scalar, null or list)
// is a *tagged holding the assignment it came from, and an empty map holds its assignment
// under emptyKey, so whatever Helm does to a value, its source goes with it and the
// provenance cannot disagree with the value.

// emptyKey marks an empty map's assignment. It is not UTF-8, so no YAML or --set key can
// be it.
const emptyKey = "\xff\xfeempty"

type tagged struct {
	v any
	a *Assignment
}

func isNull(x any) bool {
	if x == nil {
		return true
	}
	t, ok := x.(*tagged)
	return ok && t.v == nil
}

// plain is x without tags.
func plain(x any) any {
	switch t := x.(type) {
	case *tagged:
		return t.v
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			if k != emptyKey {
				m[k] = plain(v)
			}
		}
		return m
	}
	return x
}

func plainMap(m map[string]any) map[string]any { return plain(m).(map[string]any) }

// copyTagged deep-copies the maps of a tagged tree (copystructure.Copy in Helm); leaves are
// shared, as they are never changed in place.
func copyTagged(x any) any {
	if m, ok := x.(map[string]any); ok {
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = copyTagged(v)
		}
		return out
	}
	return x
}

func copyTaggedMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return copyTagged(m).(map[string]any)
}

// tag wraps a plain value tree: each leaf gets the assignment owner(p) gives its path.
func tag(p string, v any, owner func(string, any) *Assignment) any {
	if m, ok := v.(map[string]any); ok {
		out := make(map[string]any, len(m)+1)
		if len(m) == 0 && p != "" {
			out[emptyKey] = &tagged{v: map[string]any{}, a: owner(p, m)}
		}
		for k, x := range m {
			out[k] = tag(JoinPath(p, k), x, owner)
		}
		return out
	}
	return &tagged{v: v, a: owner(p, v)}
}

// req is one dependency of a chart as Helm's processing changes it.
type req struct {
	Dependency
	enabled bool
	why     string
}

// hmeta is the part of a chart Helm's Metadata holds: shared between a chart and its alias
// copies as Helm shares it.
type hmeta struct {
	name, version string
	reqs          []*req
}

// hchart is a chart as ProcessDependencies sees and changes it.
type hchart struct {
	src    *Chart
	meta   *hmeta
	values map[string]any
	deps   []*hchart
	// at is where its values are in the top chart's .Values, set once processed.
	at string
}

// engine runs the steps on tagged values.
type engine struct {
	major int
	nulls NullRule
	// record is set for the final coalescing, whose warnings are reported.
	record    bool
	conflicts []Conflict
	seen      map[string]bool
	// defaults are every chart's default assignments, by chart and path in the chart.
	defaults map[*Chart]map[string]*Assignment
	warnings []string
	disabled []Disabled
}

// depError is a coalescing error with the assignment that caused it.
type depError struct {
	err error
	a   *Assignment
}

func (d *depError) Error() string { return d.err.Error() }
func (d *depError) Unwrap() error { return d.err }

func (e *engine) conflict(p, msg string) {
	if !e.record || e.seen[p] {
		return
	}
	e.seen[p] = true
	e.conflicts = append(e.conflicts, Conflict{Path: p, Message: msg})
}

// load turns a chart and its subcharts into hcharts with tagged defaults.
func (e *engine) load(c *Chart, dpos func(*Chart) map[string][2]int) *hchart {
	as := map[string]*Assignment{}
	e.defaults[c] = as
	pos := dpos(c)
	src := Source{Source: provenance.Source{Kind: ChartDefault, Pos: provenance.Position{File: c.File}}}
	if c.Inner != "" {
		src.Detail = c.ValuesFile()
	}
	// A default set through an alias of an anchor under a secret key copies a secret, as
	// in a user's values text (issue 25): known by structure, whatever it spells.
	copies := secretCopies(c.Text, e.major)
	vals := tag("", c.Values, func(p string, v any) *Assignment {
		s := src
		if lc, ok := pos[p]; ok {
			s.Pos.Line, s.Pos.Column = lc[0], lc[1]
		}
		a := newAssignment(p, deepCopy(v), s)
		a.SecretCopy = copies.has(p)
		as[p] = a
		return a
	}).(map[string]any)
	h := &hchart{src: c, values: vals, meta: &hmeta{name: c.Name, version: c.Version}}
	if c.Requirements != nil {
		h.meta.reqs = make([]*req, 0, len(c.Requirements))
		for _, d := range c.Requirements {
			if d == nil {
				continue
			}
			h.meta.reqs = append(h.meta.reqs, &req{Dependency: *d})
		}
	}
	for _, s := range c.Subcharts {
		h.deps = append(h.deps, e.load(s, dpos))
	}
	return h
}

// compatible is chartutil.IsCompatibleRange: the version satisfies the constraint.
func compatible(constraint, ver string) bool {
	sv, err := semver.NewVersion(ver)
	if err != nil {
		return false
	}
	c, err := semver.NewConstraint(constraint)
	if err != nil {
		return false
	}
	return c.Check(sv)
}

// aliasDep is getAliasDependency: the first subchart of the dependency's name whose
// version satisfies it, copied and renamed to the alias.
func (e *engine) aliasDep(charts []*hchart, d *req) *hchart {
	for _, c := range charts {
		if c == nil || c.meta.name != d.Name || !compatible(d.Version, c.meta.version) {
			continue
		}
		out := *c
		md := *c.meta
		if e.major >= 4 {
			// v4 copies the dependency list and each subchart (not its metadata).
			md.reqs = nil
			if c.meta.reqs != nil {
				md.reqs = make([]*req, len(c.meta.reqs))
				for i, r := range c.meta.reqs {
					cp := *r
					md.reqs[i] = &cp
				}
			}
			out.deps = nil
			for _, sub := range c.deps {
				cp := *sub
				out.deps = append(out.deps, &cp)
			}
		}
		out.meta = &md
		if d.Alias != "" {
			md.name = d.Alias
		}
		return &out
	}
	return nil
}

// enabled is processDependencyEnabled: it drops the subcharts whose condition or tags
// disable them, after renaming aliased ones, and recurses into the rest.
func (e *engine) enabled(c *hchart, v map[string]any, path string) error {
	if c.meta.reqs == nil {
		return nil
	}
	var deps []*hchart
outer:
	for _, existing := range c.deps {
		for _, r := range c.meta.reqs {
			if existing.meta.name == r.Name && compatible(r.Version, existing.meta.version) {
				continue outer
			}
		}
		deps = append(deps, existing)
	}
	for _, r := range c.meta.reqs {
		if d := e.aliasDep(c.deps, r); d != nil {
			deps = append(deps, d)
		}
		if r.Alias != "" {
			r.Name = r.Alias
		}
	}
	c.deps = deps
	for _, r := range c.meta.reqs {
		r.enabled = true
	}
	cvals, err := e.coalesceAll(c, v)
	if err != nil {
		return err
	}
	e.tags(c.meta.reqs, cvals)
	e.conditions(c.meta.reqs, cvals, path)
	rm := map[string]bool{}
	for _, r := range c.meta.reqs {
		if !r.enabled {
			rm[r.Name] = true
			e.disabled = append(e.disabled, Disabled{Path: path + r.Name, Name: r.Name, Reason: r.why})
		}
	}
	var kept []*hchart
	for _, d := range c.deps {
		if !rm[d.meta.name] {
			kept = append(kept, d)
		}
	}
	var keptReqs []*req
	for _, r := range c.meta.reqs {
		if !rm[r.Name] {
			keptReqs = append(keptReqs, r)
		}
	}
	for _, t := range kept {
		if err := e.enabled(t, cvals, path+t.meta.name+"."); err != nil {
			return err
		}
	}
	// Helm appends the kept entries to a nil list: none kept leaves it nil.
	c.meta.reqs = keptReqs
	c.deps = kept
	return nil
}

// tags is processDependencyTags: a dependency with a tag set to true is enabled, one whose
// tags are all false (among those set) is disabled.
func (e *engine) tags(reqs []*req, cvals map[string]any) {
	vt, ok := table(cvals, "tags")
	if !ok {
		return
	}
	for _, r := range reqs {
		var hasTrue, hasFalse bool
		for _, k := range r.Tags {
			if b, ok := vt[k]; ok {
				if bv, ok := plain(b).(bool); ok {
					if bv {
						hasTrue = true
					} else {
						hasFalse = true
					}
				} else {
					e.warn(fmt.Sprintf("Tag '%s' for chart %s returned non-bool value", k, r.Name))
				}
			}
		}
		if !hasTrue && hasFalse {
			r.enabled = false
			r.why = fmt.Sprintf("its tags (%s) are false under tags", strings.Join(r.Tags, ", "))
		} else if hasTrue || !hasTrue && !hasFalse {
			r.enabled = true
		}
	}
}

// conditions is processDependencyConditions: the first condition path (comma-separated,
// relative to the chart's place) whose value is a boolean decides.
func (e *engine) conditions(reqs []*req, cvals map[string]any, cpath string) {
	for _, r := range reqs {
		for _, c := range strings.Split(strings.TrimSpace(r.Condition), ",") {
			if c == "" {
				continue
			}
			v, ok := pathValue(cvals, cpath+c)
			if !ok {
				continue
			}
			if bv, ok := plain(v).(bool); ok {
				r.enabled = bv
				r.why = fmt.Sprintf("its condition %s is false", cpath+c)
				break
			}
			e.warn(fmt.Sprintf("Condition path '%s' for chart %s returned non-bool value", c, r.Name))
		}
	}
}

func (e *engine) warn(s string) { e.warnings = append(e.warnings, s) }

// table is Values.Table: the map at a dotted path (split at every dot).
func table(v map[string]any, name string) (map[string]any, bool) {
	cur := v
	for _, k := range strings.Split(name, ".") {
		m, ok := cur[k].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m
	}
	return cur, true
}

// pathValue is Values.PathValue: the value at a dotted path, when it is not a map.
func pathValue(v map[string]any, p string) (any, bool) {
	parts := strings.Split(p, ".")
	t := v
	if len(parts) > 1 {
		var ok bool
		if t, ok = table(v, strings.Join(parts[:len(parts)-1], ".")); !ok {
			return nil, false
		}
	}
	x, ok := t[parts[len(parts)-1]]
	if !ok {
		return nil, false
	}
	if _, isMap := x.(map[string]any); isMap {
		return nil, false
	}
	return x, true
}

// importValues is processDependencyImportValues with merge: children first, each chart's
// values become its values merged with its subcharts' (nulls kept), under the values it
// imports from them (import-values: a child's exports.NAME, or child/parent paths).
func (e *engine) importValues(c *hchart) error {
	for _, d := range c.deps {
		if err := e.importValues(d); err != nil {
			return err
		}
	}
	if c.meta.reqs == nil {
		return nil
	}
	cvals, err := e.coalesce(c, map[string]any{}, "", true)
	if err != nil {
		return err
	}
	b := map[string]any{}
	for _, r := range c.meta.reqs {
		var norm []any
		for _, riv := range r.ImportValues {
			switch iv := riv.(type) {
			case map[string]any:
				child := fmt.Sprintf("%v", iv["child"])
				parent := fmt.Sprintf("%v", iv["parent"])
				norm = append(norm, map[string]any{"child": child, "parent": parent})
				vv, ok := table(cvals, r.Name+"."+child)
				if !ok {
					e.warn(fmt.Sprintf("ImportValues missing table from chart %s: %s", r.Name, child))
					continue
				}
				b = e.coalesceTables(b, pathToMap(parent, copyTaggedMap(vv)), "", true)
			case string:
				child := "exports." + iv
				norm = append(norm, map[string]any{"child": child, "parent": "."})
				vm, ok := table(cvals, r.Name+"."+child)
				if !ok {
					e.warn(fmt.Sprintf("ImportValues missing table: %s", child))
					continue
				}
				b = e.coalesceTables(b, copyTaggedMap(vm), "", true)
			}
		}
		r.ImportValues = norm
	}
	c.values = e.coalesceTables(copyTaggedMap(cvals), b, "", true)
	return nil
}

// pathToMap nests data under a dotted path ("." is the top).
func pathToMap(p string, data map[string]any) map[string]any {
	if p == "." {
		return data
	}
	parts := strings.Split(p, ".")
	cur := data
	for i := len(parts) - 1; i >= 0; i-- {
		cur = map[string]any{parts[i]: cur}
	}
	return cur
}

// coalesceAll is CoalesceValues: a copy of v coalesced with the chart and its subcharts.
func (e *engine) coalesceAll(c *hchart, v map[string]any) (map[string]any, error) {
	return e.coalesce(c, copyTaggedMap(v), "", false)
}

func (e *engine) coalesce(c *hchart, dest map[string]any, at string, merge bool) (map[string]any, error) {
	e.coalesceValues(c, dest, at, merge)
	return e.coalesceDeps(c, dest, at, merge)
}

// coalesceDeps gives each subchart its map of the values, with the parent's globals
// merged into its global, and coalesces it with the subchart.
func (e *engine) coalesceDeps(c *hchart, dest map[string]any, at string, merge bool) (map[string]any, error) {
	for _, sub := range c.deps {
		name := sub.meta.name
		if x, ok := dest[name]; !ok {
			dest[name] = map[string]any{}
		} else if _, ok := x.(map[string]any); !ok {
			var a *Assignment
			if t, ok := x.(*tagged); ok {
				a = t.a
			}
			return dest, &depError{err: fmt.Errorf("type mismatch on %s: %t", name, plain(x)), a: a}
		}
		dv := dest[name].(map[string]any)
		subAt := JoinPath(at, name)
		e.coalesceGlobals(dv, dest, subAt, sub)
		r, err := e.coalesce(sub, dv, subAt, merge)
		if err != nil {
			return dest, err
		}
		dest[name] = r
	}
	return dest, nil
}

// coalesceGlobals copies the parent's global into the subchart's: the parent's scalars
// replace the subchart's, its maps merge over the subchart's (the parent wins).
func (e *engine) coalesceGlobals(dest, src map[string]any, at string, sub *hchart) {
	var dg, sg map[string]any
	if x, ok := dest["global"]; !ok {
		dg = map[string]any{}
	} else if dg, ok = x.(map[string]any); !ok {
		e.warn("skipping globals because destination global is not a table")
		return
	}
	if x, ok := src["global"]; !ok {
		sg = map[string]any{}
	} else if sg, ok = x.(map[string]any); !ok {
		e.warn("skipping globals because source global is not a table")
		return
	}
	for _, key := range sortedKeys(sg) {
		val := sg[key]
		if m, ok := val.(map[string]any); ok {
			vv := make(map[string]any, len(m))
			for k, x := range m {
				vv[k] = x
			}
			if destv, ok := dg[key]; !ok {
				dg[key] = vv
			} else if dm, ok := destv.(map[string]any); !ok {
				e.conflict(JoinPath(JoinPath(at, "global"), key), fmt.Sprintf("the subchart's global.%s is not a map and the parent's is: Helm keeps the subchart's (\"Conflict: cannot merge map onto non-map\")", key))
			} else {
				e.coalesceTables(vv, dm, JoinPath(JoinPath(at, "global"), key), true)
				dg[key] = vv
			}
		} else if dv, ok := dg[key]; ok && istable(dv) {
			e.conflict(JoinPath(JoinPath(at, "global"), key), fmt.Sprintf("the subchart's global.%s is a map and the parent's is not: Helm keeps the subchart's (\"key %s is table. Skipping\")", key, key))
		} else {
			dg[key] = val
		}
	}
	if len(dg) == 0 {
		// Helm gives every subchart a global map, empty when nobody set one.
		dg[emptyKey] = &tagged{v: map[string]any{}, a: newAssignment(JoinPath(at, "global"), map[string]any{},
			Source{Source: provenance.Source{Kind: ChartDefault, Pos: provenance.Position{File: sub.src.File}}, Detail: "Helm gives every subchart a global map"})}
	}
	dest["global"] = dg
}

// coalesceValues merges the chart's defaults under v (v wins); a null in v deletes the key
// when coalescing (not when merging).
func (e *engine) coalesceValues(c *hchart, v map[string]any, at string, merge bool) {
	vc := copyTaggedMap(c.values)
	for _, key := range sortedKeys(vc) {
		val := vc[key]
		full := JoinPath(at, key)
		value, ok := v[key]
		if !ok {
			v[key] = val
			continue
		}
		if isNull(value) && !merge {
			delete(v, key)
			emptied(v, at, value)
			continue
		}
		if dest, ok := value.(map[string]any); ok {
			src, ok := val.(map[string]any)
			if !ok {
				if !isNull(val) {
					e.conflict(full, fmt.Sprintf("the chart's default for %s is %s, not a map; the map given wins (Helm warns \"skipped value for %s: Not a table\")", full, describeValue(plain(val)), key))
				}
				continue
			}
			m := merge
			for _, d := range c.deps {
				if d.meta.name == key {
					m = true
				}
			}
			e.coalesceTables(dest, src, full, m)
		} else if _, ok := val.(map[string]any); ok && key != emptyKey && !merge {
			// Helm says nothing here; the shape still differs from the chart's.
			e.conflict(full, fmt.Sprintf("the chart's default for %s is a map and %s is given; the given value replaces the whole map (Helm does not warn at the top level of a chart)", full, describeValue(plain(value))))
		}
	}
}

// coalesceTables is coalesceTablesFullKey: src's keys go into dst where dst lacks them,
// maps merge, and when coalescing a null in dst deletes the key by the release's rule.
func (e *engine) coalesceTables(dst, src map[string]any, at string, merge bool) map[string]any {
	if src == nil {
		return dst
	}
	if dst == nil {
		return src
	}
	nonNull := map[string]bool{}
	for k, x := range src {
		if !isNull(x) {
			nonNull[k] = true
		}
	}
	if e.nulls != NullIfInDefaults {
		// v3.19.5 and later add dst's null keys to src, so the loop below sees them.
		for k, x := range dst {
			if isNull(x) {
				src[k] = nil
			}
		}
	}
	for _, key := range sortedKeys(src) {
		val := src[key]
		full := JoinPath(at, key)
		dv, ok := dst[key]
		switch {
		case ok && !merge && isNull(dv) && (nonNull[key] || e.nulls != NullUnlessDefaultNull):
			delete(dst, key)
			emptied(dst, at, dv)
		case !ok:
			dst[key] = val
		case istable(val):
			if dm, ok := dv.(map[string]any); ok {
				e.coalesceTables(dm, val.(map[string]any), full, merge)
			} else {
				e.conflict(full, fmt.Sprintf("the chart's default for %s is a map and %s is given; the given value wins (Helm warns \"cannot overwrite table with non table\")", full, describeValue(plain(dv))))
			}
		case istable(dv) && !isNull(val):
			e.conflict(full, fmt.Sprintf("the chart's default for %s is %s and a map is given; the map wins (Helm warns \"destination for %s is a table. Ignoring non-table value\")", full, describeValue(plain(val)), full))
		}
	}
	return dst
}

// emptied gives a map that a null left empty the null's assignment, so the empty map
// .Values has there has a source.
func emptied(m map[string]any, at string, null any) {
	if len(m) > 0 || at == "" {
		return
	}
	t, ok := null.(*tagged)
	if !ok || t.a == nil {
		return
	}
	m[emptyKey] = &tagged{v: map[string]any{}, a: t.a.at(at, map[string]any{})}
}

// place records where each processed chart's values are in the top chart's .Values.
func place(c *hchart, at string, out *[]*hchart) {
	c.at = at
	for _, d := range c.deps {
		place(d, JoinPath(at, d.meta.name), out)
	}
	*out = append(*out, c)
}

// Subchart is a subchart Helm renders, and where its .Values are in the parent's.
type Subchart struct {
	// Path is the subchart's key in the parent's .Values (its alias, if it has one), dotted
	// for a subchart of a subchart.
	Path  string
	Chart *Chart
}

// Disabled is a dependency Helm drops, and why.
type Disabled struct {
	Path, Name string
	Reason     string
}

// sortSubcharts orders subcharts by path.
func sortSubcharts(s []Subchart) {
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
}
