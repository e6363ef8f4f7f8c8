package fleet

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestDeepDifferential replays 300 pairs of generated server configurations (fixed seed)
// whose "critical configuration mismatched:" lines were produced by a throwaway oracle:
// k3s's CriticalControlArgs built as pkg/cli/server/server.go builds them, compared as
// pkg/cluster/bootstrap.go compareConfig compares them, with go-test/deep v1.0.7 (the
// version k3s's go.mod pins). The oracle is not part of this repository; its output is
// testdata/fleet/deep/go-test-deep-v1.0.7.json.
func TestDeepDifferential(t *testing.T) {
	data, err := os.ReadFile("../testdata/fleet/deep/go-test-deep-v1.0.7.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Local, Remote map[string]any
		Lines         []string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	node := func(keys map[string]any) *Node {
		n := &Node{Product: "k3s", Role: "server", Keys: map[string]*provenance.Entry[resolve.Assignment]{}}
		for k, v := range keys {
			n.Keys[k] = &provenance.Entry[resolve.Assignment]{Value: v}
		}
		n.Keys["node-ip"] = &provenance.Entry[resolve.Assignment]{Value: []any{"10.0.0.11"}}
		return n
	}
	agree := 0
	for i, c := range cases {
		_, lines := compareCritical(computeCritical(node(c.Local)), computeCritical(node(c.Remote)))
		if diff := cmp.Diff(c.Lines, lines); diff != "" {
			t.Errorf("case %d (local %v, remote %v): log lines differ (-deep +fleet):\n%s", i, c.Local, c.Remote, diff)
			continue
		}
		agree++
	}
	t.Logf("%d of %d cases agree with go-test/deep v1.0.7", agree, len(cases))
}

// TestCompareCriticalRules pins the release rules of compareConfig.
func TestCompareCriticalRules(t *testing.T) {
	srv := func(release string, kv ...any) *Critical {
		n := &Node{Product: "k3s", Role: "server", Release: release, Keys: map[string]*provenance.Entry[resolve.Assignment]{"node-ip": {Value: "10.0.0.1"}}}
		for i := 0; i+1 < len(kv); i += 2 {
			n.Keys[kv[i].(string)] = &provenance.Entry[resolve.Assignment]{Value: kv[i+1]}
		}
		return computeCritical(n)
	}
	tests := []struct {
		name, reason  string
		local, remote *Critical
		wantFields    []string
		wantLogs      int
	}{
		{"explicit-default", "an explicit default equals the default", srv("", "cluster-cidr", []any{"10.42.0.0/16"}, "cluster-dns", []any{"10.43.0.10"}), srv(""), nil, 0},
		{"host-bits", "net.ParseCIDR masks the address", srv("", "cluster-cidr", []any{"10.42.9.9/16"}), srv(""), nil, 0},
		{"dns-follows-service-cidr", "the default cluster-dns is the service range's tenth address", srv("", "service-cidr", []any{"10.96.0.0/12"}), srv("", "service-cidr", []any{"10.96.0.0/12"}, "cluster-dns", []any{"10.96.0.10"}), nil, 0},
		{"disable-other-items", "only servicelb of the disable items is critical", srv("", "disable", []any{"traefik"}), srv(""), nil, 0},
		{"disable-servicelb", "disable servicelb sets DisableServiceLB", srv("", "disable", []any{"traefik, servicelb"}), srv(""), []string{"DisableServiceLB"}, 1},
		{"no-check-before-v1.22.4+k3s2", "compareConfig arrived with k3s-io/k3s 1b3187ea0", srv("v1.22.4+k3s1", "flannel-backend", "host-gw"), srv("v1.22.4+k3s1"), nil, 0},
		{"check-without-logs", "before 13c633da1 reflect.DeepEqual, no per-field lines", srv("v1.24.6+k3s1", "flannel-backend", "host-gw"), srv("v1.24.6+k3s1"), []string{"FlannelBackend"}, 0},
		{"egress-down-level", "an empty remote egress-selector-mode takes the local value (96162c07c)", srv("v1.24.3+k3s1", "egress-selector-mode", "pod"), srv("v1.23.6+k3s1"), nil, 0},
		{"egress-both-have-it", "both releases compare egress-selector-mode", srv("v1.30.5+k3s1", "egress-selector-mode", "pod"), srv("v1.30.5+k3s1"), []string{"EgressSelectorMode"}, 1},
		{"local-lacks-field", "a joining server whose release lacks embedded-registry does not compare it", srv("v1.28.5+k3s1"), srv("v1.30.5+k3s1", "embedded-registry", true), nil, 0},
		{"remote-lacks-field", "the other server's missing field reads as false", srv("v1.30.5+k3s1", "embedded-registry", true), srv("v1.28.5+k3s1"), []string{"EmbeddedRegistry"}, 1},
		{"secrets-encryption-before-13c633da1", "EncryptSecrets joined the struct in 13c633da1", srv("v1.24.6+k3s1", "secrets-encryption", true), srv("v1.24.6+k3s1"), nil, 0},
		{"secrets-encryption-after", "and is compared since", srv("v1.24.8+k3s1", "secrets-encryption", true), srv("v1.24.8+k3s1"), []string{"EncryptSecrets"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diffs, logs := compareCritical(tc.local, tc.remote)
			var got []string
			for _, d := range diffs {
				got = append(got, d.Field)
			}
			if diff := cmp.Diff(tc.wantFields, got); diff != "" || len(logs) != tc.wantLogs {
				t.Errorf("%s: fields (-want +got):\n%s\nlogs %v, want %d lines", tc.reason, diff, logs, tc.wantLogs)
			}
		})
	}
}

func TestRKE2Critical(t *testing.T) {
	n := func(kv ...any) *Critical {
		node := &Node{Product: "rke2", Role: "server", Keys: map[string]*provenance.Entry[resolve.Assignment]{"node-ip": {Value: "10.0.0.1"}}}
		for i := 0; i+1 < len(kv); i += 2 {
			node.Keys[kv[i].(string)] = &provenance.Entry[resolve.Assignment]{Value: kv[i+1]}
		}
		return computeCritical(node)
	}
	// rancher/rke2 pkg/rke2/rke2.go: servicelb is disabled unless enable-servicelb.
	diffs, _ := compareCritical(n("enable-servicelb", true), n())
	if len(diffs) != 1 || diffs[0].Flag != "enable-servicelb" {
		t.Errorf("enable-servicelb on one RKE2 server: got %+v, want DisableServiceLB by enable-servicelb", diffs)
	}
	// validateCloudProvider: a bundled provider with a CPI chart disables k3s's CCM.
	diffs, _ = compareCritical(n("cloud-provider-name", "harvester"), n())
	if len(diffs) != 1 || diffs[0].Field != "DisableCCM" {
		t.Errorf("cloud-provider-name harvester: got %+v, want DisableCCM", diffs)
	}
	// flannel-backend is not an RKE2 flag: a stray value cannot differ.
	if diffs, _ = compareCritical(n("flannel-backend", "host-gw"), n()); len(diffs) != 0 {
		t.Errorf("flannel-backend on RKE2: got %+v, want none (RKE2 forces none)", diffs)
	}
}
