package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The secret matrix (issue 19): every place an operator's secret can be (file kinds ×
// syntaxes × products × URLs with userinfo × pass-through args × typos of secret flags ×
// broken lines) is filled with a distinct generated secret, every command runs on it in text
// and --json, and no stdout or stderr may hold a secret or any 8-character piece of one.
//
// Each secret is built from random chunks (16 characters of [A-Za-z0-9]) joined by the
// characters a syntax can carry (%, quotes, spaces, @, :): a chunk is distinctive enough
// that finding any 8 bytes of it in an output is a leak, never a coincidence. Secrets that
// are common words ("secret", "server") cannot be searched for (the prose holds them), so
// the same node is built twice, once with random chunks and once with the word in those
// places, and the two outputs must be identical: whatever a secret's value, the output does
// not depend on it (a leak or a garbled sentence both show as a difference).
//
// With --show-secrets every place's secret must appear in some output: a place whose
// secret never reaches any output tests nothing, and fails the matrix too.
//
// K3SCONF_SECRET_MATRIX=N runs N seeds (default 1, as in CI); K3SCONF_SECRET_MATRIX_SEED
// picks the first.

// matrixPlace is one place a secret can be.
type matrixPlace struct {
	id string
	// seps are the characters the place's syntax carries inside a value (joining chunks).
	seps string
	// word: the place also takes a common word as its secret (the differential run).
	word bool
	// userinfo: the secret is a URL password; rendering keeps the user and host.
	secret string
	chunks []string
	// forms are encodings of the secret the input holds instead of it (base64): any 16
	// bytes of one in an output is a leak.
	forms []string
}

type matrixGen struct {
	r      *rand.Rand
	places []*matrixPlace
	words  bool // the word variant: word places hold a common word
}

const chunkAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"

var commonWords = []string{"secret", "server", "password", "token", "default", "value"}

func (g *matrixGen) chunk() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = chunkAlphabet[g.r.Intn(len(chunkAlphabet))]
	}
	return string(b)
}

// secret returns a new place's secret: one or two chunks, joined by one of seps.
func (g *matrixGen) secret(id, seps string, word bool) string {
	p := &matrixPlace{id: id, seps: seps, word: word}
	a := g.chunk()
	p.chunks = []string{a}
	p.secret = a
	if seps != "" && g.r.Intn(2) == 0 {
		b := g.chunk()
		sep := string(seps[g.r.Intn(len(seps))])
		p.secret = a + sep + b
		p.chunks = append(p.chunks, b)
	}
	if word {
		w := commonWords[g.r.Intn(len(commonWords))]
		if g.words {
			p.secret, p.chunks = w, nil
		}
	}
	g.places = append(g.places, p)
	return p.secret
}

// silentPlaces are places no output shows even with --show-secrets (variables k3s does not
// read, a key k3s skips, a word systemd drops, a fingerprinted token): they are still
// searched for leaks, but need not be reached.
var silentPlaces = map[string]bool{
	"unit Environment=\"…\" *PASSWORD*": true, "EnvironmentFile HTTPS_PROXY userinfo": true,
	"EnvironmentFile http_proxy userinfo": true, "EnvironmentFile *SECRET* (word)": true,
	"drop-in Environment= K3S_CLUSTER_SECRET": true, "bad specifier: neighbour --token v": true,
	"invalid env line K3S_TOKEN-X=v": true, "config.yaml.d typo tokne": true, "rke2 env HTTP_PROXY": true,
	"compose environment: K3S_AGENT_TOKEN": true, "compose environment: HTTPS_PROXY": true,
	"compose environment list: K3S_URL userinfo": true, "compose environment list: K3S_TOKEN": true,
	"fleet node folder config token": true, "fleet node folder etcd-s3-proxy": true,
	"fleet node folder server userinfo": true, "fleet nodes-json node-args etcd-s3-proxy": true,
	"fleet nodes-json node-args kubelet-arg": true, "group_vars !vault string": true,
	"unit ExecStart replaced by a drop-in": true, "EnvironmentFile export NAME=v": true,
	// fleet never prints a secret, even with --show-secrets (its --help).
	"fleet node folder '--token v' one word": true, "fleet nodes-json node-args one word": true,
}

// number is a place whose secret is a YAML number (16 digits: registry_password: 123…).
func (g *matrixGen) number(id string) string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = "123456789"[g.r.Intn(9)]
	}
	p := &matrixPlace{id: id, secret: string(b), chunks: []string{string(b)}}
	g.places = append(g.places, p)
	return p.secret
}

// matrixRun is one command line and its outputs.
type matrixRun struct {
	args        []string
	code        int
	out, errOut string
}

type matrixCase struct {
	name  string
	build func(t *testing.T, g *matrixGen, dir string) [][]string
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		fp := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Before the process in proc/321 started: status sees no change since, in both variants.
	old := time.Unix(1714550600, 0).Add(-2 * time.Hour)
	filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
}

// nodeRuns is every node command, text and JSON, for the node at root; explain names the
// secret keys, some others and stray names.
//
// old is a release of the other CLI era (urfave/cli v1: k3s before v1.31.8, v1.32.4,
// v1.33.0): show, args, check and explain run again modelling it, as the words k3s
// rejects and the messages differ between eras.
func nodeRuns(root string, explain []string, old string) [][]string {
	ex := append(append([]string{"explain"}, explain...), "node-name", "write-kubeconfig-mode", "server")
	cmds := [][]string{{"show"}, {"show", "--all"}, ex, {"args"}, {"sources"}, {"check"}, {"components"}, {"status"}}
	var out [][]string
	for _, c := range cmds {
		for _, js := range []bool{false, true} {
			a := []string{"--root", root}
			if js {
				a = append(a, "--json")
			}
			out = append(out, append(a, c...))
		}
	}
	for _, c := range [][]string{{"show"}, {"args"}, {"check"}, ex} {
		out = append(out, append([]string{"--root", root, "--k3s-version", old}, c...),
			append([]string{"--root", root, "--json", "--k3s-version", old}, c...))
	}
	return out
}

const oldK3s, oldRKE2 = "v1.30.5+k3s1", "v1.30.5+rke2r1"

var secretKeys = []string{"token", "agent-token", "etcd-s3-secret-key", "etcd-s3-access-key", "datastore-endpoint",
	"etcd-s3-proxy", "vpn-auth", "kubelet-arg", "kube-apiserver-arg", "kube-controller-manager-arg", "agent-tokn", "etcd-s3-secret-kye"}

// sq quotes v for a systemd command line ('…', with \' for a quote).
func sq(v string) string { return "'" + strings.ReplaceAll(v, "'", `\'`) + "'" }

// yq quotes v for YAML (a JSON string is a YAML double-quoted scalar).
func yq(v string) string { b, _ := json.Marshal(v); return string(b) }

func cmdline(words ...string) string { return strings.Join(words, "\x00") + "\x00" }

// matrixCases are the node shapes; each place calls g.secret once.
func matrixCases() []matrixCase {
	unitHead := "[Unit]\nDescription=k3s\n[Service]\nType=notify\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\n"
	return append([]matrixCase{
		{"k3s-valid", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			unit := unitHead +
				"Environment=K3S_VPN_AUTH=" + s("unit Environment= K3S_VPN_AUTH", ":@") + "\n" +
				"Environment=\"MY_API_PASSWORD=" + s("unit Environment=\"…\" *PASSWORD*", " :@'") + "\"\n" +
				"ExecStart=/usr/local/bin/k3s server \\\n" +
				"  --token=" + s("ExecStart --token=v", ":@") + " \\\n" +
				"  --agent-token " + w("ExecStart --agent-token v (word)") + " \\\n" +
				"  --etcd-s3-access-key " + sq(s("ExecStart --flag 'v' quoted", " :@\"")) + " \\\n" +
				"  '--etcd-s3-session-token=" + s("ExecStart '--flag=v' quoted", " :@") + "' \\\n" +
				"  --server https://admin:" + s("ExecStart --server URL userinfo", "") + "@10.0.0.1:6443 \\\n" +
				"  --etcd-s3-proxy http://proxyuser:" + s("ExecStart --etcd-s3-proxy userinfo", "") + "@proxy:3128 \\\n" +
				"  --kubelet-arg=registry-password=" + s("ExecStart --kubelet-arg key=v", ":@") + " \\\n" +
				"  --kube-apiserver-arg oidc-client-secret=" + s("ExecStart --kube-apiserver-arg oidc-client-secret=v", ":") + "\n"
			env := "K3S_AGENT_TOKEN=" + s("EnvironmentFile K3S_AGENT_TOKEN", ":@% ") + "\n" +
				"HTTPS_PROXY=http://envuser:" + s("EnvironmentFile HTTPS_PROXY userinfo", "") + "@proxy.example:3128\n" +
				"http_proxy=http://lower:" + s("EnvironmentFile http_proxy userinfo", "") + "@proxy.example:3128\n" +
				"K3S_DATASTORE_ENDPOINT='postgres://k3s:" + s("EnvironmentFile K3S_DATASTORE_ENDPOINT quoted", "") + "@db:5432/k3s'\n" +
				"REGISTRY_SECRET=" + w("EnvironmentFile *SECRET* (word)") + "\n"
			dropin := "[Service]\nEnvironment=\"AWS_SECRET_ACCESS_KEY=" + s("drop-in Environment= AWS_SECRET_ACCESS_KEY", " :") + "\"\n" +
				"Environment=K3S_CLUSTER_SECRET=" + s("drop-in Environment= K3S_CLUSTER_SECRET", ":@") + "\n"
			config := "etcd-s3-secret-key: " + yq(s("config.yaml key: v", " :@%'\"")) + "\n" +
				"datastore-endpoint: mysql://k3s:" + s("config.yaml datastore-endpoint DSN", "") + "@tcp(db:3306)/k3s\n" +
				"etcd-s3-proxy: http://u:" + s("config.yaml etcd-s3-proxy userinfo", "") + "@proxy:3128\n" +
				"vpn-auth: name=tailscale,joinKey=" + s("config.yaml vpn-auth", ":") + "\n" +
				"kubelet-arg:\n  - image-credential-provider-config=/etc/x.yaml\n  - registry-password=" + s("config.yaml kubelet-arg list item key=v", ":@") + "\n" +
				"kube-apiserver-arg: [\"oidc-client-secret=" + s("config.yaml kube-apiserver-arg flow item", ":") + "\"]\n" +
				"agent-tokn: " + s("config.yaml typo of a secret key", "") + "\n" +
				"etcd-s3-endpoint: https://s3user:" + s("config.yaml URL userinfo of a plain key", "") + "@s3.example\n"
			d1 := "token: " + w("config.yaml.d key: v (word)") + "\n" +
				"kube-controller-manager-arg+:\n  - cloud-provider-token=" + s("config.yaml.d key+: list item", ":") + "\n" +
				"etcd-s3-access-key: " + yq(s("config.yaml.d key: quoted v", " '\"")) + "\n"
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service":                 unit,
				"etc/systemd/system/k3s.service.env":             env,
				"etc/systemd/system/k3s.service.d/override.conf": dropin,
				"etc/rancher/k3s/config.yaml":                    config,
				"etc/rancher/k3s/config.yaml.d/10-secrets.yaml":  d1,
				"etc/hostname":  "node-a\n",
				"proc/stat":     "cpu  1 2 3 4\nbtime 1714550000\n",
				"proc/321/stat": "321 (k3s-server) S 1 321 321 0 -1 4194560 100 0 0 0 50 20 0 0 20 0 40 0 60000 900000000 20000\n",
				"proc/321/cmdline": cmdline("/usr/local/bin/k3s", "server", "--token", s("/proc cmdline --token v", ":@% '"),
					"--etcd-s3-proxy=http://pu:"+s("/proc cmdline --etcd-s3-proxy userinfo", "")+"@proxy:3128",
					"--kubelet-arg", "registry-password="+s("/proc cmdline --kubelet-arg key=v", ":"),
					"--agent-tokn", s("/proc cmdline typo of a secret flag", ""),
					"--etcd-s3-secret-key "+s("/proc cmdline '--flag v' one word", ""),
					"--server", "https://a:"+s("/proc cmdline --server userinfo", "")+"@10.0.0.1:6443"),
			})
			args, _ := json.Marshal([]string{"server", "--token", "********", "--etcd-s3-proxy",
				"http://nu:" + s("node-args --etcd-s3-proxy userinfo", "") + "@proxy:3128",
				"--kubelet-arg", "registry-password=" + s("node-args --kubelet-arg key=v", ":"),
				"--etcd-s3-secret-key " + s("node-args '--flag v' one word", ""),
				"--server", "https://b:" + s("node-args --server userinfo", "") + "@10.0.0.1:6443"})
			node, _ := json.Marshal(map[string]any{"kind": "Node", "metadata": map[string]any{"name": "node-a",
				"annotations": map[string]string{"k3s.io/node-args": string(args)}}})
			writeFiles(t, dir, map[string]string{"node.json": string(node)})
			root := filepath.Join(dir)
			runs := nodeRuns(root, secretKeys, oldK3s)
			runs = append(runs, []string{"--root", root, "status", "--node-json", filepath.Join(dir, "node.json")},
				[]string{"--root", root, "--json", "status", "--node-json", filepath.Join(dir, "node.json")},
				[]string{"--root", root, "--json", "show", "--secret-salt", "salt"})
			return runs
		}},
		{"k3s-unbalanced-quote", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{"etc/systemd/system/k3s.service": unitHead +
				"ExecStart=/usr/local/bin/k3s server --token " + s("unbalanced quote: --token v", ":@") + " --vpn-auth " + g.secret("unbalanced quote: --flag v (word)", "", true) +
				" --datastore-endpoint 'mysql://k3s:" + s("unbalanced quote: DSN password", "") + "@tcp(db)/k3s --agent-token=" + s("unbalanced quote: --flag=v", "") + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-specifier", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{"etc/systemd/system/k3s.service": unitHead +
				"ExecStart=/usr/local/bin/k3s server --token " + s("bad specifier: neighbour --token v", "") + " --etcd-s3-secret-key=" + s("bad specifier: --flag=v%z", "") + "%z" + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-invalid-env-line", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"etc/systemd/system/k3s.service.env": "K3S_TOKEN-X=" + s("invalid env line K3S_TOKEN-X=v", ":@") + "\n" +
					"K3S_AGENT_TOKEN=\"" + s("unterminated quote in env file", " :@") + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-unit-invalid-env", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "Environment=\"K3S_TOKEN=" + s("unit Environment= unbalanced quote", " :@") + "\n" +
					"Environment=K3S-TOKEN=" + s("unit Environment= invalid name", ":") + "\n" +
					"ExecStart=/usr/local/bin/k3s server\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-one-word", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{"etc/systemd/system/k3s.service": unitHead +
				"ExecStart=/usr/local/bin/k3s server '--token " + s("ExecStart '--token v' one word", ":@") + "' --agent-token " + s("after one word: --agent-token v", "") + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-typo", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{"etc/systemd/system/k3s.service": unitHead +
				"ExecStart=/usr/local/bin/k3s server --agent-tokn " + s("ExecStart typo --agent-tokn v", ":@") + " --etcd-s3-secret-kye=" + s("ExecStart typo --flag=v", "") + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-dropin-typo", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server\n",
				"etc/rancher/k3s/config.yaml.d/20.yaml": "tokne: " + s("config.yaml.d typo tokne", "") + "\nserver: https://x:" + s("config.yaml.d server userinfo", "") + "@h:6443\n",
				"etc/rancher/k3s/config.yaml":           "token: [" + s("config.yaml token as a list", "") + "]\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"k3s-dropin-execstart", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{
				"etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server --token " + s("unit ExecStart replaced by a drop-in", "") + "\n",
				"etc/systemd/system/k3s.service.d/10-exec.conf": "[Service]\nExecStart=\nExecStart=/usr/local/bin/k3s server \\\n  \"--agent-token=" + s("drop-in ExecStart \"--flag=v\"", " :@") +
					"\" --datastore-endpoint=postgres://k3s:" + s("drop-in ExecStart DSN password", "") + "@db:5432/k3s\n",
				"etc/systemd/system/k3s.service.env": "export K3S_AGENT_TOKEN=" + s("EnvironmentFile export NAME=v", ":@") + "\n"})
			return nodeRuns(dir, secretKeys, oldK3s)
		}},
		{"rke2", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			writeFiles(t, dir, map[string]string{
				"usr/local/lib/systemd/system/rke2-server.service": "[Service]\nType=notify\nEnvironmentFile=-/usr/local/lib/systemd/system/rke2-server.env\n" +
					"ExecStart=/usr/local/bin/rke2 server --token=" + s("rke2 ExecStart --token=v", ":@") + " --etcd-s3-proxy http://u:" + s("rke2 ExecStart --etcd-s3-proxy userinfo", "") + "@p:3128\n",
				"usr/local/lib/systemd/system/rke2-server.env": "RKE2_TOKEN=" + s("rke2 env RKE2_TOKEN", ":@") + "\nHTTP_PROXY=http://u:" + s("rke2 env HTTP_PROXY", "") + "@p:3128\n",
				"etc/rancher/rke2/config.yaml": "agent-token: " + w("rke2 config.yaml key: v (word)") + "\netcd-s3-proxy: http://v:" + s("rke2 config etcd-s3-proxy", "") + "@p:3128\n" +
					"kube-apiserver-arg:\n  - oidc-client-secret=" + s("rke2 config kube-apiserver-arg item", ":") + "\n",
				"etc/rancher/rke2/config.yaml.d/10.yaml": "etcd-s3-secret-key: " + yq(s("rke2 config.yaml.d key: v", " :@%")) + "\n",
			})
			return nodeRuns(dir, secretKeys, oldRKE2)
		}},
		{"compose", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			file := "services:\n  server:\n    image: rancher/k3s:v1.31.1-k3s1\n    privileged: true\n" +
				"    command: server --token " + s("compose command: --token v", ":@") + " --agent-token " + g.secret("compose command: --agent-token v (word)", "", true) + " --etcd-s3-proxy=http://u:" + s("compose command: etcd-s3-proxy userinfo", "") + "@p:3128\n" +
				"    environment:\n      K3S_AGENT_TOKEN: " + yq(s("compose environment: K3S_AGENT_TOKEN", " :@")) + "\n      HTTPS_PROXY: http://u:" + s("compose environment: HTTPS_PROXY", "") + "@p:3128\n" +
				"  agent:\n    image: rancher/k3s:v1.31.1-k3s1\n    command:\n      - agent\n      - '--token " + s("compose command list: '--token v' one word", "") + "'\n" +
				"      - --kubelet-arg=registry-password=" + s("compose command list: kubelet-arg key=v", ":") + "\n" +
				"      - --server=https://x:" + s("compose command list: --server userinfo", "") + "@server:6443\n" +
				"    environment:\n      - K3S_URL=https://y:" + s("compose environment list: K3S_URL userinfo", "") + "@server:6443\n      - K3S_TOKEN=" + s("compose environment list: K3S_TOKEN", ":@") + "\n"
			writeFiles(t, dir, map[string]string{"docker-compose.yml": file})
			f := filepath.Join(dir, "docker-compose.yml")
			return [][]string{{"compose", f}, {"--json", "compose", f}}
		}},
		{"fleet", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			writeFiles(t, dir, map[string]string{
				"s1/etc/rancher/k3s/config.yaml":    "token: " + s("fleet node folder config token", ":@") + "\ncluster-init: true\netcd-s3-proxy: http://u:" + s("fleet node folder etcd-s3-proxy", "") + "@p:3128\n",
				"s1/etc/hostname":                   "s1\n",
				"s2/etc/rancher/k3s/config.yaml":    "server: https://u:" + s("fleet node folder server userinfo", "") + "@10.0.0.11:6443\nnode-ip: 10.0.0.12\n",
				"s2/etc/systemd/system/k3s.service": unitHead + "ExecStart=/usr/local/bin/k3s server '--token " + s("fleet node folder '--token v' one word", "") + "'\n",
				"s2/etc/hostname":                   "s2\n",
			})
			// A show document made with a salt, and kubectl get nodes -o json with node-args.
			showDoc := filepath.Join(dir, "docs", "s1.json")
			code, out, _ := runCLI("--root", filepath.Join(dir, "s1"), "--json", "show", "--secret-salt", "salt")
			if code == exitUsage {
				t.Fatal("show --secret-salt: usage")
			}
			writeFiles(t, dir, map[string]string{"docs/s1.json": out})
			args, _ := json.Marshal([]string{"server", "--token", "********", "--etcd-s3-proxy", "http://u:" + s("fleet nodes-json node-args etcd-s3-proxy", "") + "@p:3128",
				"--kubelet-arg", "registry-password=" + s("fleet nodes-json node-args kubelet-arg", ""), "--etcd-s3-secret-key " + s("fleet nodes-json node-args one word", "")})
			nodes, _ := json.Marshal(map[string]any{"kind": "List", "items": []any{map[string]any{"kind": "Node",
				"metadata": map[string]any{"name": "n1", "labels": map[string]string{"node-role.kubernetes.io/control-plane": "true"},
					"annotations": map[string]string{"k3s.io/node-args": string(args)}},
				"status": map[string]any{"nodeInfo": map[string]string{"kubeletVersion": "v1.31.1+k3s1"}}}}})
			writeFiles(t, dir, map[string]string{"nodes.json": string(nodes)})
			in := []string{filepath.Join(dir, "s1"), filepath.Join(dir, "s2"), showDoc, "--nodes-json", filepath.Join(dir, "nodes.json")}
			return [][]string{append([]string{"fleet"}, in...), append([]string{"fleet", "--json"}, in...),
				append([]string{"fleet", "--secret-salt", "salt"}, in...), append([]string{"fleet", "--json", "--secret-salt", "salt"}, in...)}
		}},
		{"kubespray", func(t *testing.T, g *matrixGen, dir string) [][]string {
			s := func(id, seps string) string { return g.secret(id, seps, false) }
			w := func(id string) string { return g.secret(id, "", true) }
			writeFiles(t, dir, map[string]string{
				"cluster.yml": "- name: Install\n  hosts: k8s_cluster\n  roles:\n    - kubespray_defaults\n",
				"roles/kubespray_defaults/defaults/main.yml": "kube_encrypt_secret_data: true\netcd_peer_key: \"{{ etcd_cert_dir }}/node-key.pem\"\nhttp_proxy: \"\"\n",
				"inv/hosts.yml": "all:\n  hosts:\n    n1:\n      ansible_become_password: " + yq(s("inventory host var ansible_become_password", " :@%")) + "\n" +
					"  children:\n    k8s_cluster:\n      hosts:\n        n1:\n",
				"inv/group_vars/all.yml": "http_proxy: http://u:" + s("group_vars http_proxy userinfo", "") + "@proxy:3128\n" +
					"https_proxy: \"http://u:" + s("group_vars https_proxy userinfo", "") + "@proxy:3128\"\n" +
					"containerd_registry_auth:\n  - registry: r.example\n    username: u\n    password: " + yq(s("group_vars containerd_registry_auth password", " :")) + "\n    auth: " + s("group_vars containerd_registry_auth auth", "") + "\n" +
					"kube_encryption_key: " + s("group_vars *_key name", "") + "\n" +
					"kube_oidc_client_secret: " + w("group_vars *secret* (word)") + "\n" +
					"nested:\n  deeper:\n    - {name: x, registry_token: " + s("group_vars nested dict token", "") + "}\n" +
					"vaulted: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + s("group_vars !vault string", "") + "\n" +
					"download_url: https://dl:" + s("group_vars URL userinfo in a plain variable", "") + "@dl.example/x\n",
				"inv/host_vars/n1.yml": "registry_password: " + yq(s("host_vars registry_password", " :@'")) + "\n" +
					"kube_vip_bgp_peerpass: " + g.number("host_vars a number under a secret name") + "\n" +
					"vault_blob: \"$ANSIBLE_VAULT;1.1;AES256\\n" + s("host_vars $ANSIBLE_VAULT string", "") + "\"\n",
			})
			inv := filepath.Join(dir, "inv", "hosts.yml")
			vars := []string{"kube_vip_bgp_peerpass", "ansible_become_password", "http_proxy", "https_proxy", "containerd_registry_auth", "kube_encryption_key",
				"kube_oidc_client_secret", "nested", "vaulted", "download_url", "registry_password", "vault_blob", "kube_encrypt_secret_data", "etcd_peer_key"}
			e1 := "registry_password=" + s("-e key=value", ":@")
			e3 := "hcloud_api_token=" + w("-e key=value (word)")
			e2 := `{"registry_password": "` + s("-e malformed JSON", ":@") + `", "x": [`
			var runs [][]string
			for _, js := range []bool{false, true} {
				k := func(a ...string) []string {
					out := append(append([]string{"kubespray"}, a...), "--kubespray", dir)
					if js {
						out = append(out, "--json")
					}
					return out
				}
				runs = append(runs, k(append(append([]string{"explain"}, vars...), "hcloud_api_token", "--host", "n1", "-i", inv, "-e", e1, "-e", e3)...),
					k("explain", "registry_password", "--host", "n1", "-i", inv, "-e", e2),
					k("where", "registry_password"), k("where", "http_proxy"))
			}
			return runs
		}},
	}, append(append(helmMatrixCases(), contentMatrixCases()...), splitMatrixCases()...)...)
}

// matrixResult runs one case under one generator: its runs and outputs.
func matrixResult(t *testing.T, c matrixCase, seed int64, words bool) (*matrixGen, []matrixRun) {
	g := &matrixGen{r: rand.New(rand.NewSource(seed)), words: words}
	dir := t.TempDir()
	cmds := c.build(t, g, dir)
	var runs []matrixRun
	for _, a := range cmds {
		code, out, errOut := runCLI(a...)
		// Paths hold the temporary folder, which differs between the two variants.
		out, errOut = strings.ReplaceAll(out, dir, "DIR"), strings.ReplaceAll(errOut, dir, "DIR")
		runs = append(runs, matrixRun{args: a, code: code, out: out, errOut: errOut})
	}
	return g, runs
}

// leaks lists where a place's secret (or an 8-byte piece of a chunk) is in an output.
func leaks(p *matrixPlace, runs []matrixRun) []string {
	var where []string
	for _, r := range runs {
		for _, o := range []struct{ name, s string }{{"stdout", r.out}, {"stderr", r.errOut}} {
			if hit := leakIn(p, o.s); hit != "" {
				where = append(where, fmt.Sprintf("%s of `k3sconf %s`: %q", o.name, strings.Join(r.args, " "), hit))
			}
		}
	}
	return where
}

func leakIn(p *matrixPlace, s string) string {
	for _, f := range p.forms {
		for i := 0; i+16 <= len(f); i += 4 {
			if j := strings.Index(s, f[i:i+16]); j >= 0 {
				return s[max(0, j-40):min(len(s), j+48)]
			}
		}
	}
	for _, c := range p.chunks {
		for i := 0; i+8 <= len(c); i++ {
			if j := strings.Index(s, c[i:i+8]); j >= 0 {
				return s[max(0, j-40):min(len(s), j+48)]
			}
		}
	}
	return ""
}

func TestSecretMatrix(t *testing.T) {
	n, seed := 1, int64(19)
	if v, err := strconv.Atoi(os.Getenv("K3SCONF_SECRET_MATRIX")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv("K3SCONF_SECRET_MATRIX_SEED"), 10, 64); err == nil {
		seed = v
	}
	// K3SCONF_SECRET_MATRIX_CASE (a regular expression) runs only the cases it matches.
	var only *regexp.Regexp
	if v := os.Getenv("K3SCONF_SECRET_MATRIX_CASE"); v != "" {
		only = regexp.MustCompile(v)
	}
	places, leaking, unreached, differ := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		for ci, c := range matrixCases() {
			if only != nil && !only.MatchString(c.name) {
				continue
			}
			s := (seed+int64(i))*100 + int64(ci)
			g, runs := matrixResult(t, c, s, false)
			for _, r := range runs {
				// A malformed -e is a usage error by design: its stderr is the place.
				if r.code == exitUsage && !strings.Contains(strings.Join(r.args, " "), `"x": [`) {
					t.Errorf("seed %d %s: `k3sconf %s` is a usage error (it tests nothing): %s", s, c.name, strings.Join(r.args, " "), r.errOut)
				}
			}
			for _, p := range g.places {
				places++
				if w := leaks(p, runs); len(w) > 0 {
					leaking++
					t.Errorf("seed %d %s: %s leaks %q in %d outputs, e.g. %s", s, c.name, p.id, p.secret, len(w), w[0])
				}
			}
			// Every place is reached: with --show-secrets its secret is in some output.
			var shown []matrixRun
			for _, r := range runs {
				a := append([]string{"--show-secrets"}, r.args...)
				if r.args[0] == "fleet" || r.args[0] == "kubespray" {
					a = append(append([]string{r.args[0]}, r.args[1:]...), "--show-secrets")
				}
				code, out, errOut := runCLI(a...)
				shown = append(shown, matrixRun{args: a, code: code, out: out, errOut: errOut})
			}
			for _, p := range g.places {
				if len(leaks(p, shown)) == 0 && len(p.chunks) > 0 && !silentPlaces[p.id] {
					unreached++
					t.Errorf("seed %d %s: %s: its secret %q is in no output even with --show-secrets: the place tests nothing", s, c.name, p.id, p.secret)
				}
			}
			// The word variant: the same node with common words in the word places gives the
			// same outputs.
			hasWord := false
			for _, p := range g.places {
				hasWord = hasWord || p.word
			}
			if !hasWord {
				continue
			}
			gw, wruns := matrixResult(t, c, s, true)
			var words []string
			for _, p := range gw.places {
				if p.word {
					words = append(words, p.id+"="+p.secret)
				}
			}
			sort.Strings(words)
			for j := range runs {
				if slices.Contains(runs[j].args, "--secret-salt") {
					continue // a fingerprint of a secret depends on it by design
				}
				for _, o := range []struct{ name, a, b string }{{"stdout", colless(runs[j].out), colless(wruns[j].out)}, {"stderr", colless(runs[j].errOut), colless(wruns[j].errOut)}} {
					if o.a != o.b {
						differ++
						t.Errorf("seed %d %s: %s of `k3sconf %s` depends on the secrets' values (%s):\n%s", s, c.name, o.name,
							strings.Join(runs[j].args, " "), strings.Join(words, ", "), firstDiff(o.a, o.b))
					}
				}
			}
		}
	}
	t.Logf("secret matrix: %d seeds, %d places, %d leaking, %d unreached, %d outputs depending on a word secret", n, places, leaking, unreached, differ)
}

// colless drops column numbers: a position after a secret on its line moves with the
// secret's length, which differs between a random secret and a word.
func colless(s string) string {
	return columnRE.ReplaceAllString(jsonColumnRE.ReplaceAllString(s, `"column":C`), ":$1:C")
}

var columnRE, jsonColumnRE = regexp.MustCompile(`:(\d+):\d+`), regexp.MustCompile(`"column":\d+`)

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("  random: %q\n  words:  %q", x, y)
		}
	}
	return ""
}

// TestSecretMatrixTypes: in the kubespray case a switch under a secret-ish name is shown
// as it is, typed, and a redacted number keeps its type.
func TestSecretMatrixTypes(t *testing.T) {
	var c matrixCase
	for _, mc := range matrixCases() {
		if mc.name == "kubespray" {
			c = mc
		}
	}
	_, runs := matrixResult(t, c, 1, false)
	text, js := runs[0].out, runs[4].out
	for _, want := range []string{"kube_encrypt_secret_data = True  (bool)", "kube_vip_bgp_peerpass = 'REDACTED'  (int)",
		"etcd_peer_key = '{{ etcd_cert_dir }}/node-key.pem'  (str)"} {
		if !strings.Contains(text, want) {
			t.Errorf("kubespray explain text lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{`"kube_encrypt_secret_data":{"value":true,"type":"bool"`, `"kube_vip_bgp_peerpass":{"value":"REDACTED","type":"int"`} {
		if !strings.Contains(js, want) {
			t.Errorf("kubespray explain --json lacks %s:\n%.300s", want, js)
		}
	}
}
