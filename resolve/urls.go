package resolve

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
)

// checkServerURL looks at the server URL an agent (or a joining server) connects to: its
// port and whether it can reach another node at all. None of these makes k3s
// refuse to start: the agent starts, cannot register, and retries forever, which the
// journal shows only as a loop of connection or authorisation errors.
//
// What the agent does with the URL, read at k3s-io/k3s 66a14f0e8 (manuelbuil/k3s mirror):
// pkg/agent/loadbalancer/loadbalancer.go New keeps the URL's scheme and, without a port,
// dials 443 for https and 80 for http; the supervisor (the /cacerts, /v1-k3s/... endpoints
// the agent registers with) listens on https-listen-port, 6443, in k3s, and on 9345 in RKE2,
// whose 6443 is the kube-apiserver (rancher/rke2 pkg/cli/cmds/root.go: supervisor port
// 9345), which answers the agent's unauthenticated requests with 401.
func (r *resolver) checkServerURL() {
	k := r.res.Key("server")
	if k == nil || k.Source == nil {
		return
	}
	raw, _ := k.Value.(string)
	if raw == "" || strings.Contains(raw, "{{") || strings.Contains(raw, "${") || strings.Contains(raw, "<") {
		return
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		// A URL Go's parser rejects is k3s's own check (validate.go).
		return
	}
	if r.res.Command == "server" && !r.hasValue("token") && !r.hasValue("token-file") {
		// Without a token a server ignores --server and starts a cluster of its own
		// (pkg/cluster/managed.go assignManagedDriver): the URL is never dialled.
		return
	}
	pos := k.Source.Pos
	svc := r.serviceName()
	supervisor, other := "6443", "9345"
	if r.p.Name == "rke2" {
		supervisor, other = "9345", "6443"
	}
	port := u.Port()
	warn := func(code, msg, hint string) {
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: code, Pos: pos, Key: "server", Message: msg, Hint: hint})
	}
	fixed := func(scheme, port string) string {
		v := *u
		v.Scheme = scheme
		v.Host = net.JoinHostPort(u.Hostname(), port)
		return v.String()
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		// k3s's own check reports it (join-url-invalid: pkg/clientaccess/token.go rejects
		// every non-https URL in the agent's, or a joining server's, connection loop); a
		// server that has joined ignores that error (bootstrap.go: "we ignore any errors").
		return
	default:
		return
	}
	switch {
	case port == "":
		warn("server-url-port",
			fmt.Sprintf("server %s names no port: %s dials 443 for https, not the supervisor port %s, so the %s never registers (it retries forever) unless a load balancer listens on 443", r.redactURL(raw), r.p.Program, supervisor, r.res.Command),
			fmt.Sprintf("write server: %s", r.redactURL(fixed("https", supervisor))))
	case port == other && r.p.Name == "rke2":
		warn("server-url-port",
			fmt.Sprintf("server %s is the kube-apiserver's port: an RKE2 %s registers with the supervisor on 9345, and the apiserver answers its requests with 401 Unauthorized, so it retries forever", r.redactURL(raw), r.res.Command),
			fmt.Sprintf("write server: %s (keep 6443 for kubectl), then `systemctl restart %s`", r.redactURL(fixed("https", supervisor)), svc))
	case port == other:
		warn("server-url-port",
			fmt.Sprintf("server %s is RKE2's supervisor port: a k3s server serves agents on its https-listen-port, 6443 unless changed, and nothing listens on 9345, so the %s retries forever", r.redactURL(raw), r.res.Command),
			fmt.Sprintf("write server: %s (or the server's https-listen-port), then `systemctl restart %s`", r.redactURL(fixed("https", supervisor)), svc))
	}
	if ip := net.ParseIP(u.Hostname()); (ip != nil && ip.IsLoopback()) || strings.EqualFold(u.Hostname(), "localhost") {
		if r.res.Command == "agent" {
			warn("server-url-loopback",
				fmt.Sprintf("server %s is this machine: an agent runs no supervisor, so unless a server runs here too (or a tunnel forwards the port) nothing answers and the agent retries forever", r.redactURL(raw)),
				"write the address of a server node (or of the load balancer in front of the servers)")
		}
	}
}

// redactURL hides a password in a URL the way the report's redactor does elsewhere
// (user:REDACTED@host; the report package's redactor also runs over every message).
func (r *resolver) redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, has := u.User.Password(); !has {
		return s
	}
	u.User = url.UserPassword(u.User.Username(), "REDACTED")
	return u.String()
}

// hasValue reports whether the key has a non-empty value in force.
func (r *resolver) hasValue(name string) bool {
	k := r.res.Key(name)
	if k == nil || k.Source == nil {
		return false
	}
	v, _ := k.Value.(string)
	return v != ""
}

// httpsURL is the URL to write instead of a server URL k3s cannot use: https, the host as
// given (a bare address too: Go parses "10.0.0.1" as a path), and the port as given or
// the supervisor's. "" when no host can be found.
func httpsURL(raw, supervisorPort string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host, port := u.Hostname(), u.Port()
	if u.Host == "" && u.Scheme == "" && u.Path != "" && !strings.ContainsAny(u.Path, "/") {
		host = u.Path
	}
	if host == "" {
		return ""
	}
	if port == "" {
		port = supervisorPort
	}
	v := url.URL{Scheme: "https", User: u.User, Host: net.JoinHostPort(host, port), Path: u.Path}
	if u.Host == "" {
		v.Path = ""
	}
	return v.String()
}
