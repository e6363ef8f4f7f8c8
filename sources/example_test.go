package sources_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/sources"
)

// A config.yaml read as k3s's yaml.v2 reads it: YAML 1.1 types ("yes" is a bool, 0755 an
// octal int), the "+" of an appending key split off, and each value's position kept.
func ExampleParseConfig() {
	data := []byte("write-kubeconfig-mode: 0644\nnode-label+:\n  - zone=a\nselinux: yes\n")
	cf, diags, err := sources.ParseConfig("/etc/rancher/k3s/config.yaml", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range cf.Entries {
		fmt.Printf("%s append=%v %s %v at %s\n", e.Key, e.Append, e.Type, e.Value, e.ValuePos)
	}
	fmt.Println(len(diags), "findings")
	// Output:
	// write-kubeconfig-mode append=false int 420 at /etc/rancher/k3s/config.yaml:1:24
	// node-label append=true seq [zone=a] at /etc/rancher/k3s/config.yaml:3:3
	// selinux append=false bool true at /etc/rancher/k3s/config.yaml:4:10
	// 0 findings
}

// A unit and a drop-in merged as systemd 252 merges them: the empty ExecStart= resets the
// command, continuation lines join, Environment= words are unquoted.
func ExampleMergeUnit() {
	unit, _ := sources.ParseUnit("/etc/systemd/system/k3s.service", []byte(
		"[Service]\nEnvironment=\"K3S_TOKEN=x\"\nExecStart=/usr/local/bin/k3s server\n"))
	dropin, _ := sources.ParseUnit("/etc/systemd/system/k3s.service.d/10-args.conf", []byte(
		"[Service]\nExecStart=\nExecStart=/usr/local/bin/k3s \\\n    server --disable=traefik\n"))
	u := sources.MergeUnit("k3s.service", []*sources.UnitFile{unit, dropin})
	for _, w := range u.ExecStart {
		fmt.Printf("%q at %s\n", w.Value, w.Pos)
	}
	for _, e := range u.Environment {
		fmt.Println(e.Name, "from", e.Pos)
	}
	// Output:
	// "/usr/local/bin/k3s" at /etc/systemd/system/k3s.service.d/10-args.conf:3:11
	// "server" at /etc/systemd/system/k3s.service.d/10-args.conf:4:5
	// "--disable=traefik" at /etc/systemd/system/k3s.service.d/10-args.conf:4:12
	// K3S_TOKEN from /etc/systemd/system/k3s.service:2:13
}
