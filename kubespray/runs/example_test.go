package runs_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/kubespray/runs"
)

// Did the edit of containerd_max_container_log_line_size take effect? Three real
// ansible-playbook runs of examples/kubespray, oldest first, the last one made after the
// edit: it went into group_vars/kube-node.yml, a group name ansible never reads, so the
// task that writes the value ran and changed nothing.
func ExampleBuild() {
	var o runs.Options
	for _, name := range []string{"deploy.log", "rerun.log", "edited.log"} {
		o.Logs = append(o.Logs, runs.ReadLog("../../examples/kubespray/runs/"+name, nil))
	}
	o.Var, o.Dir = "containerd_max_container_log_line_size", "../../examples/kubespray"
	rep, err := runs.Build(o)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(rep.Runs), "runs; the last one, per host:")
	for _, h := range rep.Var.Hosts {
		fmt.Print(h.Host, " ", h.Verdict)
		for _, t := range h.Tasks {
			status := string(t.Status)
			if status == "" {
				status = "(no result)"
			}
			fmt.Printf(": %q %s", t.Use.Display, status)
		}
		fmt.Println()
	}
	// Output:
	// 3 runs; the last one, per host:
	// node1 unchanged: "container-engine/containerd : Containerd | Copy containerd config file" ok
	// node2 unchanged: "container-engine/containerd : Containerd | Copy containerd config file" ok
	// node3 not-run: "container-engine/containerd : Containerd | Copy containerd config file" (no result)
}
