package main

import (
	"fmt"
	"io"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/internal/componentsreport"
	"github.com/k3sconf/k3sconf/internal/identityreport"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// runComponents prints the server's packaged components and user AddOns. Exit codes as for
// check: 1 on error findings (--strict: warnings too) or a refused node, 3 when a node file
// or the manifests folder cannot be read.
func runComponents(g globals, res *resolve.Result, red *output.Redactor, stdout, stderr io.Writer) int {
	rep := components.Inspect(k3sconf.Node(g.root), res)
	code := nodeCode(res)
	for _, d := range rep.Diagnostics {
		if d.Severity == diag.Error || (g.strict && d.Severity == diag.Warning) {
			code = worst(code, exitProblem)
		}
	}
	if rep.Incomplete {
		code = exitInput
	}
	if g.json {
		return writeJSON(stdout, stderr, componentsreport.JSON(rep, red), code)
	}
	componentsreport.Text(stdout, rep, red)
	return code
}

// explainNodeName adds the node identity to `explain node-name`: the name k3s registers,
// the files behind it, and the node-password rule.
func explainNodeName(w io.Writer, res *resolve.Result, root string, red *output.Redactor) {
	if res.Command != "server" && res.Command != "agent" {
		return
	}
	fmt.Fprintln(w)
	identityreport.Write(w, identityreport.Redact(identity.Derive(k3sconf.Node(root), res, root), red))
}

// nodeNameJSON is the identity for `explain node-name --json`.
func nodeNameJSON(res *resolve.Result, root string, red *output.Redactor) any {
	if res.Command != "server" && res.Command != "agent" {
		return nil
	}
	return identityreport.JSON(identityreport.Redact(identity.Derive(k3sconf.Node(root), res, root), red))
}
