package live

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// defaultClockTicks is USER_HZ, the unit of /proc/<pid>/stat's start time. It is 100 on
// every architecture k3s ships for (x86-64, arm64, arm, s390x, riscv64); the kernel exports
// it as AT_CLKTCK in the auxiliary vector, which [ClockTicks] reads on a live host.
const defaultClockTicks = 100

// Process is a k3s (or RKE2) server or agent found under a node's /proc.
type Process struct {
	PID  int
	PPID int
	// Command is "server" or "agent".
	Command string
	// Argv is the command line as the process got it, argv[0] first; nil when Hidden.
	Argv []string
	// Title is the process title k3s wrote over its argv ("/usr/local/bin/k3s server"),
	// when Hidden.
	Title string
	// Hidden is true when the process overwrote its argv (and environment) with a process
	// title, as k3s server and agent do right after they start (pkg/cli/server/server.go,
	// pkg/cli/agent/agent.go: proctitle.SetProcTitle(os.Args[0] + " server"), "to hide
	// process arguments from ps output, since they may contain database credentials").
	Hidden bool
	// Environ is the process environment, nil when it cannot be read or was overwritten.
	// Its values may be secrets: never print them.
	Environ []string
	// EnvironState: "read", "unreadable" (permission), "hidden" (overwritten by the process
	// title), "missing".
	EnvironState string
	// Start is when the process started: btime + starttime/USER_HZ, to the second.
	Start time.Time
	// StartKnown is false when stat or btime could not be read.
	StartKnown bool
}

// procInfo is what one /proc/<pid> directory tells.
type procInfo struct {
	pid, ppid  int
	argv       []string
	title      string
	hidden     bool
	startTicks uint64
	statOK     bool
}

// findProcesses lists the k3s server and agent processes under fsys's /proc for the given
// program name ("k3s", "rke2"), the preferred one first: a child whose parent is also a
// candidate (the k3s-server that parses the config, not a wrapper that started it), then the
// process whose command matches want ("server", "agent"; "" for either), then the lowest pid.
// A missing /proc gives no processes and an error that wraps fs.ErrNotExist.
func findProcesses(fsys afero.Fs, program, want string, clockTicks int) ([]*Process, error) {
	if clockTicks <= 0 {
		clockTicks = defaultClockTicks
	}
	d, err := fsys.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("reading /proc: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("reading /proc: %w", err)
	}
	btime, btimeErr := bootTime(fsys)
	var found []*Process
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		pi, ok := readProc(fsys, pid)
		if !ok {
			continue
		}
		cmd, ok := classify(pi, program)
		if !ok {
			continue
		}
		p := &Process{PID: pid, PPID: pi.ppid, Command: cmd, Argv: pi.argv, Title: pi.title, Hidden: pi.hidden}
		if pi.statOK && btimeErr == nil {
			p.Start = btime.Add(ticksToDuration(pi.startTicks, clockTicks)).UTC()
			p.StartKnown = true
		}
		p.Environ, p.EnvironState = readEnviron(fsys, pid, pi.hidden)
		found = append(found, p)
	}
	isParent := map[int]bool{}
	for _, p := range found {
		isParent[p.PPID] = true
	}
	pids := map[int]bool{}
	for _, p := range found {
		pids[p.PID] = true
	}
	rank := func(p *Process) int {
		r := 0
		if pids[p.PPID] {
			r -= 4 // a child of another candidate: the process that parsed the config
		}
		if isParent[p.PID] {
			r += 2
		}
		if want != "" && p.Command != want {
			r++
		}
		return r
	}
	sort.SliceStable(found, func(i, j int) bool {
		ri, rj := rank(found[i]), rank(found[j])
		if ri != rj {
			return ri < rj
		}
		return found[i].PID < found[j].PID
	})
	return found, nil
}

// readProcess reads one pid (the MainPID systemd reports) whatever its command line says.
// ok is false when /proc/<pid> does not exist.
func readProcess(fsys afero.Fs, program string, pid, clockTicks int) (*Process, bool) {
	if clockTicks <= 0 {
		clockTicks = defaultClockTicks
	}
	pi, ok := readProc(fsys, pid)
	if !ok {
		return nil, false
	}
	cmd, _ := classify(pi, program)
	p := &Process{PID: pid, PPID: pi.ppid, Command: cmd, Argv: pi.argv, Title: pi.title, Hidden: pi.hidden}
	if btime, err := bootTime(fsys); err == nil && pi.statOK {
		p.Start = btime.Add(ticksToDuration(pi.startTicks, clockTicks)).UTC()
		p.StartKnown = true
	}
	p.Environ, p.EnvironState = readEnviron(fsys, pid, pi.hidden)
	return p, true
}

func ticksToDuration(ticks uint64, hz int) time.Duration {
	sec := ticks / uint64(hz)
	rem := ticks % uint64(hz)
	return time.Duration(sec)*time.Second + time.Duration(rem)*time.Second/time.Duration(hz)
}

func readProc(fsys afero.Fs, pid int) (procInfo, bool) {
	dir := path.Join("/proc", strconv.Itoa(pid))
	raw, err := afero.ReadFile(fsys, dir+"/cmdline")
	if err != nil {
		return procInfo{}, false
	}
	pi := procInfo{pid: pid}
	pi.argv, pi.title, pi.hidden = parseCmdline(raw)
	if st, err := afero.ReadFile(fsys, dir+"/stat"); err == nil {
		if ppid, start, err := parseStat(st); err == nil {
			pi.ppid, pi.startTicks, pi.statOK = ppid, start, true
		}
	}
	return pi, true
}

// parseCmdline splits /proc/<pid>/cmdline. A process that rewrote its title (setproctitle,
// as k3s does through github.com/erikdubbelboer/gspt) leaves one string with spaces followed
// by NUL padding where its arguments were: that is reported as a title, not an argv.
func parseCmdline(raw []byte) (argv []string, title string, hidden bool) {
	parts := strings.Split(string(raw), "\x00")
	// The last argument ends in a NUL; setproctitle leaves a run of them.
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return nil, "", false // a kernel thread or a zombie
	}
	// gspt zeroes the whole argv and environment area, so anything after the title is an
	// empty string; a genuine argv has no empty strings in the middle unless the command
	// was given empty arguments, and never a single word with spaces and nothing else.
	rest := parts[1:]
	allEmpty := true
	for _, r := range rest {
		if r != "" {
			allEmpty = false
		}
	}
	if allEmpty && strings.Contains(parts[0], " ") {
		return nil, parts[0], true
	}
	return parts, "", false
}

// parseStat reads the parent pid (field 4) and the start time (field 22, clock ticks since
// boot) of /proc/<pid>/stat. The command name (field 2) is in parentheses and may contain
// spaces and parentheses itself, so fields are counted from the last ')'.
func parseStat(b []byte) (ppid int, start uint64, err error) {
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, errors.New("stat: no command name")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); field n is f[n-3].
	if len(f) < 20 {
		return 0, 0, errors.New("stat: too few fields")
	}
	ppid, err = strconv.Atoi(f[4-3])
	if err != nil {
		return 0, 0, fmt.Errorf("stat: ppid: %w", err)
	}
	start, err = strconv.ParseUint(f[22-3], 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("stat: starttime: %w", err)
	}
	return ppid, start, nil
}

// bootTime is the btime line of /proc/stat: when the machine booted, in seconds since the
// epoch.
func bootTime(fsys afero.Fs) (time.Time, error) {
	b, err := afero.ReadFile(fsys, "/proc/stat")
	if err != nil {
		return time.Time{}, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}, fmt.Errorf("/proc/stat btime: %w", err)
			}
			return time.Unix(n, 0).UTC(), nil
		}
	}
	return time.Time{}, errors.New("/proc/stat has no btime line")
}

// readEnviron reads /proc/<pid>/environ. Only root (or the process's owner) may; k3s also
// zeroes it together with its argv when it sets its process title.
func readEnviron(fsys afero.Fs, pid int, hidden bool) ([]string, string) {
	b, err := afero.ReadFile(fsys, path.Join("/proc", strconv.Itoa(pid), "environ"))
	switch {
	case errors.Is(err, fs.ErrPermission):
		return nil, "unreadable"
	case errors.Is(err, fs.ErrNotExist):
		return nil, "missing"
	case err != nil:
		return nil, "unreadable"
	}
	if hidden {
		// gspt zeroes the environment block together with the argv; whatever is left is
		// the end of the title, not variables.
		return nil, "hidden"
	}
	var env []string
	for _, kv := range strings.Split(string(b), "\x00") {
		if strings.Contains(kv, "=") {
			env = append(env, kv)
		}
	}
	if len(env) == 0 && len(bytes.Trim(b, "\x00")) > 0 {
		return nil, "hidden"
	}
	return env, "read"
}

// classify says whether a process is the given program's server or agent: argv[0] named
// program, program-server or program-agent (the binary the multicall wrapper execs), or a
// process title "…/program server".
func classify(pi procInfo, program string) (string, bool) {
	words := pi.argv
	if pi.hidden {
		words = strings.Fields(pi.title)
	}
	if len(words) == 0 {
		return "", false
	}
	base := path.Base(words[0])
	switch base {
	case program + "-server":
		return "server", true
	case program + "-agent":
		return "agent", true
	case program:
	default:
		return "", false
	}
	// The first non-flag word is the subcommand (flags before it, k3s --debug server, are
	// allowed).
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if w == "server" || w == "agent" {
			return w, true
		}
		return "", false
	}
	return "", false
}

// ClockTicks reads USER_HZ from an auxiliary vector (/proc/self/auxv of the machine k3sconf
// runs on: AT_CLKTCK, type 17), for 64-bit little-endian hosts; defaultClockTicks otherwise.
func ClockTicks(auxv []byte) int {
	const atClkTck = 17
	for i := 0; i+16 <= len(auxv); i += 16 {
		typ := binary.LittleEndian.Uint64(auxv[i:])
		val := binary.LittleEndian.Uint64(auxv[i+8:])
		if typ == 0 {
			break
		}
		if typ == atClkTck && val > 0 && val < 1_000_000 {
			return int(val)
		}
	}
	return defaultClockTicks
}
