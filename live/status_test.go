package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// btime and startTicks put the fake process start at btime+600s.
const (
	btime      = 1714550000 // 2024-05-01 07:53:20 UTC
	startTicks = 600 * 100
)

var started = time.Unix(btime+600, 0)

// tree is a node's files under a temporary directory, with modification times.
type tree struct {
	t   *testing.T
	dir string
}

func newTree(t *testing.T) *tree { return &tree{t: t, dir: t.TempDir()} }

// file writes a node file modified at started+age (negative: before the start).
func (n *tree) file(p, content string, age time.Duration) {
	n.t.Helper()
	host := filepath.Join(n.dir, filepath.FromSlash(p))
	must(n.t, os.MkdirAll(filepath.Dir(host), 0o755))
	must(n.t, os.WriteFile(host, []byte(content), 0o644))
	mt := started.Add(age)
	must(n.t, os.Chtimes(host, mt, mt))
}

// proc writes /proc/<pid> for a process started at `started`; environ "" leaves it out.
func (n *tree) proc(pid, ppid int, cmdline, environ string) {
	n.t.Helper()
	n.file("/proc/stat", "cpu  1 2 3\nbtime "+itoa(btime)+"\n", 0)
	n.file("/proc/"+itoa(pid)+"/cmdline", cmdline, 0)
	n.file("/proc/"+itoa(pid)+"/stat", statLine(pid, "k3s-server", ppid, startTicks), 0)
	if environ != "" {
		n.file("/proc/"+itoa(pid)+"/environ", environ, 0)
	}
}

// dirTime sets a folder's modification time (after the files in it were written).
func (n *tree) dirTime(p string, age time.Duration) {
	mt := started.Add(age)
	must(n.t, os.Chtimes(filepath.Join(n.dir, filepath.FromSlash(p)), mt, mt))
}

func itoa(i int) string { return strconv.Itoa(i) }

// inspect resolves the tree and inspects it.
func (n *tree) inspect(nodeJSON []byte, sd Systemd) (*Status, *resolve.Result) {
	n.t.Helper()
	fsys := rootfs.New(n.dir)
	ro := resolve.Options{FS: fsys}
	res, err := resolve.Resolve(ro)
	if err != nil {
		n.t.Fatal(err)
	}
	st, err := Inspect(Options{Node: fsys, Resolve: ro, Today: res, NodeJSON: nodeJSON, Systemd: sd})
	if err != nil {
		n.t.Fatal(err)
	}
	return st, res
}

func render(st *Status, res *resolve.Result) (text, js string) {
	var tb, jb bytes.Buffer
	red := report.NewRedactor(res, false)
	Renderers.Text(&tb, st, red, false)
	b, _ := json.Marshal(Renderers.JSON(st, red, false))
	jb.Write(b)
	return tb.String(), jb.String()
}

const unitNow = `[Unit]
Description=Lightweight Kubernetes
[Service]
Type=notify
EnvironmentFile=-/etc/systemd/system/k3s.service.env
ExecStart=/usr/local/bin/k3s \
    server \
    '--disable' 'servicelb'
`

type driftRow struct{ Key, Running, RunningFrom, Today, TodayFrom, Via string }

func driftRows(st *Status) []driftRow {
	var out []driftRow
	for _, d := range st.Drift {
		out = append(out, driftRow{d.Key, report.FormatValue(d.Running), d.RunningFrom, report.FormatValue(d.Today), d.TodayFrom, d.Via})
	}
	return out
}

func staleRows(st *Status) []string {
	var out []string
	for _, s := range st.Stale {
		out = append(out, s.Path+" "+s.Action)
	}
	return out
}

// The acceptance case: k3s started with --disable traefik; since then the unit now
// says servicelb and config.yaml was edited.
func TestEditedAfterStart(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, time.Hour)
	n.file("/etc/systemd/system/k3s.service.env", "K3S_NODE_NAME=node-a\n", -time.Hour)
	n.file("/etc/rancher/k3s/config.yaml", "node-label:\n  - env=new\nwrite-kubeconfig-mode: 0644\n", 2*time.Hour)
	n.proc(321, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00traefik\x00", "")
	st, res := n.inspect(nil, nil)

	if !st.Pending() {
		t.Error("Pending() = false, want true")
	}
	if !st.Start.Equal(started) || st.StartFrom != "/proc/321/stat" {
		t.Errorf("start %v from %q, want %v", st.Start, st.StartFrom, started)
	}
	if diff := cmp.Diff([]string{
		"/etc/rancher/k3s/config.yaml restart",
		"/etc/systemd/system/k3s.service daemon-reload",
	}, staleRows(st)); diff != "" {
		t.Errorf("stale mismatch (-want +got):\n%s", diff)
	}
	if !st.DaemonReload {
		t.Error("DaemonReload = false")
	}
	want := []driftRow{{Key: "disable", Running: "[traefik]", RunningFrom: "/proc/321/cmdline", Today: "[servicelb]",
		TodayFrom: "cli /etc/systemd/system/k3s.service:8:5", Via: "process",
		// config.yaml changed too, so values from it are today's; disable is not one of them.
	}}
	if diff := cmp.Diff(want, driftRows(st)); diff != "" {
		t.Errorf("drift mismatch (-want +got):\n%s", diff)
	}
	var may []string
	for _, m := range st.MayChange {
		may = append(may, m.Key)
	}
	if diff := cmp.Diff([]string{"write-kubeconfig-mode", "node-label"}, may); diff != "" {
		t.Errorf("mayChange mismatch (-want +got):\n%s", diff)
	}
	text, js := render(st, res)
	for _, s := range []string{"/etc/systemd/system/k3s.service", "/etc/rancher/k3s/config.yaml", "restart needed",
		"daemon-reload", "running: [traefik]", "files:   [servicelb]", "systemctl daemon-reload && systemctl restart k3s.service"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	if !strings.Contains(js, `"pending":true`) || !strings.Contains(js, `"code":"live-daemon-reload-needed"`) {
		t.Errorf("json: %s", js)
	}
}

func TestInSync(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, -time.Hour)
	n.file("/etc/systemd/system/k3s.service.env", "K3S_NODE_NAME=node-a\n", -time.Hour)
	n.file("/etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: 0644\n", -time.Hour)
	n.file("/etc/rancher/k3s/config.yaml.d/10-a.yaml", "node-label: [a=b]\n", -time.Hour)
	n.dirTime("/etc/rancher/k3s/config.yaml.d", -time.Hour)
	// Within the slack: written in the second k3s started.
	n.file("/etc/rancher/k3s/config.yaml.d/20-b.yaml", "debug: true\n", time.Second)
	n.dirTime("/etc/rancher/k3s/config.yaml.d", time.Second)
	n.proc(321, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00servicelb\x00", "K3S_NODE_NAME=node-a\x00PATH=/usr/bin\x00")
	st, res := n.inspect(nil, nil)
	if st.Pending() {
		text, _ := render(st, res)
		t.Errorf("Pending() = true:\n%s", text)
	}
	text, _ := render(st, res)
	if !strings.Contains(text, "in effect: nothing changed since the start") {
		t.Errorf("text:\n%s", text)
	}
}

func TestDropinRemovedAfterStart(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, -time.Hour)
	n.file("/etc/rancher/k3s/config.yaml.d/10-a.yaml", "node-label: [a=b]\n", -time.Hour)
	n.dirTime("/etc/rancher/k3s/config.yaml.d", time.Hour) // 20-old.yaml was deleted
	n.file("/etc/systemd/system/k3s.service.d/10-extra.conf", "[Service]\nEnvironment=K3S_DEBUG=true\n", 30*time.Minute)
	n.proc(321, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00servicelb\x00", "")
	st, _ := n.inspect(nil, nil)
	if diff := cmp.Diff([]string{
		"/etc/rancher/k3s/config.yaml.d restart",
		"/etc/systemd/system/k3s.service.d daemon-reload",
		"/etc/systemd/system/k3s.service.d/10-extra.conf daemon-reload",
	}, staleRows(st)); diff != "" {
		t.Errorf("stale mismatch (-want +got):\n%s", diff)
	}
}

// On a real node k3s hides its argv; the node annotation supplies the running values.
func TestHiddenArgvWithAnnotation(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", strings.Replace(unitNow, "'servicelb'", "'servicelb' \\\n    '--token' 'hunter2-token'", 1), -time.Hour)
	n.file("/etc/systemd/system/k3s.service.env", "K3S_NODE_NAME=node-a\n", -time.Hour)
	n.file("/etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: 0644\nnode-label: [env=new]\ncluster-init: true\nkubelet-arg: [max-pods=150]\netcd-s3-session-token: sess-new999\n", time.Hour)
	n.proc(321, 1, "/usr/local/bin/k3s server\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", "\x00\x00\x00\x00\x00")
	nodeJSON, err := os.ReadFile("testdata/node.json")
	must(t, err)

	st, _ := n.inspect(nil, nil)
	if st.Process == nil || !st.Process.Hidden || st.Process.EnvironState != "hidden" {
		t.Fatalf("process %+v", st.Process)
	}
	if len(st.Drift) != 0 {
		t.Errorf("drift without a source of running values: %+v", st.Drift)
	}
	if !st.Pending() {
		t.Error("config.yaml changed after the start: want pending")
	}

	st, res := n.inspect(nodeJSON, nil)
	want := []driftRow{
		{"etcd-s3-session-token", "sess-abc123", "node annotation k3s.io/node-args", "sess-new999", "config /etc/rancher/k3s/config.yaml:5:24", "annotation"},
		{"disable", "[traefik]", "node annotation k3s.io/node-args", "[servicelb]", "cli /etc/systemd/system/k3s.service:8:5", "annotation"},
		{"node-label", "[env=old]", "node annotation k3s.io/node-args", "[env=new]", "config /etc/rancher/k3s/config.yaml:2:14", "annotation"},
	}
	if diff := cmp.Diff(want, driftRows(st)); diff != "" {
		t.Errorf("drift mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"token"}, st.NotCompared); diff != "" {
		t.Errorf("notCompared mismatch (-want +got):\n%s", diff)
	}
	text, js := render(st, res)
	for _, out := range []string{text, js} {
		for _, secret := range []string{"hunter2", "sess-abc123", "sess-new999"} {
			if strings.Contains(out, secret) {
				t.Errorf("output shows secret %q:\n%s", secret, out)
			}
		}
	}
	if v, from, ok := st.Value("node-label", false); !ok || v != "[env=old]" || from != "node annotation" {
		t.Errorf("Value(node-label) = %q %q %v", v, from, ok)
	}
	if _, _, ok := st.Value("token", false); ok {
		t.Error("Value(token) known although k3s redacted it")
	}
	if v, _, _ := st.Value("etcd-s3-session-token", false); v != output.Redacted {
		t.Errorf("Value(etcd-s3-session-token) = %q, want redacted", v)
	}
}

func TestEnvironDrift(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, -time.Hour)
	n.file("/etc/systemd/system/k3s.service.env", "K3S_TOKEN=envsecret-1\nK3S_NODE_NAME=new-name\nK3S_DEBUG=true\n", time.Hour)
	n.proc(321, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00servicelb\x00", "K3S_TOKEN=envsecret-0\x00K3S_NODE_NAME=old-name\x00PATH=/usr/bin\x00")
	st, res := n.inspect(nil, nil)
	want := []driftRow{
		{"debug", "false", "default", "true", "env /etc/systemd/system/k3s.service.env:3:1", "process"},
		{"token", "envsecret-0", "/proc/321/environ K3S_TOKEN", "envsecret-1", "env /etc/systemd/system/k3s.service.env:1:1", "process"},
		{"node-name", "old-name", "/proc/321/environ K3S_NODE_NAME", "new-name", "env /etc/systemd/system/k3s.service.env:2:1", "process"},
	}
	if diff := cmp.Diff(want, driftRows(st)); diff != "" {
		t.Errorf("drift mismatch (-want +got):\n%s", diff)
	}
	text, js := render(st, res)
	for _, out := range []string{text, js} {
		if strings.Contains(out, "envsecret") {
			t.Errorf("output shows a secret from environ:\n%s", out)
		}
	}
}

type fakeSystemd struct {
	units map[string]*UnitState
	err   error
	asked []string
}

func (f *fakeSystemd) Unit(_ context.Context, name string) (*UnitState, error) {
	f.asked = append(f.asked, name)
	if f.err != nil {
		return nil, f.err
	}
	if u, ok := f.units[name]; ok {
		return u, nil
	}
	return &UnitState{LoadState: "not-found", ActiveState: "inactive"}, nil
}

func TestSystemd(t *testing.T) {
	setup := func(t *testing.T) *tree {
		n := newTree(t)
		n.file("/etc/systemd/system/k3s.service", unitNow, time.Hour)
		n.proc(20, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00traefik\x00", "")
		n.proc(30, 1, "/usr/local/bin/k3s\x00server\x00--disable\x00servicelb\x00", "")
		return n
	}
	cases := []struct {
		name, reason string
		sd           *fakeSystemd
		pid          int
		reload       bool
		stale        []string
		codes        []string
	}{
		{name: "reload-pending", reason: "NeedDaemonReload is authoritative; MainPID picks the process",
			sd:  &fakeSystemd{units: map[string]*UnitState{"k3s.service": {LoadState: "loaded", ActiveState: "active", NeedDaemonReload: true, MainPID: 30}}},
			pid: 30, reload: true, stale: []string{"/etc/systemd/system/k3s.service daemon-reload"}},
		{name: "reloaded", reason: "systemd already reloaded: only a restart is pending",
			sd:  &fakeSystemd{units: map[string]*UnitState{"k3s.service": {LoadState: "loaded", ActiveState: "active", MainPID: 20}}},
			pid: 20, stale: []string{"/etc/systemd/system/k3s.service restart"}},
		{name: "stopped", reason: "no MainPID: not running",
			sd:    &fakeSystemd{units: map[string]*UnitState{"k3s.service": {LoadState: "loaded", ActiveState: "failed"}}},
			codes: []string{"live-not-running"}},
		{name: "no-bus", reason: "an error falls back to /proc and file times",
			sd:  &fakeSystemd{err: errors.New("dial unix /run/dbus/system_bus_socket: no such file")},
			pid: 20, reload: true, stale: []string{"/etc/systemd/system/k3s.service daemon-reload"},
			codes: []string{"live-systemd-unavailable", "live-several-processes"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := setup(t).inspect(nil, tc.sd)
			if diff := cmp.Diff([]string{"k3s.service"}, tc.sd.asked); diff != "" {
				t.Errorf("asked mismatch (-want +got):\n%s", diff)
			}
			pid := 0
			if st.Process != nil {
				pid = st.Process.PID
			}
			if pid != tc.pid || st.DaemonReload != tc.reload {
				t.Errorf("%s: pid %d reload %v, want %d %v", tc.reason, pid, st.DaemonReload, tc.pid, tc.reload)
			}
			if diff := cmp.Diff(tc.stale, staleRows(st)); diff != "" {
				t.Errorf("%s: stale mismatch (-want +got):\n%s", tc.reason, diff)
			}
			for _, c := range tc.codes {
				found := false
				for _, d := range st.Diagnostics {
					found = found || d.Code == c
				}
				if !found {
					t.Errorf("%s: no %s in %v", tc.reason, c, st.Diagnostics)
				}
			}
			if !st.Pending() {
				t.Errorf("%s: not pending", tc.reason)
			}
		})
	}
}

func TestNoProc(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, -time.Hour)
	st, _ := n.inspect(nil, nil)
	if !st.ProcMissing || !st.Pending() {
		t.Errorf("ProcMissing %v Pending %v", st.ProcMissing, st.Pending())
	}
}

func TestUnitStateFromProperties(t *testing.T) {
	unit := map[string]any{"LoadState": "loaded", "ActiveState": "active", "NeedDaemonReload": true, "ActiveEnterTimestamp": uint64(1714550605123456)}
	service := map[string]any{"MainPID": uint32(321), "ExecMainStartTimestamp": uint64(1714550600000000),
		"ExecStart": [][]any{{"/usr/local/bin/k3s", []string{"/usr/local/bin/k3s", "server"}, false, uint64(0), uint64(0), uint64(0), uint64(0), uint32(321), int32(0), int32(0)}}}
	st, err := unitStateFromProperties(unit, service)
	if err != nil {
		t.Fatal(err)
	}
	want := &UnitState{LoadState: "loaded", ActiveState: "active", NeedDaemonReload: true, MainPID: 321,
		ExecStart:   [][]string{{"/usr/local/bin/k3s", "server"}},
		ActiveEnter: time.UnixMicro(1714550605123456).UTC(), ExecMainStart: time.Unix(1714550600, 0).UTC()}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestDBus reads a unit from the real systemd where the machine has a bus.
func TestDBus(t *testing.T) {
	if !HaveSystemBus() {
		t.Skip("no system bus on this machine")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := DialSystemd(ctx)
	if err != nil {
		t.Skipf("system bus present but not usable: %v", err)
	}
	defer d.Close()
	st, err := d.Unit(ctx, "dbus.service")
	if err != nil {
		t.Fatal(err)
	}
	if st.LoadState == "" {
		t.Errorf("no LoadState for dbus.service: %+v", st)
	}
}

func TestCommandMismatch(t *testing.T) {
	n := newTree(t)
	n.file("/etc/systemd/system/k3s.service", unitNow, -time.Hour)
	n.proc(40, 1, "/usr/local/bin/k3s\x00agent\x00--server\x00https://10.0.0.1:6443\x00", "")
	st, _ := n.inspect(nil, nil)
	if st.Process == nil || st.Process.Command != "agent" || len(st.Drift) != 0 {
		t.Fatalf("process %+v drift %+v", st.Process, st.Drift)
	}
	found := false
	for _, d := range st.Diagnostics {
		found = found || d.Code == "live-command-mismatch"
	}
	if !found {
		t.Errorf("no live-command-mismatch in %v", st.Diagnostics)
	}
}
