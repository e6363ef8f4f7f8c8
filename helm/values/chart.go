package values

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/Masterminds/semver/v3"
	"sigs.k8s.io/yaml"
)

// maxChartSize bounds how much of a chart archive is read (Helm's own limit for a chart
// archive is 20 MiB decompressed per file; this is the whole archive, subcharts included).
const maxChartSize = 64 << 20

// maxChartDepth bounds how deep subcharts nest (a chart archive inside a chart archive…).
const maxChartDepth = 10

// Dependency is one entry of a chart's Chart.yaml dependencies (requirements.yaml for an
// apiVersion v1 chart), as Helm's chart.Dependency reads it.
type Dependency struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Repository   string   `json:"repository"`
	Condition    string   `json:"condition"`
	Tags         []string `json:"tags"`
	Alias        string   `json:"alias"`
	ImportValues []any    `json:"import-values"`
}

// LoadChart reads the name, version, default values, values.schema.json, dependencies and
// subcharts of a chart archive (.tgz) as Helm's loader does (pkg/chart/loader LoadFiles in
// v3, pkg/chart/v2/loader in v4): the files under the archive's top folder; values.yaml
// decoded as a values file (every document in Helm 4); each charts/NAME.tgz and each
// charts/NAME/ folder a subchart (names starting with "_" or "." skipped).
func LoadChart(file string, data []byte, major int) (*Chart, error) {
	budget := int64(maxChartSize)
	return loadArchive(file, "", data, major, 0, &budget)
}

// loadArchive reads one archive; inner is where it sits inside the top archive ("" for
// the top one, "charts/sub.tgz" for a subchart).
func loadArchive(file, inner string, data []byte, major, depth int, budget *int64) (*Chart, error) {
	where := file
	if inner != "" {
		where = file + ": " + inner
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a gzip chart archive: %w", where, err)
	}
	tr := tar.NewReader(io.LimitReader(zr, *budget))
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, rel, ok := strings.Cut(strings.TrimPrefix(h.Name, "./"), "/")
		if !ok {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		*budget -= int64(len(b))
		if *budget <= 0 {
			return nil, fmt.Errorf("%s: the chart is larger than %d MiB unpacked", where, maxChartSize>>20)
		}
		files[rel] = b
	}
	return loadFiles(file, inner, files, major, depth, budget)
}

// loadFiles builds a chart from its files (paths relative to the chart's folder).
func loadFiles(file, inner string, files map[string][]byte, major, depth int, budget *int64) (*Chart, error) {
	where := file
	if inner != "" {
		where = file + ": " + inner
	}
	ch := &Chart{File: file, Inner: inner}
	subFiles := map[string]map[string][]byte{}
	for rel, b := range files {
		switch {
		case rel == "values.yaml":
			ch.Text = b
		case rel == "values.schema.json":
			ch.Schema = b
		case rel == "Chart.yaml":
			var m struct {
				APIVersion   string        `json:"apiVersion"`
				Name         string        `json:"name"`
				Version      string        `json:"version"`
				Type         string        `json:"type"`
				Dependencies []*Dependency `json:"dependencies"`
			}
			if err := yaml.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("%s: cannot load Chart.yaml: %w", where, err)
			}
			ch.APIVersion, ch.Name, ch.Version, ch.chartType = m.APIVersion, m.Name, m.Version, m.Type
			if m.Dependencies != nil {
				ch.Requirements = m.Dependencies
			}
		case strings.HasPrefix(rel, "charts/") && path.Ext(rel) != ".prov":
			rest := strings.TrimPrefix(rel, "charts/")
			name, _, _ := strings.Cut(rest, "/")
			if subFiles[name] == nil {
				subFiles[name] = map[string][]byte{}
			}
			subFiles[name][rest] = b
		}
	}
	if _, ok := files["Chart.yaml"]; !ok {
		return nil, fmt.Errorf("%s: Chart.yaml file is missing", where)
	}
	if ch.APIVersion == "" || ch.APIVersion == "v1" {
		// requirements.yaml, the dependencies of an apiVersion v1 chart.
		if b, ok := files["requirements.yaml"]; ok {
			var m struct {
				Dependencies []*Dependency `json:"dependencies"`
			}
			if err := yaml.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("%s: cannot load requirements.yaml: %w", where, err)
			}
			if m.Dependencies != nil {
				ch.Requirements = m.Dependencies
			}
		}
	}
	if err := ch.validate(); err != nil {
		return nil, fmt.Errorf("%s: validation: %w", where, err)
	}
	ch.Values = map[string]any{}
	if ch.Text != nil {
		v, err := decode(ch.Text, major)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot load values.yaml: %w", where, err)
		}
		ch.Values = v
	}
	names := make([]string, 0, len(subFiles))
	for n := range subFiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.IndexAny(n, "_.") == 0 {
			continue
		}
		if depth >= maxChartDepth {
			return nil, fmt.Errorf("%s: subcharts nest deeper than %d levels", where, maxChartDepth)
		}
		subInner := path.Join(inner, "charts", n)
		if inner != "" && strings.HasSuffix(inner, ".tgz") {
			subInner = inner + ": charts/" + n
		}
		var sc *Chart
		var err error
		if path.Ext(n) == ".tgz" {
			b, ok := subFiles[n][n]
			if !ok {
				return nil, fmt.Errorf("%s: error unpacking subchart tar: expected %s", where, n)
			}
			sc, err = loadArchive(file, subInner, b, major, depth+1, budget)
		} else {
			fs := map[string][]byte{}
			for rel, b := range subFiles[n] {
				if _, r, ok := strings.Cut(rel, "/"); ok {
					fs[r] = b
				}
			}
			sc, err = loadFiles(file, subInner, fs, major, depth+1, budget)
		}
		if err != nil {
			return nil, err
		}
		ch.Subcharts = append(ch.Subcharts, sc)
	}
	ch.Dependencies = len(ch.Subcharts) > 0 || len(ch.Requirements) > 0
	return ch, nil
}

// ValuesFile names the chart's values.yaml for people: "values.yaml" for the top chart,
// "charts/sub/values.yaml" (or "charts/sub.tgz: values.yaml") for a subchart.
func (c *Chart) ValuesFile() string {
	switch {
	case c.Inner == "":
		return "values.yaml"
	case strings.HasSuffix(c.Inner, ".tgz"):
		return c.Inner + ": values.yaml"
	}
	return c.Inner + "/values.yaml"
}

// DefaultsTree is the chart's defaults with every subchart's (enabled or not) under the
// key Helm gives it (its alias, else its name), the parent's values winning: the paths a
// user can set with effect.
func (c *Chart) DefaultsTree() map[string]any {
	out, _ := deepCopy(c.Values).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	for _, s := range c.Subcharts {
		var keys []string
		for _, r := range c.Requirements {
			if r != nil && r.Name == s.Name {
				k := r.Name
				if r.Alias != "" {
					k = r.Alias
				}
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			keys = []string{s.Name}
		}
		for _, k := range keys {
			sub := s.DefaultsTree()
			if m, ok := out[k].(map[string]any); ok {
				sub = mergeMaps(sub, m)
			}
			out[k] = sub
		}
	}
	return out
}

var aliasFormat = regexp.MustCompile("^[a-zA-Z0-9_-]+$")

// validate is Helm's Metadata.Validate as the loader runs it on every chart (pkg/chart
// metadata.go, dependency.go; v3.20.2 and v4.1.4 alike), without the maintainers' checks:
// strings lose their control characters (whitespace becomes a space), and a chart without a
// name or a semver version, of an unknown type, or with a null dependency, an alias of other
// characters than letters, digits, _ and -, or two dependencies of one name or alias is
// refused.
func (c *Chart) validate() error {
	if c.APIVersion == "" {
		c.APIVersion = "v1"
	}
	c.Name = sanitize(c.Name)
	switch {
	case c.Name == "":
		return errors.New("chart.metadata.name is required")
	case c.Name == "." || c.Name == "..":
		return fmt.Errorf("chart.metadata.name %q is not allowed", c.Name)
	case c.Name != path.Base(c.Name):
		return fmt.Errorf("chart.metadata.name %q is invalid", c.Name)
	case c.Version == "":
		return errors.New("chart.metadata.version is required")
	}
	if _, err := semver.NewVersion(c.Version); err != nil {
		return fmt.Errorf("chart.metadata.version %q is invalid", c.Version)
	}
	if c.chartType != "" && c.chartType != "application" && c.chartType != "library" {
		return errors.New("chart.metadata.type must be application or library")
	}
	seen := map[string]bool{}
	for _, d := range c.Requirements {
		if d == nil {
			return errors.New("dependencies must not contain empty or null nodes")
		}
		d.Name, d.Version, d.Repository, d.Condition = sanitize(d.Name), sanitize(d.Version), sanitize(d.Repository), sanitize(d.Condition)
		for i := range d.Tags {
			d.Tags[i] = sanitize(d.Tags[i])
		}
		if d.Alias != "" && !aliasFormat.MatchString(d.Alias) {
			return fmt.Errorf("dependency %q has disallowed characters in the alias", d.Name)
		}
		key := d.Name
		if d.Alias != "" {
			key = d.Alias
		}
		if seen[key] {
			return fmt.Errorf("more than one dependency with name or alias %q", key)
		}
		seen[key] = true
	}
	return nil
}

// sanitize is Helm's sanitizeString: whitespace becomes a space, other characters that do
// not print are dropped.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
}
