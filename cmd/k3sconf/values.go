package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/internal/chartsreport"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// runValues prints the values of one HelmChart (docs/values.md). Exit 1 on error findings
// (--strict: warnings too), an unknown chart or path, or a refused node; 3 when --chart,
// --objects or a node file cannot be read.
func runValues(g globals, res *resolve.Result, red *output.Redactor, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if res.Command != "server" {
		fmt.Fprintf(stderr, "k3sconf values: %s %s runs no Helm controller; HelmCharts are installed by servers (use --command server)\n", res.Product, res.Command)
		return exitUsage
	}
	o := charts.Options{Node: k3sconf.Node(g.root), Res: res, Name: args[0], Namespace: g.namespace}
	o.Helm, o.HelmBinary = g.helm, g.render
	if _, ok := charts.HelmJobs[o.Helm]; !ok && o.Helm != "" {
		fmt.Fprintf(stderr, "k3sconf values: --helm %q: give 4 (Helm v4.1.4), 3 (v3.20.2), 3.19.5 (v3.19.5) or 3.19 (v3.19.0)\n", g.helm)
		return exitUsage
	}
	code := nodeCode(res)
	read := func(name string) ([]byte, bool) {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(io.LimitReader(stdin, rootfs.MaxHostFile+1))
			if err == nil && len(data) > rootfs.MaxHostFile {
				err = fmt.Errorf("standard input is more than k3sconf's limit of %d bytes", rootfs.MaxHostFile)
			}
		} else {
			data, err = rootfs.ReadHostFile(name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "k3sconf values: %s\n", red.Scrub(err.Error()))
			return nil, false
		}
		return data, true
	}
	if g.chart != "" {
		data, ok := read(g.chart)
		if !ok {
			return exitInput
		}
		o.ChartFile, o.ChartData = g.chart, data
	}
	if g.objects != "" {
		data, ok := read(g.objects)
		if !ok {
			return exitInput
		}
		o.ObjectsFile, o.ObjectsData = g.objects, data
	}
	rep, err := charts.Inspect(o)
	if err != nil {
		fmt.Fprintf(stderr, "k3sconf values: %s\n", red.Scrub(err.Error()))
		if nf, ok := err.(*charts.NotFoundError); ok && len(nf.Known) > 0 {
			fmt.Fprintf(stderr, "  HelmCharts: %s\n", strings.Join(nf.Known, ", "))
		}
		return worst(code, exitProblem)
	}
	if len(args) > 1 {
		keep, unknown := filterPaths(rep.Result.Leaves, args[1:])
		for _, u := range unknown {
			fmt.Fprintf(stderr, "k3sconf values: %s has no value %s%s\n", rep.Name, u.path, didYouMeanText(u.guess))
			code = worst(code, exitProblem)
		}
		rep.Result.Leaves = keep
	}
	for _, d := range rep.Diagnostics {
		if d.Severity == diag.Error || (g.strict && d.Severity == diag.Warning) {
			code = worst(code, exitProblem)
		}
	}
	if rep.Incomplete {
		code = worst(code, exitInput)
	}
	all := g.all || len(args) > 1
	if g.json {
		return writeJSON(stdout, stderr, chartsreport.JSON(rep, nodereport.EnvelopeOf(res, "values"), red, all), code)
	}
	chartsreport.Text(stdout, rep, red, all)
	return code
}

type unknownPath struct{ path, guess string }

// filterPaths keeps the leaves at or under the paths asked for.
func filterPaths(leaves []*values.Leaf, paths []string) ([]*values.Leaf, []unknownPath) {
	var keep []*values.Leaf
	var unknown []unknownPath
	for _, p := range paths {
		found := false
		for _, l := range leaves {
			if l.Name == p || strings.HasPrefix(l.Name, p+".") {
				keep = append(keep, l)
				found = true
			}
		}
		if !found {
			best, bestD := "", 4
			for _, l := range leaves {
				if d := fuzzy.Distance(p, l.Name); d < bestD {
					best, bestD = l.Name, d
				}
			}
			unknown = append(unknown, unknownPath{p, best})
		}
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].Name < keep[j].Name })
	out := keep[:0]
	for i, l := range keep {
		if i == 0 || keep[i-1] != l {
			out = append(out, l)
		}
	}
	return out, unknown
}

// chartNames are the HelmCharts in the node's manifests folder, in --namespace, for the
// completion of `values CHART`; the paths after it are not completed.
func chartNames(g globals, args []string) []string {
	if len(args) > 0 {
		return nil
	}
	if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
		return nil
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(g.root), Command: "server", Unit: g.unit, Config: g.config, Version: g.version})
	if err != nil {
		return nil
	}
	ns := g.namespace
	if ns == "" {
		ns = "kube-system"
	}
	var out []string
	for _, o := range components.Inspect(k3sconf.Node(g.root), res).Helm {
		if o.Kind == "HelmChart" && o.Namespace == ns && !slices.Contains(out, o.Name) {
			out = append(out, o.Name)
		}
	}
	sort.Strings(out)
	return out
}
