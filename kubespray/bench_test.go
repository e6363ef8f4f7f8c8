package kubespray

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkExplainReal explains ten variables on a real checkout (K3SCONF_KUBESPRAY_DIR)
// for a worker of the sample inventory: one load of the checkout, the inventory and the
// compiled playbook per call, as `kubespray explain` does.
func BenchmarkExplainReal(b *testing.B) {
	dir := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if dir == "" {
		b.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout")
	}
	inv := b.TempDir()
	if err := os.CopyFS(inv, os.DirFS(filepath.Join(dir, "inventory/sample"))); err != nil {
		b.Fatal(err)
	}
	ini := filepath.Join(inv, "inventory.ini")
	if err := os.WriteFile(ini, []byte("[kube_control_plane]\nnode1\n[etcd]\nnode1\nnode3\n[kube_node]\nnode1\nnode2\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	vars := strings.Fields("containerd_max_container_log_line_size kube_network_plugin container_manager kube_version kubelet_runtime_cgroups calico_datastore bin_dir kube_proxy_mode etcd_deployment_type dns_mode")
	for i := 0; i < b.N; i++ {
		if _, err := Explain(Options{Dir: dir, Inventory: []string{ini}, Host: "node2", Vars: vars}); err != nil {
			b.Fatal(err)
		}
	}
}
