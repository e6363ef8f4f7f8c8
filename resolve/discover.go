package resolve

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/sources"
)

// maxDiscoverUnits bounds the unit files read while looking for one that runs the product
// (a full /usr/lib/systemd/system holds a few hundred).
const maxDiscoverUnits = 2000

// discovered is a unit whose ExecStart= runs the product.
type discovered struct {
	path, command string
}

// discoverUnit finds, when the product's own unit names are absent, the services under the
// standard unit directories whose ExecStart= runs the product's binary (NixOS's
// services.k3s writes k3s.service, but people define k3s-server.service or
// k3s-node.service with their own ExecStart). It prefers the one running the command asked
// for, then server over agent, then the first by directory precedence and name; the choice
// and the others seen are reported.
func (r *resolver) discoverUnit(command string) string {
	var found []discovered
	seen := map[string]bool{}
	read := 0
	for _, d := range r.p.UnitDirs {
		infos, err := afero.ReadDir(r.fs, d)
		if err != nil {
			continue
		}
		names := make([]string, 0, len(infos))
		for _, fi := range infos {
			if strings.HasSuffix(fi.Name(), ".service") && !fi.IsDir() && !strings.Contains(fi.Name(), "@") {
				names = append(names, fi.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if seen[n] || read >= maxDiscoverUnits {
				continue
			}
			seen[n] = true // a unit of higher precedence hides its namesakes
			read++
			p := path.Join(d, n)
			data, err := readFile(r.fs, p)
			if err != nil {
				continue
			}
			uf, _ := sources.ParseUnit(p, data)
			if cmd := r.runsProduct(uf); cmd != "" {
				found = append(found, discovered{p, cmd})
			}
		}
	}
	if len(found) == 0 {
		return ""
	}
	rank := func(c string) int {
		switch {
		case command != "" && c == command:
			return 0
		case command == "" && c == "server":
			return 1
		case command == "" && c == "agent":
			return 2
		}
		return 3
	}
	sort.SliceStable(found, func(i, j int) bool { return rank(found[i].command) < rank(found[j].command) })
	if command != "" && found[0].command != command {
		return ""
	}
	chosen := found[0]
	var others []string
	for _, f := range found[1:] {
		others = append(others, fmt.Sprintf("%s (%s %s)", f.path, r.p.Program, f.command))
	}
	why := fmt.Sprintf("it is the only unit under the unit directories whose ExecStart= runs %s", r.p.Program)
	if len(others) > 0 {
		why = fmt.Sprintf("its ExecStart= runs %s %s, which comes first (the command asked for, else server before agent, then directory precedence and name); also running %s: %s", r.p.Program, chosen.command, r.p.Program, strings.Join(others, ", "))
	}
	r.diag(diag.Diagnostic{Severity: diag.Info, Code: "unit-discovered", Pos: diag.Position{File: chosen.path},
		Message: fmt.Sprintf("no %s; read %s instead: %s", strings.Join(r.unitNames(), " or "), chosen.path, why),
		Hint:    fmt.Sprintf("give --unit %s (or another unit) to choose it yourself", chosen.path)})
	return chosen.path
}

// unitNames are the product's own unit names.
func (r *resolver) unitNames() []string {
	return []string{r.p.Units["server"], r.p.Units["agent"]}
}

// runsProduct returns the command ("server", "agent", "etcd-snapshot") a unit file's last
// ExecStart= runs with the product's binary, or "" when it runs something else.
func (r *resolver) runsProduct(uf *sources.UnitFile) string {
	val := ""
	for _, e := range uf.Entries {
		if e.Section == "Service" && e.Key == "ExecStart" {
			val = e.Value
		}
	}
	fields := strings.Fields(val)
	if len(fields) == 0 {
		return ""
	}
	bin := strings.TrimLeft(fields[0], "-@:+!")
	if path.Base(strings.Trim(bin, `"'`)) != r.p.Program {
		return ""
	}
	variable := false
	for _, f := range fields[1:] {
		f = strings.Trim(f, `"'`)
		switch f {
		case "server", "agent", "etcd-snapshot":
			return f
		}
		variable = variable || strings.Contains(f, "$")
	}
	if variable {
		// The command word is in a variable (ExecStart=/usr/bin/k3s $K3S_ARGS): still the
		// product's service; the resolution finds the command.
		return "server"
	}
	return ""
}
