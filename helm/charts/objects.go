package charts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/helmrelease"
)

// readObjects reads the HelmCharts and HelmChartConfigs of a `kubectl get … -o json`
// document (a List, or a single object), or a YAML stream of them, and into rel its release
// Secrets, Jobs and other Secrets ([helmrelease.Collect]). Positions are those of the file;
// values inside valuesContent are located at the field (a JSON string has no lines of its
// own).
func readObjects(file string, data []byte, rel *helmrelease.Objects) ([]components.HelmObject, error) {
	var out []components.HelmObject
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("%s: %w", file, err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		collect(file, data, doc.Content[0], &out)
		helmrelease.Collect(file, doc.Content[0], rel)
	}
	return out, nil
}

func collect(file string, data []byte, m *yaml.Node, out *[]components.HelmObject) {
	if m.Kind != yaml.MappingNode {
		return
	}
	if items := field(m, "items"); items != nil && items.Kind == yaml.SequenceNode {
		for _, it := range items.Content {
			collect(file, data, it, out)
		}
		return
	}
	api, kind := scalar(m, "apiVersion"), scalar(m, "kind")
	if !strings.HasPrefix(api, "helm.cattle.io/") || (kind != "HelmChart" && kind != "HelmChartConfig") {
		return
	}
	o := components.HelmObject{Kind: kind, File: file, Doc: m, Data: data, State: components.Enabled,
		Pos: diag.Position{File: file, Line: m.Line, Column: m.Column}}
	if md := field(m, "metadata"); md != nil {
		o.Name, o.Namespace = scalar(md, "name"), scalar(md, "namespace")
		if n := field(md, "name"); n != nil {
			o.Pos.Line, o.Pos.Column = n.Line, n.Column
		}
	}
	if o.Namespace == "" {
		o.Namespace, o.NamespaceMissing = "default", true
	}
	*out = append(*out, o)
}

func field(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func fieldKey(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

func scalar(m *yaml.Node, key string) string {
	if n := field(m, key); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}
