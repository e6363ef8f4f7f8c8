package resolve_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestRemovedFlags: each flag k3s removed in v1.26 on both sides of each of its release
// boundaries (profile/data/flag-releases.tsv): silent before the warning (v1.24.4 on main's
// line), a warning until v1.25.0, k3s's own refusal in v1.25, an unknown flag from v1.26.0.
// The codes are the set the node gets among the ones these rules and the parse emit.
func TestRemovedFlags(t *testing.T) {
	const unit = "/etc/systemd/system/k3s.service"
	const agentUnit = "/etc/systemd/system/k3s-agent.service"
	watch := map[string]bool{"flag-deprecated": true, "flag-deprecated-fatal": true, "k3s-refuses": true,
		"config-unknown-key": true, "config-unknown-key-agent": true, "agent-token-required": true, "server-join-token-required": true}
	cases := []struct {
		name, command, file, text, version string
		want                               string
		why                                string
	}{
		{"no-deploy 1.22", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.22.4+k3s1", "", "accepted silently (8141a933b server.go:356 fills Skips)"},
		{"no-deploy 1.24.3", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.24.3+k3s1", "", "118a68c91 landed with v1.24.3-k3s1 on main"},
		{"no-deploy 1.24.4", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.24.4+k3s1", "flag-deprecated", "first release with the warning"},
		{"no-deploy 1.25.0", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.25.0+k3s1", "flag-deprecated-fatal", "cd49101fc: fatal in v1.25"},
		{"no-deploy 1.25.16", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.25.16+k3s4", "flag-deprecated-fatal", "the whole v1.25 line"},
		{"no-deploy 1.26.0", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "v1.26.0+k3s1", "k3s-refuses", "d72377579 removed the flag"},
		{"no-deploy newest", "", unit, "ExecStart=/usr/local/bin/k3s server --no-deploy traefik", "", "k3s-refuses", "the catalog has no such flag"},
		{"no-deploy config 1.26", "", "/etc/rancher/k3s/config.yaml", "no-deploy: [traefik]", "v1.26.0+k3s1", "config-unknown-key", "k3s server skips an unknown config key"},
		{"no-deploy config 1.25", "", "/etc/rancher/k3s/config.yaml", "no-deploy: [traefik]", "v1.25.3+k3s1", "flag-deprecated-fatal", "still a server flag, so still a valid config key"},
		{"no-deploy empty 1.25", "", "/etc/rancher/k3s/config.yaml", "no-deploy: []", "v1.25.3+k3s1", "", "len(noDeploy) > 0 is false"},
		{"cluster-secret 1.24 server", "", unit, "ExecStart=/usr/local/bin/k3s server --cluster-secret pw", "v1.24.10+k3s1", "flag-deprecated", "taken as the token, with a warning"},
		{"cluster-secret with token 1.25", "", unit, "ExecStart=/usr/local/bin/k3s server --cluster-secret pw --token pw", "v1.25.3+k3s1", "", "only without a token (server.go:94)"},
		{"cluster-secret 1.25 server", "", unit, "ExecStart=/usr/local/bin/k3s server --cluster-secret pw", "v1.25.3+k3s1", "flag-deprecated-fatal", "server.go:95"},
		{"cluster-secret env 1.25", "", unit, "Environment=K3S_CLUSTER_SECRET=pw\nExecStart=/usr/local/bin/k3s server", "v1.25.3+k3s1", "flag-deprecated-fatal", "the flag's variable K3S_CLUSTER_SECRET"},
		{"cluster-secret env 1.26", "", unit, "Environment=K3S_CLUSTER_SECRET=pw\nExecStart=/usr/local/bin/k3s server", "v1.26.0+k3s1", "", "an unknown variable is nothing to k3s"},
		{"cluster-secret join 1.23", "", unit, "ExecStart=/usr/local/bin/k3s server --server https://10.0.0.1:6443 --cluster-secret pw", "v1.23.9+k3s1", "", "the secret is the join token: no 'token is required'"},
		{"agent cluster-secret 1.23", "agent", agentUnit, "ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443 --cluster-secret pw", "v1.23.9+k3s1", "", "agent.go:48 takes it as the token"},
		{"agent cluster-secret 1.24.4", "agent", agentUnit, "ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443 --cluster-secret pw", "v1.24.4+k3s1", "flag-deprecated", "warning, still the token"},
		{"agent cluster-secret 1.25", "agent", agentUnit, "ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443 --cluster-secret pw", "v1.25.0+k3s1", "flag-deprecated-fatal", "agent.go:49; after the fix a token is set"},
		{"agent cluster-secret token-file 1.25", "agent", agentUnit, "ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443 --cluster-secret pw --token pw", "v1.25.0+k3s1", "", "a token set: no fatal"},
		{"agent cluster-secret 1.26", "agent", agentUnit, "ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.1:6443 --cluster-secret pw", "v1.26.0+k3s1", "k3s-refuses", "unknown flag"},
		{"no-flannel 1.25", "", unit, "ExecStart=/usr/local/bin/k3s server --no-flannel", "v1.25.0+k3s1", "flag-deprecated-fatal", "config.go:518, after the server started"},
		{"no-flannel backend none 1.25", "", unit, "ExecStart=/usr/local/bin/k3s server --no-flannel --flannel-backend none", "v1.25.0+k3s1", "", "flannel-backend none wins before the fatal branch"},
		{"no-flannel 1.24.4", "", unit, "ExecStart=/usr/local/bin/k3s server --no-flannel", "v1.24.4+k3s1", "flag-deprecated", "warning"},
		{"no-flannel false 1.25", "", unit, "ExecStart=/usr/local/bin/k3s server --no-flannel=false", "v1.25.0+k3s1", "", "envInfo.NoFlannel is false"},
		{"disable-selinux alone 1.25", "", unit, "ExecStart=/usr/local/bin/k3s server --disable-selinux", "v1.25.0+k3s1", "", "CheckSELinuxFlags sets EnableSELinux from it"},
		{"disable-selinux with selinux 1.22", "", unit, "ExecStart=/usr/local/bin/k3s server --disable-selinux --selinux", "v1.22.4+k3s1", "flag-deprecated-fatal", "CheckSELinuxFlags: both set"},
		{"disable-selinux 1.26", "", unit, "ExecStart=/usr/local/bin/k3s server --disable-selinux", "v1.26.0+k3s1", "k3s-refuses", "unknown flag"},
		{"docker 1.24", "", unit, "ExecStart=/usr/local/bin/k3s server --docker", "v1.24.10+k3s1", "", "--docker (cri-dockerd) is still a k3s flag"},
		{"docker newest", "", unit, "ExecStart=/usr/local/bin/k3s server --docker", "", "", "--docker (cri-dockerd) is still a k3s flag"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			u := unit
			if tc.command == "agent" {
				u = agentUnit
			}
			if tc.file == u {
				afero.WriteFile(fs, u, []byte("[Service]\n"+tc.text+"\n"), 0o644)
			} else {
				afero.WriteFile(fs, u, []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
				afero.WriteFile(fs, tc.file, []byte(tc.text+"\n"), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs, Command: tc.command, Version: tc.version})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Diagnostics {
				if watch[d.Code] {
					got = append(got, d.Code)
				}
			}
			sort.Strings(got)
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("%s: got %q, want %q (%s)\n%v", tc.name, g, tc.want, tc.why, res.Diagnostics)
			}
		})
	}
}

// TestComponentFlagsRemoved: a component flag on both sides of its removal, and the cases
// where k3s does not run the component, so nothing parses the flag.
func TestComponentFlagsRemoved(t *testing.T) {
	cases := []struct {
		name, config, version string
		want                  bool
		why                   string
	}{
		{"kubelet container-runtime 1.26", "kubelet-arg: [container-runtime=remote]", "v1.26.15+k3s1", false, "Kubernetes v1.26 has it"},
		{"kubelet container-runtime 1.27", "kubelet-arg: [container-runtime=remote]", "v1.27.1+k3s1", true, "removed in v1.27"},
		{"kubelet dashes 1.24", "kubelet-arg: [--network-plugin=cni]", "v1.24.0+k3s1", true, "k3s strips leading dashes"},
		{"kubelet 1.23", "kubelet-arg: [network-plugin=cni]", "v1.23.17+k3s1", false, "dockershim flags until v1.23"},
		{"kubelet newest", "kubelet-arg: [pod-infra-container-image=x]", "", true, "removed in v1.35, the newest is v1.36"},
		{"kubelet disable-agent", "disable-agent: true\nkubelet-arg: [container-runtime=remote]", "v1.27.1+k3s1", false, "no kubelet on this server"},
		{"kcm disabled", "disable-controller-manager: true\nkube-controller-manager-arg: [pod-eviction-timeout=30s]", "v1.27.1+k3s1", false, "k3s runs no controller-manager"},
		{"apiserver insecure-port 1.24", "kube-apiserver-arg: [insecure-port=0]", "v1.24.0+k3s1", true, "removed in v1.24"},
		{"apiserver kept flag", "kube-apiserver-arg: [default-not-ready-toleration-seconds=30]", "", false, "still a flag"},
		{"scheduler lock-object 1.28", "kube-scheduler-arg: [lock-object-name=x]", "v1.28.2+k3s1", true, "removed in v1.28"},
		{"scheduler lock-object 1.27", "kube-scheduler-arg: [lock-object-name=x]", "v1.27.9+k3s1", false, "v1.27 has it"},
		{"flag of another component", "kube-apiserver-arg: [pod-eviction-timeout=30s]", "v1.27.1+k3s1", false, "the table is per component"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(tc.config+"\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs, Version: tc.version})
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, d := range res.Diagnostics {
				if d.Code == "component-flag-removed" {
					got = true
					if d.Phase != "starts-then-stops" {
						t.Errorf("phase %q", d.Phase)
					}
				}
			}
			if got != tc.want {
				t.Errorf("%s: component-flag-removed = %v, want %v (%s)\n%v", tc.name, got, tc.want, tc.why, res.Diagnostics)
			}
		})
	}
}

// TestFeatureGatesOfComponentsNotRun: a removed feature gate is refused only by a component
// k3s runs; a disabled component never parses its --feature-gates (found at integration:
// feature-gate-refused fired for a kube-controller-manager-arg on a server with
// disable-controller-manager).
func TestFeatureGatesOfComponentsNotRun(t *testing.T) {
	cases := []struct {
		name, config string
		want         bool
		why          string
	}{
		{"kcm runs", "kube-controller-manager-arg: [feature-gates=RemoveSelfLink=false]", true, "RemoveSelfLink is gone in v1.30's Kubernetes"},
		{"kcm disabled", "disable-controller-manager: true\nkube-controller-manager-arg: [feature-gates=RemoveSelfLink=false]", false, "k3s runs no controller-manager"},
		{"apiserver disabled", "disable-apiserver: true\nkube-apiserver-arg: [feature-gates=RemoveSelfLink=false]", false, "k3s runs no apiserver"},
		{"kubelet without agent", "disable-agent: true\nkubelet-arg: [feature-gates=RemoveSelfLink=false]", false, "no kubelet on this server"},
		{"kubelet with agent", "kubelet-arg: [feature-gates=RemoveSelfLink=false]", true, "the kubelet parses it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
			afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(tc.config+"\n"), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs, Version: "v1.30.5+k3s1"})
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, d := range res.Diagnostics {
				if d.Code == "feature-gate-refused" {
					got = true
					if d.Phase != "starts-then-stops" {
						t.Errorf("phase %q, want starts-then-stops", d.Phase)
					}
				}
			}
			if got != tc.want {
				t.Errorf("%s: feature-gate-refused = %v, want %v (%s)\n%v", tc.name, got, tc.want, tc.why, res.Diagnostics)
			}
		})
	}
}
