package procbench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kubesprayVars are the ten variables of BenchmarkKubesprayExplain (and of kubespray's
// BenchmarkExplainReal): used ones, unused ones, set_fact and include_vars ones.
const kubesprayVars = "containerd_max_container_log_line_size kube_network_plugin container_manager kube_version kubelet_runtime_cgroups calico_datastore bin_dir kube_proxy_mode etcd_deployment_type dns_mode"

// BenchmarkKubesprayExplain runs `ansible-inventory --host node2` and `k3sconf kubespray
// explain` of ten variables for node2 alternately on a real kubespray checkout
// (K3SCONF_KUBESPRAY_DIR) with its sample group_vars and a three-host inventory (node1
// control plane and etcd, node2 a worker, node3 etcd only), and reports the median CPU
// time (user+system) of each and their ratio (x-inventory-cpu), and the median wall times
// and their ratio (x-inventory-wall: issue 28's aim is at most 0.25; explain reads ahead
// on a second core, so its wall time can be below its CPU time). Skipped without the
// checkout or ansible-inventory.
func BenchmarkKubesprayExplain(b *testing.B) {
	ks := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if ks == "" {
		b.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout")
	}
	ai, err := exec.LookPath("ansible-inventory")
	if err != nil {
		b.Skip("ansible-inventory not found")
	}
	dir := b.TempDir()
	k3sconf, _ := build(b, dir)
	inv := filepath.Join(dir, "inventory")
	if err := os.CopyFS(inv, os.DirFS(filepath.Join(ks, "inventory", "sample"))); err != nil {
		b.Fatal(err)
	}
	ini := filepath.Join(inv, "inventory.ini")
	if err := os.WriteFile(ini, []byte("[kube_control_plane]\nnode1\n[etcd]\nnode1\nnode3\n[kube_node]\nnode1\nnode2\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	explain := append([]string{k3sconf, "kubespray", "explain"}, strings.Fields(kubesprayVars)...)
	explain = append(explain, "--host", "node2", "-i", ini, "--kubespray", ks)
	inventory := []string{ai, "-i", ini, "--host", "node2"}
	var iw, ic, kw, kc []time.Duration
	for i := 0; i < b.N; i++ {
		runI := func() {
			s := execOne(b, inventory, nil, 0)
			iw, ic = append(iw, s.wall), append(ic, s.cpu)
		}
		runK := func() {
			s := execOne(b, explain, nil, 0)
			kw, kc = append(kw, s.wall), append(kc, s.cpu)
		}
		if i%2 == 0 {
			runI()
			runK()
		} else {
			runK()
			runI()
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ms(median(iw)), "inventory-ms")
	b.ReportMetric(ms(median(kw)), "explain-ms")
	b.ReportMetric(ms(median(ic)), "inventory-cpu-ms")
	b.ReportMetric(ms(median(kc)), "explain-cpu-ms")
	b.ReportMetric(float64(median(kc))/float64(max(median(ic), 1)), "x-inventory-cpu")
	b.ReportMetric(float64(median(kw))/float64(max(median(iw), 1)), "x-inventory-wall")
}
