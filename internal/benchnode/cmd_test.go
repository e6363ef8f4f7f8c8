package benchnode

import (
	"os"
	"testing"
)

// TestWriteBigNode writes a 2,000-drop-in node to $K3SCONF_BIGNODE for timing the binary
// (README, Performance); it does nothing unless the variable is set.
func TestWriteBigNode(t *testing.T) {
	dir := os.Getenv("K3SCONF_BIGNODE")
	if dir == "" {
		t.Skip("set K3SCONF_BIGNODE=DIR to write the node")
	}
	if _, err := WriteDir(dir, 2000, 25); err != nil {
		t.Fatal(err)
	}
}
