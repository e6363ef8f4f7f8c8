package main

import (
	"io"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/findings"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// runCheck prints every finding about the node: the resolver's, the components' (servers)
// and status's where the running process can be inspected (this machine, or --node-json).
// Exit 1 on errors (--strict: on warnings too), 3 when a node file cannot be read.
func runCheck(g globals, res *resolve.Result, red *report.Redactor, stdout, stderr io.Writer, code int) int {
	var st *live.Status
	if isLiveRoot(g.root) || g.nodeJSON != "" {
		if s, err := inspectLive(g, res); err == nil {
			st = s
		}
	}
	all := findings.All(k3sconf.Node(g.root), res, st, g.root)
	if g.json {
		return writeJSON(stdout, stderr, map[string]any{"diagnostics": report.Diagnostics(all, red), "error": red.Scrub(res.Error)}, checkCode(res, all, g.strict, code))
	}
	report.CheckFindings(stdout, res, all, red)
	return checkCode(res, all, g.strict, code)
}

func checkCode(res *resolve.Result, all []diag.Diagnostic, strict bool, code int) int {
	if code == exitInput {
		return code
	}
	for _, d := range all {
		if d.Severity == diag.Error || (strict && d.Severity == diag.Warning) {
			return exitProblem
		}
	}
	if res.Error != "" {
		return exitProblem
	}
	return exitOK
}
