package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

const fleetUsage = `k3sconf fleet compares the nodes of one cluster as k3s compares a server that joins:
which server would be refused ("critical configuration value mismatch") and which flag to
change where, plus what differs with consequences (packaged components, tls-san, data
store, server URLs, tokens, releases, node names).

Usage:
  k3sconf fleet [--json] [--nodes-json FILE|-] [--secret-salt SALT] [INPUT…]

Inputs (any mix):
  --nodes-json FILE   kubectl get nodes -o json (- for standard input): each node's
                      k3s.io/node-args annotation, parsed as the node's release parses it
  FOLDER              a node's files, as --root takes them (a support bundle, a disk)
  FILE                a document written by k3sconf --json show --secret-salt SALT
                      (a folder of such documents counts as its documents)

Flags:
  --json              the report as JSON (schemaVersion 2, document "fleet")
  --secret-salt SALT  fingerprint the secrets of node folders with SALT, to compare them
                      with show documents made with the same salt
  --show-secrets      accepted for symmetry; fleet never prints a secret

Exit codes: 0 consistent, 1 a server would be refused or a release skew is unsupported
(any error finding), 2 usage, 3 some input (or a node folder's file) could not be read.

Examples:
  kubectl get nodes -o json | k3sconf fleet --nodes-json -
  k3sconf fleet ./bundles/server-1 ./bundles/server-2 ./bundles/agent-1
  k3sconf fleet --json ./collected/ | jq '.findings[] | select(.severity=="error")'
`

// runFleet implements `k3sconf fleet`; g holds the global flags given before it.
func runFleet(args []string, g globals, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fleet", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nodesJSON := fs.String("nodes-json", "", "")
	salt := fs.String("secret-salt", g.secretSalt, "")
	asJSON := fs.Bool("json", g.json, "")
	fs.Bool("show-secrets", g.showSecrets, "")
	var paths []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, fleetUsage)
				return exitOK
			}
			fmt.Fprintf(stderr, "k3sconf fleet: %v\n\n%s", err, fleetUsage)
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *nodesJSON == "" && len(paths) == 0 {
		fmt.Fprintf(stderr, "k3sconf fleet: give --nodes-json FILE, node folders or show documents\n\n%s", fleetUsage)
		return exitUsage
	}
	l := &fleet.Loader{Salt: *salt}
	var nodes []*fleet.Node
	var bad []fleet.InputError
	if *nodesJSON != "" {
		var data []byte
		var err error
		if *nodesJSON == "-" {
			data, err = io.ReadAll(os.Stdin)
		} else {
			data, err = os.ReadFile(*nodesJSON)
		}
		if err != nil {
			bad = append(bad, fleet.InputError{Input: *nodesJSON, Error: err.Error()})
		} else {
			n, e := l.Data(data, *nodesJSON)
			nodes, bad = append(nodes, n...), append(bad, e...)
		}
	}
	for _, p := range paths {
		n, e := l.Path(p)
		nodes, bad = append(nodes, n...), append(bad, e...)
	}
	rep := fleet.Analyze(nodes, bad)
	code := exitOK
	switch {
	case rep.Incomplete():
		code = exitInput
	case rep.Failed():
		code = exitProblem
	}
	if *asJSON {
		return writeJSON(stdout, stderr, rep.JSON(), code)
	}
	rep.Text(stdout)
	return code
}

// showFleet is the fleet block `show --json --secret-salt` adds: secret fingerprints and
// the node's name. Without a salt there is none.
func showFleet(g globals, res *resolve.Result) *report.FleetDoc {
	if g.secretSalt == "" {
		return nil
	}
	f := &report.FleetDoc{SaltID: report.SaltID(g.secretSalt), Fingerprints: report.SecretFingerprints(res, g.secretSalt)}
	if res.Command == "server" || res.Command == "agent" {
		node := k3sconf.Node(g.root)
		id := identity.Derive(node, res, g.root)
		f.NodeName, f.NodeNameFrom = id.Name, id.BaseFrom
		if id.BaseFrom != identity.FromNodeName {
			f.Hostname = id.Base
		} else if b, err := afero.ReadFile(node, "/etc/hostname"); err == nil {
			// The host name matters even behind a node-name (fleet's duplicate-hostname).
			f.Hostname = strings.TrimSpace(string(b))
		} else if isLiveRoot(g.root) {
			f.Hostname, _ = os.Hostname()
		}
	}
	return f
}
