package live_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/live"
)

// The node-args annotation splits every "--flag=value"; JoinArgs puts the pairs back so the
// argv parses as k3s parsed it.
func ExampleParseNodeJSON() {
	node := []byte(`{"kind":"Node","metadata":{"name":"node-a","annotations":{
	  "k3s.io/node-args":"[\"server\",\"--disable\",\"traefik\",\"--token\",\"********\",\"--cluster-init\",\"true\"]",
	  "k3s.io/node-env":"{\"K3S_NODE_NAME\":\"node-a\"}"}}}`)
	a, err := live.ParseNodeJSON(node, "k3s")
	if err != nil {
		fmt.Println(err)
		return
	}
	kinds := map[string]live.FlagKind{"disable": live.ValueFlag, "token": live.ValueFlag, "cluster-init": live.BoolFlag}
	fmt.Println(a.Node, a.Env["K3S_NODE_NAME"])
	fmt.Println(live.JoinArgs(a.Args, func(n string) live.FlagKind { return kinds[n] }))
	// Output:
	// node-a node-a
	// [server --disable=traefik --token=******** --cluster-init=true]
}
