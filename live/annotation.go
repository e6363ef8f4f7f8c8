package live

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// OmittedValue is what k3s writes in place of secret values in its node annotations
// (pkg/nodeconfig/nodeconfig.go OmittedValue).
const OmittedValue = "********"

// Annotations are what k3s recorded on its Node object the last time its configuration
// changed (pkg/nodeconfig SetNodeConfigAnnotations, called from pkg/agent/run.go
// configureNode): "<program>.io/node-args", a JSON array of the spliced argv (config-file
// values included), and "<program>.io/node-env", a JSON object of the <PROGRAM>_* variables.
type Annotations struct {
	// Node is the node's name.
	Node string
	// Args is the node-args annotation as k3s wrote it: configfilearg.MustParse(os.Args[1:]),
	// each "-x=v" split into "-x", "v", and the word after a secret flag replaced by
	// OmittedValue. Nil when the annotation is absent.
	Args []string
	// Env is the node-env annotation, secret values replaced by OmittedValue.
	Env map[string]string
	// HasArgs and HasEnv say whether each annotation was present.
	HasArgs, HasEnv bool
	// Labels are the node's labels (the control-plane label tells a server).
	Labels map[string]string
	// KubeletVersion is status.nodeInfo.kubeletVersion, the node's release
	// (v1.30.5+k3s1); Hostname is its status.addresses entry of type Hostname.
	KubeletVersion, Hostname string
	// Addresses are the node's InternalIP and ExternalIP addresses.
	Addresses []string
	// Program is the prefix of the annotations read: "k3s" or "rke2".
	Program string
}

// ErrNotNode marks input that is not a Kubernetes Node object.
var ErrNotNode = errors.New("not a Node object")

// parseNodeJSON reads `kubectl get node NAME -o json` (or a List holding one Node) and
// returns the program's node-args and node-env annotations.
func parseNodeJSON(data []byte, program string) (*Annotations, error) {
	var obj nodeObject
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotNode, err)
	}
	if obj.Kind == "List" || obj.Kind == "NodeList" {
		if len(obj.Items) != 1 {
			return nil, fmt.Errorf("%w: a list of %d objects; give one node (kubectl get node NAME -o json)", ErrNotNode, len(obj.Items))
		}
		return parseNodeJSON(obj.Items[0], program)
	}
	return obj.annotations(program)
}

// ParseNodeList reads `kubectl get nodes -o json` (a List or NodeList; one Node object is
// a list of one) and returns each node's annotations, in the list's order. program picks
// the annotations ("k3s" reads k3s.io/node-args); "" takes rke2.io/ for a node that has
// them and k3s.io/ otherwise.
func ParseNodeList(data []byte, program string) ([]*Annotations, error) {
	var obj nodeObject
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotNode, err)
	}
	if obj.Kind != "List" && obj.Kind != "NodeList" {
		a, err := obj.annotations(program)
		if err != nil {
			return nil, err
		}
		return []*Annotations{a}, nil
	}
	out := make([]*Annotations, 0, len(obj.Items))
	for i, raw := range obj.Items {
		var item nodeObject
		if err := json.Unmarshal(raw, &item); err != nil {
			return nil, fmt.Errorf("items[%d]: %w: %v", i, ErrNotNode, err)
		}
		a, err := item.annotations(program)
		if err != nil {
			return nil, fmt.Errorf("items[%d]: %w", i, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// nodeObject is the part of a Kubernetes Node (or a List of them) k3sconf reads.
type nodeObject struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
		Labels      map[string]string `json:"labels"`
	} `json:"metadata"`
	Status struct {
		NodeInfo struct {
			KubeletVersion string `json:"kubeletVersion"`
		} `json:"nodeInfo"`
		Addresses []struct {
			Type    string `json:"type"`
			Address string `json:"address"`
		} `json:"addresses"`
	} `json:"status"`
	Items []json.RawMessage `json:"items"`
}

func (obj *nodeObject) annotations(program string) (*Annotations, error) {
	if obj.Kind != "Node" {
		return nil, fmt.Errorf("%w: kind %q", ErrNotNode, obj.Kind)
	}
	if program == "" {
		program = "k3s"
		if _, ok := obj.Metadata.Annotations["rke2.io/node-args"]; ok {
			program = "rke2"
		}
	}
	a := &Annotations{Program: program, Node: obj.Metadata.Name, Labels: obj.Metadata.Labels, KubeletVersion: obj.Status.NodeInfo.KubeletVersion}
	for _, ad := range obj.Status.Addresses {
		switch ad.Type {
		case "Hostname":
			a.Hostname = ad.Address
		case "InternalIP", "ExternalIP":
			a.Addresses = append(a.Addresses, ad.Address)
		}
	}
	if s, ok := obj.Metadata.Annotations[program+".io/node-args"]; ok {
		if err := json.Unmarshal([]byte(s), &a.Args); err != nil {
			return nil, fmt.Errorf("annotation %s.io/node-args: %w", program, err)
		}
		a.HasArgs = true
	}
	if s, ok := obj.Metadata.Annotations[program+".io/node-env"]; ok {
		if err := json.Unmarshal([]byte(s), &a.Env); err != nil {
			return nil, fmt.Errorf("annotation %s.io/node-env: %w", program, err)
		}
		a.HasEnv = true
	}
	return a, nil
}

// argKind says how a flag takes its value, for joinArgs: Bool flags take a value only
// when it is attached with "=".
type argKind int

const (
	unknownArg argKind = iota
	boolArg
	valueArg
)

// joinArgs undoes k3s's "-x=v" → "-x", "v" split in the node-args annotation so the argv
// parses as k3s parsed it: a value-taking flag is joined with the word after it, a bool flag
// only with a following true/false (the form config-file values take). kind looks a flag up
// by its name without dashes.
//
// The split is lossy: a value that itself looked like "-a=b" after a value-taking flag
// given without "=" on the command line (--kubelet-arg --max-pods=100) was split too and
// cannot be told apart from two arguments; such a value comes back as "--max-pods" and the
// "100" that follows it becomes a positional argument.
func joinArgs(args []string, kind func(name string) argKind) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" || strings.Contains(a, "=") || i+1 >= len(args) {
			out = append(out, a)
			continue
		}
		next := args[i+1]
		switch kind(strings.TrimLeft(a, "-")) {
		case valueArg:
			out = append(out, a+"="+next)
			i++
		case boolArg:
			if isBoolLiteral(next) {
				out = append(out, a+"="+next)
				i++
			} else {
				out = append(out, a)
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// isBoolLiteral is strconv.ParseBool's accepted set.
func isBoolLiteral(s string) bool {
	switch s {
	case "1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False":
		return true
	}
	return false
}
