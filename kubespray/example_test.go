package kubespray_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/kubespray"
)

// Which container manager does node1 get, and what did the inventory's value beat? The
// variable is a provenance entry, as a node's key and a Helm values path are.
func ExampleExplain() {
	rep, err := kubespray.Explain(kubespray.Options{Dir: "testdata/tree", Inventory: []string{"testdata/inv/inventory.ini"},
		Host: "node1", Vars: []string{"container_manager"}})
	if err != nil {
		panic(err)
	}
	v := rep.Vars[0].Var
	fmt.Println(v.Name, "=", v.Value, "from", v.Source.Kind, v.Source.Pos)
	for _, a := range v.History {
		fmt.Println(" ", a.Outcome, a.Level, a.Value)
	}
	// Output:
	// container_manager = crio from group_vars testdata/inv/group_vars/k8s_cluster/k8s-cluster.yml:3:1
	//   overridden role defaults (kubespray_defaults) containerd
	//   applied inventory group_vars/k8s_cluster crio
}
