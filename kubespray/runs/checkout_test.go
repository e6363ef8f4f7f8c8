package runs

import (
	"os"
	"strings"
	"testing"
)

// TestRealCheckoutUses: on a real kubespray checkout (K3SCONF_KUBESPRAY_DIR; 46dbdd3 was
// used), the seed's operation: containerd_max_container_log_line_size is used by "Copy
// containerd config file", which --tags containerd selects and which notifies the handler
// that restarts containerd; the registry mirrors' hosts.toml is written with no handler
// (containerd reads it live); --tags kubelet reaches neither.
func TestRealCheckoutUses(t *testing.T) {
	dir := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	if dir == "" {
		t.Skip("set K3SCONF_KUBESPRAY_DIR to a kubespray checkout to run this test")
	}
	for _, tc := range []struct {
		variable, task string
		restarts       bool
	}{
		{"containerd_max_container_log_line_size", "container-engine/containerd : Containerd | Copy containerd config file", true},
		{"containerd_registries_mirrors", "container-engine/containerd : Containerd | Write hosts.toml file", false},
	} {
		u, err := FindUses(dir, tc.variable)
		if err != nil {
			t.Fatal(err)
		}
		var use *Use
		for i := range u.Tasks {
			if u.Tasks[i].Display == tc.task {
				use = &u.Tasks[i]
			}
		}
		if use == nil {
			t.Errorf("%s: no use %q in %+v", tc.variable, tc.task, u.Tasks)
			continue
		}
		if !use.Selected([]string{"containerd"}, nil) {
			t.Errorf("%s: --tags containerd does not select %q", tc.variable, tc.task)
		}
		if use.Selected([]string{"kubelet"}, nil) {
			t.Errorf("%s: --tags kubelet selects %q", tc.variable, tc.task)
		}
		restarts := false
		for _, h := range use.Handlers {
			restarts = restarts || strings.Contains(h.Does, "restarts containerd")
		}
		if restarts != tc.restarts {
			t.Errorf("%s: %q restarts containerd: %v, want %v (handlers %+v)", tc.variable, tc.task, restarts, tc.restarts, use.Handlers)
		}
	}
}
