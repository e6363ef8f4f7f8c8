package live

import (
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNodeJSON(t *testing.T) {
	data, err := os.ReadFile("testdata/node.json")
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseNodeJSON(data, "k3s")
	if err != nil {
		t.Fatal(err)
	}
	if a.Node != "node-a" || !a.HasArgs || !a.HasEnv {
		t.Fatalf("got node %q args %v env %v", a.Node, a.HasArgs, a.HasEnv)
	}
	if a.Args[0] != "server" || a.Args[8] != OmittedValue {
		t.Errorf("node-args = %q", a.Args)
	}
	if a.Env["K3S_TOKEN"] != OmittedValue || a.Env["K3S_NODE_NAME"] != "node-a" {
		t.Errorf("node-env = %q", a.Env)
	}

	list := []byte(`{"apiVersion":"v1","kind":"List","items":[` + string(data) + `]}`)
	if b, err := parseNodeJSON(list, "k3s"); err != nil || b.Node != "node-a" {
		t.Errorf("a List of one node: %v %v", b, err)
	}
	for _, bad := range []string{`{"kind":"Pod"}`, `not json`, `{"kind":"List","items":[]}`} {
		if _, err := parseNodeJSON([]byte(bad), "k3s"); !errors.Is(err, ErrNotNode) {
			t.Errorf("%s: got %v, want ErrNotNode", bad, err)
		}
	}
	if _, err := parseNodeJSON([]byte(`{"kind":"Node","metadata":{"annotations":{"k3s.io/node-args":"[broken"}}}`), "k3s"); err == nil {
		t.Error("a broken node-args annotation parsed")
	}
}

func TestJoinArgs(t *testing.T) {
	kinds := map[string]argKind{"disable": valueArg, "cluster-init": boolArg, "debug": boolArg, "kubelet-arg": valueArg, "t": valueArg}
	kind := func(n string) argKind { return kinds[n] }
	cases := []struct {
		name, reason string
		in, want     []string
	}{
		{"config-values", "k3s split every --k=v; value flags take the next word",
			[]string{"server", "--disable", "traefik", "--kubelet-arg", "--max-pods=10"}, []string{"server", "--disable=traefik", "--kubelet-arg=--max-pods=10"}},
		{"bool-from-config", "a bool with a literal after it came from --k=true",
			[]string{"server", "--cluster-init", "true", "--debug"}, []string{"server", "--cluster-init=true", "--debug"}},
		{"bool-before-positional", "a bare bool keeps the next word",
			[]string{"server", "--debug", "extra"}, []string{"server", "--debug", "extra"}},
		{"value-starting-with-dash", "a value flag takes the next word even when it starts with '-'",
			[]string{"server", "-t", "-weird"}, []string{"server", "-t=-weird"}},
		{"last-word", "a flag at the end stays alone", []string{"server", "--disable"}, []string{"server", "--disable"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, joinArgs(tc.in, kind)); diff != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSplitLikeK3s(t *testing.T) {
	got := splitLikeK3s([]string{"server", "--token=abc", "--disable=traefik", "-t", "xyz", "--node-label", "a=b"})
	want := []string{"server", "--token", OmittedValue, "--disable", "traefik", "-t", OmittedValue, "--node-label", "a=b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
