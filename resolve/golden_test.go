package resolve_test

// Golden scenarios: each testdata/scenarios/*.txtar archive is one node. The archive comment
// holds a one-line description followed by options, one per line:
//
//	command: agent              resolve.Options.Command
//	version: v1.30.5+k3s1       resolve.Options.Version
//	unit: /etc/systemd/system/x resolve.Options.Unit
//	config: /path               resolve.Options.Config
//	args: server --debug        resolve.Options.Args, split on white space
//	explain: key1 key2          keys rendered into want/explain.txt
//	products: k3s rke2          also resolve the node as an RKE2 node (paths, unit names and
//	                            K3S_ variables translated) and compare with want/rke2/*
//
// Files named node/<path> are the node's files, loaded at /<path>. The expected outputs
// are want/show.json (the JSON document, secrets redacted), want/explain.txt and
// want/check.txt. `go test ./resolve -run Golden -update` rewrites them.
//
// This is an external test package because report imports resolve.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/golden"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata/scenarios/*.txtar")

const scenarioGlob = "../testdata/scenarios/*.txtar"

// The want/ files, in the order they are written back into an archive.
const (
	wantCheck   = "want/check.txt"
	wantExplain = "want/explain.txt"
	wantShow    = "want/show.json"
)

var wantOrder = []string{wantCheck, wantExplain, wantShow,
	"want/rke2/" + strings.TrimPrefix(wantCheck, "want/"),
	"want/rke2/" + strings.TrimPrefix(wantExplain, "want/"),
	"want/rke2/" + strings.TrimPrefix(wantShow, "want/")}

// toRKE2 translates a k3s node into the RKE2 node that behaves the same wherever the two
// products share code (configfilearg, urfave/cli): RKE2's paths, unit names and variables.
var toRKE2 = strings.NewReplacer(
	"/etc/rancher/k3s", "/etc/rancher/rke2",
	"k3s-agent.service", "rke2-agent.service",
	"k3s.service", "rke2-server.service",
	"/usr/local/bin/k3s", "/usr/local/bin/rke2",
	"K3S_", "RKE2_",
)

// scenario is an archive split into what to resolve and what to expect.
type scenario struct {
	description string
	opts        resolve.Options
	explain     []string
	nodeFiles   []txtar.File
	// rke2 is the same node translated for RKE2, when the scenario asks for it.
	rke2 *resolve.Options
}

func TestGolden(t *testing.T) {
	golden.Archives(t, scenarioGlob, runScenario)
}

func runScenario(t *testing.T, path string, ar *txtar.Archive) {
	sc, err := parseScenario(ar)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	got, err := render(sc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// Resolving the same node again must give the same bytes: no map order, no temp paths.
	again, err := render(sc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, f := range wantOrder {
		if got[f] != again[f] {
			t.Errorf("%s: %s is not deterministic: mismatch (-first +second):\n%s", path, f, cmp.Diff(got[f], again[f]))
		}
	}

	golden.Check(t, path, ar, sc.nodeFiles, got, wantOrder, *update, sc.description, "go test ./resolve -run Golden -update")
}

// parseScenario reads the comment options and the node files.
func parseScenario(ar *txtar.Archive) (*scenario, error) {
	sc := &scenario{}
	lines := strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return nil, fmt.Errorf("the archive comment must start with a one-line description")
	}
	sc.description = strings.TrimSpace(lines[0])
	for i, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			// Further description text.
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "command":
			sc.opts.Command = val
		case "version":
			sc.opts.Version = val
		case "unit":
			sc.opts.Unit = val
		case "config":
			sc.opts.Config = val
		case "args":
			sc.opts.Args = strings.Fields(val)
			if sc.opts.Args == nil {
				sc.opts.Args = []string{}
			}
		case "explain":
			sc.explain = strings.Fields(val)
		case "products":
			for _, p := range strings.Fields(val) {
				if p == "rke2" {
					sc.rke2 = &resolve.Options{}
				} else if p != "k3s" {
					return nil, fmt.Errorf("comment line %d: unknown product %q", i+2, p)
				}
			}
		default:
			return nil, fmt.Errorf("comment line %d: unknown option %q (want command, version, unit, config, args, explain or products)", i+2, key)
		}
	}
	if err := golden.CheckNames(ar, "node/", "want/"); err != nil {
		return nil, err
	}
	fs, nodeFiles, err := golden.LoadFiles(ar, "node/")
	if err != nil {
		return nil, err
	}
	sc.opts.FS, sc.nodeFiles = fs, nodeFiles
	if sc.rke2 != nil {
		o := sc.opts
		o.Unit, o.Config = toRKE2.Replace(o.Unit), toRKE2.Replace(o.Config)
		rfs := afero.NewMemMapFs()
		for _, f := range sc.nodeFiles {
			rel := strings.TrimPrefix(f.Name, "node/")
			if err := afero.WriteFile(rfs, toRKE2.Replace("/"+rel), []byte(toRKE2.Replace(string(f.Data))), 0o644); err != nil {
				return nil, err
			}
		}
		o.FS = rfs
		sc.rke2 = &o
	}
	return sc, nil
}

// render resolves the node (and its RKE2 translation) and renders every expectation the
// scenario asks for.
func render(sc *scenario) (map[string]string, error) {
	out, err := renderOne(sc, sc.opts, "want/")
	if err != nil || sc.rke2 == nil {
		return out, err
	}
	r, err := renderOne(sc, *sc.rke2, "want/rke2/")
	for k, v := range r {
		out[k] = v
	}
	return out, err
}

func renderOne(sc *scenario, opts resolve.Options, prefix string) (map[string]string, error) {
	res, err := resolve.Resolve(opts)
	if err != nil {
		return nil, err
	}
	name := func(f string) string { return prefix + strings.TrimPrefix(f, "want/") }
	red := report.NewRedactor(res, false)
	out := map[string]string{}

	js, err := json.MarshalIndent(nodereport.JSON(res, red), "", "  ")
	if err != nil {
		return nil, err
	}
	out[name(wantShow)] = string(js) + "\n"

	var b bytes.Buffer
	nodereport.Check(&b, res, red)
	out[name(wantCheck)] = b.String()

	if len(sc.explain) > 0 {
		b.Reset()
		for i, name := range sc.explain {
			k := res.Key(name)
			if i > 0 {
				b.WriteString("\n")
			}
			if k == nil && prefix != "want/" {
				// The translated node may lack a flag the product dropped (RKE2 has no
				// cluster-init); say so, as explain does for an unknown key.
				fmt.Fprintf(&b, "%s %s has no flag %q\n", res.Product, res.Command, name)
				nodereport.ExplainStray(&b, res, name, red)
				continue
			}
			if k == nil {
				return nil, fmt.Errorf("explain: %s %s has no key %q", res.Product, res.Command, name)
			}
			nodereport.Explain(&b, res, k, red)
		}
		out[name(wantExplain)] = b.String()
	}
	return out, nil
}
