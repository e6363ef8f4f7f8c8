package nodereport_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/internal/benchnode"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestWriteJSONMatchesEncodingJSON: the hand-written encoder must give exactly what
// encoding/json gives, on real nodes and on strings that need escaping.
func TestWriteJSONMatchesEncodingJSON(t *testing.T) {
	var nodes []afero.Fs
	for _, ex := range []string{"node", "rke2-node"} {
		nodes = append(nodes, k3sconf.Node(filepath.Join("..", "examples", ex)))
	}
	weird := afero.NewMemMapFs()
	_ = afero.WriteFile(weird, "/etc/rancher/k3s/config.yaml", []byte(
		"node-label: [\"a\\\"b\", \"tab\\there\", \"nl\\nx\", \"<html>&\", \"\\u2028\", \"\\u00e9t\\u00e9\", \"bell\\a\"]\ntoken: \"x\\\\y\"\nbogus-key: 1\n"), 0o644)
	_ = afero.WriteFile(weird, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server '--node-name=\\xff\\xfe'\n"), 0o644)
	nodes = append(nodes, weird)
	// Replaced entries whose reason quotes a path that needs escaping (a quote, non-ASCII):
	// the streamed writer appends such reasons from resolve's compact record.
	replaced := afero.NewMemMapFs()
	_ = afero.WriteFile(replaced, "/etc/rancher/k3s/config.yaml", []byte("node-name: a\nnode-label: [p]\n"), 0o644)
	_ = afero.WriteFile(replaced, "/etc/rancher/k3s/config.yaml.d/10-\u00e9\"q.yaml", []byte("node-name: b\nnode-label: [x]\n"), 0o644)
	_ = afero.WriteFile(replaced, "/etc/rancher/k3s/config.yaml.d/20-z.yaml", []byte("node-name: c\nnode-label: [y]\n"), 0o644)
	nodes = append(nodes, replaced)
	// Drop-ins that replace and append to each other: histories with every outcome of the
	// merge, for StreamJSON.
	bench, _ := benchnode.Node(30, 25)
	nodes = append(nodes, bench)
	for i, fs := range nodes {
		res, err := resolve.Resolve(resolve.Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		for _, show := range []bool{false, true} {
			doc := nodereport.JSON(res, report.NewRedactor(res, show))
			if show {
				// The fleet block of `show --secret-salt`, with a name that needs escaping.
				doc.Fleet = &nodereport.FleetDoc{SaltID: nodereport.SaltID("s"), Fingerprints: nodereport.SecretFingerprints(res, "s"), NodeName: "n\"<x>", Hostname: "h"}
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(doc); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := nodereport.WriteJSON(&got, doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("node %d (show-secrets %v): mismatch (-encoding/json +WriteJSON):\n%s", i, show, diff)
			}
			// Streamed, as main writes show --json to a pipe: the same bytes, the fleet block
			// included.
			sdoc := nodereport.StreamingJSON(res, report.NewRedactor(res, show))
			sdoc.Fleet = doc.Fleet
			var streamed bytes.Buffer
			if err := nodereport.WriteJSON(&streamed, sdoc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), streamed.String()); diff != "" {
				t.Errorf("node %d (show-secrets %v): mismatch (-encoding/json +StreamJSON):\n%s", i, show, diff)
			}
		}
	}
}
