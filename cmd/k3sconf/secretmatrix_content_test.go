package main

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The secret matrix's places known by content and by structure (issue 25): secrets no
// name rule sees (a Kubernetes env list, a PEM key under tls.key, plain or base64, a
// service-account JSON, credentials inside URLs, DSNs, query strings, ini and config
// text, argument lists), YAML aliases that copy a secret into a plain key, pass-through
// and look-alike forms, and input quoted raw (a line systemd ignores, an environment line
// without '=', a malformed -e). See secretmatrix_test.go.

// indent puts n spaces before every line of s.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
}

// base64Place is a place whose input holds the base64 of text made with the secret: the
// leak check looks for the encoded form too.
// lowerWord is a secret place of plain lower-case letters (secret with word set, lowered):
// the value a node name or an IP-like flag can hold, where upper case would add a finding
// of its own and change the output beside the secret.
func (g *matrixGen) lowerWord(id string) string {
	g.secret(id, "", true)
	p := g.places[len(g.places)-1]
	p.secret = strings.ToLower(p.secret)
	for i := range p.chunks {
		p.chunks[i] = strings.ToLower(p.chunks[i])
	}
	return p.secret
}

func (g *matrixGen) base64Place(id string, text func(secret string) string) string {
	sec := g.secret(id, "", false)
	enc := base64.StdEncoding.EncodeToString([]byte(text(sec)))
	p := g.places[len(g.places)-1]
	p.forms = append(p.forms, enc)
	return enc
}

func pemKey(kind, body string) string {
	return "-----BEGIN " + kind + "PRIVATE KEY-----\n" + body + "\n-----END " + kind + "PRIVATE KEY-----\n"
}

// lowerLast makes the last place's secret lower case (a node name: upper case would add a
// finding a common word does not).
func lowerLast(g *matrixGen) {
	p := g.places[len(g.places)-1]
	p.secret = strings.ToLower(p.secret)
	for i := range p.chunks {
		p.chunks[i] = strings.ToLower(p.chunks[i])
	}
}

func contentMatrixCases() []matrixCase {
	unitHead := "[Unit]\nDescription=k3s\n[Service]\nType=notify\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\n"
	return []matrixCase{
		{"values-content", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			defaults := "replicas: 1\nenv:\n  - name: ADMIN_PASSWORD\n    value: " + yq(s("chart values.yaml env list value", " :@")) + "\n" +
				"tls:\n  key: |\n" + indent(pemKey("EC ", s("chart values.yaml PEM under tls.key", "")), 4) +
				// A copy of a secret by YAML alias in the chart's own defaults (a common word:
				// no content rule knows it), one a spec.set overrides with "true"
				// (values-set-type quotes the default), and a secret-named word default the
				// same way.
				"smtp:\n  password: &dp " + w("chart values.yaml alias of a secret anchor (word): smtp.password: &dp v, mail.login: *dp") + "\n" +
				"mail:\n  login: *dp\n  from: noreply\nnotify:\n  user: *dp\n" +
				"ldap:\n  password: " + w("chart values.yaml secret-named word default values-set-type would quote: ldap.password: v") + "\n" +
				// values.schema.json refuses a copy with a message that quotes it.
				"hook:\n  token: &hk " + w("chart values.yaml alias a values.schema.json pattern refuses (word): hook.token: &hk v, checked: *hk") + "\nchecked: *hk\n"
			schema := `{"type": "object", "properties": {"checked": {"type": "string", "pattern": "^[0-9]+$"}}}`
			repoDefaults := "database:\n  url: postgres://app:" + s("--chart .tgz values.yaml DSN password", "") + "@db/app\n" +
				"api:\n  token: &t " + s("--chart .tgz values.yaml alias anchor under api.token", "") + "\nclient:\n  id: *t\n" +
				"hook:\n  secret: &hs " + w("--chart .tgz values.yaml alias of a secret anchor (word): hook.secret: &hs v, hook.name: *hs") + "\n  name: *hs\n"
			sa := `{"type": "service_account", "project_id": "p", "private_key_id": "0123abcd", "private_key": "-----BEGIN PRIVATE KEY-----\n` +
				s("valuesContent service-account JSON private_key", "") + `\n-----END PRIVATE KEY-----\n", "client_email": "a@p.iam.gserviceaccount.com"}`
			content := "env:\n  - name: DB_PASSWORD\n    value: " + yq(w("valuesContent env list {name: DB_PASSWORD, value} (word)")) + "\n" +
				"  - name: LOG_LEVEL\n    value: info\n" +
				"database:\n  url: postgres://app:" + w("valuesContent DSN postgres://app:v@db (word)") + "@db/app\n" +
				"  dsn: \"host=db user=app password=" + w("valuesContent key=value DSN password=v (word)") + " dbname=app\"\n" +
				"  connectionString: \"Server=db;Database=app;User Id=sa;Password=" + w("valuesContent connection string Password=v; (word)") + ";\"\n" +
				"webhook:\n  url: https://hooks.example/x?token=" + w("valuesContent URL ?token=v (word)") + "&channel=ops\n" +
				"  alt: https://hooks.example/y?a=1&access_token=" + w("valuesContent URL &access_token=v (word)") + "\n" +
				"mirror: https://mirror:" + w("valuesContent URL userinfo (word)") + "@mirror.example/charts\n" +
				"extraArgs:\n  - --token=" + w("valuesContent extraArgs --token=v item (word)") + "\n  - --v=2\n  - --log-format=json\n" +
				"agentArgs: [\"--registry-password\", " + yq(w("valuesContent extraArgs [--flag, v] (word)")) + ", \"--debug\"]\n" +
				"s3:\n  config: |\n    [default]\n    region = eu-west-1\n    secret_access_key: " + w("valuesContent config string secret_access_key: v (word)") + "\n" +
				"grafana:\n  ini: |\n    [security]\n    admin_user = admin\n    admin_password = " + w("valuesContent ini admin_password = v (word)") + "\n" +
				"tls:\n  key: |\n" + indent(pemKey("RSA ", s("valuesContent PEM under tls.key", "")), 4) +
				"  keyB64: " + g.base64Place("valuesContent base64 PEM under tls.keyB64", func(x string) string { return pemKey("", x) }) + "\n" +
				"  iniB64: " + g.base64Place("valuesContent base64 of ini text", func(x string) string { return "user = app\npassword = " + x + "\n" }) + "\n" +
				"gcs:\n  serviceAccount: " + yq(sa) + "\n" +
				"auth:\n  password: &pw " + s("valuesContent alias anchor under auth.password", "") + "\n" +
				"  copy: *pw\n" +
				"smtp:\n  password: &sp " + w("valuesContent alias of a secret anchor (word): smtp.password: &sp v, mail.login: *sp") + "\n" +
				"mail:\n  login: *sp\n"
			app := helmChart("app", "  valuesContent: |-\n"+indent(content, 4)+"  set:\n    notify.user: \"true\"\n    ldap.password: \"true\"\n")
			config := "apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: app\n  namespace: kube-system\nspec:\n" +
				"  valuesContent: |-\n    extraEnv:\n      - name: SMTP_PASSWORD\n        value: " + yq(s("HelmChartConfig env list value", " :@")) + "\n" +
				"    sentry: https://k:" + s("HelmChartConfig URL userinfo", "") + "@sentry.example/1\n"
			repo := "apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: repo\n  namespace: kube-system\nspec:\n  chart: repo\n"
			m := "var/lib/rancher/k3s/server/manifests/"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service":                   "[Service]\nExecStart=/usr/local/bin/k3s server\n",
				"var/lib/rancher/k3s/server/static/charts/app.tgz": chartTgz(t, "app", defaults, "values.schema.json", schema),
				m + "app.yaml":        app,
				m + "app-config.yaml": config,
				m + "repo.yaml":       repo,
				"repo-1.0.0.tgz":      chartTgz(t, "repo", repoDefaults),
			})
			var runs [][]string
			for _, js := range []bool{false, true} {
				a := []string{"--root", dir}
				if js {
					a = append(a, "--json")
				}
				c := func(x ...string) []string { return append(append([]string{}, a...), x...) }
				runs = append(runs, c("values", "app"), c("--all", "values", "app"),
					c("--all", "--chart", filepath.Join(dir, "repo-1.0.0.tgz"), "values", "repo"), c("components"), c("check"))
			}
			return runs
		}},
		{"k3s-content", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			// A lower-case secret (lowerWord): an upper-case letter in a kubelet-arg item
			// makes a check fire (config-component-arg-camelcase) that a common word does not.
			config := "agent-token: &a " + s("config.yaml alias: agent-token: &a v, node-name: *a", "") + "\n" +
				"node-name: *a\n" +
				"kubelet-arg: [\"--registry-password " + g.lowerWord("config.yaml kubelet-arg one item --flag v (word)") + "\"]\n" +
				"kube-apiserver-arg: \"oidc-client-secret = " + w("config.yaml kube-apiserver-arg NAME = v (word)") + "\"\n" +
				"tоken: " + s("config.yaml key spelt with a Cyrillic о", "") + "\n"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service":     unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"etc/systemd/system/k3s.service.env": "K3S_TOKEN " + s("EnvironmentFile line without '=': K3S_TOKEN v", "") + "\n",
				"etc/rancher/k3s/config.yaml":        config,
				"etc/hostname":                       "node-a\n",
			})
			return nodeRuns(dir, append(append([]string{}, secretKeys...), "tоken", "kube-apiserver-arg"), oldK3s)
		}},
		{"k3s-alias-word", func(t *testing.T, g *matrixGen, dir string) [][]string {
			// A copy of a secret by YAML alias is known by structure: the anchor sits on a
			// secret key, so the copy is hidden whatever it spells, a common word too.
			config := "agent-token: &a " + g.lowerWord("config.yaml alias of a secret anchor (word): agent-token: &a v, node-name: *a") + "\n" +
				"node-name: *a\n" +
				"etcd-s3-secret-key: &k " + g.lowerWord("config.yaml alias of a secret anchor (word): etcd-s3-secret-key: &k v, etcd-s3-folder: *k") + "\n" +
				"etcd-s3-folder: *k\n"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"etc/rancher/k3s/config.yaml":    config,
				"etc/hostname":                   "node-a\n",
			})
			// show's fleet block names the node: node-name is the copy.
			return append(nodeRuns(dir, append(append([]string{}, secretKeys...), "node-name", "etcd-s3-folder"), oldK3s),
				[]string{"--root", dir, "--json", "show", "--secret-salt", "salt"})
		}},
		{"k3s-alias-quoted", func(t *testing.T, g *matrixGen, dir string) [][]string {
			// k3s's own error texts quote a value in prose ("invalid ip format '…'", the
			// kubelet's "invalid argument \"…\" for \"--node-labels\""): where the value is a
			// copy of a secret by YAML alias, the resolver quotes it as REDACTED (issue 25).
			config := "agent-token: &a " + g.lowerWord("config.yaml alias quoted by k3s's error texts (word): agent-token: &a v, node-ip/node-label/cluster-cidr: *a") + "\n" +
				"node-ip: *a\nnode-label: [*a]\ncluster-cidr: *a\negress-selector-mode: *a\nwrite-kubeconfig-mode: *a\n" +
				"etcd-s3-secret-key: &k " + g.lowerWord("config.yaml alias quoted by k3s's error texts (word): etcd-s3-secret-key: &k v, cluster-dns/service-node-port-range: *k") + "\n" +
				"cluster-dns: *k\nservice-node-port-range: *k\nkubelet-arg: [*k]\n"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"etc/rancher/k3s/config.yaml":    config,
				"etc/hostname":                   "node-a\n",
			})
			return nodeRuns(dir, []string{"agent-token", "etcd-s3-secret-key", "node-ip", "node-label", "cluster-cidr", "cluster-dns", "kubelet-arg"}, oldK3s)
		}},
		{"fleet-content", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{
				"s3/etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server --token " + s("fleet node folder unbalanced quote: --token v", "") +
					" --datastore-endpoint 'mysql://k3s:" + s("fleet node folder unbalanced quote: DSN password", "") + "@tcp(db)/k3s\n",
				"s3/etc/hostname": "s3\n",
				"s4/etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server --agent-token " + s("fleet node folder bad specifier: neighbour", "") +
					" --etcd-s3-secret-key=" + s("fleet node folder bad specifier: --flag=v%z", "") + "%z\n",
				"s4/etc/hostname": "s4\n",
				// node-name copying a secret by YAML alias: fleet names the node REDACTED,
				// from the folder and from show documents written with --show-secrets.
				"s5/etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"s5/etc/hostname":                   "s5\n",
				"s5/etc/rancher/k3s/config.yaml":    "agent-token: &a " + strings.ToLower(g.secret("fleet node-name alias of a secret anchor (word): agent-token: &a v, node-name: *a", "", true)) + "\nnode-name: *a\netcd-s3-folder: *a\n",
			})
			lowerLast(g)
			// A show document made with --show-secrets (and a salt) from the broken node.
			code, out, _ := runCLI("--root", filepath.Join(dir, "s3"), "--json", "--show-secrets", "show", "--secret-salt", "salt")
			if code == exitUsage {
				t.Fatal("show --show-secrets --secret-salt: usage")
			}
			writeFiles(t, dir, map[string]string{"docs/s3.json": out})
			for _, d := range [][]string{{"s5.json"}, {"s5-salted.json", "--secret-salt", "salt"}} {
				code, out, _ := runCLI(append([]string{"--root", filepath.Join(dir, "s5"), "--json", "--show-secrets", "show"}, d[1:]...)...)
				if code == exitUsage {
					t.Fatal("show --show-secrets: usage")
				}
				writeFiles(t, dir, map[string]string{"docs/" + d[0]: out})
			}
			in := []string{filepath.Join(dir, "s3"), filepath.Join(dir, "s4"), filepath.Join(dir, "docs", "s3.json"),
				filepath.Join(dir, "s5"), filepath.Join(dir, "docs", "s5.json"), filepath.Join(dir, "docs", "s5-salted.json")}
			return [][]string{append([]string{"fleet"}, in...), append([]string{"fleet", "--json"}, in...),
				append([]string{"fleet", "--secret-salt", "salt"}, in...), append([]string{"fleet", "--json", "--secret-salt", "salt"}, in...)}
		}},
		{"kubespray-content", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			writeFiles(t, dir, map[string]string{
				"cluster.yml": "- name: Install\n  hosts: k8s_cluster\n  roles:\n    - kubespray_defaults\n",
				"roles/kubespray_defaults/defaults/main.yml": "app_log_level: info\n",
				// Values the playbook computes from a secret (set_fact templating it, an
				// include_vars alias copy) are the secret (issue 25).
				"roles/kubespray_defaults/tasks/main.yml": "- name: Copy\n  set_fact:\n    login_copy: \"{{ registry_token }}\"\n    app_conn: \"conn-{{ app_src_password }}-x\"\n" +
					"    chained: \"{{ mirror_ref }}\"\n- name: Load\n  include_vars: creds.yml\n" +
					"- name: Use\n  command: echo {{ login_copy }} {{ app_conn }} {{ api_login }} {{ chained }}\n",
				"roles/kubespray_defaults/vars/creds.yml": "vault_api_token: &vt " + w("include_vars file alias of a secret anchor (word): vault_api_token: &vt v, api_login: *vt") + "\napi_login: *vt\n",
				"inv/hosts.yml": "all:\n  hosts:\n    n1:\n  children:\n    k8s_cluster:\n      hosts:\n        n1:\n",
				"inv/group_vars/all.yml": "app_env:\n  - name: DB_PASSWORD\n    value: " + yq(w("group_vars env list {name: DB_PASSWORD, value} (word)")) + "\n" +
					"registry_password: &rp " + s("group_vars alias anchor registry_password: &rp v", "") + "\n" +
					"mirror_login: *rp\n" +
					"vault_registry_token: &vt " + w("group_vars alias of a secret anchor (word): vault_registry_token: &vt v, mirror_user: *vt") + "\n" +
					"mirror_user: *vt\n" +
					"app_dsn: postgres://app:" + w("group_vars DSN password (word)") + "@db/app\n" +
					"app_ini: \"[db]\\nadmin_password = " + w("group_vars ini text admin_password = v (word)") + "\\n\"\n" +
					"app_tls_key: |\n" + indent(pemKey("", s("group_vars PEM key", "")), 2) +
					"registry_token: " + w("group_vars secret a set_fact copies (word): login_copy: \"{{ registry_token }}\"") + "\n" +
					"app_src_password: " + s("group_vars secret a set_fact templates into text: app_conn: \"conn-{{ app_src_password }}-x\"", "") + "\n" +
					"mirror_ref: \"{{ mirror_login }}\"\n",
			})
			inv := filepath.Join(dir, "inv", "hosts.yml")
			vars := []string{"app_env", "registry_password", "mirror_login", "mirror_user", "app_dsn", "app_ini", "app_tls_key", "login_copy", "app_conn", "api_login", "chained"}
			e := `{"registry_password": "` + w("-e malformed JSON (word)") + `", "x": [`
			var runs [][]string
			for _, js := range []bool{false, true} {
				k := func(a ...string) []string {
					out := append(append([]string{"kubespray"}, a...), "--kubespray", dir)
					if js {
						out = append(out, "--json")
					}
					return out
				}
				runs = append(runs, k(append(append([]string{"explain"}, vars...), "--host", "n1", "-i", inv)...),
					k("explain", "registry_password", "--host", "n1", "-i", inv, "-e", e))
			}
			return runs
		}},
	}
}

func init() {
	// fleet never prints a secret, even with --show-secrets.
	for _, id := range []string{"fleet node folder unbalanced quote: --token v", "fleet node folder unbalanced quote: DSN password",
		"fleet node folder bad specifier: neighbour", "fleet node folder bad specifier: --flag=v%z",
		"fleet node-name alias of a secret anchor (word): agent-token: &a v, node-name: *a"} {
		silentPlaces[id] = true
	}
}

// TestValuesTextJSONAgree: `values` and `values --json` print the same redacted records:
// every value's text line is the JSON document's value, formatted. Before issue 25 the text
// scrubbed the formatted value again (a list of three became ["--token=REDACTED"]) while
// the JSON printed what the text hid; with the structured redaction removed (redactValue
// returning its value) the secret matrix fails on the JSON, and a text-only scrub fails
// here.
func TestValuesTextJSONAgree(t *testing.T) {
	var c matrixCase
	for _, mc := range matrixCases() {
		if mc.name == "values-content" {
			c = mc
		}
	}
	g, runs := matrixResult(t, c, 7, false)
	text, js := runs[1].out, runs[6].out // --all values app, text and --json
	if !strings.Contains(strings.Join(runs[6].args, " "), "--json --all values app") {
		t.Fatalf("run 6 is `%s`", strings.Join(runs[6].args, " "))
	}
	var doc struct {
		Values map[string]struct {
			Value    any  `json:"value"`
			Deleted  bool `json:"deleted"`
			Replaced bool `json:"replaced"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for p, v := range doc.Values {
		if v.Deleted || v.Replaced {
			continue
		}
		b, _ := json.Marshal(v.Value)
		if want := p + " = " + string(b) + "\n"; !strings.Contains(text, want) {
			t.Errorf("%s: the text does not print the JSON's value %s", p, b)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d values compared", checked)
	}
	for _, p := range g.places {
		if hit := leakIn(p, text+js); hit != "" {
			t.Errorf("%s leaks: %q", p.id, hit)
		}
	}
}
