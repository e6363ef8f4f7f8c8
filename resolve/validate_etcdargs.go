package resolve

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
)

// etcdListenerKeys are the etcd options that open a listener. k3s writes the etcd config
// file from its own values and then lets each etcd-arg item replace the key it names
// (k3s-io/k3s pkg/daemons/executor/executor.go ETCDConfig.ToConfigFile: the part before "="
// with the dashes trimmed is the key), so an item naming one of these makes every etcd k3s
// starts listen at the user's URL.
var etcdListenerKeys = map[string]bool{"listen-metrics-urls": true, "listen-client-urls": true, "listen-peer-urls": true}

// checkEtcdListenArgs: rancher/rke2#4479. On a restart of a server whose embedded etcd is
// initialised, pkg/cluster/bootstrap.go Bootstrap starts a temporary etcd on a copy of the
// data (reconcileEtcd, pkg/etcd/etcd.go StartEmbeddedTemporary) to read the bootstrap data.
// Since k3s-io/k3s#7371 (e61fde93c, 2023-04-27) that temporary etcd gets the etcd-arg items
// too (it got kube-apiserver-arg's before). On RKE2 etcd is a static pod that keeps running
// while rke2-server restarts (the unit's ExecStopPost kills containerd and the kubelet, not
// the containers), so the temporary etcd, told to listen where the running etcd already
// listens, fails: "Failed to reconcile with temporary etcd: listen tcp …: bind: address
// already in use", and rke2 exits. d38b4b30c (k3s-io/k3s#13368, 2025-12-18) read the data
// store directly and removed the temporary etcd. Not judged: k3s (its etcd stops with k3s,
// nothing else holds the port), a server that names a server URL and a token (it first
// reconciles over HTTP with that server and starts no temporary etcd when that works), an
// external datastore, disable-etcd, cluster-reset.
func (r *resolver) checkEtcdListenArgs(restart string, endpoint bool, joinURL string) {
	if r.p.Name != "rke2" || endpoint || r.boolValue("disable-etcd") || r.boolValue("cluster-reset") || r.check("etcd-arg-temporary") == nil {
		return
	}
	if joinURL != "" && (r.stringValue("token") != "" || r.keySet("token-file")) {
		return
	}
	k := r.res.Key("etcd-arg")
	if k == nil {
		return
	}
	items, _ := k.Value.([]string)
	walDir := path.Join(r.dataDir(), "server", "db", "etcd", "member", "wal")
	initialised, assumes := r.hostPath(walDir, true)
	for _, it := range items {
		name, val, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(it), "-"), "=")
		if !ok || !etcdListenerKeys[name] {
			continue
		}
		host := listenHost(val)
		msg := fmt.Sprintf("Failed to reconcile with temporary etcd: listen tcp %s: bind: address already in use", host)
		hint := fmt.Sprintf("remove %s from etcd-arg", strings.TrimSpace(it))
		if name == "listen-metrics-urls" {
			hint += " and set etcd-expose-metrics: true, RKE2's way to serve etcd's metrics on the node's address as well as 127.0.0.1:2381 (pkg/etcd/etcd.go listenMetricsURLs)"
		} else {
			hint += fmt.Sprintf(" (%s sets etcd's listeners from node-ip and advertise-address itself)", r.p.Program)
		}
		why := fmt.Sprintf("on every restart %s starts a temporary etcd with the etcd-arg items to read its bootstrap data, while the etcd pod still runs and listens at %s", r.p.Program, host)
		if !initialised {
			// The first start has no etcd to reconcile with: it works, the restarts after it fail.
			r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "etcd-arg-listener-conflict", Pos: r.itemPos("etcd-arg", it), Key: "etcd-arg",
				Message: fmt.Sprintf("%s: the first start works, but every restart of %s while its etcd pod runs fails with %q (k3s-io/k3s@1d22b6971fbf pkg/cluster/bootstrap.go reconcileEtcd; rancher/rke2#4479) [host state: %s]", it, r.serviceName(), msg, assumes),
				Hint:    hint + ", " + restart, Assumes: assumes})
			continue
		}
		r.refuse("etcd-arg-listener-conflict", refusal{rule: "etcd-arg-temporary", key: "etcd-arg", msg: msg, why: why, assumes: assumes,
			hint: hint + ", " + restart, pos: r.itemPos("etcd-arg", it)})
	}
}

// listenHost is host:port of the first URL of a listen-*-urls value, as the listener error
// names it.
func listenHost(v string) string {
	first, _, _ := strings.Cut(v, ",")
	if u, err := url.Parse(strings.TrimSpace(first)); err == nil && u.Host != "" {
		return u.Host
	}
	return first
}
