package ansible_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
)

// A variable resolved for one host as ansible-core 2.14 does: group_vars/all below a
// group's own group_vars, -e above everything; every assignment is kept with its outcome.
func ExampleResolve() {
	dir, err := os.MkdirTemp("", "inventory")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"hosts.ini":                "[kube_node]\nnode1\n",
		"group_vars/all.yml":       "container_manager: docker\nkube_proxy_mode: ipvs\n",
		"group_vars/kube_node.yml": "container_manager: containerd\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(text), 0o644)
	}
	inv, err := ansible.LoadInventory([]string{filepath.Join(dir, "hosts.ini")})
	if err != nil {
		fmt.Println(err)
		return
	}
	extra, _ := ansible.ParseExtraVars("kube_proxy_mode=iptables", 1)
	res, err := ansible.Resolve(ansible.Options{Inventory: inv, Host: "node1", Extra: []ansible.ExtraVars{extra}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"container_manager", "kube_proxy_mode"} {
		v := res.Vars[name]
		fmt.Println(name, "=", v.Value)
		for _, a := range v.History {
			fmt.Printf("  %s %s (%s)\n", a.Outcome, strings.TrimPrefix(a.Source.Pos.File, dir+"/"), a.Level)
		}
	}
	// Output:
	// container_manager = containerd
	//   overridden group_vars/all.yml (inventory group_vars/all)
	//   applied group_vars/kube_node.yml (inventory group_vars/kube_node)
	// kube_proxy_mode = iptables
	//   overridden group_vars/all.yml (inventory group_vars/all)
	//   applied -e #1 (extra vars (-e))
}
