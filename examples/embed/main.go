package main

import (
	"fmt"
	"os"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: embed NODE_ROOT KEY")
		os.Exit(2)
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(os.Args[1])})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	k := res.Key(os.Args[2])
	if k == nil {
		fmt.Fprintf(os.Stderr, "k3s %s has no flag %q\n", res.Command, os.Args[2])
		os.Exit(2)
	}
	red := report.NewRedactor(res, false)
	value := report.FormatValue(report.KeyValue(k, red))
	if k.Source == nil || k.Source.Kind != sources.KindConfig {
		where := "its default"
		if k.Source != nil {
			where = fmt.Sprintf("%s (%s)", k.Source.Pos, k.Source.Kind)
		}
		fmt.Printf("policy violation: %s = %s is set by %s, not by a config file\n", k.Name(), value, where)
		os.Exit(1)
	}
	fmt.Printf("ok: %s = %s from %s\n", k.Name(), value, k.Source.Pos)
}
