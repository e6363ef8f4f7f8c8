package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/internal/fleetreport"
	"github.com/k3sconf/k3sconf/internal/noderecord"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// runFleet implements `k3sconf fleet INPUT…`; paths are the inputs named, g the flags.
func runFleet(paths []string, g globals, stdout, stderr io.Writer) int {
	nodesJSON, salt, asJSON, version := &g.nodesJSON, &g.secretSalt, &g.json, &g.version
	if *nodesJSON == "" && len(paths) == 0 {
		fmt.Fprintf(stderr, "k3sconf fleet: give --nodes-json FILE, node folders or show documents (k3sconf fleet --help)\n")
		return exitUsage
	}
	if *version != "" {
		if _, err := profile.K3s().Behaviour(*version); err != nil {
			fmt.Fprintf(stderr, "k3sconf fleet: --k3s-version: %v (k3sconf fleet --help)\n", err)
			return exitUsage
		}
	}
	l := &fleet.Loader{Salt: *salt, Version: *version}
	var nodes []*fleet.Node
	var bad []fleet.InputError
	if *nodesJSON != "" {
		// A stream is documented here: - and <(kubectl get nodes -o json).
		data, err := rootfs.ReadArg(*nodesJSON, true)
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
		return writeJSON(stdout, stderr, fleetreport.JSON(rep), code)
	}
	fleetreport.Text(stdout, rep)
	return code
}

// showFleet is the fleet block `show --json --secret-salt` adds: secret fingerprints and
// the node's name. Without a salt there is none.
func showFleet(g globals, res *resolve.Result) *nodereport.FleetDoc {
	if g.secretSalt == "" {
		return nil
	}
	f := &nodereport.FleetDoc{SaltID: nodereport.SaltID(g.secretSalt), Fingerprints: nodereport.SecretFingerprints(res, g.secretSalt)}
	if res.Command == "server" || res.Command == "agent" {
		node := k3sconf.Node(g.root)
		id := identity.Derive(node, res, g.root)
		f.NodeName, f.NodeNameFrom = id.Name, id.BaseFrom
		if k := res.Key("node-name"); id.BaseFrom == identity.FromNodeName && !g.showSecrets && noderecord.SecretCopy(k) {
			// node-name copies a secret (a YAML alias): the name is the secret.
			f.NodeName = output.Redacted
		}
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
