package live_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// The node object records the configuration k3s last started with: ParseNodeList reads
// the annotations of each node (one Node object is a list of one), and ResolveAnnotations
// joins the node-args words back into "--flag=value" arguments (k3s split them) and
// resolves them as k3s parsed them.
func ExampleParseNodeList() {
	node := []byte(`{"kind":"Node","metadata":{"name":"node-a","annotations":{
	  "k3s.io/node-args":"[\"server\",\"--disable\",\"traefik\",\"--token\",\"********\",\"--cluster-init\",\"true\"]",
	  "k3s.io/node-env":"{\"K3S_NODE_NAME\":\"node-a\"}"}}}`)
	nodes, err := live.ParseNodeList(node, "k3s")
	if err != nil {
		fmt.Println(err)
		return
	}
	a := nodes[0]
	fmt.Println(a.Node, a.Env["K3S_NODE_NAME"])
	res, args, err := live.ResolveAnnotations(a, resolve.Options{Profile: profile.K3s(), Command: "server"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(args)
	k := res.Key("disable")
	fmt.Println(k.Name(), "=", k.Value, "from", k.Source.Kind)
	// Output:
	// node-a node-a
	// [server --disable=traefik --token=******** --cluster-init=true]
	// disable = [traefik] from cli
}
