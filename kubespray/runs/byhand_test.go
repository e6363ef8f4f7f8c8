package runs

import (
	"testing"

	"github.com/k3sconf/k3sconf/kubespray"
)

// TestByHand: the command the lost-handler advice names is read from the handler only where
// it says plainly what it does (kubespray 46dbdd3's containerd handler is the first case);
// anything else gets "" and the advice points at the handler instead.
func TestByHand(t *testing.T) {
	for _, c := range []struct {
		name, why, action string
		args              map[string]string
		when              []string
		want              string
	}{
		{"kubespray containerd", "systemd_service with daemon-reload: both, in that order", "systemd_service", map[string]string{"name": "containerd", "state": "restarted", "enabled": "true", "daemon-reload": "true", "masked": "false"}, nil, "systemctl daemon-reload && systemctl restart containerd"},
		{"systemd reload", "the systemd alias, daemon_reload spelled with _", "systemd", map[string]string{"name": "kubelet", "state": "reloaded", "daemon_reload": "yes"}, nil, "systemctl daemon-reload && systemctl reload kubelet"},
		{"daemon-reload only", "no state: the reload alone", "systemd_service", map[string]string{"daemon_reload": "true"}, nil, "systemctl daemon-reload"},
		{"service", "service module: service(8), which fronts systemctl on a systemd host", "service", map[string]string{"name": "docker", "state": "restarted"}, nil, "service docker restart"},
		{"service without state", "nothing to restart", "service", map[string]string{"name": "docker", "enabled": "true"}, nil, ""},
		{"templated name", "the unit is only known at run time", "systemd_service", map[string]string{"name": "{{ container_manager }}", "state": "restarted"}, nil, ""},
		{"when", "whether it would run depends on the run", "systemd_service", map[string]string{"name": "containerd", "state": "restarted"}, []string{"container_manager == 'containerd'"}, ""},
		{"user scope", "systemctl --user is not for a person to guess", "systemd_service", map[string]string{"name": "x", "state": "restarted", "scope": "user"}, nil, ""},
		{"odd unit name", "a name with shell characters is not pasted into a command", "systemd_service", map[string]string{"name": "a;b", "state": "restarted"}, nil, ""},
		{"command", "a command handler may need its environment: or Jinja: the advice names the handler", "command", map[string]string{"_raw_params": "/sbin/subscription-manager attach --auto"}, nil, ""},
		{"file", "another module: the advice names the handler", "file", map[string]string{"path": "/x", "state": "touch"}, nil, ""},
	} {
		n := &kubespray.TaskNode{Action: c.action, Args: c.args, When: c.when}
		if got := byHand(n); got != c.want {
			t.Errorf("%s: byHand = %q, want %q (%s)", c.name, got, c.want, c.why)
		}
	}
}
