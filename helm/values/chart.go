package values

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// maxChartSize bounds how much of a chart archive is read (Helm's own limit for a chart
// archive is 20 MiB decompressed per file; this is the whole archive).
const maxChartSize = 64 << 20

// LoadChart reads the name, version and default values of a chart archive (.tgz) as
// Helm's loader does: the files under the archive's top folder, values.yaml decoded as a
// values file (multi-document in Helm 4), subcharts under charts/ noted.
func LoadChart(file string, data []byte, major int) (*Chart, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a gzip chart archive: %w", file, err)
	}
	tr := tar.NewReader(io.LimitReader(zr, maxChartSize))
	ch := &Chart{File: file}
	var values, meta []byte
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, rel, ok := strings.Cut(strings.TrimPrefix(h.Name, "./"), "/")
		if !ok {
			continue
		}
		switch {
		case rel == "values.yaml":
			values, err = io.ReadAll(tr)
		case rel == "Chart.yaml":
			meta, err = io.ReadAll(tr)
		case strings.HasPrefix(rel, "charts/"):
			ch.Dependencies = true
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if meta != nil {
		var m struct {
			Name         string `json:"name"`
			Version      string `json:"version"`
			Dependencies []any  `json:"dependencies"`
		}
		if err := yaml.Unmarshal(meta, &m); err == nil {
			ch.Name, ch.Version = m.Name, m.Version
			if len(m.Dependencies) > 0 {
				ch.Dependencies = true
			}
		}
	}
	ch.Text = values
	ch.Values = map[string]any{}
	if values != nil {
		v, err := Decode(values, major)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot load values.yaml: %w", file, err)
		}
		ch.Values = v
	}
	return ch, nil
}
