package benchfleet

import (
	"os"
	"testing"
)

// TestWriteFleetDocs writes the 1,000 show documents of BenchmarkFleet1000Docs to
// $K3SCONF_FLEETDOCS, for measuring the process (docs/fleet.md, Performance); it does
// nothing unless the variable is set. The same nodes as one node list go to
// $K3SCONF_FLEETDOCS.nodes.json.
func TestWriteFleetDocs(t *testing.T) {
	dir := os.Getenv("K3SCONF_FLEETDOCS")
	if dir == "" {
		t.Skip("set K3SCONF_FLEETDOCS=DIR to write the documents")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteDocs(dir, 1000); err != nil {
		t.Fatal(err)
	}
	// The same nodes as one `kubectl get nodes -o json` (fleet --nodes-json).
	if err := WriteNodeList(dir+".nodes.json", 1000); err != nil {
		t.Fatal(err)
	}
}
