package runlog_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/ansible/runlog"
)

// A run read back from ansible-playbook's default output: what changed on each host.
func ExampleParse() {
	log := []byte(`
PLAY [k8s_cluster] *************************************************************

TASK [container-engine/containerd : Write containerd config] *******************
changed: [node1]
ok: [node2]

PLAY RECAP *********************************************************************
node1                      : ok=1    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
node2                      : ok=1    changed=0    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
`)
	for _, run := range runlog.Parse("cluster.log", log) {
		fmt.Println(run.Source, run.Format, run.Verdict())
		for _, h := range run.Hosts() {
			for _, e := range run.Changes(h) {
				fmt.Println(h, e.Task.Name, e.Result.Status())
			}
		}
	}
	// Output:
	// cluster.log text ok
	// node1 container-engine/containerd : Write containerd config changed
}
