package live

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// defaultSlack is how much later than the process start a file may be modified and still
// count as read by it: the start time is known to the second only (btime is whole seconds),
// and installers write a file and start k3s within the same second.
const defaultSlack = 2 * time.Second

// Options say what to compare.
type Options struct {
	// Node is the node's filesystem, as for resolve (k3sconf.Node(root)); its /proc is read.
	Node afero.Fs
	// Resolve are the options that produced Today. Inspect resolves the running process's
	// argv with them (Args, Env and FS replaced).
	Resolve resolve.Options
	// Today is the resolution of the node's files as they are now.
	Today *resolve.Result
	// NodeJSON is the node object (`kubectl get node NAME -o json`), optional.
	NodeJSON []byte
	// Systemd, when set, is asked about the unit; use it only for the machine k3sconf runs
	// on (--root /). Nil: files and /proc only.
	Systemd Systemd
	// ClockTicks is USER_HZ for /proc/<pid>/stat; 0 means 100, its value on most Linux machines.
	ClockTicks int
	// Slack: see defaultSlack; 0 means two seconds.
	Slack time.Duration
}

// Stale is a source file modified after the running process started.
type Stale struct {
	Role     string    `json:"role"`
	Path     string    `json:"path"`
	Modified time.Time `json:"modified"`
	// Action is "restart", or "daemon-reload" for a unit file or drop-in (systemd reads
	// those only on daemon-reload; env and config files are read when k3s starts).
	Action string `json:"action"`
	// Why says what changed ("a drop-in was added, removed or renamed" for a folder).
	Why string `json:"why,omitempty"`
}

// Drift is a key whose running value differs from the value the files give now.
type Drift struct {
	Key string `json:"key"`
	// Running and Today are the values (string, bool, number or list of strings), redacted
	// when rendered.
	Running any `json:"running"`
	// RunningFrom says where the running value was read: "/proc/1234/cmdline",
	// "node annotation k3s.io/node-args", ….
	RunningFrom string `json:"runningFrom"`
	Today       any    `json:"today"`
	// TodayFrom is the origin of today's value: "config /etc/rancher/k3s/config.yaml:3:10"
	// or "default".
	TodayFrom string `json:"todayFrom"`
	// Via is "process" (from /proc) or "annotation" (from --node-json).
	Via string `json:"via"`
	// Note qualifies the comparison (a config file changed since the start, so a value
	// read from it is today's, not necessarily the running one).
	Note string `json:"note,omitempty"`

	secret bool
	name   string
}

// KeyInFile is a key set in a file that changed after the process started: its running
// value may differ from today's even where the running value cannot be read.
type KeyInFile struct {
	Key  string `json:"key"`
	File string `json:"file"`
	Pos  string `json:"at"`
}

// Status compares what runs with what the node's files say now.
type Status struct {
	Product string
	Command string
	Unit    string
	// Process is the running k3s, nil when none was found.
	Process *Process
	// ProcMissing is true when the node has no /proc to read (a support bundle without one).
	ProcMissing bool
	// OtherPIDs are further candidate processes, not compared.
	OtherPIDs []int
	// Start is when the running process started; StartFrom how that is known.
	Start     time.Time
	StartFrom string
	// Systemd is the unit as systemd has it loaded, nil without a bus.
	Systemd *UnitState
	// Stale lists the source files modified after the process started.
	Stale []Stale
	// DaemonReload is true when systemd must reload the unit before a restart applies it;
	// DaemonReloadWhy says how that is known.
	DaemonReload    bool
	DaemonReloadWhy string
	// RunningArgs is the running process's command line without argv[0] (nil when k3s
	// hid it); UnitArgs the command line the unit gives now.
	RunningArgs, UnitArgs []string
	// ArgsOnlyRunning and ArgsOnlyUnit are the arguments in one and not the other.
	ArgsOnlyRunning, ArgsOnlyUnit []string
	// Annotations are the node object's annotations, when NodeJSON was given.
	Annotations *Annotations
	// AnnotationOnly and TodayOnly are the words of the node-args annotation and of today's
	// spliced argv (split and redacted the way k3s writes the annotation) found in one and
	// not the other.
	AnnotationOnly, TodayOnly []string
	// Drift lists the keys whose running value differs from today's.
	Drift []Drift
	// NotCompared are keys k3s redacted in the annotation ("********"): their running value
	// is unknown.
	NotCompared []string
	// MayChange are keys set in stale files (not already in Drift).
	MayChange   []KeyInFile
	Diagnostics diag.Diagnostics

	// Today is Options.Today, the files' resolution now; FromProcess is the running
	// process's command line and environment resolved against today's config files (nil
	// without a process whose argv k3s shows); FromAnnotation is the node annotation
	// resolved on an empty filesystem (nil without Options.NodeJSON). Drift compares them.
	Today, FromProcess, FromAnnotation *resolve.Result

	procStaleConfig bool
	prof            *profile.Profile
}

// Pending reports whether anything is waiting for a daemon-reload or restart, or whether
// the running state could not be established at all (no process, no annotation).
func (s *Status) Pending() bool {
	if len(s.Stale) > 0 || s.DaemonReload || len(s.Drift) > 0 {
		return true
	}
	return s.Process == nil && s.FromAnnotation == nil
}

// Inspect finds the running process and compares it with today's resolution.
func Inspect(opts Options) (*Status, error) {
	if opts.Today == nil {
		return nil, errors.New("live: Options.Today is nil")
	}
	if opts.Node == nil {
		opts.Node = afero.NewReadOnlyFs(afero.NewOsFs())
	}
	if opts.Slack == 0 {
		opts.Slack = defaultSlack
	}
	prof := opts.Resolve.Profile
	if prof == nil {
		p, err := profile.ByName(opts.Today.Product)
		if err != nil {
			return nil, fmt.Errorf("live: %w", err)
		}
		prof = p
	}
	today := opts.Today
	s := &Status{Product: today.Product, Command: today.Command, Unit: today.Unit, Today: today, prof: prof}
	program := prof.Program
	if program == "" {
		program = today.Product
	}

	unitName := path.Base(today.Unit)
	if today.Unit == "" {
		unitName = prof.Units[today.Command]
	}
	if opts.Systemd != nil && unitName != "" {
		st, err := opts.Systemd.Unit(context.Background(), unitName)
		if err != nil {
			s.diag(diag.Info, "live-systemd-unavailable", diag.Position{}, "",
				fmt.Sprintf("could not ask systemd about %s (%v); reading /proc and file times instead", unitName, err), "")
		} else {
			s.Systemd = st
		}
	}

	s.findProcess(opts, program)
	s.staleness(opts)
	s.compareArgv(opts)
	if err := s.compareProcess(opts, prof); err != nil {
		return nil, err
	}
	if opts.NodeJSON != nil {
		if err := s.compareAnnotation(opts, prof, program); err != nil {
			return nil, err
		}
	}
	s.mayChange()
	for _, d := range s.Drift {
		s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "live-value-differs", Key: d.Key,
			Message: fmt.Sprintf("%s: the running value (%s) differs from the value the files give now (%s)", d.Key, d.RunningFrom, d.TodayFrom),
			Hint:    "restart " + unitName + " to apply the files, or change the files back"})
	}
	return s, nil
}

func (s *Status) diag(sev diag.Severity, code string, pos diag.Position, key, msg, hint string) {
	s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: sev, Code: code, Pos: pos, Key: key, Message: msg, Hint: hint})
}

// findProcess picks the running process: systemd's MainPID when systemd is asked, else the
// best candidate under /proc.
func (s *Status) findProcess(opts Options, program string) {
	ticks := opts.ClockTicks
	if st := s.Systemd; st != nil {
		if st.MainPID == 0 {
			s.diag(diag.Warning, "live-not-running", diag.Position{}, "",
				fmt.Sprintf("systemd reports %s %s (%s) with no main process: nothing is running", s.UnitName(), st.ActiveState, st.LoadState),
				"start it: systemctl start "+s.UnitName())
			return
		}
		if p, ok := readProcess(opts.Node, program, st.MainPID, ticks); ok {
			s.Process = p
			s.setStart()
			return
		}
	}
	ps, err := findProcesses(opts.Node, program, s.Command, ticks)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			s.ProcMissing = true
			s.diag(diag.Info, "live-no-proc", diag.Position{File: "/proc"}, "",
				"the node has no /proc to read, so the running process cannot be compared with the files",
				"run k3sconf on the node itself, include proc/<pid>/{cmdline,environ,stat} and proc/stat in the bundle, or pass --node-json")
			return
		}
		s.diag(diag.Info, "live-no-proc", diag.Position{File: "/proc"}, "", err.Error(), "run k3sconf with sudo")
		return
	}
	if len(ps) == 0 {
		s.diag(diag.Warning, "live-not-running", diag.Position{File: "/proc"}, "",
			fmt.Sprintf("no %s server or agent process found under /proc", program),
			"start it: systemctl start "+s.UnitName())
		return
	}
	s.Process = ps[0]
	for _, p := range ps[1:] {
		s.OtherPIDs = append(s.OtherPIDs, p.PID)
	}
	if len(s.OtherPIDs) > 0 {
		s.diag(diag.Info, "live-several-processes", diag.Position{}, "",
			fmt.Sprintf("%d %s processes found; comparing pid %d (%s), not %v", len(ps), program, s.Process.PID, s.Process.Command, s.OtherPIDs), "")
	}
	s.setStart()
}

func (s *Status) setStart() {
	p := s.Process
	switch {
	case p.StartKnown:
		s.Start, s.StartFrom = p.Start, fmt.Sprintf("/proc/%d/stat", p.PID)
	case s.Systemd != nil && !s.Systemd.ExecMainStart.IsZero():
		s.Start, s.StartFrom = s.Systemd.ExecMainStart, "systemd ExecMainStartTimestamp"
	case s.Systemd != nil && !s.Systemd.ActiveEnter.IsZero():
		s.Start, s.StartFrom = s.Systemd.ActiveEnter, "systemd ActiveEnterTimestamp"
	}
	if s.Start.IsZero() {
		s.diag(diag.Info, "live-start-unknown", diag.Position{File: fmt.Sprintf("/proc/%d/stat", p.PID)}, "",
			"the process start time is unknown (no readable /proc/<pid>/stat or btime in /proc/stat), so file times cannot be compared with it", "")
	}
	if p.Command != "" && p.Command != s.Command {
		s.diag(diag.Warning, "live-command-mismatch", diag.Position{}, "",
			fmt.Sprintf("the running process is %s %s, but the files were resolved for %s %s; its values are not compared", s.Product, p.Command, s.Product, s.Command),
			"pass --command "+p.Command+" (or --unit) to compare with the running "+p.Command)
	}
	if p.Hidden {
		s.diag(diag.Info, "live-argv-hidden", diag.Position{File: fmt.Sprintf("/proc/%d/cmdline", p.PID)}, "",
			fmt.Sprintf("%s replaced its command line and environment with the process title %q, so the running values cannot be read from /proc", s.Product, p.Title),
			"pass --node-json FILE (kubectl get node NAME -o json) to compare with what k3s recorded at its start")
	}
}

// UnitName is the name of the systemd unit that runs the product: the unit file's, else the
// profile's ("k3s.service").
func (s *Status) UnitName() string {
	if s.Unit != "" {
		return path.Base(s.Unit)
	}
	return s.Product + ".service"
}

// staleness compares each source's modification time with the process start.
func (s *Status) staleness(opts Options) {
	if s.Start.IsZero() {
		if s.Systemd != nil && s.Systemd.NeedDaemonReload {
			s.DaemonReload, s.DaemonReloadWhy = true, "systemd reports NeedDaemonReload=yes"
		}
		return
	}
	after := s.Start.Add(opts.Slack)
	unitChanged := false
	seenDirs := map[string]bool{}
	check := func(role, p, action, why string) {
		fi, err := opts.Node.Stat(p)
		if err != nil {
			return
		}
		if mt := fi.ModTime(); mt.After(after) {
			s.Stale = append(s.Stale, Stale{Role: role, Path: p, Modified: mt.UTC(), Action: action, Why: why})
			if action == "daemon-reload" {
				unitChanged = true
			}
		}
	}
	for _, src := range s.Today.Sources {
		if src.State != "read" || src.Path == "" {
			continue
		}
		action := "restart"
		switch src.Role {
		case "unit", "unit-dropin":
			action = "daemon-reload"
		case "envfile", "config", "config-dropin":
		default:
			continue
		}
		check(src.Role, src.Path, action, "")
		// A drop-in added, removed or renamed changes its folder's time.
		var dir, dirRole string
		switch src.Role {
		case "unit", "unit-dropin":
			dir, dirRole = path.Join(path.Dir(src.Path), s.UnitName()+".d"), "unit-dropin-dir"
			if src.Role == "unit-dropin" {
				dir = path.Dir(src.Path)
			}
		case "config":
			dir, dirRole = src.Path+".d", "config-dropin-dir"
		case "config-dropin":
			dir, dirRole = path.Dir(src.Path), "config-dropin-dir"
		}
		if dir != "" && !seenDirs[dir] {
			seenDirs[dir] = true
			a := "restart"
			if dirRole == "unit-dropin-dir" {
				a = "daemon-reload"
			}
			check(dirRole, dir, a, "a drop-in was added, removed or renamed")
		}
	}
	sort.SliceStable(s.Stale, func(i, j int) bool { return s.Stale[i].Path < s.Stale[j].Path })
	if s.Systemd != nil && !s.Systemd.NeedDaemonReload {
		// systemd has loaded the edited unit already: only the restart is pending.
		for i := range s.Stale {
			s.Stale[i].Action = "restart"
		}
		unitChanged = false
	}
	for _, st := range s.Stale {
		msg := fmt.Sprintf("%s changed after %s started (modified %s, started %s): restart needed", st.Path, s.Product, fmtTime(st.Modified), fmtTime(s.Start))
		if st.Why != "" {
			msg = fmt.Sprintf("%s changed after %s started (%s; modified %s, started %s): restart needed", st.Path, s.Product, st.Why, fmtTime(st.Modified), fmtTime(s.Start))
		}
		hint := "systemctl restart " + s.UnitName()
		if st.Action == "daemon-reload" {
			hint = "systemctl daemon-reload first, then systemctl restart " + s.UnitName()
		}
		s.diag(diag.Warning, "live-restart-needed", diag.Position{File: st.Path}, "", msg, hint)
	}
	switch {
	case s.Systemd != nil && s.Systemd.NeedDaemonReload:
		s.DaemonReload, s.DaemonReloadWhy = true, "systemd reports NeedDaemonReload=yes for "+s.UnitName()
	case s.Systemd != nil:
		// systemd has reloaded since the edit; only the restart is pending.
	case unitChanged:
		s.DaemonReload, s.DaemonReloadWhy = true, "the unit or a unit drop-in changed after the process started (without D-Bus k3sconf cannot tell whether systemctl daemon-reload has run since)"
	}
	if s.DaemonReload {
		s.diag(diag.Warning, "live-daemon-reload-needed", diag.Position{File: s.Unit}, "",
			"systemd has not loaded the current unit: "+s.DaemonReloadWhy+"; a restart alone would start k3s with the old ExecStart and Environment",
			"systemctl daemon-reload, then systemctl restart "+s.UnitName())
	}
}

// compareArgv compares the running command line (when k3s did not hide it) with the
// command line the unit gives now. The running process's cmdline holds only the command
// line: k3s splices config-file values into its own copy of argv (pkg/configfilearg) and
// never into the kernel's.
func (s *Status) compareArgv(opts Options) {
	for _, a := range s.Today.Args {
		if a.Kind == sources.KindCLI {
			s.UnitArgs = append(s.UnitArgs, a.Value)
		}
	}
	p := s.Process
	if p == nil || p.Hidden || len(p.Argv) == 0 {
		return
	}
	s.RunningArgs = append([]string{}, p.Argv[1:]...)
	// "--disable traefik" and "--disable=traefik" are the same argument to the parser.
	join := func(ws []string) []string { return joinArgs(splitArgs(ws), s.flagKind) }
	s.ArgsOnlyRunning, s.ArgsOnlyUnit = multisetDiff(join(s.RunningArgs), join(s.UnitArgs))
	if len(s.ArgsOnlyRunning)+len(s.ArgsOnlyUnit) > 0 {
		s.diag(diag.Info, "live-argv-differs", diag.Position{File: fmt.Sprintf("/proc/%d/cmdline", p.PID)}, "",
			fmt.Sprintf("the running command line differs from the one %s gives now", s.UnitName()), "")
	}
}

// compareProcess resolves the running command line against today's config files (the only
// config k3sconf can read) and compares key by key. Values the command line or the process
// environment set are exact; values from config files are today's, which is what the
// process read only if the files have not changed since it started.
func (s *Status) compareProcess(opts Options, prof *profile.Profile) error {
	p := s.Process
	if p == nil || p.Hidden || len(p.Argv) < 2 || (p.Command != "" && p.Command != s.Command) {
		return nil
	}
	ro := opts.Resolve
	ro.Profile = prof
	ro.Command = s.Command
	ro.Args = append([]string{}, p.Argv[1:]...)
	ro.FS = opts.Node
	ro.Env = nil
	if p.EnvironState == "read" {
		// The process's own environment replaces the unit's: hide the unit so that
		// variables added to it since the start do not count as running.
		ro.Unit = ""
		ro.FS = hideUnit{Fs: opts.Node, names: unitNames(prof, s.Command, s.Unit)}
		env := fmt.Sprintf("/proc/%d/environ", p.PID)
		for i, kv := range p.Environ {
			n, v, _ := strings.Cut(kv, "=")
			ro.Env = append(ro.Env, sources.EnvAssignment{Name: n, Value: v, Raw: kv, Pos: diag.Position{File: env, Line: i + 1}})
		}
	}
	res, err := resolve.Resolve(ro)
	if err != nil {
		return fmt.Errorf("live: resolving the running command line: %w", err)
	}
	s.FromProcess = res
	for _, st := range s.Stale {
		if st.Role == "config" || st.Role == "config-dropin" || st.Role == "config-dropin-dir" {
			s.procStaleConfig = true
		}
	}
	from := func(a *resolve.Assignment) string {
		switch {
		case a == nil:
			return "default"
		case a.Kind == sources.KindCLI:
			return fmt.Sprintf("/proc/%d/cmdline", p.PID)
		case a.Kind == sources.KindEnv && p.EnvironState == "read":
			return fmt.Sprintf("/proc/%d/environ %s", p.PID, a.Name)
		}
		return string(a.Kind) + " " + a.Pos.String() + " (as the file is now)"
	}
	for _, d := range s.compareKeys(res, "process", from) {
		if s.procStaleConfig && (fromConfig(res.Key(d.Key)) || fromConfig(s.Today.Key(d.Key))) {
			d.Note = "config files changed after the start: the running value is shown as the config files are now, not as k3s read them"
		}
		s.Drift = append(s.Drift, d)
	}
	return nil
}

// compareAnnotation resolves the node-args annotation (the spliced argv, config values
// included) on an empty filesystem with the node-env variables, so nothing of today's files
// takes part, and compares key by key.
func (s *Status) compareAnnotation(opts Options, prof *profile.Profile, program string) error {
	ann, err := parseNodeJSON(opts.NodeJSON, program)
	if err != nil {
		return fmt.Errorf("--node-json: %w", err)
	}
	s.Annotations = ann
	if !ann.HasArgs {
		s.diag(diag.Warning, "live-annotation-missing", diag.Position{}, "",
			fmt.Sprintf("node %s has no %s.io/node-args annotation: k3s writes it from the agent once the node registers (a server with --disable-agent has none)", ann.Node, program), "")
		return nil
	}
	ro := opts.Resolve
	ro.Profile = prof
	ro.Command = s.Command
	res, args, err := ResolveAnnotations(ann, ro)
	if err != nil {
		return err
	}
	s.FromAnnotation = res
	argsFrom := "node annotation " + program + ".io/node-args"
	from := func(a *resolve.Assignment) string {
		switch {
		case a == nil:
			return "default"
		case a.Kind == sources.KindEnv:
			return "node annotation " + program + ".io/node-env " + a.Name
		}
		return argsFrom
	}
	s.Drift = append(s.Drift, s.compareKeys(res, "annotation", from)...)
	// Argument by argument: today's spliced argv written the way k3s writes the
	// annotation, then both joined back into "--flag=value" arguments.
	todayWords := joinArgs(splitLikeK3s(tokenValues(s.Today.Args)), s.flagKind)
	s.AnnotationOnly, s.TodayOnly = multisetDiff(args, todayWords)
	return nil
}

// ResolveAnnotations resolves a node's node-args annotation (the spliced argv, config values
// included) with its node-env variables on an empty filesystem, so nothing of any node's
// files takes part: the configuration the node last started with, parsed by the CLI layer
// of ro.Version. ro.Profile and ro.Command must be set; ro's FS, Unit, Config, Args and Env
// are replaced. It also returns the argv as resolved (the annotation's words joined back
// into "--flag=value" arguments).
func ResolveAnnotations(ann *Annotations, ro resolve.Options) (*resolve.Result, []string, error) {
	prof := ro.Profile
	args := joinArgs(ann.Args, func(name string) argKind { return flagKindOf(prof, ro.Command, name) })
	ro.Args = args
	ro.Unit = ""
	ro.Config = ""
	ro.Env = nil
	program := ann.Program
	if program == "" {
		program = prof.Program
	}
	envPos := diag.Position{File: "node annotation " + program + ".io/node-env"}
	names := make([]string, 0, len(ann.Env))
	for n := range ann.Env {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == prof.EnvPrefix+"_DATA_DIR" && wrapperDataDir.MatchString(ann.Env[n]) {
			// Before k3s-io/k3s a26a5ab1d (July 2024) the multicall wrapper exported the
			// extracted bundle's folder as K3S_DATA_DIR to k3s-server; it is not the
			// operator's --data-dir.
			continue
		}
		ro.Env = append(ro.Env, sources.EnvAssignment{Name: n, Value: ann.Env[n], Raw: n + "=" + ann.Env[n], Pos: envPos})
	}
	mem := afero.NewMemMapFs()
	ro.FS = mem
	res, err := resolve.Resolve(ro)
	if err != nil {
		return nil, nil, fmt.Errorf("live: resolving the node-args annotation: %w", err)
	}
	if res.ConfigPath != "" && res.Error != "" {
		// An explicitly named config file that does not exist is fatal in older k3s; the
		// annotation already holds its values, so an empty one stands in for it.
		_ = afero.WriteFile(mem, res.ConfigPath, nil, 0o644)
		if res2, err := resolve.Resolve(ro); err == nil {
			res = res2
		}
	}
	return res, args, nil
}

// flagKind says whether the command's flag takes a value, for joinArgs.
func (s *Status) flagKind(name string) argKind { return flagKindOf(s.prof, s.Command, name) }

func flagKindOf(prof *profile.Profile, command, name string) argKind {
	cmd := prof.Command(command)
	if cmd == nil {
		return unknownArg
	}
	f := cmd.Lookup(name)
	switch {
	case f == nil:
		return unknownArg
	case f.Type == profile.Bool:
		return boolArg
	}
	return valueArg
}

// compareKeys compares each key of the running resolution with today's.
func (s *Status) compareKeys(running *resolve.Result, via string, from func(*resolve.Assignment) string) []Drift {
	var out []Drift
	for _, k := range s.Today.Keys {
		rk := running.Key(k.Name())
		if rk == nil {
			continue
		}
		if equalValues(rk.Value, k.Value) {
			continue
		}
		if via == "annotation" && mentionsOmitted(rk) {
			if !contains(s.NotCompared, k.Name()) {
				s.NotCompared = append(s.NotCompared, k.Name())
			}
			continue
		}
		out = append(out, Drift{Key: k.Name(), Running: rk.Value, RunningFrom: from(rk.Source), Today: k.Value,
			TodayFrom: origin(k.Source), Via: via, secret: k.Flag.Secret, name: k.Name()})
	}
	return out
}

// mayChange lists keys with an assignment in a stale file.
func (s *Status) mayChange() {
	stale := map[string]bool{}
	for _, st := range s.Stale {
		stale[st.Path] = true
	}
	if len(stale) == 0 {
		return
	}
	drifted := map[string]bool{}
	for _, d := range s.Drift {
		drifted[d.Key] = true
	}
	for _, k := range s.Today.Keys {
		if drifted[k.Name()] {
			continue
		}
		for _, a := range k.History {
			if a.Kind != sources.KindDefault && stale[a.Pos.File] {
				s.MayChange = append(s.MayChange, KeyInFile{Key: k.Name(), File: a.Pos.File, Pos: a.Pos.String()})
				break
			}
		}
	}
}

// Value is the running value of key, rendered for text output and redacted unless
// showSecrets, and where it was read. ok is false when no running value is known (no
// process, k3s hid its argv and no annotation was given, or k3s redacted it). The
// annotation, which holds config-file values as read at the start, wins over /proc.
func (s *Status) Value(key string, showSecrets bool) (value, from string, ok bool) {
	if res := s.FromAnnotation; res != nil {
		if k := res.Key(key); k != nil && !mentionsOmitted(k) {
			red := report.NewRedactor(res, showSecrets)
			return report.FormatValue(report.KeyValue(k, red)), "node annotation", true
		}
	}
	if res := s.FromProcess; res != nil {
		if k := res.Key(key); k != nil {
			red := report.NewRedactor(res, showSecrets)
			from := fmt.Sprintf("/proc/%d", s.Process.PID)
			if k.Source != nil && k.Source.Kind == sources.KindConfig && s.procStaleConfig {
				return "", "", false
			}
			return report.FormatValue(report.KeyValue(k, red)), from, true
		}
	}
	return "", "", false
}

// wrapperDataDir matches the bundle folder the old wrapper exported: <data-dir>/data/<hash>.
var wrapperDataDir = regexp.MustCompile(`/data/[0-9a-f]{16,}/?$`)

// k3sSecretArgs are the words after which k3s writes OmittedValue in node-args
// (pkg/nodeconfig/nodeconfig.go isSecret).
var k3sSecretArgs = []string{"--token", "-t", "--agent-token", "--datastore-endpoint", "--etcd-s3-access-key", "--etcd-s3-secret-key", "--vpn-auth"}

// splitLikeK3s renders an argv the way k3s writes its node-args annotation
// (pkg/nodeconfig getNodeArgs): each "-x=v" becomes "-x", "v", and the word after a secret
// flag becomes OmittedValue.
func splitLikeK3s(args []string) []string {
	out := splitArgs(args)
	for i, a := range out {
		if contains(k3sSecretArgs, a) && i+1 < len(out) {
			out[i+1] = OmittedValue
		}
	}
	return out
}

// splitArgs splits each "-x=v" into "-x", "v".
func splitArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && strings.Contains(a, "=") {
			n, v, _ := strings.Cut(a, "=")
			out = append(out, n, v)
			continue
		}
		out = append(out, a)
	}
	return out
}

func tokenValues(args []resolve.Arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.Value
	}
	return out
}

// mentionsOmitted reports whether the key's value came from a word k3s redacted.
func mentionsOmitted(k *resolve.Key) bool {
	for _, a := range k.History {
		if a.Value == OmittedValue || strings.Contains(a.Value, OmittedValue) {
			return true
		}
		for _, it := range a.Items {
			if it == OmittedValue {
				return true
			}
		}
	}
	switch v := k.Value.(type) {
	case string:
		return v == OmittedValue
	case []string:
		return contains(v, OmittedValue)
	}
	return false
}

func fromConfig(k *resolve.Key) bool {
	return k != nil && k.Source != nil && k.Source.Kind == sources.KindConfig
}

func equalValues(a, b any) bool {
	return report.FormatValue(a) == report.FormatValue(b)
}

func origin(a *resolve.Assignment) string {
	if a == nil {
		return "default"
	}
	return string(a.Kind) + " " + a.Pos.String()
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// multisetDiff returns the words of a not in b and of b not in a, counting repeats.
func multisetDiff(a, b []string) (onlyA, onlyB []string) {
	return multisetMinus(a, b), multisetMinus(b, a)
}

// multisetMinus returns the words of a left after taking away one for each word of b.
func multisetMinus(a, b []string) []string {
	count := map[string]int{}
	for _, w := range b {
		count[w]++
	}
	var left []string
	for _, w := range a {
		if count[w] > 0 {
			count[w]--
			continue
		}
		left = append(left, w)
	}
	return left
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// unitNames are the unit file names the resolver would look for.
func unitNames(p *profile.Profile, cmd, unit string) map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{p.Units[cmd], path.Base(unit)} {
		if n != "" && n != "." {
			m[n] = true
			m[n+".d"] = true
		}
	}
	return m
}

// hideUnit is the node without its unit files, so that a resolution of the running argv
// takes its environment from the process alone.
type hideUnit struct {
	afero.Fs
	names map[string]bool
}

func (h hideUnit) hidden(name string) bool { return h.names[path.Base(name)] }

func (h hideUnit) Open(name string) (afero.File, error) {
	if h.hidden(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.Fs.Open(name)
}

func (h hideUnit) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if h.hidden(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.Fs.OpenFile(name, flag, perm)
}

func (h hideUnit) Stat(name string) (os.FileInfo, error) {
	if h.hidden(name) {
		return nil, &os.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return h.Fs.Stat(name)
}

func (h hideUnit) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if h.hidden(name) {
		return nil, false, &os.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	if l, ok := h.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := h.Fs.Stat(name)
	return fi, false, err
}
