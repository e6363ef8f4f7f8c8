package profile

import (
	_ "embed"
	"fmt"
	"sync"
)

var (
	//go:embed data/rke2-flags.tsv
	rke2FlagsTSV string
	//go:embed data/rke2-etcd-snapshot-flags.tsv
	rke2EtcdSnapshotFlagsTSV string

	rke2Once    sync.Once
	rke2Profile *Profile
	rke2Err     error
)

// RKE2 returns the profile of RKE2 (rancher/rke2@6ce1a8019e, which pins the k3s commit of
// the k3s profile; see data/rke2-README.md). It is built once, on first use.
func RKE2() *Profile {
	rke2Once.Do(func() { rke2Profile, rke2Err = buildRKE2() })
	if rke2Err != nil {
		panic(rke2Err)
	}
	return rke2Profile
}

// ByName returns the profile of a product: "k3s" or "rke2".
func ByName(name string) (*Profile, error) {
	switch name {
	case "k3s":
		return K3s(), nil
	case "rke2":
		return RKE2(), nil
	}
	return nil, fmt.Errorf("unknown product %q (want k3s or rke2)", name)
}

func buildRKE2() (*Profile, error) {
	p := &Profile{
		Name:          "rke2",
		Program:       "rke2",
		ConfigEnv:     "RKE2_CONFIG_FILE",
		EnvPrefix:     "RKE2",
		DefaultConfig: "/etc/rancher/rke2/config.yaml",
		// The same configfilearg.DefaultParser (rke2 main.go: MustParse(os.Args)).
		ConfigFlags: []string{"--config", "-c"},
		After:       []string{"server", "agent", "etcd-snapshot:1"},
		// Units ship in the tarball (bundle/lib/systemd/system/) and land in
		// /usr/local/lib/systemd/system, /etc/systemd/system with a tar prefix, or
		// /usr/lib/systemd/system from the RPM.
		Units:    map[string]string{"server": "rke2-server.service", "agent": "rke2-agent.service", "etcd-snapshot": "rke2-server.service"},
		UnitDirs: UnitDirs,
		// rke2's main.go runs app.Run(configfilearg.MustParse(os.Args)) directly: no wrapper.
		Wrapper: false,
		DataDir: "/var/lib/rancher/rke2",
		// get.rke2.io (rancher/rke2 install.sh): INSTALL_RKE2_TYPE=agent installs the agent;
		// both units ship with a fixed ExecStart (bundle/lib/systemd/system/rke2-*.service),
		// configured through config.yaml, never through installer arguments.
		AgentInstall:  "install with INSTALL_RKE2_TYPE=agent, put server: and token: in /etc/rancher/rke2/config.yaml, and run `systemctl enable --now rke2-agent.service` instead of rke2-server",
		ExecStartEdit: "`systemctl edit --full %s` (RKE2's installer writes no arguments there; use config.yaml)",
		Commands:      map[string]*Command{},
		// An RKE2 release vX.Y.Z builds on k3s vX.Y.Z, so the same releases switch CLI
		// library and get the missing-config fix.
		cliV2:            firstRelease{minor: 33, patches: map[int]int{32: 4, 31: 8}},
		missingConfigFix: firstRelease{minor: 31, patches: map[int]int{30: 3, 29: 7, 28: 12, 27: 16}},
		SecretEnv:        secretEnv("RKE2"),
	}
	// pkg/cli/cmds/{server,agent,etcd_snapshot}.go register ValidFlags for agent too, so an
	// RKE2 agent skips unknown config keys with a warning.
	if err := p.loadCatalog(rke2FlagsTSV, rke2EtcdSnapshotFlagsTSV, true); err != nil {
		return nil, err
	}
	// pkg/cli/cmds/agent.go: the wrapped k3s agent flags keep k3s's order, then RKE2's
	// commonFlag (the table's order) and the deprecated system-default-registry. pause-image
	// is dropped from k3s and re-added among commonFlag, so it keeps the table's place.
	var order []string
	for _, n := range k3sAgentOrder {
		if n != "pause-image" {
			order = append(order, n)
		}
	}
	p.Commands["agent"].reorder(order)
	// pkg/cli/cmds/root.go NewApp declares no app-level flags.
	p.RootFlags = nil
	return p, nil
}

// Product is what detection needs to know about a product without building its catalogs.
type Product struct {
	Name      string
	Units     []string
	ConfigDir string
}

// Products lists the products k3sconf knows, in the order detection prefers them. Building a
// profile parses its flag tables, so detection uses only this.
var Products = []Product{
	{Name: "k3s", Units: []string{"k3s.service", "k3s-agent.service"}, ConfigDir: "/etc/rancher/k3s"},
	{Name: "rke2", Units: []string{"rke2-server.service", "rke2-agent.service"}, ConfigDir: "/etc/rancher/rke2"},
}

// UnitDirs are systemd's unit directories, highest precedence first; both products use them.
var UnitDirs = []string{"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"}
