package k3sconf_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/resolve"
)

// The program of docs/library.md (TestLibraryDoc keeps the two the same): the node, Helm,
// kubespray and fleet faces answer in one provenance model — an entry with its value, the
// assignment that won (Source) and every assignment with its outcome (History).
func Example_library() {
	// A k3s/RKE2 node: k3sconf.Node("/") is the machine, k3sconf.Node(dir) a copy of a
	// node's files; here, files in memory.
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service",
		[]byte("[Service]\nExecStart=/usr/local/bin/k3s server '--write-kubeconfig-mode' '644'\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml", []byte("write-kubeconfig-mode: \"0600\"\n"), 0o644)
	_ = afero.WriteFile(node, "/etc/rancher/k3s/config.yaml.d/10-mode.yaml", []byte("write-kubeconfig-mode: \"0640\"\n"), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: node}) // no Profile: detected (k3s here)
	if err != nil {
		panic(err) // bad Options only: the node's problems are in res.Error and its findings
	}
	k := res.Key("write-kubeconfig-mode")
	fmt.Println(k.Name(), "=", k.Value, "from", k.Source.Kind, k.Source.Pos)
	for _, a := range k.History {
		fmt.Println("  ", a.Outcome, a.Pos, a.Why()) // Why, not Reason: some reasons are rendered on demand
	}
	ds := findings.All(node, res, nil, "/") // what `k3sconf check` lists: a diag.Diagnostics
	fmt.Println("findings:", len(ds), "errors:", ds.HasErrors())

	// Helm values: one entry per leaf path.
	chart := &values.Chart{File: "traefik.tgz", Values: map[string]any{"logs": map[string]any{"level": "INFO"}}}
	hv := values.Compute(chart, values.Input{Major: 3, Layers: []values.Layer{{Kind: values.HelmChartConfigValuesContent,
		File: "traefik-config.yaml", Text: []byte("logs:\n  level: DEBUG\n"),
		Map: func(line, col int) (int, int) { return line + 7, col + 4 }}}}) // valuesContent starts at line 8, column 5
	for _, l := range hv.Leaves {
		fmt.Println(l.Name, "=", l.Value, "from", l.Source.Kind, l.Source.Pos)
	}

	// Ansible: a kubespray variable on one host.
	rep, err := kubespray.Explain(kubespray.Options{Dir: "kubespray/testdata/tree",
		Inventory: []string{"kubespray/testdata/inv/inventory.ini"}, Host: "node1", Vars: []string{"container_manager"}})
	if err != nil {
		panic(err)
	}
	v := rep.Vars[0].Var
	fmt.Println(v.Name, "=", v.Value, "from", v.Source.Kind, v.Source.Pos)

	// A fleet: servers compared as k3s compares them when one joins.
	var l fleet.Loader
	var nodes []*fleet.Node
	for _, dir := range []string{"examples/fleet/nodes/server-1", "examples/fleet/nodes/server-2"} {
		n, err := l.Folder(dir)
		if err != nil {
			panic(err)
		}
		nodes = append(nodes, n)
	}
	for _, f := range fleet.Analyze(nodes, nil).Findings {
		fmt.Println(f.Severity, f.Code, f.Nodes, f.Keys)
	}
	// Output:
	// write-kubeconfig-mode = 644 from cli /etc/systemd/system/k3s.service:2:37
	//    replaced /etc/rancher/k3s/config.yaml:1:24 replaced by write-kubeconfig-mode: at /etc/rancher/k3s/config.yaml.d/10-mode.yaml:1:24: a later config file wins
	//    overridden /etc/rancher/k3s/config.yaml.d/10-mode.yaml:1:24 overridden by --write-kubeconfig-mode at /etc/systemd/system/k3s.service:2:37: for a single-value flag the last occurrence wins; k3s puts config-file values before the command line, so the command line wins
	//    applied /etc/systemd/system/k3s.service:2:37 the last occurrence of a single-value flag wins
	// findings: 1 errors: false
	// logs.level = DEBUG from helmchartconfig-valuescontent traefik-config.yaml:9:7
	// container_manager = crio from group_vars kubespray/testdata/inv/group_vars/k8s_cluster/k8s-cluster.yml:3:1
	// error critical-mismatch [server-2 server-1] [disable]
}

// TestLibraryDoc: docs/library.md shows the body of Example_library, so the program the
// documentation teaches is one that compiles, runs and prints what its Output says.
func TestLibraryDoc(t *testing.T) {
	src, err := os.ReadFile("library_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(src), "func Example_library() {\n")
	body, _, ok2 := strings.Cut(body, "\t// Output:\n")
	if !ok || !ok2 {
		t.Fatal("Example_library not found")
	}
	want := strings.ReplaceAll("\n"+body, "\n\t", "\n")[1:]
	doc, err := os.ReadFile("docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```go\n")
	block, _, ok2 = strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatal("docs/library.md has no Go block")
	}
	if block != want {
		t.Errorf("docs/library.md's program is not Example_library's body (library_test.go); it should read:\n%s", want)
	}
}
