package profile

import (
	"fmt"
	"strings"
	"sync"

	"github.com/k3sconf/k3sconf/internal/tsv"
)

// FlagRemoval is a flag the catalog (the newest release) no longer has but older modelled
// releases accepted: a removal row of data/flag-releases.tsv. Until its removal the release
// accepts the flag (ForRelease adds it back); from WarnFrom k3s logs Warning when the flag is
// used, from FatalFrom it exits with Fatal instead; from Until the flag is unknown.
type FlagRemoval struct {
	Name string
	// products the row holds for ("k3s"); commands that had the flag.
	products, commands []string
	Until              Version
	// WarnFrom and FatalFrom are zero when k3s never warned (never refused) before Until.
	WarnFrom, FatalFrom Version
	Warning, Fatal      string
	// phase is, per command, when the fatal check stops the node (refuses-to-start,
	// starts-then-stops).
	phase map[string]string
	// Unless, per command, lists keys that switch the warning and the fatal check off:
	// "token" (set and not empty) or "flannel-backend:none" (set to that value).
	Unless map[string][]string
	// With is a key that must be set too for the fatal check (disable-selinux with selinux).
	With   string
	Source string

	flag   Flag
	before map[string]string
}

// has reports whether the product's command in release v has the flag.
func (r *FlagRemoval) has(product, command string, v Version) bool {
	return contains(r.products, product) && contains(r.commands, command) && v.Less(r.Until)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// State says what release v does when the flag is given to command: the warning it logs, or
// the message it exits with (fatal), or neither; ok is false when v has no such flag.
func (r *FlagRemoval) State(product, command string, v Version) (warning, fatal string, ok bool) {
	if !r.has(product, command, v) {
		return "", "", false
	}
	if r.FatalFrom != (Version{}) && !v.Less(r.FatalFrom) {
		return "", r.Fatal, true
	}
	if r.WarnFrom != (Version{}) && !v.Less(r.WarnFrom) {
		return r.Warning, "", true
	}
	return "", "", true
}

// FlagRemovals lists the removal rows of data/flag-releases.tsv for the product.
func (p *Profile) FlagRemovals() []*FlagRemoval {
	all, err := flagRemovals()
	if err != nil {
		panic(err) // embedded data; TestFlagRemovals
	}
	var out []*FlagRemoval
	for _, r := range all {
		if contains(r.products, p.Name) {
			out = append(out, r)
		}
	}
	return out
}

// removalBefore places a removed flag where k3s declared it: in k3s server before the hidden
// disable-agent (cmds.ServerFlags "Hidden/Deprecated flags below"); in k3s agent at the end
// (NewAgentCommand "Deprecated/hidden below", after docker). Only the order of environment
// variables depends on it.
var removalBefore = map[string]string{"server": "disable-agent"}

var flagRemovals = sync.OnceValues(func() ([]*FlagRemoval, error) {
	rows, err := tsv.Parse(flagReleasesTSV)
	if err != nil {
		return nil, fmt.Errorf("flag releases: %w", err)
	}
	var out []*FlagRemoval
	for _, row := range rows {
		if row["until"] == "" {
			continue
		}
		r := &FlagRemoval{Name: row["name"], products: splitList(row["products"]), commands: splitList(row["commands"]),
			Warning: row["warning"], Fatal: row["fatal"], With: row["with"], Source: row["removal_source"],
			phase: map[string]string{}, Unless: map[string][]string{}, before: map[string]string{}}
		for col, dst := range map[string]*Version{"until": &r.Until, "warn_from": &r.WarnFrom, "fatal_from": &r.FatalFrom} {
			if row[col] == "" {
				continue
			}
			v, err := ParseVersion(row[col])
			if err != nil {
				return nil, fmt.Errorf("flag releases: %s: %s: %w", r.Name, col, err)
			}
			*dst = v
		}
		for _, kv := range splitList(row["fatal_phase"]) {
			c, ph, _ := strings.Cut(kv, "=")
			r.phase[c] = ph
		}
		for _, kv := range splitList(row["unless"]) {
			c, keys, _ := strings.Cut(kv, "=")
			r.Unless[c] = strings.Split(keys, "|")
		}
		for _, c := range r.commands {
			r.before[c] = removalBefore[c]
		}
		r.flag = Flag{Name: r.Name, Type: FlagType(row["type"]), Default: row["default"], EnvVars: splitList(row["env_vars"]),
			Hidden: true, Secret: secretFlags[r.Name], Usage: "(deprecated)", Category: "deprecated"}
		out = append(out, r)
	}
	return out, nil
})

// insertBefore puts f in front of the flag named before, or at the end.
func insertBefore(flags []*Flag, f *Flag, before string) []*Flag {
	for i, g := range flags {
		if before != "" && g.Name == before {
			out := append([]*Flag{}, flags[:i]...)
			out = append(out, f)
			return append(out, flags[i:]...)
		}
	}
	return append(flags, f)
}
