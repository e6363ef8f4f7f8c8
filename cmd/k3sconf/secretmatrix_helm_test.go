package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"path/filepath"
	"testing"
)

// The secret matrix's places in Helm values (k3sconf values, components) and in
// ansible-playbook logs (k3sconf kubespray runs): see secretmatrix_test.go.

// chartTgz is a chart archive NAME.tgz of NAME/Chart.yaml and NAME/values.yaml.
func chartTgz(t *testing.T, name, values string, extra ...string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	files := []struct{ name, data string }{
		{name + "/Chart.yaml", "apiVersion: v2\nname: " + name + "\nversion: 1.2.3\n"},
		{name + "/values.yaml", values},
	}
	for i := 0; i+1 < len(extra); i += 2 { // more files: path under the chart, content
		files = append(files, struct{ name, data string }{name + "/" + extra[i], extra[i+1]})
	}
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(f.data))
	}
	tw.Close()
	zw.Close()
	return buf.String()
}

// helmChart is a HelmChart manifest of the chart k3s stages as app.tgz, with spec lines
// (indented two spaces) after spec.chart.
func helmChart(name, spec string) string {
	return "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: " + name + "\n  namespace: kube-system\nspec:\n" +
		"  chart: https://%{KUBERNETES_API}%/static/charts/app.tgz\n" + spec
}

func helmMatrixCases() []matrixCase {
	return []matrixCase{
		{"values", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			// The chart's defaults: a secret nobody overrides (shown with --all) and a number
			// password a quoted spec.set turns into a string (values-set-type).
			defaults := "replicas: 1\nimage:\n  tag: \"1.0\"\nauth:\n  user: admin\n  password: " + yq(s("chart values.yaml auth.password default", " :@")) + "\n" +
				"db:\n  password: " + g.number("chart values.yaml a number password (values-set-type quotes it)") + "\n"
			repoDefaults := "credentials:\n  secretKey: " + yq(s("--chart .tgz values.yaml secretKey", ":@")) + "\n"
			app := helmChart("app", "  valuesContent: |-\n"+
				"    auth:\n      password: "+yq(s("HelmChart valuesContent auth.password", " :@'%"))+"\n"+
				"    registries:\n      - host: r.example\n        password: "+yq(s("HelmChart valuesContent list item password", ":@"))+"\n"+
				"    adminPassword: "+s("HelmChart valuesContent camelCase adminPassword", "")+"\n"+
				"    token: "+w("HelmChart valuesContent token (word)")+"\n"+
				"    smtpPassword: "+g.number("HelmChart valuesContent a number password")+"\n"+
				"  values:\n    redis:\n      password: "+yq(s("HelmChart spec.values redis.password", " :@"))+"\n"+
				"  set:\n    ldap.auth.password: "+yq(s("HelmChart spec.set auth.password", " :@"))+"\n"+
				"    db.password: \""+g.number("HelmChart spec.set, quoted digits over a number default (values-set-type)")+"\"\n")
			config := "apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: app\n  namespace: kube-system\nspec:\n" +
				"  valuesContent: |-\n    smtp:\n      password: " + yq(s("HelmChartConfig valuesContent smtp.password", " :@")) + "\n"
			broken := helmChart("broken", "  valuesContent: |-\n    image:\n      tag: \"2.0\"\n"+
				"     apiToken: \""+s("valuesContent that does not parse: the broken line", ":@")+"\n")
			failed := helmChart("failed", "  valuesContent: |-\n    auth:\n      token: "+yq(s("values-set-failed: the scalar a --set path goes through", ":@"))+"\n"+
				"  set:\n    auth.token.password: "+yq(s("values-set-failed: the --set value", " :@"))+"\n")
			refused := helmChart("refused", "  set:\n    auth.password: "+g.number("values-set-refused: an integer beyond int32 under spec.set")+"\n")
			repo := "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: repo\n  namespace: kube-system\nspec:\n" +
				"  repo: https://chartuser:" + s("HelmChart spec.repo URL userinfo", "") + "@charts.example.com\n  chart: repo\n"
			objects, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{
				map[string]any{"apiVersion": "helm.cattle.io/v1", "kind": "HelmChart", "metadata": map[string]any{"name": "obj", "namespace": "kube-system"},
					"spec": map[string]any{"chart": "https://%{KUBERNETES_API}%/static/charts/app.tgz",
						"valuesContent": "apiKey: " + yq(s("--objects HelmChart valuesContent apiKey", " :@")) + "\n"}},
				map[string]any{"apiVersion": "helm.cattle.io/v1", "kind": "HelmChartConfig", "metadata": map[string]any{"name": "obj", "namespace": "kube-system"},
					"spec": map[string]any{"values": map[string]any{"auth": map[string]any{"password": s("--objects HelmChartConfig spec.values auth.password", " :@")}}}},
			}})
			m := "var/lib/rancher/k3s/server/manifests/"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service":                   "[Service]\nExecStart=/usr/local/bin/k3s server\n",
				"var/lib/rancher/k3s/server/static/charts/app.tgz": chartTgz(t, "app", defaults),
				m + "app.yaml":        app,
				m + "app-config.yaml": config,
				m + "broken.yaml":     broken,
				m + "failed.yaml":     failed,
				m + "refused.yaml":    refused,
				m + "repo.yaml":       repo,
				"objects.json":        string(objects),
				"objects-bad.json":    `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "helm.cattle.io/v1", "kind": "HelmChartConfig", "metadata": {"name": "obj", "namespace": "kube-system"}, "spec": {"values": {"password": "` + s("--objects JSON cut off after a password", " :@") + `"}}} "x"`,
				"repo-1.0.0.tgz":      chartTgz(t, "repo", repoDefaults),
			})
			var runs [][]string
			for _, js := range []bool{false, true} {
				a := []string{"--root", dir}
				if js {
					a = append(a, "--json")
				}
				c := func(x ...string) []string { return append(append([]string{}, a...), x...) }
				runs = append(runs, c("values", "app"), c("--all", "values", "app"), c("values", "broken"), c("values", "failed"), c("values", "refused"),
					c("--objects", filepath.Join(dir, "objects.json"), "values", "obj"), c("--objects", filepath.Join(dir, "objects-bad.json"), "values", "obj"),
					c("--all", "--chart", filepath.Join(dir, "repo-1.0.0.tgz"), "values", "repo"), c("values", "repo"),
					c("components"), c("check"))
			}
			return runs
		}},
		{"kubespray-runs", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			bar := " " + "*************************************************************"
			log1 := "\nPLAY [deploy with token=" + s("log PLAY name token=v", "") + "]" + bar + "\n\n" +
				"TASK [download : login password=" + s("log TASK name password=v", ":@") + "]" + bar + "\n" +
				"changed: [n1]\n\n" +
				"TASK [fetch https://dl:" + s("log TASK name URL userinfo", "") + "@dl.example/x]" + bar + "\n" +
				"changed: [n1]\n\n" +
				"TASK [set registry_password=" + w("log TASK name password=v (word)") + "]" + bar + "\n" +
				"changed: [n1]\n\n" +
				"PLAY RECAP" + bar + "\n" +
				"n1                         : ok=3    changed=3    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0   \n"
			// ansible-core's cli/__init__.py and utils/vars.py: a malformed -e is echoed as
			// "Invalid extra vars data supplied. '%s' could not be made into a dictionary".
			log2 := "ERROR! Invalid extra vars data supplied. '{\"registry_password\": \"" + s("log ERROR! echoing a malformed -e", ":@") + "\", \"x\": [' could not be made into a dictionary\n"
			log3 := "ERROR! the connection to https://admin:" + s("log ERROR! URL userinfo", "") + "@vault.example failed: registry_password=" + s("log ERROR! password=v", ":@") + "\n"
			// The json callback's document (ansible.posix json): names and paths, a task's
			// output (msg) that is never read.
			jlog, _ := json.Marshal(map[string]any{"plays": []any{map[string]any{
				"play": map[string]any{"name": "json play", "path": "/k/cluster.yml:1"},
				"tasks": []any{map[string]any{
					"hosts": map[string]any{"n1": map[string]any{"action": "command", "changed": true, "msg": "out " + s("json log task output (never read)", "")}},
					"task":  map[string]any{"name": "login secret=" + s("json log task name secret=v", ":@"), "path": "/k/roles/download/tasks/main.yml:3"}}}}},
				"stats": map[string]any{"n1": map[string]any{"changed": 1, "failures": 0, "ignored": 0, "ok": 1, "rescued": 0, "skipped": 0, "unreachable": 0}}})
			writeFiles(t, dir, map[string]string{
				"run4.json": string(jlog),
				"run1.log":  log1, "run2.log": log2, "run3.log": log3,
				"co/cluster.yml": "- name: Install\n  hosts: k8s_cluster\n  roles:\n    - download\n",
				"co/roles/download/tasks/main.yml": "- name: login password=" + s("checkout task name using --var", ":@") + "\n" +
					"  command: docker login -p {{ registry_password }}\n",
			})
			var runs [][]string
			for _, js := range []bool{false, true} {
				k := func(a ...string) []string {
					out := append([]string{"kubespray", "runs"}, a...)
					if js {
						out = append(out, "--json")
					}
					return out
				}
				l := func(n string) string { return filepath.Join(dir, n) }
				runs = append(runs, k(l("run1.log")), k(l("run2.log"), l("run3.log"), l("run1.log")),
					k(l("run1.log"), "--var", "registry_password", "--kubespray", l("co")), k(l("run1.log"), l("run4.json")))
			}
			return runs
		}},
	}
}

func init() {
	// values-content-invalid quotes Helm's message (line numbers, never the line's text).
	silentPlaces["valuesContent that does not parse: the broken line"] = true
	// values-objects-invalid quotes the YAML parser's message, never the input.
	silentPlaces["--objects JSON cut off after a password"] = true
	// kubespray runs never reads a task's output.
	silentPlaces["json log task output (never read)"] = true
}
