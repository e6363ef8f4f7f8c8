package nodereport_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/spf13/afero"
)

// TestRenderersReadOnlyRecords: the renderers of the node face never read a value, raw text
// or list item of an assignment or key themselves; they get them from internal/noderecord,
// the one redaction step, already through the redactor. The package is type-checked and
// every selection of such a field (resolve.Assignment's, provenance.Assignment's or
// provenance.Entry's Value, Raw and Items, resolve.Arg's Value) fails the test, but in
// fingerprint.go, which hashes secrets and never prints them.
func TestRenderersReadOnlyRecords(t *testing.T) {
	// The imports' export data, as the go command built them (cached: about a second).
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	if err != nil {
		t.Skipf("go list -export: %v", err)
	}
	export := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, f, ok := strings.Cut(l, "="); ok && f != "" {
			export[p] = f
		}
	}
	lookup := func(path string) (io.ReadCloser, error) {
		f, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}
	fset := token.NewFileSet()
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	if _, err := conf.Check("github.com/k3sconf/k3sconf/internal/nodereport", fset, files, info); err != nil {
		t.Fatal(err)
	}
	raw := map[string]bool{"Value": true, "Raw": true, "Items": true}
	found := 0
	for sel, s := range info.Selections {
		if s.Kind() != types.FieldVal || !raw[s.Obj().Name()] {
			continue
		}
		pkg := s.Obj().Pkg().Path()
		if !strings.HasSuffix(pkg, "/resolve") && !strings.HasSuffix(pkg, "/provenance") {
			continue
		}
		found++
		pos := fset.Position(sel.Pos())
		if pos.Filename == "fingerprint.go" {
			continue
		}
		t.Errorf("%s: a renderer reads %s.%s itself: take it from a noderecord record (redacted)", pos, s.Recv(), s.Obj().Name())
	}
	if found == 0 {
		t.Error("no raw value read at all, not even in fingerprint.go: the check sees nothing")
	}
}

// TestRedactionStepDecides: what the renderers print of a key's value, source and history
// is what the redaction step gave them. With the node's redactor no secret of the node
// reaches show, explain or the JSON document; with a step that lets values through (the
// redactor of --show-secrets) every one of them does, in each output, so the first half
// is not passing for want of the secrets reaching the renderers.
func TestRedactionStepDecides(t *testing.T) {
	node := afero.NewMemMapFs()
	write := func(name, text string) {
		if err := afero.WriteFile(node, name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("/etc/systemd/system/k3s.service", "[Service]\nEnvironment=K3S_TOKEN=envSecret7Qx\n"+
		"ExecStart=/usr/local/bin/k3s server --token cliSecret9Wz --kubelet-arg=registry-password=itemSecret3Pk\n")
	write("/etc/rancher/k3s/config.yaml", "token: cfgSecret4Mn\nagent-token: &a aliasSecret8Rt\nnode-label: [\"x=y\"]\n")
	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{"envSecret7Qx", "cliSecret9Wz", "itemSecret3Pk", "cfgSecret4Mn", "aliasSecret8Rt"}
	render := func(show bool) map[string]string {
		red := report.NewRedactor(res, show)
		var text, explain, js bytes.Buffer
		nodereport.Show(&text, res, red, true)
		for _, k := range []string{"token", "agent-token", "kubelet-arg"} {
			nodereport.Explain(&explain, res, res.Key(k), red)
		}
		if err := nodereport.StreamJSON(&js, res, red); err != nil {
			t.Fatal(err)
		}
		return map[string]string{"show": text.String(), "explain": explain.String(), "json": js.String()}
	}
	for name, out := range render(false) {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s prints %s with the redaction step in place", name, s)
			}
		}
	}
	shown := render(true)
	for _, s := range secrets {
		if !strings.Contains(shown["explain"]+shown["json"], s) {
			t.Errorf("%s reaches no renderer even without redaction: the test sees nothing of it", s)
		}
	}
}
