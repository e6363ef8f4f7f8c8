package ansible

import (
	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// LoadPlaybookVars returns the vars: of the first play of a playbook file (used by tests
// and simple playbooks; kubespray's cluster.yml is read by package kubespray).
func LoadPlaybookVars(path string) ([]Def, error) {
	data, err := rootfs.ReadHostFile(path)
	if err != nil {
		return nil, err
	}
	root, err := parseYAMLNode(path, data)
	if err != nil || root == nil || root.Kind != yaml.SequenceNode || len(root.Content) == 0 {
		return nil, err
	}
	return PlayVars(path, root.Content[0])
}

// PlayVars reads the vars: mapping of a play (or import_playbook) node.
func PlayVars(path string, play *yaml.Node) ([]Def, error) {
	v := mapGet(play, "vars")
	if v == nil || v.Kind != yaml.MappingNode {
		return nil, nil
	}
	es, err := mappingEntries(path, v)
	out := make([]Def, len(es))
	for i, e := range es {
		out[i] = Def(e)
	}
	return out, err
}
