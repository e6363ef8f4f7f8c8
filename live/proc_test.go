package live

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"
)

func TestParseCmdline(t *testing.T) {
	cases := []struct {
		name, reason string
		raw          string
		argv         []string
		title        string
		hidden       bool
	}{
		{name: "argv", reason: "NUL-separated, NUL-terminated",
			raw: "/usr/local/bin/k3s\x00server\x00--disable\x00traefik\x00", argv: []string{"/usr/local/bin/k3s", "server", "--disable", "traefik"}},
		{name: "empty-argument", reason: "an empty argument in the middle is an argument",
			raw: "/usr/local/bin/k3s\x00server\x00--node-label\x00\x00--debug\x00", argv: []string{"/usr/local/bin/k3s", "server", "--node-label", "", "--debug"}},
		{name: "gspt-title", reason: "k3s's process title: one string with a space, then the zeroed argv area",
			raw: "/usr/local/bin/k3s server\x00\x00\x00\x00\x00\x00\x00\x00", title: "/usr/local/bin/k3s server", hidden: true},
		{name: "title-exact-fit", reason: "a title that fills argv exactly ends in one NUL",
			raw: "/usr/local/bin/k3s agent\x00", title: "/usr/local/bin/k3s agent", hidden: true},
		{name: "kernel-thread", reason: "kernel threads have an empty cmdline", raw: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			argv, title, hidden := parseCmdline([]byte(tc.raw))
			if diff := cmp.Diff(tc.argv, argv); diff != "" {
				t.Errorf("%s: argv mismatch (-want +got):\n%s", tc.reason, diff)
			}
			if title != tc.title || hidden != tc.hidden {
				t.Errorf("%s: got title %q hidden %v, want %q %v", tc.reason, title, hidden, tc.title, tc.hidden)
			}
		})
	}
}

func TestParseStat(t *testing.T) {
	// The command name may hold spaces and parentheses; fields count from the last ')'.
	stat := statLine(4242, "k3s (srv) x", 1, 123456)
	ppid, start, err := parseStat([]byte(stat))
	if err != nil {
		t.Fatal(err)
	}
	if ppid != 1 || start != 123456 {
		t.Errorf("got ppid %d start %d, want 1 123456", ppid, start)
	}
	if _, _, err := parseStat([]byte("12 (x) S 1")); err == nil {
		t.Error("a short stat line parsed without error")
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name, reason string
		argv         []string
		title        string
		want         string
		ok           bool
	}{
		{"server", "the unit's argv", []string{"/usr/local/bin/k3s", "server", "--debug"}, "", "server", true},
		{"flags-first", "app flags before the subcommand", []string{"k3s", "--debug", "agent"}, "", "agent", true},
		{"k3s-server", "the binary the wrapper execs", []string{"/var/lib/rancher/k3s/data/abc/bin/k3s-server", "--token", "x"}, "", "server", true},
		{"kubectl", "other subcommands are not the service", []string{"/usr/local/bin/k3s", "kubectl", "get", "nodes"}, "", "", false},
		{"title", "the process title", nil, "/usr/local/bin/k3s server", "server", true},
		{"containerd", "children are not k3s", []string{"containerd", "-c", "/var/lib/rancher/k3s/agent/etc/containerd/config.toml"}, "", "", false},
		{"rke2-as-k3s", "another product's binary", []string{"/usr/local/bin/rke2", "server"}, "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := classify(procInfo{argv: tc.argv, title: tc.title, hidden: tc.title != ""}, "k3s")
			if got != tc.want || ok != tc.ok {
				t.Errorf("%s: got %q %v, want %q %v", tc.reason, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestFindProcessesPrefersChild(t *testing.T) {
	fsys := afero.NewMemMapFs()
	writeProcStat(t, fsys, 1700000000)
	// A wrapper (pid 10) that started k3s-server as a child (pid 11), and a stray agent.
	writeProc(t, fsys, 10, 1, 500, "/usr/local/bin/k3s\x00server\x00--debug\x00", "")
	writeProc(t, fsys, 11, 10, 510, "/var/lib/rancher/k3s/data/x/bin/k3s-server\x00server\x00--debug\x00", "K3S_TOKEN=s\x00")
	writeProc(t, fsys, 5, 1, 400, "/usr/local/bin/k3s\x00agent\x00", "")
	writeProc(t, fsys, 7, 1, 400, "/usr/bin/sshd\x00", "")
	ps, err := findProcesses(fsys, "k3s", "server", 100)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, p := range ps {
		pids = append(pids, p.PID)
	}
	if diff := cmp.Diff([]int{11, 5, 10}, pids); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
	if want := time.Unix(1700000005, 100_000_000).UTC(); !ps[0].Start.Equal(want) {
		t.Errorf("start %v, want %v", ps[0].Start, want)
	}
	if ps[0].EnvironState != "read" || len(ps[0].Environ) != 1 {
		t.Errorf("environ %q %q", ps[0].EnvironState, ps[0].Environ)
	}
}

func TestFindProcessesNoProc(t *testing.T) {
	_, err := findProcesses(afero.NewMemMapFs(), "k3s", "", 0)
	if err == nil {
		t.Fatal("no error without /proc")
	}
}

func TestClockTicks(t *testing.T) {
	aux := make([]byte, 48)
	binary.LittleEndian.PutUint64(aux[0:], 6) // AT_PAGESZ
	binary.LittleEndian.PutUint64(aux[8:], 4096)
	binary.LittleEndian.PutUint64(aux[16:], 17) // AT_CLKTCK
	binary.LittleEndian.PutUint64(aux[24:], 250)
	if got := ClockTicks(aux); got != 250 {
		t.Errorf("ClockTicks = %d, want 250", got)
	}
	if got := ClockTicks(nil); got != defaultClockTicks {
		t.Errorf("ClockTicks(nil) = %d, want %d", got, defaultClockTicks)
	}
}
