package main

import (
	"io"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// runCheck prints every finding about the node: the resolver's, the components' (servers)
// and status's where the running process can be inspected (this machine, or --node-json).
// Exit 1 on errors (--strict: on warnings too), 3 when a node file cannot be read.
func runCheck(g globals, res *resolve.Result, red *output.Redactor, stdout, stderr io.Writer, code int) int {
	var st *live.Status
	if isLiveRoot(g.root) || g.nodeJSON != "" {
		s, err := inspectLive(g, res)
		if err == nil {
			st = s
		}
		code = worst(code, nodeJSONCode(stderr, g, err))
	}
	all := findings.All(k3sconf.Node(g.root), res, st, g.root)
	c := checkCode(all, g.strict, code)
	if g.json {
		return writeJSON(stdout, stderr, nodereport.CheckJSON(res, all, red), c)
	}
	nodereport.CheckFindings(stdout, res, all, red)
	return c
}

// checkCode: 1 on an error finding (--strict: a warning too), combined with the node's code
// (a refusal is already 1; an incomplete report stays 3).
func checkCode(all []diag.Diagnostic, strict bool, code int) int {
	for _, d := range all {
		if d.Severity == diag.Error || (strict && d.Severity == diag.Warning) {
			return worst(code, exitProblem)
		}
	}
	return code
}
