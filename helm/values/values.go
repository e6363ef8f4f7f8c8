package values

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/provenance"
)

// Kind says which layer a value comes from: the one [provenance.Kind], with the layers
// below.
type Kind = provenance.Kind

// The layers, lowest first.
const (
	ChartDefault                 Kind = "chart-default"
	HelmChartValuesContent       Kind = "helmchart-valuescontent"
	HelmChartValues              Kind = "helmchart-values"
	HelmChartValuesSecret        Kind = "helmchart-valuessecret"
	HelmChartConfigValuesContent Kind = "helmchartconfig-valuescontent"
	HelmChartConfigValues        Kind = "helmchartconfig-values"
	HelmChartConfigValuesSecret  Kind = "helmchartconfig-valuessecret"
	Set                          Kind = "set"
)

// Source is where a layer's values were written: a [provenance.Source] (the layer's Kind
// and the position in the manifest, or the chart archive for defaults; a position inside
// valuesContent is mapped to the manifest's lines) with the Detail a layer may have.
type Source struct {
	provenance.Source
	// Detail is the --set argument as Helm receives it, or the Secret and key a
	// valuesSecrets layer names.
	Detail string
}

// Assignment is one value a layer gives one leaf path: a [provenance.Assignment] (Kind,
// Pos, Value, Outcome, Reason) with the path and the layer's Detail.
type Assignment struct {
	provenance.Assignment[any]
	Path string
	// Detail is the --set argument, or the Secret and key, of the layer (see [Source]).
	Detail string
	// SecretCopy is true when a values text sets the path through a YAML alias of an
	// anchor under a secret key (`password: &pw x` … `login: *pw`): the value is a
	// secret, whatever it spells (output redacts it as one).
	SecretCopy bool
	seq        int
	// orig is the assignment this one reports at another path: a subchart's default at
	// its place in the parent's values, a global Helm copied, an imported value.
	orig *Assignment
}

// From is the layer source of the assignment: its Source with its Detail.
func (a *Assignment) From() Source { return Source{Source: a.Source, Detail: a.Detail} }

func newAssignment(p string, v any, src Source) *Assignment {
	return &Assignment{Assignment: provenance.Assignment[any]{Source: src.Source, Value: v}, Path: p, Detail: src.Detail}
}

// at reports the assignment at path p with value v: the same source and place in the
// order, and a as the original.
func (a *Assignment) at(p string, v any) *Assignment {
	return &Assignment{Assignment: provenance.Assignment[any]{Source: a.Source, Value: v}, Path: p, Detail: a.Detail, SecretCopy: a.SecretCopy, seq: a.seq, orig: a}
}

// Leaf is one path of the values and how it got its value: a [provenance.Entry] whose
// Name is the path, whose Value is the value in .Values, whose Source is the assignment in
// force (nil for a deleted path) and whose History is every assignment to the path, lowest
// first, the one in force included. Deleted is set when a null removed the key (Value is
// then nil and the path is not in .Values). Replaced is set when the path is no longer a
// leaf: a later map took its place, or a later scalar replaced a map above it; Value is
// then what is at the path now (a map), or nil.
type Leaf struct {
	provenance.Entry[Assignment]
	Deleted  bool
	Replaced bool
	// Via says how the value in force reached the path when it was written at another one:
	// a global Helm copies into each subchart, or a value a chart imports from a subchart.
	Via string
}

// Layer is one values file helm-controller mounts.
type Layer struct {
	Kind Kind
	// File is the manifest (or "-" for --objects) the text comes from.
	File string
	// Text is the YAML text; nil for a Secret, which is never read.
	Text []byte
	// Map turns a line and column inside Text into the manifest's; nil leaves them.
	Map func(line, col int) (int, int)
	// Line and Column locate the layer's field in File (for Secrets and empty texts).
	Line, Column int
	// Secret names a valuesSecrets entry: "NAME key KEY".
	Secret string
	// Positions, when set, locate each path in File directly (a spec.values mapping in
	// the manifest); Map and the positions inside Text are then not used.
	Positions map[string][2]int
}

// SetArg is one key of spec.set.
type SetArg struct {
	Key string
	// Value is the IntOrString's string form; Int is set for an integer.
	Value string
	Int   bool
	File  string
	Line  int
	Col   int
}

// Arg is the Helm argument helm-controller makes of it (chart.go args, typedVal).
func (s SetArg) Arg() (flag, arg string) {
	if s.Int {
		return "--set", s.Key + "=" + s.Value
	}
	switch strings.ToLower(s.Value) {
	case "true", "false", "null":
		return "--set", s.Key + "=" + s.Value
	}
	return "--set-string", s.Key + "=" + escapeCommas(s.Value)
}

// escapeCommas is chart.go escapeComma over every run of backslashes before a comma: an
// unescaped comma gets a backslash.
func escapeCommas(v string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == ',' && run%2 == 0 {
			b.WriteByte('\\')
		}
		if c == '\\' {
			run++
		} else {
			run = 0
		}
		b.WriteByte(c)
	}
	return b.String()
}

// MountName is the file helm-controller mounts a layer as in /config (chart.go
// setValuesSecret, valuesSecretAddConfig): the entry script passes /config/*.yaml in glob
// order, which these names make the order of the layers. counters numbers the Secret keys
// of the HelmChart (0) and the HelmChartConfig (1); they start at 2.
func MountName(k Kind, counters map[int]int) string {
	switch k {
	case HelmChartValuesContent:
		return "values-0-000-HelmChart-ValuesContent.yaml"
	case HelmChartValues:
		return "values-0-001-HelmChart-Values.yaml"
	case HelmChartConfigValuesContent:
		return "values-1-000-HelmChartConfig-ValuesContent.yaml"
	case HelmChartConfigValues:
		return "values-1-001-HelmChartConfig-Values.yaml"
	case HelmChartValuesSecret:
		counters[0]++
		return fmt.Sprintf("values-0-%03d-HelmChart-ValuesSecret.yaml", counters[0])
	case HelmChartConfigValuesSecret:
		counters[1]++
		return fmt.Sprintf("values-1-%03d-HelmChartConfig-ValuesSecret.yaml", counters[1])
	}
	return string(k)
}

// Chart is a chart as Helm loads it: its name, default values, schema, dependencies and
// subcharts.
type Chart struct {
	Name       string
	Version    string
	APIVersion string
	// File is the archive (node path or --chart file); Inner is where a subchart sits in it
	// ("charts/sub", "charts/sub.tgz"), "" for the chart itself.
	File  string
	Inner string
	// Values are the defaults as Helm loads values.yaml; Text is values.yaml.
	Values map[string]any
	Text   []byte
	// Schema is values.schema.json, nil without one.
	Schema []byte
	// Requirements are Chart.yaml's dependencies (nil when it has none), Subcharts the
	// charts under charts/.
	Requirements []*Dependency
	Subcharts    []*Chart
	// Dependencies is set when the chart has subcharts or declares dependencies.
	Dependencies bool

	chartType string
}

// NullRule is how a Helm release treats a user null below the top level when it coalesces
// the values with the chart's defaults (chartutil/coalesce.go coalesceTablesFullKey). At
// the top level every release deletes a null key the chart has.
type NullRule int

const (
	// NullUnlessDefaultNull: the key is deleted when the chart's default is not null; a null
	// over a null default, or for a key the chart lacks, stays in .Values as null. Helm
	// v3.20.1 and later, v4.
	NullUnlessDefaultNull NullRule = iota
	// NullIfInDefaults: the key is deleted when the chart has it (null or not); a null for a
	// key the chart lacks stays. Helm v3.18 to v3.19.4.
	NullIfInDefaults
	// NullAlways: the key is always deleted. Helm v3.19.5 and v3.20.0.
	NullAlways
)

// Input is what the Helm job gets.
type Input struct {
	// Major is Helm's major version (3 or 4).
	Major int
	// Nulls is how this Helm release coalesces a null below the top level.
	Nulls  NullRule
	Layers []Layer
	Set    []SetArg
}

// Conflict is a type mismatch Helm resolves with a warning: the user's value wins.
type Conflict struct {
	Path    string
	Message string
}

// Result is the values a chart is installed with.
type Result struct {
	// Values is .Values as the chart's templates see it.
	Values map[string]any
	// User is the merged user values before the chart's defaults (what Helm stores as the
	// release's config).
	User   map[string]any
	Leaves []*Leaf
	// Conflicts are the coalescing warnings Helm prints.
	Conflicts []Conflict
	// Err is set when Helm refuses the values (a file that does not parse, a --set it
	// cannot apply): the job fails and the release keeps what it had.
	Err *Failure
	// Args are the values arguments of the Helm command line, in order.
	Args []string
	// Subcharts are the subcharts Helm renders (enabled, aliases applied), Disabled the
	// dependencies it drops.
	Subcharts []Subchart
	Disabled  []Disabled
	// Warnings are the other warnings Helm logs about dependencies (a condition or tag that
	// is not a boolean, an import-values table that is missing).
	Warnings []string
	// SchemaErrors are the values.schema.json violations that make Helm refuse the values
	// (the chart's and each rendered subchart's schema).
	SchemaErrors []SchemaError
}

// Failure is a Helm error with the layer it comes from.
type Failure struct {
	Source Source
	Err    error
	// Dependencies is set when Helm fails while it gives the subcharts their values (a
	// subchart's key that is not a map).
	Dependencies bool
}

func (f *Failure) Error() string { return f.Err.Error() }

type tracker struct {
	owner map[string]*Assignment
	hist  map[string][]*Assignment
	seq   int
}

func (t *tracker) record(p string, v any, src Source) {
	t.seq++
	// A copy: --set k[i] changes a list in place, and the history keeps what each gave.
	a := &Assignment{Assignment: provenance.Assignment[any]{Source: src.Source, Value: deepCopy(v)}, Path: p, Detail: src.Detail, seq: t.seq}
	t.hist[p] = append(t.hist[p], a)
	t.owner[p] = a
	for _, anc := range ancestors(p) {
		delete(t.owner, anc)
	}
}

// replace makes v (from src) the value at p: every leaf under p is v's now.
func (t *tracker) replace(p string, v any, src Source) {
	for q := range t.owner {
		if q == p || isAncestor(p, q) {
			delete(t.owner, q)
		}
	}
	leaves(p, v, func(q string, lv any) { t.record(q, lv, src) })
}

// mergeInto is mergeMaps with provenance, keys in sorted order (the result does not
// depend on the order).
func (t *tracker) mergeInto(a, b map[string]any, prefix string, src Source, pos func(string) (int, int), copied func(string) bool) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for _, k := range sortedKeys(b) {
		v := b[k]
		p := JoinPath(prefix, k)
		if vm, ok := v.(map[string]any); ok {
			if bm, ok := out[k].(map[string]any); ok {
				out[k] = t.mergeInto(bm, vm, p, src, pos, copied)
				continue
			}
		}
		out[k] = v
		for q := range t.owner {
			if q == p || isAncestor(p, q) {
				delete(t.owner, q)
			}
		}
		leaves(p, v, func(q string, lv any) {
			s := src
			if pos != nil {
				s.Pos.Line, s.Pos.Column = pos(q)
			}
			t.record(q, lv, s)
			if copied != nil && copied(q) {
				h := t.hist[q]
				h[len(h)-1].SecretCopy = true
			}
		})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Compute merges the chart's defaults and the layers as the Helm job does.
func Compute(ch *Chart, in Input) *Result {
	t := &tracker{owner: map[string]*Assignment{}, hist: map[string][]*Assignment{}}
	res := &Result{}
	user := map[string]any{}
	secrets := map[int]int{0: 1, 1: 1}
	for _, l := range in.Layers {
		src := Source{Source: provenance.Source{Kind: l.Kind, Pos: provenance.Position{File: l.File, Line: l.Line, Column: l.Column}}, Detail: l.Secret}
		mount := MountName(l.Kind, secrets)
		res.Args = append(res.Args, "--values", mount)
		if l.Text == nil {
			continue
		}
		m, err := decode(l.Text, in.Major)
		if err != nil {
			res.Err = &Failure{Source: src, Err: fmt.Errorf("failed to parse /config/%s: %w", mount, err)}
			break
		}
		pos, mapped := l.Positions, l.Map
		if pos == nil {
			pos = positions(l.Text, in.Major)
		} else {
			mapped = func(line, col int) (int, int) { return line, col }
		}
		copies := secretCopies(l.Text, in.Major)
		user = t.mergeInto(user, m, "", src, func(p string) (int, int) {
			lc, ok := pos[p]
			if !ok {
				lc, ok = pos[nearest(p, pos)]
			}
			if !ok || mapped == nil {
				return l.Line, l.Column
			}
			return mapped(lc[0], lc[1])
		}, copies.has)
	}
	if res.Err == nil {
		// Helm applies every --set, then every --set-string (options.go MergeValues).
		var sets, strs []SetArg
		for _, s := range in.Set {
			if f, _ := s.Arg(); f == "--set" {
				sets = append(sets, s)
			} else {
				strs = append(strs, s)
			}
		}
		for _, group := range [][]SetArg{sets, strs} {
			for _, s := range group {
				flag, arg := s.Arg()
				res.Args = append(res.Args, flag, arg)
				src := Source{Source: provenance.Source{Kind: Set, Pos: provenance.Position{File: s.File, Line: s.Line, Column: s.Col}}, Detail: flag + " " + arg}
				if err := parseSet(arg, user, flag == "--set-string", t, src); err != nil {
					res.Err = &Failure{Source: src, Err: fmt.Errorf("failed parsing %s data: %w", flag, err)}
					break
				}
			}
			if res.Err != nil {
				break
			}
		}
	}
	res.User = user
	if ch == nil {
		ch = &Chart{Values: map[string]any{}}
	}
	e := &engine{major: in.Major, nulls: in.Nulls, seen: map[string]bool{}, defaults: map[*Chart]map[string]*Assignment{}}
	top := e.load(ch, func(c *Chart) map[string][2]int { return positions(c.Text, in.Major) })
	userT := tag("", user, func(p string, v any) *Assignment {
		if a := t.owner[p]; a != nil {
			return a
		}
		if h := t.hist[p]; len(h) > 0 {
			return h[len(h)-1]
		}
		return nil
	}).(map[string]any)
	final, err := e.run(top, userT)
	if err != nil && res.Err == nil {
		res.Err = err
	}
	if final == nil {
		final = userT
	}
	var inst []*hchart
	place(top, "", &inst)
	for _, h := range inst {
		if h != top {
			res.Subcharts = append(res.Subcharts, Subchart{Path: h.at, Chart: h.src})
		}
	}
	sortSubcharts(res.Subcharts)
	res.Disabled = e.disabled
	res.Warnings = e.warnings
	res.Conflicts = e.conflicts
	res.Values = plainMap(final)
	res.Leaves = buildLeaves(t, final, inst, e)
	if res.Err == nil {
		res.SchemaErrors = e.validateSchemas(top, res.Values, res.Leaves)
	}
	return res
}

// run is ProcessDependencies then CoalesceValues: the chart's .Values, tagged.
func (e *engine) run(top *hchart, user map[string]any) (map[string]any, *Failure) {
	fail := func(err error) *Failure {
		f := &Failure{Err: err, Dependencies: true}
		var de *depError
		if errors.As(err, &de) && de.a != nil {
			f.Source = de.a.From()
		}
		return f
	}
	if err := e.enabled(top, user, ""); err != nil {
		return nil, fail(err)
	}
	if err := e.importValues(top); err != nil {
		return nil, fail(err)
	}
	e.record = true
	final, err := e.coalesceAll(top, user)
	if err != nil {
		return nil, fail(err)
	}
	return final, nil
}

// nearest is the longest ancestor of p that has a position.
func nearest(p string, pos map[string][2]int) string {
	as := ancestors(p)
	for i := len(as) - 1; i >= 0; i-- {
		if _, ok := pos[as[i]]; ok {
			return as[i]
		}
	}
	return ""
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

func istable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

func describeValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a map"
	case []any:
		return "a list"
	case string:
		return fmt.Sprintf("the string %q", t)
	case bool:
		return fmt.Sprintf("the boolean %v", t)
	case float64, int64, int:
		return fmt.Sprintf("the number %v", t)
	}
	return fmt.Sprintf("%v", v)
}

// lookup finds the value at a path.
func lookup(m map[string]any, p string) (any, bool) {
	var cur any = m
	for _, k := range SplitPath(p) {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = mm[k]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

func buildLeaves(t *tracker, final map[string]any, inst []*hchart, e *engine) []*Leaf {
	byPath := map[string]*Leaf{}
	get := func(p string) *Leaf {
		if l := byPath[p]; l != nil {
			return l
		}
		l := &Leaf{Entry: provenance.Entry[Assignment]{Name: p}}
		byPath[p] = l
		return l
	}
	// Chart defaults come first in every history, a subchart's before its parent's (the
	// parent's values.yaml wins over the subchart's).
	for _, h := range inst {
		as := e.defaults[h.src]
		for _, q := range sortedAssignmentKeys(as) {
			a := as[q]
			p := concatPath(h.at, q)
			if q == "" {
				continue
			}
			l := get(p)
			l.History = append(l.History, &Assignment{Assignment: provenance.Assignment[any]{Source: a.Source, Value: a.Value}, Path: p, Detail: a.Detail, SecretCopy: a.SecretCopy, orig: a})
		}
	}
	for p, as := range t.hist {
		l := get(p)
		l.History = append(l.History, as...)
	}
	type fin struct {
		v any
		a *Assignment
	}
	finalLeaves := map[string]fin{}
	var walk func(p string, x any)
	walk = func(p string, x any) {
		if m, ok := x.(map[string]any); ok {
			n := 0
			for _, k := range sortedKeys(m) {
				if k != emptyKey {
					n++
					walk(JoinPath(p, k), m[k])
				}
			}
			if n == 0 && p != "" {
				var a *Assignment
				if tg, ok := m[emptyKey].(*tagged); ok {
					a = tg.a
				}
				finalLeaves[p] = fin{map[string]any{}, a}
				get(p)
			}
			return
		}
		var a *Assignment
		v := x
		if tg, ok := x.(*tagged); ok {
			a, v = tg.a, tg.v
		}
		finalLeaves[p] = fin{deepCopy(v), a}
		get(p)
	}
	walk("", final)
	var out []*Leaf
	for p, l := range byPath {
		f, inFinal := finalLeaves[p]
		var winner *Assignment
		if inFinal {
			l.Value = f.v
			winner = f.a
			if winner != nil {
				found := false
				for _, a := range l.History {
					if a == winner || a.orig == winner {
						winner, found = a, true
					}
				}
				if !found {
					// Written at another path: a global, an imported value.
					w := winner.at(p, winner.Value)
					l.Via = via(p, winner)
					l.History = append(l.History, w)
					winner = w
				}
			}
		} else if w := nullOwner(t, p); w != nil {
			// The null that deleted it is the assignment in force.
			l.Deleted = true
			winner = w
		} else {
			l.Replaced = true
			if v, ok := lookup(plainMap(final), p); ok {
				l.Value = v
			}
		}
		l.Source = winner
		for _, a := range l.History {
			if a == winner && winner != nil {
				a.Outcome = provenance.Applied
				a.Reason = "in force"
				if l.Via != "" {
					a.Reason = "in force: " + l.Via
				}
				if l.Deleted {
					a.Reason = "in force: a null deletes the key and the chart's default under it"
				}
				continue
			}
			a.Outcome, a.Reason = lostReason(t, a, winner, p, final, inFinal, l.Via != "")
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// via says how a value written at another path reached p.
func via(p string, w *Assignment) string {
	if w.orig != nil && w.orig.Value == nil {
		return fmt.Sprintf("the map is empty: %s sets %s to null, which deletes the key under it", describeSource(w.orig.From()), w.orig.Path)
	}
	from := w.Path
	if w.Source.Kind == ChartDefault && w.Detail != "" {
		from = fmt.Sprintf("%s of %s", w.Path, w.Detail)
	}
	for _, k := range SplitPath(p) {
		if k == "global" {
			return fmt.Sprintf("Helm copies the parent's global values into every subchart's global (coalesceGlobals), so %s reaches %s", from, p)
		}
	}
	return fmt.Sprintf("imported from a subchart by the chart's import-values: %s reaches %s", from, p)
}

func sortedAssignmentKeys(m map[string]*Assignment) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// lostReason says why an assignment is not the one in force.
func lostReason(t *tracker, a, winner *Assignment, p string, tagged map[string]any, inFinal, moved bool) (provenance.Outcome, string) {
	if inFinal && winner != nil {
		if moved {
			return provenance.Overridden, "overridden by " + describeSource(winner.From()) + " (" + via(p, winner.orig) + ")"
		}
		if a.Source.Kind == ChartDefault || winner.seq > a.seq {
			return provenance.Overridden, "overridden by " + describeSource(winner.From())
		}
	}
	final := plainMap(tagged)
	// What removed it: a later null or a later value at the path or an ancestor.
	var by *Assignment
	for q, as := range t.hist {
		if q != p && !isAncestor(q, p) && !isAncestor(p, q) {
			continue
		}
		for _, b := range as {
			if b.seq > a.seq && (by == nil || b.seq < by.seq) && b != a {
				if q == p || isAncestor(q, p) || !inFinal {
					by = b
				}
			}
		}
	}
	if v, ok := lookup(final, p); ok && istable(v) && len(v.(map[string]any)) > 0 {
		if by != nil {
			return provenance.Replaced, fmt.Sprintf("a map from %s replaced it", describeSource(by.From()))
		}
		return provenance.Replaced, "the path is a map in the values"
	}
	if by != nil {
		if by.Value == nil && (by.Path == p || isAncestor(by.Path, p)) {
			return provenance.Deleted, fmt.Sprintf("%s sets %s to null, which removes the key and the chart's default under it", describeSource(by.From()), by.Path)
		}
		if by.Path == p {
			return provenance.Overridden, "overridden by " + describeSource(by.From())
		}
		if isAncestor(by.Path, p) {
			return provenance.Replaced, fmt.Sprintf("%s sets %s to %s", describeSource(by.From()), by.Path, describeValue(by.Value))
		}
	}
	for _, anc := range append(ancestors(p), p) {
		if v, ok := lookup(final, anc); ok && !istable(v) {
			if w := t.owner[anc]; w != nil {
				return provenance.Replaced, fmt.Sprintf("%s sets %s to %s", describeSource(w.From()), anc, describeValue(v))
			}
			return provenance.Replaced, fmt.Sprintf("%s is %s in the values", anc, describeValue(v))
		}
	}
	if a.Value == nil {
		return provenance.Deleted, "a null removes the key and the chart's default under it"
	}
	if w := nullAbove(t, p); w != nil {
		return provenance.Deleted, fmt.Sprintf("%s sets %s to null, which removes the key and the chart's default under it", describeSource(w.From()), w.Path)
	}
	return provenance.Deleted, "not in the values"
}

func nullAbove(t *tracker, p string) *Assignment {
	for _, anc := range append(ancestors(p), p) {
		if w := t.owner[anc]; w != nil && w.Value == nil {
			return w
		}
	}
	return nil
}

func describeSource(s Source) string {
	where := s.Pos.File
	if s.Pos.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", s.Pos.File, s.Pos.Line, s.Pos.Column)
	}
	switch s.Kind {
	case Set:
		return fmt.Sprintf("%s (%s)", s.Detail, where)
	case ChartDefault:
		if s.Detail != "" {
			return "the default in " + s.Detail + " (" + where + ")"
		}
		return "the chart's default (" + where + ")"
	}
	if s.Detail != "" {
		return fmt.Sprintf("%s %s (%s)", s.Kind, s.Detail, where)
	}
	return fmt.Sprintf("%s (%s)", s.Kind, where)
}

// nullOwner is the null assignment that removed p: at p itself, or at an ancestor, and
// still in force.
func nullOwner(t *tracker, p string) *Assignment {
	for _, q := range append(ancestors(p), p) {
		if w := t.owner[q]; w != nil && w.Value == nil {
			return w
		}
	}
	return nil
}
