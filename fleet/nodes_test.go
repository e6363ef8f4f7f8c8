package fleet_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/fleet"
)

// nodeJSON is a Node object as kubectl prints it, reduced to what fleet reads.
func nodeJSON(name, version string, server bool, args ...string) map[string]any {
	a, _ := json.Marshal(args)
	labels := map[string]string{"kubernetes.io/hostname": name}
	if server {
		labels["node-role.kubernetes.io/control-plane"] = "true"
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": name, "labels": labels, "annotations": map[string]string{
			"k3s.io/node-args": string(a), "k3s.io/node-env": `{"K3S_TOKEN":"********"}`}},
		"status": map[string]any{"nodeInfo": map[string]string{"kubeletVersion": version},
			"addresses": []map[string]string{{"type": "InternalIP", "address": "10.0.0.1"}, {"type": "Hostname", "address": name}}},
	}
}

func TestNodeObjectsParseInTheirRelease(t *testing.T) {
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{
		nodeJSON("old", "v1.30.5+k3s1", true, "server", "--cluster-init", "true"),
		nodeJSON("new", "v1.33.1+k3s1", true, "server", "--server", "https://10.0.0.1:6443"),
		nodeJSON("worker", "v1.31.8+k3s1", false, "agent", "--server", "https://10.0.0.1:6443", "--token", "********"),
	}}
	data, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	nodes, bad := (&fleet.Loader{}).Data(data, "nodes.json")
	if len(bad) > 0 {
		t.Fatal(bad)
	}
	tests := []struct {
		name, reason, role, cli string
		omitted                 []string
	}{
		{"old", "v1.30.5 predates urfave/cli v2 (v1.31.8, v1.32.4, v1.33.0)", "server", "urfave/cli v1", []string{"token"}},
		{"new", "v1.33 parses with urfave/cli v2", "server", "urfave/cli v2", []string{"token"}},
		{"worker", "the v1.31.8 backport: v2; agent by label and argv; its token is hidden (K3S_TOKEN in node-env too)", "agent", "urfave/cli v2", []string{"token"}},
	}
	for i, tc := range tests {
		n := nodes[i]
		got := fmt.Sprintf("%s %s %s %v", n.Name, n.Role, n.CLI, n.Omitted)
		want := fmt.Sprintf("%s %s %s %v", tc.name, tc.role, tc.cli, tc.omitted)
		if got != want {
			t.Errorf("%s: got %q, want %q", tc.reason, got, want)
		}
	}
	if v := nodes[0].Keys["cluster-init"]; v == nil || v.Value != true {
		t.Errorf("old: cluster-init from node-args: %+v", v)
	}
	if s := nodes[1].Keys["server"]; s == nil || !strings.Contains(fmt.Sprint(s.Value), "10.0.0.1") {
		t.Errorf("new: server from node-args: %+v", s)
	}
}
