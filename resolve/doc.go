// Package resolve merges a node's configuration sources exactly as k3s (or RKE2) does, and
// keeps for every flag the value in force, the assignment that gave it, and every other
// assignment with what became of it.
//
// [Resolve] is the one merge there is: it finds the systemd unit and its drop-ins, builds the
// k3s process's argv and environment from them, chooses the config file
// (pkg/configfilearg findConfigFileFlag), reads it and its drop-ins, merges them ("key+:"
// appends, a plain key replaces), splices the values into the argv after the subcommand,
// drops the keys the command does not know (server, etcd-snapshot), and then runs the CLI
// library's decisions — urfave/cli v2 for current k3s, v1 for releases before the 2025
// migration — once as the multicall wrapper does on the command line alone and once as
// k3s-server does on the spliced argv. Every [Assignment] gets its [provenance.Outcome] in
// that same pass, so an explanation can never disagree with the value.
//
// Problems with the node's files are part of the [Result]: Result.Error says when and why
// k3s would refuse to start, and Result.Diagnostics lists every finding with a stable code,
// a position and a hint. Resolve returns an error only for [Options] that make no sense.
package resolve
