// Package live compares what a node's files say with what the running k3s (or RKE2)
// process actually got: "has my change taken effect yet?".
//
// [Inspect] takes the resolution of the node's files as they are now
// ([github.com/k3sconf/k3sconf/resolve.Result]) and finds the running server or agent under
// the node's /proc (a support bundle's proc/ folder works the same way).
// It reports:
//
//   - when the process started: field 22 of /proc/<pid>/stat (clock ticks since boot, at
//     USER_HZ, 100 on every architecture k3s ships for) plus btime from /proc/stat, to the
//     second;
//   - every source file (unit, unit drop-ins, env files, config.yaml and its drop-ins, and
//     the drop-in folders, whose time changes when a file is added, removed or renamed)
//     modified after that: a restart is needed, and for unit files a systemctl
//     daemon-reload first;
//   - every key whose running value differs from the value the files give now, with both
//     values and where today's comes from ([Drift]).
//
// # What /proc can tell, and what it cannot
//
// k3s overwrites its argv and environment with a process title right after it starts
// (pkg/cli/server/server.go and pkg/cli/agent/agent.go call proctitle.SetProcTitle(os.Args[0]
// + " server") "to hide process arguments from ps output", through
// github.com/erikdubbelboer/gspt, which zeroes the whole argv and environment block). On
// Linux the multicall /usr/local/bin/k3s execs k3s-server in the same process (cmd/k3s
// main_linux.go runExec), so there is no other process holding the arguments: on a real k3s
// node /proc/<pid>/cmdline reads "/usr/local/bin/k3s server" and environ is empty. Inspect
// reports that ([Process.Hidden]) and compares values only from sources that have them:
//
//   - the command line, when /proc has it (older builds, RKE2, test trees, bundles made
//     before the title was set). It holds only the command-line part: k3s splices config
//     file values into its own copy of argv (pkg/configfilearg), never into the kernel's.
//     Inspect resolves it with the node's config files as they are now, so command-line and
//     environment values are exact, and values from a config file that changed after the
//     start are today's ([Drift.Note] says so);
//   - the node object's k3s.io/node-args and k3s.io/node-env annotations (--node-json,
//     [ParseNodeList]). k3s writes them from the agent when the node registers and whenever
//     their hash changes (pkg/nodeconfig SetNodeConfigAnnotations, pkg/agent/run.go
//     configureNode): node-args is configfilearg.MustParse(os.Args[1:]) — the spliced argv,
//     config-file values included, as read at that start — with each "-x=v" split into two
//     words ([ResolveAnnotations] joins them back) and the word after --token, -t, --agent-token,
//     --datastore-endpoint, --etcd-s3-access-key, --etcd-s3-secret-key and --vpn-auth
//     replaced by "********"; node-env holds only the K3S_* variables, secrets likewise
//     replaced. Inspect resolves them on an empty filesystem, so today's files take no part.
//
// Known gaps of the annotation: it exists only where an agent runs (a server with
// --disable-agent has no Node); redacted values cannot be compared ([Status.NotCompared]);
// a value that looked like "-a=b" after a flag given without "=" (--kubelet-arg
// --max-pods=100 on the command line) cannot be told from two words; config-file values are
// recorded even when they came from a config key that only k3s's wrapper-level lookups
// (data-dir, debug, prefer-bundled-bin) or a later positional argument made ineffective —
// resolving the annotation reproduces what the CLI parser did with them, not what the
// wrapper did; variables other than K3S_* (proxies, CONTAINERD_*) are not recorded; before k3s-io/k3s
// a26a5ab1d (July 2024) node-env also holds the wrapper's own K3S_DATA_DIR (the extracted
// bundle, <data-dir>/data/<hash>), which Inspect leaves out; and it
// is as old as the last start that changed it, or as the node JSON given.
//
// # systemd
//
// On the machine k3sconf runs on, [DialSystemd] asks systemd over D-Bus for the unit's
// NeedDaemonReload, loaded ExecStart, MainPID and start timestamps; Inspect then compares
// the MainPID's process and trusts NeedDaemonReload over file times. Anywhere else (a
// --root tree, no bus) it falls back to files: a unit file changed after the start means
// "run systemctl daemon-reload first" unless one has run since, which only systemd knows.
// The [Systemd] interface lets tests fake the bus.
//
// Modification times are compared with a slack of two seconds (Options.Slack), since the start time is
// known to the second. A file replaced by renaming an older file over it keeps its old
// time and goes unnoticed (its folder's time changes, which catches drop-ins only).
//
// What `k3sconf status` prints, text and --json, is rendered from the [Status] by
// internal/livereport, which redacts every value first; [Status.Value] gives one key's
// running value as that output shows it.
package live
