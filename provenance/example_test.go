package provenance_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/provenance"
)

// An entry whose config-file value lost to the command line: every face reads the same
// fields.
func Example() {
	type assignment = provenance.Assignment[string]
	cfg := &assignment{Source: provenance.Source{Kind: "config", Pos: provenance.Position{File: "/etc/rancher/k3s/config.yaml", Line: 2, Column: 24}},
		Value: "0600", Outcome: provenance.Overridden, Reason: "overridden by --write-kubeconfig-mode"}
	cli := &assignment{Source: provenance.Source{Kind: "cli", Pos: provenance.Position{File: "/etc/systemd/system/k3s.service", Line: 31, Column: 2}},
		Value: "644", Outcome: provenance.Applied}
	e := provenance.Entry[assignment]{Name: "write-kubeconfig-mode", Value: "644", Source: cli, History: []*assignment{cfg, cli}}

	fmt.Println(e.Name, "=", e.Value, "from", e.Source.Kind, e.Source.Pos)
	for _, a := range e.History {
		fmt.Println(" ", a.Outcome, a.Source, a.Value)
	}
	// Output:
	// write-kubeconfig-mode = 644 from cli /etc/systemd/system/k3s.service:31:2
	//   overridden config /etc/rancher/k3s/config.yaml:2:24 0600
	//   applied cli /etc/systemd/system/k3s.service:31:2 644
}
