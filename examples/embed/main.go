package main

import (
	"fmt"
	"io"
	"os"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run applies the policy and returns the exit code, by k3sconf's own rule
// (docs/exit-codes.md): 0 compliant, 1 violation (or a node k3s would not start), 2 usage,
// 3 part of the node could not be read, so no verdict.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: embed NODE_ROOT KEY")
		return 2
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(args[0])})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if res.Incomplete() {
		// What the unread file sets is missing: a "compliant" here could be wrong.
		fmt.Fprintf(stderr, "incomplete: k3sconf could not read part of %s; no verdict\n", args[0])
		return 3
	}
	if res.Refused() {
		fmt.Fprintf(stdout, "policy violation: k3s would not start: %s\n", res.Error)
		return 1
	}
	k := res.Key(args[1])
	if k == nil {
		fmt.Fprintf(stderr, "k3s %s has no flag %q\n", res.Command, args[1])
		return 2
	}
	red := report.NewRedactor(res, false)
	value := report.FormatValue(report.KeyValue(k, red))
	if k.Source == nil || k.Source.Kind != sources.KindConfig {
		where := "its default"
		if k.Source != nil {
			where = fmt.Sprintf("%s (%s)", k.Source.Pos, k.Source.Kind)
		}
		fmt.Fprintf(stdout, "policy violation: %s = %s is set by %s, not by a config file\n", k.Name(), value, where)
		return 1
	}
	fmt.Fprintf(stdout, "ok: %s = %s from %s\n", k.Name(), value, k.Source.Pos)
	return 0
}
