package profile

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

// FlagType is the urfave/cli flag type of a flag.
type FlagType string

const (
	String      FlagType = "string"
	Bool        FlagType = "bool"
	Int         FlagType = "int"
	Duration    FlagType = "duration"
	StringSlice FlagType = "stringslice"
)

// Flag is one flag of a command, as k3s declares it.
type Flag struct {
	Name    string
	Aliases []string
	Type    FlagType
	// Default is the urfave Value in its string form ("" when none, "false", "0", "10m0s").
	Default string
	// DefaultNote says how k3s computes a default at runtime when urfave has none
	// (e.g. cluster-cidr "10.42.0.0/16"); informational only.
	DefaultNote string
	EnvVars     []string
	Hidden      bool
	// Secret flags have their values redacted in every output unless asked for.
	Secret bool
	// Destination groups flags that share one Go variable in k3s (urfave Destination):
	// values set through either name accumulate in one list, visible under both.
	Destination string
	Usage       string
	Category    string
	// Critical flags must have the same value on every server: a server whose value
	// differs is refused when it joins ("critical configuration value mismatch",
	// pkg/daemons/config/types.go CriticalControlArgs).
	Critical bool
}

// Names returns the primary name followed by the aliases, as urfave's Names() does.
func (f *Flag) Names() []string { return append([]string{f.Name}, f.Aliases...) }

// Command is one k3s subcommand with its flags in declaration order.
type Command struct {
	Name  string
	Flags []*Flag
	// FiltersConfig is true when k3s drops config-file keys this command does not know
	// (configfilearg DefaultParser.ValidFlags has an entry for it); false means unknown keys
	// reach the CLI parser and are fatal.
	FiltersConfig bool
	// ConfigValid lists the names k3s accepts from the config file when FiltersConfig is
	// set (for k3s server, cmds.ServerFlags; for etcd-snapshot, cmds.EtcdSnapshotFlags).
	ConfigValid map[string]bool
	// Subcommands, for etcd-snapshot (save, delete, list, prune…); each gets the same flags.
	Subcommands []string
	// SkipArgReorder is set when the urfave/cli v1 command had SkipArgReorder: true, so v1
	// did not move flags in front of positional arguments (k3s v1-era
	// pkg/cli/cmds/etcd_snapshot.go sets it on etcd-snapshot and each subcommand).
	SkipArgReorder bool

	byName map[string]*Flag
}

// Lookup finds a flag by its name or an alias.
func (c *Command) Lookup(name string) *Flag { return c.byName[name] }

func (c *Command) index() {
	c.byName = make(map[string]*Flag)
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			c.byName[n] = f
		}
	}
}

// Profile is everything product-specific the resolver needs.
type Profile struct {
	// Name is "k3s" or "rke2".
	Name string
	// ConfigEnv names the variable that moves the config file (K3S_CONFIG_FILE).
	ConfigEnv string
	// EnvPrefix is version.ProgramUpper (K3S), the prefix of the flags' variables.
	EnvPrefix string
	// DefaultConfig is the config file used when nothing moves it.
	DefaultConfig string
	// ConfigFlags are the argv spellings findConfigFileFlag recognises.
	ConfigFlags []string
	// After lists the words after which config args are spliced; "etcd-snapshot:1" means
	// "and one more argument, the subcommand, when it does not start with '-'"
	// (pkg/configfilearg/defaultparser.go).
	After []string
	// Units maps a command to the systemd unit the installer writes for it.
	Units map[string]string
	// UnitDirs are searched in systemd's order of precedence, highest first.
	UnitDirs []string
	// envFilePattern is where install.sh writes the env file: %s is the unit path.
	envFilePattern string
	// RootFlags are the app-level flags accepted before the subcommand (cmds.NewApp).
	RootFlags []*Flag
	// Commands by name: server, agent, etcd-snapshot.
	Commands map[string]*Command
	// SecretEnv names environment variables whose values are secret.
	SecretEnv map[string]bool
	// Program is the binary name (k3s), used in messages and hints.
	Program string
	// Wrapper is true when the binary is k3s's multicall wrapper (cmd/k3s/main.go), which
	// reads the config for debug/data-dir and parses the command line before it execs the
	// real server or agent. RKE2's binary has no such wrapper.
	Wrapper bool
	// DataDir is the default data directory.
	DataDir string
	// AgentInstall says how the product's installer makes a node an agent, for fixes.
	AgentInstall string
	// ExecStartEdit says how to change the unit's ExecStart arguments the installer wrote,
	// for fixes; %s is the service name.
	ExecStartEdit string

	cliV2            firstRelease
	missingConfigFix firstRelease
}

// Command returns the named command, or nil.
func (p *Profile) Command(name string) *Command { return p.Commands[name] }

var (
	//go:embed data/k3s-flags.tsv
	k3sFlagsTSV string
	//go:embed data/k3s-etcd-snapshot-flags.tsv
	k3sEtcdSnapshotFlagsTSV string

	k3sOnce    sync.Once
	k3sProfile *Profile
	k3sErr     error
)

// K3s returns the profile of current k3s. It is built once, on first use, and must not be
// modified by callers.
func K3s() *Profile {
	k3sOnce.Do(func() { k3sProfile, k3sErr = buildK3s() })
	if k3sErr != nil {
		// The catalog is embedded; a failure here is a bug in the shipped data.
		panic(k3sErr)
	}
	return k3sProfile
}

// criticalFlags are the cli tags of k3s's CriticalControlArgs (pkg/daemons/config/types.go);
// `disable` is there because DisableServiceLB comes from disable: servicelb.
var criticalFlags = map[string]bool{
	"cluster-dns": true, "cluster-cidr": true, "cluster-domain": true, "disable-cloud-controller": true,
	"disable-helm-controller": true, "disable-network-policy": true, "disable": true,
	"secrets-encryption": true, "secrets-encryption-provider": true, "embedded-registry": true,
	"flannel-backend": true, "flannel-ipv6-masq": true, "flannel-external-ip": true,
	"egress-selector-mode": true, "service-cidr": true, "supervisor-metrics": true,
}

// secretFlags are the flags whose values must never be printed unless asked for.
var secretFlags = map[string]bool{
	"token": true, "cluster-secret": true, "agent-token": true, "datastore-endpoint": true, "vpn-auth": true,
	"etcd-s3-access-key": true, "etcd-s3-secret-key": true, "etcd-s3-session-token": true,
	"s3-access-key": true, "s3-secret-key": true, "s3-session-token": true, "etcd-token": true,
}

// k3sSharedDestinations: pkg/cli/cmds/server.go declares the deprecated aliases with the same
// Destination as their replacements (ServerConfig.ExtraControllerArgs and
// ServerConfig.ExtraCloudControllerArgs).
var sharedDestinations = map[string]string{
	"kube-controller-manager-arg":       "kube-controller-manager-arg",
	"kube-controller-arg":               "kube-controller-manager-arg",
	"kube-cloud-controller-manager-arg": "kube-cloud-controller-manager-arg",
	"kube-cloud-controller-arg":         "kube-cloud-controller-manager-arg",
}

func buildK3s() (*Profile, error) {
	p := &Profile{
		Name:           "k3s",
		Program:        "k3s",
		ConfigEnv:      "K3S_CONFIG_FILE",
		EnvPrefix:      "K3S",
		DefaultConfig:  "/etc/rancher/k3s/config.yaml",
		ConfigFlags:    []string{"--config", "-c"},
		After:          []string{"server", "agent", "etcd-snapshot:1"},
		Units:          map[string]string{"server": "k3s.service", "agent": "k3s-agent.service", "etcd-snapshot": "k3s.service"},
		UnitDirs:       UnitDirs,
		envFilePattern: "%s.env",
		Wrapper:        true,
		DataDir:        "/var/lib/rancher/k3s",
		Commands:       map[string]*Command{},
		// get.k3s.io (k3s-io/k3s install.sh): K3S_URL set and no command means agent, and
		// the unit is k3s-agent.service; INSTALL_K3S_EXEC and the script's arguments become
		// ExecStart's arguments.
		AgentInstall:  "re-run the install script with K3S_URL and K3S_TOKEN set and no `server` command, which installs k3s-agent.service",
		ExecStartEdit: "re-run the install script without it in INSTALL_K3S_EXEC and its arguments, or `systemctl edit --full %s`",
		// urfave/cli v2: k3s-io/k3s PR #11831 (ac38633c7, main 2025-03-12, so all of v1.33),
		// backported as #12031 (release-1.32, first in v1.32.4+k3s1) and #12030
		// (release-1.31, listed in the v1.31.8+k3s1 release notes).
		cliV2: firstRelease{minor: 33, patches: map[int]int{32: 4, 31: 8}},
		// e51494002 (2024-07-29, PR #10591 in v1.31.0+k3s1; backports #10596 in v1.30.3+k3s1,
		// #10597 in v1.29.7+k3s1, #10598 in v1.28.12+k3s1 and #10599 in v1.27.16+k3s1, each
		// validated on its -rc2 in k3s-io/k3s#10592-#10595).
		missingConfigFix: firstRelease{minor: 31, patches: map[int]int{30: 3, 29: 7, 28: 12, 27: 16}},
		SecretEnv:        secretEnv("K3S"),
	}
	if err := p.loadCatalog(k3sFlagsTSV, k3sEtcdSnapshotFlagsTSV, false); err != nil {
		return nil, err
	}
	p.Commands["agent"].reorder(k3sAgentOrder)
	// cmds.NewApp (pkg/cli/cmds/root.go): --debug and --data-dir/-d before the subcommand.
	p.RootFlags = []*Flag{
		{Name: "debug", Type: Bool, Default: "false", EnvVars: []string{"K3S_DEBUG"}},
		{Name: "data-dir", Aliases: []string{"d"}, Type: String, EnvVars: []string{"K3S_DATA_DIR"}},
	}
	return p, nil
}

// k3sAgentOrder is the declaration order of k3s agent's flags (pkg/cli/cmds/agent.go
// NewAgentCommand); the table lists them in server order. urfave applies environment
// variables and checks "two forms of the same flag" in declaration order, so the order
// decides which error an agent reports first.
var k3sAgentOrder = []string{"config", "debug", "v", "vmodule", "log", "alsologtostderr", "token",
	"token-file", "server", "data-dir", "node-name", "with-node-id", "node-label", "node-taint",
	"image-credential-provider-bin-dir", "image-credential-provider-config", "selinux",
	"lb-server-port", "protect-kernel-defaults", "container-runtime-endpoint", "default-runtime",
	"image-service-endpoint", "pause-image", "snapshotter", "private-registry",
	"disable-default-registry-endpoint", "nonroot-devices", "airgap-extra-registry", "node-ip",
	"bind-address", "node-external-ip", "node-internal-dns", "node-external-dns", "resolv-conf",
	"flannel-iface", "flannel-conf", "flannel-cni-conf", "kubelet-arg", "kube-proxy-arg",
	"enable-pprof", "rootless", "prefer-bundled-bin", "docker", "vpn-auth", "vpn-auth-file",
	"disable-apiserver-lb"}

// reorder puts the flags in the given order; flags not named keep their place after them.
func (c *Command) reorder(names []string) {
	pos := make(map[string]int, len(names))
	for i, n := range names {
		pos[n] = i
	}
	sort.SliceStable(c.Flags, func(i, j int) bool {
		pi, iok := pos[c.Flags[i].Name]
		pj, jok := pos[c.Flags[j].Name]
		switch {
		case iok && jok:
			return pi < pj
		case iok != jok:
			return iok
		}
		return false
	})
}

// secretEnv lists the variables whose values are secret, for a product's prefix.
func secretEnv(prefix string) map[string]bool {
	return map[string]bool{
		prefix + "_TOKEN": true, prefix + "_AGENT_TOKEN": true, prefix + "_DATASTORE_ENDPOINT": true,
		prefix + "_VPN_AUTH": true, prefix + "_CLUSTER_SECRET": true,
		"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true,
	}
}

// loadCatalog builds server, agent and etcd-snapshot from the flag tables. agentFilters is
// set for products that register the agent's flags in configfilearg's ValidFlags (RKE2).
func (p *Profile) loadCatalog(flagsTSV, snapshotTSV string, agentFilters bool) error {
	rows, err := tsv.Parse(flagsTSV)
	if err != nil {
		return fmt.Errorf("%s flags: %w", p.Name, err)
	}
	server := &Command{Name: "server", FiltersConfig: true, ConfigValid: map[string]bool{}}
	agent := &Command{Name: "agent", FiltersConfig: agentFilters, ConfigValid: map[string]bool{}}
	for _, r := range rows {
		f := &Flag{
			Name:        r["name"],
			Aliases:     splitList(r["aliases"]),
			Type:        FlagType(r["type"]),
			DefaultNote: r["default_per_usage_text"],
			EnvVars:     splitList(r["env_vars"]),
			Hidden:      r["hidden"] == "true",
			Usage:       r["usage"],
			Category:    r["usage_category"],
		}
		f.Secret = secretFlags[f.Name]
		f.Destination = sharedDestinations[f.Name]
		f.Critical = criticalFlags[f.Name]
		serverDefault, agentDefault := perCommandDefault(r["default"])
		scope := r["scope"]
		if scope == "both" || scope == "server-only" {
			sf := *f
			sf.Default = serverDefault
			server.Flags = append(server.Flags, &sf)
		}
		if scope == "both" || scope == "agent-only" {
			af := *f
			af.Default = agentDefault
			agent.Flags = append(agent.Flags, &af)
		}
		for _, n := range f.Names() {
			if r["valid_in_config_for_server"] == "yes" {
				server.ConfigValid[n] = true
			}
			if r["valid_in_config_for_agent"] == "yes" {
				agent.ConfigValid[n] = true
			}
		}
	}
	snapRows, err := tsv.Parse(snapshotTSV)
	if err != nil {
		return fmt.Errorf("%s etcd-snapshot flags: %w", p.Name, err)
	}
	snap := &Command{Name: "etcd-snapshot", FiltersConfig: true, ConfigValid: map[string]bool{},
		Subcommands: []string{"delete", "list", "ls", "prune", "save"}, SkipArgReorder: true}
	for _, r := range snapRows {
		f := &Flag{
			Name:    r["name"],
			Aliases: splitList(r["aliases"]),
			Type:    FlagType(r["type"]),
			Default: r["default"],
			EnvVars: splitList(r["env_vars"]),
			Hidden:  r["hidden"] == "true",
		}
		f.Secret = secretFlags[f.Name]
		snap.Flags = append(snap.Flags, f)
		for _, n := range f.Names() {
			snap.ConfigValid[n] = true
		}
	}
	for _, c := range []*Command{server, agent, snap} {
		c.index()
		p.Commands[c.Name] = c
	}
	return nil
}

// perCommandDefault reads the default column, which is either one value or
// "server: X; agent: Y" where X may be "(none)".
func perCommandDefault(s string) (server, agent string) {
	if !strings.HasPrefix(s, "server:") {
		return s, s
	}
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		k, v, _ := strings.Cut(part, ":")
		v = strings.TrimSpace(v)
		if v == "(none)" {
			v = ""
		}
		switch k {
		case "server":
			server = v
		case "agent":
			agent = v
		}
	}
	return server, agent
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
