package values

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The differential for charts with dependencies: subcharts (folders and archives),
// conditions, tags, aliases, import-values, globals and values.schema.json, run through the
// real helm and through Compute. Every chart's template prints its own .Values, so helm's
// output shows which subcharts it rendered and what each one saw.

// chartSpec is a chart of a generated case.
type chartSpec struct {
	name, version string
	values        string // values.yaml
	schema        string // values.schema.json, "" for none
	deps          string // Chart.yaml's dependencies: block, "" for none
	subs          []chartSpec
	tgz           bool // packed as charts/NAME-VERSION.tgz, else a folder
}

// files lays the chart out under prefix.
func (c chartSpec) files(t testing.TB, prefix string, add func(p string, data []byte)) {
	v := c.version
	if v == "" {
		v = "0.1.0"
	}
	add(prefix+"Chart.yaml", []byte("apiVersion: v2\nname: "+c.name+"\nversion: "+v+"\n"+c.deps))
	add(prefix+"values.yaml", []byte(c.values))
	if c.schema != "" {
		add(prefix+"values.schema.json", []byte(c.schema))
	}
	add(prefix+"templates/values.yaml", []byte("# chart "+c.name+"\n{{ toJson .Values }}\n"))
	for _, s := range c.subs {
		if s.tgz {
			sv := s.version
			if sv == "" {
				sv = "0.1.0"
			}
			add(prefix+"charts/"+s.name+"-"+sv+".tgz", s.archive(t))
		} else {
			s.files(t, prefix+"charts/"+s.name+"/", add)
		}
	}
}

func (c chartSpec) archive(t testing.TB) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	c.files(t, c.name+"/", func(p string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: p, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	})
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// depCase is a chart with dependencies and what the Helm job passes.
type depCase struct {
	name  string
	chart chartSpec
	files []string
	set   []SetArg
}

func (c depCase) describe() string {
	var b strings.Builder
	var walk func(s chartSpec, ind string)
	walk = func(s chartSpec, ind string) {
		fmt.Fprintf(&b, "%s--- chart %s %s (tgz %v)\n%s%s\n%svalues.yaml:\n%s\n", ind, s.name, s.version, s.tgz, ind, s.deps, ind, s.values)
		if s.schema != "" {
			fmt.Fprintf(&b, "%sschema: %s\n", ind, s.schema)
		}
		for _, x := range s.subs {
			walk(x, ind+"    ")
		}
	}
	walk(c.chart, "")
	for i, f := range c.files {
		fmt.Fprintf(&b, "--- file %d\n%s", i, f)
	}
	for _, s := range c.set {
		f, a := s.Arg()
		fmt.Fprintf(&b, "\n%s %s", f, a)
	}
	return b.String()
}

// rendered is what helm printed: the top chart's .Values and, per chart name, how many
// times it was rendered; or the error.
type rendered struct {
	values string
	charts []string
}

func runHelmDeps(t testing.TB, helm string, c depCase) (rendered, error) {
	t.Helper()
	dir, err := os.MkdirTemp("", "helmdeps")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	chart := filepath.Join(dir, "chart.tgz")
	if err := os.WriteFile(chart, c.chart.archive(t), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"template", "rel", chart}
	for _, s := range c.set {
		f, a := s.Arg()
		args = append(args, f, a)
	}
	for i, f := range c.files {
		p := filepath.Join(dir, fmt.Sprintf("values-%d.yaml", i))
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--values", p)
	}
	cmd := exec.Command(helm, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+dir, "HELM_CONFIG_HOME="+dir, "HELM_DATA_HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return rendered{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r rendered
	lines := strings.Split(stdout.String(), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "# chart ") && i+1 < len(lines) {
			name := strings.TrimPrefix(line, "# chart ")
			r.charts = append(r.charts, name)
			if name == c.chart.name && r.values == "" {
				r.values = lines[i+1]
			}
		}
	}
	sort.Strings(r.charts)
	return r, nil
}

// oursDeps computes the case with the engine: the top chart's .Values as JSON and the
// names of the charts rendered.
func oursDeps(c depCase, o oracle, tgz []byte) (rendered, *Result, error) {
	ch, err := LoadChart("chart.tgz", tgz, o.major)
	if err != nil {
		return rendered{}, nil, err
	}
	in := Input{Major: o.major, Nulls: o.nulls, Set: c.set}
	for i, f := range c.files {
		in.Layers = append(in.Layers, Layer{Kind: HelmChartValuesContent, File: fmt.Sprintf("values-%d.yaml", i), Text: []byte(f)})
	}
	res := Compute(ch, in)
	if res.Err != nil {
		return rendered{}, res, res.Err
	}
	for _, se := range res.SchemaErrors {
		if !se.Unchecked {
			return rendered{}, res, fmt.Errorf("schema: %v", res.SchemaErrors)
		}
	}
	b, err := json.Marshal(res.Values)
	if err != nil {
		return rendered{}, res, err
	}
	r := rendered{values: string(b), charts: []string{ch.Name}}
	for _, s := range res.Subcharts {
		r.charts = append(r.charts, s.Chart.Name)
	}
	sort.Strings(r.charts)
	return r, res, nil
}

func compareDeps(t testing.TB, helm string, o oracle, c depCase) bool {
	t.Helper()
	tgz := c.chart.archive(t)
	want, herr := runHelmDeps(t, helm, c)
	got, res, oerr := oursDeps(c, o, tgz)
	if (herr != nil) != (oerr != nil) {
		t.Errorf("%s (%s): helm error %v, k3sconf error %v\ncase:\n%s", c.name, o.name, herr, oerr, c.describe())
		return false
	}
	if herr != nil {
		if res != nil {
			checkSchemaText(t, herr.Error(), res)
		}
		return true
	}
	if want.values != got.values {
		t.Errorf("%s (%s): values differ\nhelm:    %s\nk3sconf: %s\ncase:\n%s", c.name, o.name, want.values, got.values, c.describe())
		return false
	}
	if !reflect.DeepEqual(want.charts, got.charts) {
		t.Errorf("%s (%s): rendered charts differ: helm %v, k3sconf %v\ncase:\n%s", c.name, o.name, want.charts, got.charts, c.describe())
		return false
	}
	// Every leaf in force has a source holding its value.
	for _, l := range res.Leaves {
		if l.Deleted || l.Replaced {
			continue
		}
		if l.Source == nil || !reflect.DeepEqual(l.Source.Value, l.Value) {
			t.Errorf("%s (%s): leaf %s = %#v has source %+v\ncase:\n%s", c.name, o.name, l.Name, l.Value, l.Source, c.describe())
			return false
		}
	}
	return true
}

// sub is a small subchart for the named cases.
func sub(name, values string) chartSpec { return chartSpec{name: name, values: values} }

var depNamedCases = []depCase{
	{name: "subchart defaults under its key, parent's values win",
		chart: chartSpec{name: "p", values: "s:\n  a: parent\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n",
			subs: []chartSpec{sub("s", "a: sub\nb: sub\n")}},
		files: []string{"s:\n  b: user\n"}},
	{name: "global reaches every subchart and the parent's wins",
		chart: chartSpec{name: "p", values: "global:\n  r: parent\n  m:\n    x: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n",
			subs: []chartSpec{sub("s", "global:\n  r: sub\n  q: sub\n  m:\n    y: 2\n")}},
		files: []string{"s:\n  global:\n    r: user-sub\nglobal:\n  z: user\n"}},
	{name: "rke2 set global.systemDefaultRegistry reaches the subchart",
		chart: chartSpec{name: "rke2-multus", values: "global:\n  systemDefaultRegistry: \"\"\nrke2-whereabouts:\n  enabled: false\n",
			deps: "dependencies:\n- name: rke2-whereabouts\n  version: 0.1.0\n  condition: rke2-whereabouts.enabled\n",
			subs: []chartSpec{{name: "rke2-whereabouts", values: "global:\n  systemDefaultRegistry: \"\"\nimage:\n  repository: rancher/whereabouts\n", tgz: true}}},
		files: []string{"rke2-whereabouts:\n  enabled: true\n"},
		set:   []SetArg{{Key: "global.systemDefaultRegistry", Value: "registry.example.com"}, {Key: "global.clusterCIDR", Value: "10.42.0.0/16"}}},
	{name: "condition false drops the subchart, the misspelt key does nothing",
		chart: chartSpec{name: "p", values: "s:\n  enabled: false\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n  condition: s.enabled\n",
			subs: []chartSpec{sub("s", "a: 1\n")}},
		files: []string{"ss:\n  enabled: true\n"}},
	{name: "first boolean condition decides",
		chart: chartSpec{name: "p", values: "x:\n  on: notbool\ns:\n  enabled: false\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n  condition: x.on,s.enabled\n",
			subs: []chartSpec{sub("s", "a: 1\n")}}},
	{name: "tags: one true enables, all false disables, condition beats tags",
		chart: chartSpec{name: "p", values: "tags:\n  front: false\n  back: true\n",
			deps: "dependencies:\n- name: s1\n  version: 0.1.0\n  tags: [front]\n- name: s2\n  version: 0.1.0\n  tags: [front, back]\n- name: s3\n  version: 0.1.0\n  tags: [front]\n  condition: s3.on\n",
			subs: []chartSpec{sub("s1", "a: 1\n"), sub("s2", "a: 2\n"), sub("s3", "on: true\n")}}},
	{name: "alias renames the key, two aliases of one chart",
		chart: chartSpec{name: "p", values: "one:\n  a: p1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n  alias: one\n- name: s\n  version: 0.1.0\n  alias: two\n  condition: two.enabled\n",
			subs: []chartSpec{sub("s", "a: sub\nenabled: true\n")}},
		files: []string{"two:\n  a: user\n"}},
	{name: "one chart under two aliases, its own subchart aliased",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n  alias: one\n- name: s\n  version: 0.1.0\n  alias: two\n",
			subs: []chartSpec{{name: "s", values: "x: 1\nnn:\n  on: true\n", deps: "dependencies:\n- name: sn\n  version: 0.1.0\n  alias: nn\n  condition: nn.on\n",
				subs: []chartSpec{sub("sn", "deep: 1\n")}}}},
		files: []string{"two:\n  nn:\n    on: false\n"}},
	{name: "import-values exports and child/parent",
		chart: chartSpec{name: "p", values: "fromchild:\n  k: parent\n",
			deps: "dependencies:\n- name: s\n  version: 0.1.0\n  import-values:\n  - data\n  - child: inner\n    parent: fromchild\n",
			subs: []chartSpec{sub("s", "exports:\n  data:\n    exported: 1\ninner:\n  k: child\n  j: child\n")}}},
	{name: "null over a key only the subchart's defaults have is deleted in both",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n",
			subs: []chartSpec{sub("s", "x: 1\ny:\n  z: 2\n")}},
		files: []string{"s:\n  x: null\n  y:\n    z: null\n"}},
	{name: "null for a subchart listed nowhere in Chart.yaml",
		chart: chartSpec{name: "p", values: "a: 1\n", subs: []chartSpec{sub("s", "x: 1\n")}},
		files: []string{"s:\n  x: null\n"}},
	{name: "version constraint not met keeps the chart under its own name",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: ^2.0.0\n  alias: renamed\n",
			subs: []chartSpec{sub("s", "x: 1\n")}}},
	{name: "a scalar where the subchart's map goes fails",
		chart: chartSpec{name: "p", values: "a: 1\n", subs: []chartSpec{sub("s", "x: 1\n")}},
		files: []string{"s: 5\n"}},
	{name: "nested subchart with its own condition",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n",
			subs: []chartSpec{{name: "s", values: "sn:\n  enabled: true\n", deps: "dependencies:\n- name: sn\n  version: 0.1.0\n  condition: sn.enabled\n",
				subs: []chartSpec{sub("sn", "deep: 1\n")}}}},
		files: []string{"s:\n  sn:\n    enabled: false\n"}},
	{name: "two dependencies under one alias fail Chart.yaml's validation",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n  alias: al\n- name: t\n  version: 0.1.0\n  alias: al\n",
			subs: []chartSpec{sub("s", "x: 1\n"), sub("t", "y: 1\n")}}},
	{name: "subchart schema refuses a string",
		chart: chartSpec{name: "p", values: "a: 1\n", deps: "dependencies:\n- name: s\n  version: 0.1.0\n",
			subs: []chartSpec{{name: "s", values: "port: 80\n", schema: `{"type":"object","properties":{"port":{"type":"integer"}}}`}}},
		files: []string{"s:\n  port: \"80\"\n"}},
	{name: "parent schema required key",
		chart: chartSpec{name: "p", values: "a: 1\n", schema: `{"type":"object","required":["b"]}`}},
	{name: "schema satisfied",
		chart: chartSpec{name: "p", values: "a: 1\n", schema: `{"type":"object","properties":{"a":{"type":"number"}}}`}},
}

func TestDependenciesNamedAgainstHelm(t *testing.T) {
	ran := 0
	for _, o := range oracles {
		helm, ok := o.binary(t)
		if !ok {
			continue
		}
		ran++
		for _, c := range depNamedCases {
			t.Run(fmt.Sprintf("%s/%s", o.name, c.name), func(t *testing.T) {
				compareDeps(t, helm, o, c)
			})
		}
	}
	if ran == 0 {
		t.Skip("no helm binary: set K3SCONF_HELM3_19_0, K3SCONF_HELM3_19_5, K3SCONF_HELM3, K3SCONF_HELM4")
	}
}

// depGen builds random charts with dependencies.
type depGen struct {
	gen
}

var (
	depKeys    = []string{"a", "b", "x", "enabled", "global", "tags", "exports", "data", "s1", "s2", "al", "m"}
	depScalars = []string{"1", "true", "false", "null", `"s"`, "yes", "{}", "[1, 2]", "2.5"}
)

func (g depGen) doc(depth int, subNames []string) string {
	var b strings.Builder
	g.block(&b, "", depth, subNames)
	return b.String()
}

func (g depGen) block(b *strings.Builder, ind string, depth int, extra []string) {
	keys := append(append([]string{}, depKeys...), extra...)
	seen := map[string]bool{}
	for i := 0; i < 1+g.r.Intn(3); i++ {
		k := keys[g.r.Intn(len(keys))]
		if seen[k] {
			continue
		}
		seen[k] = true
		b.WriteString(ind + k + ":")
		if depth < 3 && g.r.Intn(2) == 0 {
			b.WriteString("\n")
			g.block(b, ind+"  ", depth+1, nil)
		} else {
			b.WriteString(" " + depScalars[g.r.Intn(len(depScalars))] + "\n")
		}
	}
}

func (g depGen) subchart(name string, depth int) chartSpec {
	s := chartSpec{name: name, values: g.doc(0, nil), tgz: g.r.Intn(2) == 0}
	if g.r.Intn(3) == 0 {
		s.values += "global:\n  a: " + depScalars[g.r.Intn(len(depScalars))] + "\n"
	}
	if g.r.Intn(4) == 0 {
		s.values += "exports:\n  data:\n    e: 1\n"
	}
	if g.r.Intn(5) == 0 {
		s.schema = []string{`{"type":"object","properties":{"a":{"type":"number"}}}`, `{"type":"object","properties":{"enabled":{"type":"boolean"}}}`, `{"type":"object","required":["x"]}`}[g.r.Intn(3)]
	}
	if depth < 1 && g.r.Intn(4) == 0 {
		s.subs = []chartSpec{g.subchart("sn", depth+1)}
		if g.r.Intn(2) == 0 {
			s.deps = "dependencies:\n- name: sn\n  version: 0.1.0\n  condition: sn.enabled\n"
		}
	}
	return s
}

func (g depGen) depCase(i int) depCase {
	names := []string{"s1", "s2"}
	c := depCase{name: fmt.Sprintf("generated-deps-%d", i)}
	top := chartSpec{name: "p"}
	var deps strings.Builder
	used := []string{}
	for _, n := range names[:1+g.r.Intn(2)] {
		top.subs = append(top.subs, g.subchart(n, 0))
		if g.r.Intn(5) == 0 {
			continue // not in Chart.yaml: kept, never disabled
		}
		fmt.Fprintf(&deps, "- name: %s\n  version: %s\n", n, []string{"0.1.0", "~0.1", ">=0.1.0", "^1.0.0"}[g.r.Intn(4)])
		key := n
		if g.r.Intn(4) == 0 {
			key = "al"
			fmt.Fprintf(&deps, "  alias: al\n")
		}
		used = append(used, key)
		switch g.r.Intn(4) {
		case 0:
			fmt.Fprintf(&deps, "  condition: %s.enabled\n", key)
		case 1:
			fmt.Fprintf(&deps, "  tags: [t%d]\n", g.r.Intn(2))
		}
		switch g.r.Intn(5) {
		case 0:
			fmt.Fprintf(&deps, "  import-values:\n  - data\n")
		case 1:
			fmt.Fprintf(&deps, "  import-values:\n  - child: a\n    parent: m\n")
		}
	}
	if deps.Len() > 0 {
		top.deps = "dependencies:\n" + deps.String()
	}
	top.values = g.doc(0, used)
	if g.r.Intn(3) == 0 {
		top.values += "tags:\n  t0: " + []string{"true", "false"}[g.r.Intn(2)] + "\n"
	}
	if g.r.Intn(2) == 0 {
		top.values += "global:\n  a: " + depScalars[g.r.Intn(len(depScalars))] + "\n"
	}
	if g.r.Intn(8) == 0 {
		top.schema = `{"type":"object","properties":{"b":{"type":["string","null"]}}}`
	}
	c.chart = top
	for j := 0; j < g.r.Intn(3); j++ {
		c.files = append(c.files, g.doc(0, append(used, "s1", "s2")))
	}
	if g.r.Intn(3) == 0 {
		k := append(used, "global", "tags")[g.r.Intn(len(used)+2)]
		sub := []string{"enabled", "a", "x", "t0"}[g.r.Intn(4)]
		c.set = append(c.set, SetArg{Key: k + "." + sub, Value: []string{"true", "false", "null", "v"}[g.r.Intn(4)]})
	}
	return c
}

// TestDependenciesGeneratedAgainstHelm runs K3SCONF_HELM_DEP_CASES generated charts with
// dependencies (default 20) on each Helm release, K3SCONF_HELM_SEED choosing the sequence.
func TestDependenciesGeneratedAgainstHelm(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("K3SCONF_HELM_DEP_CASES"))
	if n <= 0 {
		n = 20
	}
	seed, _ := strconv.ParseInt(os.Getenv("K3SCONF_HELM_SEED"), 10, 64)
	ran := 0
	for _, o := range oracles {
		helm, ok := o.binary(t)
		if !ok {
			continue
		}
		ran++
		g := depGen{gen{rand.New(rand.NewSource(seed + 100 + int64(o.major)))}}
		var mu sync.Mutex
		agree := 0
		var wg sync.WaitGroup
		work := make(chan depCase)
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range work {
					if compareDeps(t, helm, o, c) {
						mu.Lock()
						agree++
						mu.Unlock()
					}
				}
			}()
		}
		for i := 0; i < n; i++ {
			work <- g.depCase(i)
		}
		close(work)
		wg.Wait()
		t.Logf("%s: %d of %d generated charts with dependencies agree (seed %d)", o.name, agree, n, seed)
	}
	if ran == 0 {
		t.Skip("no helm binary: set K3SCONF_HELM3_19_0, K3SCONF_HELM3_19_5, K3SCONF_HELM3, K3SCONF_HELM4")
	}
}

// TestDependencyCasesDocumented keeps the number of named dependency cases the docs state
// true.
func TestDependencyCasesDocumented(t *testing.T) {
	for _, doc := range []struct{ file, phrase string }{
		{"../../docs/values.md", "`deps_test.go`): %d named cases"},
		{"../../docs/testing.md", "%d named cases and 20 generated charts per release"},
		{"../../docs/testing.md", "%d named + 20 generated charts per release"},
	} {
		b, err := os.ReadFile(doc.file)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(doc.phrase, len(depNamedCases)); !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s does not say %q: depNamedCases has %d cases", doc.file, want, len(depNamedCases))
		}
	}
}
