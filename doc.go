// Package k3sconf answers the question every k3s operator eventually asks: "I set it — why
// didn't it take effect?"
//
// A k3s node's configuration comes from several places: the systemd unit (ExecStart=
// arguments, Environment=, EnvironmentFile=), /etc/rancher/k3s/config.yaml and its drop-ins
// in config.yaml.d/, each flag's environment variable, and each flag's default. k3sconf merges
// them exactly as k3s does and keeps, for every flag, the value in force, where it came from
// (file:line:column) and every other assignment with the reason it lost.
//
// # Precedence, in one place
//
// The rules below are k3s's own (pkg/configfilearg, pkg/cli/cmds, urfave/cli);
// docs/merge-rules.md cites each one.
//
//  1. The config file is K3S_CONFIG_FILE from the k3s process environment if it is set, else
//     the value of the first --config/-c on the command line, else
//     /etc/rancher/k3s/config.yaml. Its drop-ins are "<file>.d/*.yaml|*.yml" (any case), read
//     after it in byte-wise name order.
//  2. Across files, a plain "key:" replaces the earlier value (lists too) and "key+:" appends.
//  3. The merged values become "--key=value" arguments inserted right after the subcommand,
//     before the real command-line arguments. server and etcd-snapshot drop keys they do not
//     know; agent does not, so an unknown key stops the agent.
//  4. The CLI library then decides: for a single-value flag the last occurrence wins (so the
//     command line beats config files); repeatable flags accumulate, config values first; an
//     environment variable counts only when the flag is not given as an argument (so config
//     files beat environment variables); the same flag under two names is fatal.
//
// # The tree
//
// A shared core that knows no product, and each product family above it; arrows point down
// only (provenance, diag and output import no product package).
//
//	shared core
//	  provenance/       Position, Source, Assignment (outcome, reason), Entry (value, winner,
//	                    history): the one model every face answers in
//	  diag/             Diagnostic, Diagnostics (an error with HasErrors), ParseError
//	  output/           envelope, JSON writer, redaction, control-character escaping
//	  internal/         rootfs (the read-only node), termesc, yamlalias, fuzzy
//	                    (did-you-mean), dnslabel, tsv; startgc (the CLI's collector
//	                    setting while the packages initialise); kubetables (what each Kubernetes
//	                    minor accepts: admission plugins, API groups, component flags,
//	                    feature gates; resolve's checks read it); noderecord (the node
//	                    face's one redaction step), nodereport (its documents and text
//	                    renderers, of redacted records only) and reasonhook (its JSON
//	                    writer's shortcut to a reason); the other commands' text and
//	                    documents: livereport (status), composereport, componentsreport,
//	                    identityreport, fleetreport, chartsreport (values) with
//	                    helmrelease (what the cluster's Helm release has: release
//	                    Secrets, Jobs), kubesprayreport (explain, where), runsreport
//	                    (kubespray runs); for tests and benchmarks: golden, ansibletest,
//	                    apisurface (the public-surface budget), benchnode and benchfleet
//	                    (synthetic nodes and fleets), procbench (the whole process
//	                    against floor, the least any reader of a node's config files
//	                    must do)
//
//	k3s/RKE2 node
//	  sources/          readers with positions: systemd unit and drop-ins, env files,
//	                    config.yaml and drop-ins (YAML 1.1)
//	  profile/          product data: flag catalogs, paths, env names, release behaviour
//	  resolve/          the one merge: value, source and history of every flag, checks
//	  findings/         every finding about one node in one list (check)
//	  live/             the running process against the files (status)
//	  components/       packaged components and AddOns
//	  compose/          k3s in docker-compose
//	  identity/         node name, node id and node password
//	  fleet/            many nodes compared as k3s compares servers on join
//	  report/           the node's redactor: its values as k3sconf prints them (the
//	                    documents and text renderers are internal/nodereport)
//
//	Helm (helm/)
//	  helm/values/      Helm's merge of chart defaults, values files and --set, per leaf
//	  helm/charts/      a HelmChart and its HelmChartConfig as helm-controller runs them
//	  helm/internal/    render: helm template with a helm binary the user names
//
//	Ansible (ansible/, kubespray/)
//	  ansible/          inventory, variable precedence, Jinja, playbooks as ansible-core
//	  ansible/runlog/   ansible-playbook output read back
//	  kubespray/        kubespray's cluster.yml: explain, where; kubespray/runs: did it apply
//
//	cmd/k3sconf/        the command line; examples/ programs and node trees
//
// docs/library.md is one program that embeds the node, Helm, kubespray and fleet faces
// (Example_library, run by go test); it lists the packages whose godoc has a runnable
// Example. The commands' JSON document types are internal or unexported: a program reads a face's
// result (its provenance entries and diag.Diagnostics), not the command's document.
//
// # Example
//
//	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node("/")})
//	if err != nil { … }
//	k := res.Key("write-kubeconfig-mode")
//	fmt.Println(k.Value, k.Source.Kind, k.Source.Pos) // 644 cli /etc/systemd/system/k3s.service:31:2
package k3sconf

import (
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Node returns a read-only view of a node's files rooted at dir: "/" for the machine k3sconf
// runs on, or the folder of a support bundle or mounted disk. Paths inside are as on the node,
// and symbolic links resolve as they would on the node: an absolute link target stays inside
// dir, and no path ever leads out of it. k3sconf never writes to the node it inspects.
func Node(dir string) afero.Fs {
	if dir == "" {
		dir = "/"
	}
	// rootfs for "/" too: its Open never blocks on a FIFO or a device (see docs/hostile-input.md).
	return rootfs.New(dir)
}
