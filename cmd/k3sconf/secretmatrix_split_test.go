package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The secret matrix's split form (issue 25): a secret flag and its value as two items of a
// list, ["--registry-password", "x"], in a node's pass-through lists (config file, drop-in,
// command line, a mistyped key), in kubespray variables (a list, a list inside a dict) and in
// show documents fleet reads. The list rule (output.Redactor.FlagValue) hides the item after
// a secret flag on its own in every face. See secretmatrix_test.go.

func splitMatrixCases() []matrixCase {
	unitHead := "[Unit]\nDescription=k3s\n[Service]\nType=notify\n"
	return []matrixCase{
		{"k3s-split", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id string) string { return g.secret(id, "", false) }
			// A word place is lower case (lowerWord): upper case in a *-arg item adds a
			// finding (config-component-arg-camelcase) a common word does not.
			config := "kubelet-arg: [\"--v\", \"2\", \"--registry-password\", " + yq(s("config.yaml kubelet-arg [--registry-password, v]")) + "]\n" +
				"kube-apiserver-arg:\n  - --oidc-client-secret\n  - " + g.lowerWord("config.yaml kube-apiserver-arg [--oidc-client-secret, v] (word)") + "\n" +
				"kube-controller-manager-arg: [\"-password\", " + yq(g.lowerWord("config.yaml kube-controller-manager-arg [-password, v] (word)")) + "]\n" +
				"kublet-arg: [\"--registry-password\", " + yq(s("config.yaml mistyped kublet-arg [--registry-password, v]")) + "]\n" +
				"node-label: [\"--node-label\", \"foo\"]\n"
			dropin := "kube-scheduler-arg+: [\"--token\", " + yq(s("config.yaml.d kube-scheduler-arg+ [--token, v]")) + "]\n"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server --kubelet-arg=--registry-password --kubelet-arg=" +
					g.lowerWord("ExecStart --kubelet-arg=--registry-password --kubelet-arg=v (word)") + "\n",
				"etc/rancher/k3s/config.yaml":           config,
				"etc/rancher/k3s/config.yaml.d/10.yaml": dropin,
				"etc/hostname":                          "node-a\n",
			})
			return nodeRuns(dir, append(append([]string{}, secretKeys...), "kube-scheduler-arg", "kublet-arg", "node-label"), oldK3s)
		}},
		{"kubespray-split", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id string) string { return g.secret(id, "", false) }
			w := func(id string) string { return g.secret(id, "", true) }
			writeFiles(t, dir, map[string]string{
				"cluster.yml": "- name: Install\n  hosts: k8s_cluster\n  roles:\n    - kubespray_defaults\n",
				"roles/kubespray_defaults/defaults/main.yml": "kubelet_custom_flags: []\n",
				"inv/hosts.yml": "all:\n  hosts:\n    n1:\n  children:\n    k8s_cluster:\n      hosts:\n        n1:\n",
				"inv/group_vars/all.yml": "kubelet_custom_flags: [\"--registry-password\", " + yq(s("group_vars list [--registry-password, v]")) + ", \"--v\", \"2\"]\n" +
					"my_args:\n  - -password\n  - " + yq(w("group_vars list [-password, v] (word)")) + "\n" +
					"app:\n  args: [\"--token\", " + yq(s("group_vars dict's list [--token, v]")) + "]\n" +
					"kube_flags_line: \"--registry-password " + s("group_vars string --registry-password v") + " --v 2\"\n",
			})
			inv := filepath.Join(dir, "inv", "hosts.yml")
			var runs [][]string
			for _, js := range []bool{false, true} {
				k := func(a ...string) []string {
					out := append(append([]string{"kubespray"}, a...), "--kubespray", dir)
					if js {
						out = append(out, "--json")
					}
					return out
				}
				runs = append(runs, k("explain", "kubelet_custom_flags", "my_args", "app", "kube_flags_line", "--host", "n1", "-i", inv),
					k("where", "kubelet_custom_flags"))
			}
			return runs
		}},
		{"fleet-split", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id string) string { return g.secret(id, "", false) }
			writeFiles(t, dir, map[string]string{
				"s1/etc/rancher/k3s/config.yaml": "cluster-init: true\ntls-san: [\"--password\", " + yq(s("fleet node folder tls-san [--password, v]")) + "]\n" +
					"node-label: [\"--password\", " + yq(s("fleet node folder node-label [--password, v]")) + "]\n",
				"s1/etc/hostname":                "s1\n",
				"s2/etc/rancher/k3s/config.yaml": "server: https://s1:6443\ntls-san: [\"--password\", " + yq(s("fleet node folder tls-san [--password, v], another")) + "]\n",
				"s2/etc/hostname":                "s2\n",
			})
			code, out, _ := runCLI("--root", filepath.Join(dir, "s1"), "--json", "--show-secrets", "show")
			if code == exitUsage {
				t.Fatal("show --show-secrets: usage")
			}
			writeFiles(t, dir, map[string]string{"docs/s1.json": out})
			in := []string{filepath.Join(dir, "docs", "s1.json"), filepath.Join(dir, "s2")}
			in2 := []string{filepath.Join(dir, "s1"), filepath.Join(dir, "s2")}
			return [][]string{append([]string{"fleet"}, in...), append([]string{"fleet", "--json"}, in...),
				append([]string{"fleet"}, in2...), append([]string{"fleet", "--json"}, in2...)}
		}},
	}
}

func init() {
	// fleet never prints a secret, even with --show-secrets.
	for _, id := range []string{"fleet node folder tls-san [--password, v]", "fleet node folder node-label [--password, v]",
		"fleet node folder tls-san [--password, v], another"} {
		silentPlaces[id] = true
	}
}

// TestSplitFormBothWays: the list rule hides the item after a secret flag on its own and
// only that item: ["--node-label", "foo"] and ["--v", "2"] are shown as they are, in show,
// explain and kubespray explain; with --show-secrets the secret is shown.
func TestSplitFormBothWays(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"etc/rancher/k3s/config.yaml": "kubelet-arg: [\"--v\", \"2\", \"--registry-password\", \"QQsplitCCC333\"]\nnode-label: [\"--node-label\", \"foo\"]\n",
		"cluster.yml":                 "- name: Install\n  hosts: all\n  tasks: []\n",
		"inv/hosts.ini":               "n1\n",
		"inv/group_vars/all.yml":      "my_args: [\"--registry-password\", \"QQsplitAAA111\", \"--v\", \"2\", \"--node-label\", \"foo\"]\n",
	})
	tests := []struct {
		name   string
		args   []string
		want   []string
		reason string
	}{
		{"show", []string{"--root", dir, "show"}, []string{"[--v, 2, --registry-password, REDACTED]", "[--node-label, foo]"}, "the value in force"},
		{"show-json", []string{"--root", dir, "--json", "show"}, []string{`["--v","2","--registry-password","REDACTED"]`, `["--node-label","foo"]`}, "the same records in JSON"},
		{"explain", []string{"--root", dir, "explain", "kubelet-arg", "node-label"}, []string{`kubelet-arg: REDACTED`, `kubelet-arg: "2"`, `node-label: "foo"`}, "each item is an assignment of its own"},
		{"show-secrets", []string{"--root", dir, "--show-secrets", "explain", "kubelet-arg"}, []string{"[--v, 2, --registry-password, QQsplitCCC333]", `kubelet-arg: "QQsplitCCC333"`}, "--show-secrets shows it"},
		{"kubespray", []string{"kubespray", "explain", "my_args", "--host", "n1", "-i", filepath.Join(dir, "inv", "hosts.ini"), "--kubespray", dir},
			[]string{"['--registry-password', 'REDACTED', '--v', '2', '--node-label', 'foo']"}, "an Ansible list"},
		{"kubespray-show", []string{"kubespray", "explain", "my_args", "--host", "n1", "-i", filepath.Join(dir, "inv", "hosts.ini"), "--kubespray", dir, "--show-secrets"},
			[]string{"['--registry-password', 'QQsplitAAA111', '--v', '2', '--node-label', 'foo']"}, "--show-secrets shows it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(tc.args...)
			if code == exitUsage {
				t.Fatalf("usage: %s", errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: `k3sconf %s` lacks %q:\n%s", tc.reason, strings.Join(tc.args, " "), w, out)
				}
			}
			if !slices.Contains(tc.args, "--show-secrets") && strings.Contains(out+errOut, "QQsplit") {
				t.Errorf("%s: `k3sconf %s` prints the secret:\n%s%s", tc.reason, strings.Join(tc.args, " "), out, errOut)
			}
		})
	}
}
