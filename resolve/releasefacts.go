package resolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
)

// checkFlannelBackend reports a flannel backend the modelled release removed (profile's
// release facts, read in pkg/agent/flannel/setup.go createFlannelConf). The check is k3s's
// agent part's, not the CLI's: k3s starts, its server part runs, and the process exits when
// the agent part writes flannel's configuration, so it is an error but not a refusal to
// start. Agents take the backend from their server, so only a server's value is checked.
func (r *resolver) checkFlannelBackend() {
	if r.res.Command != "server" {
		return
	}
	k := r.res.Key("flannel-backend")
	if k == nil || k.Source == nil {
		return
	}
	v, _ := k.Value.(string)
	if v != "wireguard" && v != "ipsec" {
		return
	}
	f := r.p.FactAt("flannel-backend "+v, r.res.Version)
	if f == nil {
		return
	}
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "flannel-backend-removed", Pos: k.Source.Pos, Key: "flannel-backend",
		Message: fmt.Sprintf("flannel-backend %s: %s %s starts, then exits when it sets up flannel: %q (%s)", v, r.p.Program, releaseName(r.res.Version), f.Value[0], f.Source),
		Hint:    "write flannel-backend: wireguard-native (the in-kernel WireGuard backend; every node needs the wireguard module)"})
}

// releaseName names the modelled release in a message.
func releaseName(v string) string {
	if v == "" || v == "newest" {
		return "(newest release)"
	}
	return v
}

// checkRKE2Profile reports profile: cis-1.23 on an RKE2 release that refuses it: RKE2's
// server and agent commands validate the profile (validateProfile, rancher/rke2
// pkg/cli/cmds) before they hand over to k3s, so RKE2 refuses to start.
func (r *resolver) checkRKE2Profile() {
	if r.p.Name != "rke2" {
		return
	}
	k := r.res.Key("profile")
	if k == nil || k.Source == nil {
		return
	}
	v, _ := k.Value.(string)
	if v != "cis-1.23" {
		// Any other value validateProfile does not know is refused before RKE2 hands over
		// to k3s (profile's "profile values" rows, by tag).
		vals := r.p.FactAt("profile values", r.res.Version)
		if v == "" || vals == nil || slices.Contains(vals.Value, v) {
			return
		}
		msg := "invalid value provided for --profile flag"
		r.diag(diag.Diagnostic{Severity: diag.Error, Code: "rke2-profile-removed", Pos: k.Source.Pos, Key: "profile",
			Message: fmt.Sprintf("rke2 %s refuses to start: %q — this release's profiles are %s (%s)", releaseName(r.res.Version), msg, strings.Join(vals.Value, ", "), vals.Source),
			Hint:    fmt.Sprintf("write profile: %s (the CIS profile of this release)", cisProfile(vals.Value))})
		r.failAt(stageValidate, msg, k.Source.Pos)
		return
	}
	f := r.p.FactAt("profile cis-1.23", r.res.Version)
	if f == nil {
		return
	}
	msg := f.Value[0]
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "rke2-profile-removed", Pos: k.Source.Pos, Key: "profile",
		Message: fmt.Sprintf("rke2 %s refuses to start: %q — profile cis-1.23 was deprecated for cis and refused from v1.30.0 (%s)", releaseName(r.res.Version), msg, f.Source),
		Hint:    "write profile: cis (the CIS profile for every Kubernetes version RKE2 supports)"})
	r.failAt(stageValidate, msg, k.Source.Pos)
}

// cisProfile is the CIS profile to suggest among a release's profile values: cis where it
// exists, else the release's versioned one.
func cisProfile(vals []string) string {
	if slices.Contains(vals, "cis") {
		return "cis"
	}
	for _, v := range vals {
		if strings.HasPrefix(v, "cis") {
			return v
		}
	}
	return vals[0]
}
