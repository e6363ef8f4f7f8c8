package benchnode

import (
	"os"
	"testing"
)

// TestWriteBigNode writes a 2,000-drop-in node to $K3SCONF_BIGNODE for timing the binary
// (README, Performance); it does nothing unless the variable is set. With
// K3SCONF_BIGNODE_SHAPE=flow the lists are flow sequences of four items, with flow2 of two.
func TestWriteBigNode(t *testing.T) {
	dir := os.Getenv("K3SCONF_BIGNODE")
	if dir == "" {
		t.Skip("set K3SCONF_BIGNODE=DIR to write the node")
	}
	shape := Block
	switch os.Getenv("K3SCONF_BIGNODE_SHAPE") {
	case "flow":
		shape = Flow // lists as flow sequences of several items (issue 19)
	case "flow2":
		shape = Flow2 // lists as two-item flow sequences (issue 25)
	}
	if _, err := WriteDirShape(dir, 2000, 25, shape); err != nil {
		t.Fatal(err)
	}
}
