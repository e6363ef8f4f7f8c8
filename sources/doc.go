// Package sources reads each kind of input a k3s node's configuration comes from and turns it
// into ordered values that remember where they were written.
//
//   - [ParseUnit] and [MergeUnit] read a systemd unit and its drop-ins as systemd does:
//     continuation lines, quoting, the empty ExecStart= reset, Environment= and
//     EnvironmentFile=.
//   - [ParseEnvFile] reads an environment file in systemd's syntax.
//   - [ParseConfig] reads one config.yaml (or drop-in) the way k3s's yaml.v2 decoding does,
//     with YAML 1.1 typing, while keeping the line and column of every key and value.
//
// The readers never touch the filesystem; package resolve decides which files to read and in
// which order, and merges what the readers return.
package sources
