package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// Options say what to resolve. The zero value resolves the machine's own k3s server or agent.
type Options struct {
	// FS is the node's filesystem; nil means the real root. Use afero.NewBasePathFs for a
	// node tree, afero.NewMemMapFs in tests. Many config files are read from several
	// goroutines at once when FS is k3sconf.Node's or afero's OS or in-memory filesystem;
	// any other afero.Fs is read from one goroutine.
	FS afero.Fs
	// Profile is the product; nil detects it from the node ([DetectProduct]: their units in
	// the unit directories, then their /etc/rancher folders; k3s when neither is there).
	Profile *profile.Profile
	// Command is server, agent or etcd-snapshot; "" takes it from the unit found.
	Command string
	// Unit is the unit file to read (as a node path); "" searches the usual directories.
	Unit string
	// Config replaces the config file path k3s would choose.
	Config string
	// Version is the k3s version to model; "" is the newest.
	Version string
	// Args, when not nil, is the argv (without argv[0]) to use instead of the unit's
	// ExecStart. The unit's environment still applies.
	Args []string
	// Env adds to the k3s process environment, after the unit's (so it wins), for sources
	// that are not systemd units: a compose file's environment, a container spec. Each
	// assignment keeps its position for provenance.
	Env []sources.EnvAssignment
	// NoValidate leaves out the checks k3s's command actions make after parsing
	// (resolve/validate.go), for callers whose environment is only known at run time:
	// docker compose interpolates ${VAR} when the container starts.
	NoValidate bool
}

// ErrUsage marks errors in Options (not in the node's files).
var ErrUsage = errors.New("usage")

// Resolve reads a node's configuration sources and merges them as k3s does. Problems with the
// node's files are reported in the Result (Error, Diagnostics); the error return is only for
// Options that make no sense.
func Resolve(opts Options) (*Result, error) {
	fsys := opts.FS
	if fsys == nil {
		// rootfs at "/" rather than afero's OsFs: its Open never blocks on a FIFO or device.
		fsys = rootfs.New("/")
	}
	p := opts.Profile
	productWhy := "given"
	if p == nil {
		p, productWhy = DetectProduct(fsys)
	}
	beh, err := p.Behaviour(opts.Version)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	// The release's flags: the catalog is the newest release's (profile/data/flag-releases.tsv).
	p = p.ForRelease(beh)
	if opts.Command != "" && p.Command(opts.Command) == nil {
		return nil, fmt.Errorf("%w: unknown command %q (want server, agent or etcd-snapshot)", ErrUsage, opts.Command)
	}
	r := &resolver{p: p, fs: fsys, opts: opts, beh: beh, era: EraV2}
	if beh.CLI == 1 {
		r.era = EraV1
	}
	r.res = &Result{Product: p.Name, Version: beh.Version, Era: r.era.String(), keyIndex: map[string]*Key{}}
	r.res.Sources = append(r.res.Sources, Source{Role: "product", Path: p.Name, State: "chosen", Why: productWhy})
	r.run()
	r.nodeFound()
	return r.res, nil
}

// nodeFound sets Result.NotFound when nothing of the product was found: every source
// k3sconf looked for is missing, and neither the product's /etc/rancher folder nor its data
// directory exists. Callers that give the arguments or environment themselves (compose, a
// container spec), or name the unit or config file, resolve what they gave.
func (r *resolver) nodeFound() {
	o := r.opts
	if o.Args != nil || o.Env != nil || o.Unit != "" || o.Config != "" {
		return
	}
	var units, files []string
	for _, s := range r.res.Sources {
		if s.Role == "product" {
			continue
		}
		if s.State != "missing" {
			return
		}
		if s.Role == "unit" {
			if b := path.Base(s.Path); !slices.Contains(units, b) {
				units = append(units, b)
			}
			continue
		}
		files = append(files, s.Path)
	}
	configDir := path.Dir(r.p.DefaultConfig)
	for _, d := range []string{configDir, r.p.DataDir} {
		if _, err := r.fs.Stat(d); err == nil || cannotLook(err) {
			return
		}
	}
	files = append(files, configDir, r.p.DataDir)
	msg := fmt.Sprintf("no %s node found: no unit %s in %s; none of %s", r.p.Name, strings.Join(units, " or "), strings.Join(r.p.UnitDirs, ", "), strings.Join(files, ", "))
	// Say why a node that is there was not seen: another product's, or /etc/rancher a link
	// that leads out of the node's files (links resolve inside --root, as on the node).
	for _, pr := range profile.Products {
		if pr.Name == r.p.Name {
			continue
		}
		if other, why := DetectProduct(r.fs); other.Name == pr.Name && !strings.HasPrefix(why, "no ") {
			msg += fmt.Sprintf("; but %s is there (%s): drop --product or use --product %s", pr.Name, strings.TrimPrefix(why, "detected: "), pr.Name)
		}
	}
	if lr, ok := r.fs.(afero.LinkReader); ok {
		for _, l := range []string{"/etc/rancher", configDir, "/var/lib/rancher", r.p.DataDir} {
			if t, err := lr.ReadlinkIfPossible(l); err == nil {
				msg += fmt.Sprintf("; %s is a link to %s, which is not among the node's files (a link is followed inside --root, as on the node)", l, t)
				break
			}
		}
	}
	r.res.NotFound = msg
	r.res.incomplete = true
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "node-not-found", Message: msg,
		Hint: "point --root at the node's files (the folder holding etc/ and var/), or name the product with --product"})
}

type resolver struct {
	p    *profile.Profile
	fs   afero.Fs
	opts Options
	beh  profile.Behaviour
	era  Era
	res  *Result

	env   map[string]*EnvVar
	argv  []token // argv without argv[0], with origins
	stray []*Assignment
	// swallowed are words holding a flag and its value, by the flag's name (swallowedBy).
	swallowed map[string][]*Assignment
	// entries are the config files' entries grouped by key, the keys in the order the
	// merge first saw them (configKeys).
	entries    []*configEntry
	configKeys []string
	// hints caches did-you-mean suggestions by unknown name.
	hints map[string]string
	// parsed caches config files read and parsed once.
	parsed map[string]*parsedConfig
	// ignoredFileEntries are keys set in drop-in files k3s skips for their name.
	ignoredFileEntries map[string][]*Assignment
	// argCount is the number of config arguments per key, to size the per-flag lists the
	// CLI passes fill (a list appended to by 2,000 drop-ins has 8,000 items).
	argCount map[string]int
	// entriesByKey indexes entries by config key, for per-flag lookups.
	entriesByKey map[string][]*configEntry
	seq          int
	// configFix marks findings ("code position") placed at the command word whose fix edits
	// the config file, not the unit.
	configFix map[string]bool
	// wrapperSkipped are the drop-ins a release's wrapper does not read because config.yaml
	// does not exist (profile.Behaviour.WrapperSkipsDropins); checkWrapperDropins reports a
	// data-dir they set.
	wrapperSkipped map[string]bool
	// warnedMissing: token files already reported missing.
	warnedMissing map[string]bool
	// stops counts the refusals of validate that stop k3s (the later ones are AfterFixing).
	stops int
	// kubeletSkipNodeIP: node-ip was refused before the kubelet; its kubelet check waits for the fix.
	kubeletSkipNodeIP bool
	// effective caches effectiveItems by component.
	effective map[string]effectiveCache
}

func (r *resolver) diag(d diag.Diagnostic) { r.res.Diagnostics = append(r.res.Diagnostics, d) }

func (r *resolver) fail(msg string, pos diag.Position) { r.failAt(stageSystemd, msg, pos) }

func (r *resolver) run() {
	r.loadUnit()
	for _, a := range r.opts.Env {
		r.setEnv(a, "the given environment")
	}
	r.buildArgs()
	if r.p.Wrapper {
		r.wrapperPreRead()
	}
	files := r.loadConfig()
	r.parse(files)
	r.markSecretCopies(files)
	r.finish()
}

// loadUnit finds the unit, reads it with its drop-ins and env files, and builds the process
// environment and the argv.
func (r *resolver) loadUnit() {
	cmd := r.opts.Command
	var candidates []string
	switch {
	case r.opts.Unit != "":
		candidates = []string{r.opts.Unit}
	case cmd != "":
		candidates = []string{r.p.Units[cmd]}
	default:
		candidates = []string{r.p.Units["server"], r.p.Units["agent"]}
	}
	var mainPath string
	var dropins []string
	unitUnread := false
	for _, c := range candidates {
		explicit := ""
		if r.opts.Unit != "" {
			explicit = c
		}
		m, d, searched, unread := unitFiles(r.fs, r.p.UnitDirs, c, explicit)
		unitUnread = unitUnread || len(unread) > 0
		for _, u := range unread {
			r.res.Sources = append(r.res.Sources, Source{Role: "unit", Path: u.path, State: "unreadable", Why: u.err.Error()})
			r.readError(stageSystemd, diag.Position{File: u.path}, u.err)
		}
		if m == "" && explicit == "" {
			for _, s := range searched {
				r.res.Sources = append(r.res.Sources, Source{Role: "unit", Path: s, State: "missing", Why: "not found in this unit directory"})
			}
			continue
		}
		if mainPath == "" {
			mainPath, dropins = m, d
		}
		if len(candidates) > 1 && unitMasked(r.fs, m) != "" {
			// k3s.service masked and k3s-agent.service in use: look further, and come back to
			// the masked one only when nothing else is there.
			continue
		}
		mainPath, dropins = m, d
		break
	}
	if mainPath == "" && r.opts.Unit == "" && r.opts.Args == nil {
		// No unit of the product's names: look for one whose ExecStart runs the product.
		if p := r.discoverUnit(cmd); p != "" {
			var unread []unreadPath
			mainPath, dropins, _, unread = unitFiles(r.fs, r.p.UnitDirs, path.Base(p), "")
			for _, u := range unread {
				r.res.Sources = append(r.res.Sources, Source{Role: "unit", Path: u.path, State: "unreadable", Why: u.err.Error()})
				r.readError(stageSystemd, diag.Position{File: u.path}, u.err)
			}
		}
	}
	r.env = map[string]*EnvVar{}
	if mainPath == "" && r.opts.Args != nil {
		return
	}
	if mainPath == "" && r.opts.Args == nil {
		where := ""
		if unitUnread {
			where = " where k3sconf could look (see input-unreadable: systemd, as root, may find one there)"
		}
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "unit-not-found",
			Message: fmt.Sprintf("no systemd unit found%s (%s); resolving with no command-line arguments and an empty environment", where, strings.Join(candidates, ", ")),
			Hint:    "point k3sconf at the unit with --unit PATH, or at the node's files with --root DIR"})
		return
	}
	if why := unitMasked(r.fs, mainPath); why != "" {
		// Nothing to read, and nothing missing from the report: systemd will not start it.
		r.res.Unit = mainPath
		r.res.Sources = append(r.res.Sources, Source{Role: "unit", Path: mainPath, State: "ignored",
			Why: fmt.Sprintf("%s is %s: systemd counts the unit as masked", mainPath, why)})
		r.fail(fmt.Sprintf("systemd: Unit %s is masked (%s is %s); systemctl unmask %s to start it", path.Base(mainPath), mainPath, why, path.Base(mainPath)),
			diag.Position{File: mainPath})
		return
	}
	var files []*sources.UnitFile
	for i, f := range append([]string{mainPath}, dropins...) {
		role := "unit"
		if i > 0 {
			role = "unit-dropin"
		}
		data, err := readFile(r.fs, f)
		if err != nil {
			r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "unreadable", Why: err.Error()})
			if nr, ok := rootfs.AsNotRegular(err); ok {
				r.notRegular(stageSystemd, role, nr, diag.Position{File: f})
			} else {
				r.readError(stageSystemd, diag.Position{File: f}, err)
			}
			if i == 0 {
				return
			}
			continue
		}
		uf, ds := sources.ParseUnit(f, data)
		r.res.Diagnostics = append(r.res.Diagnostics, ds...)
		files = append(files, uf)
		why := "the unit systemd loads"
		if i > 0 {
			why = "drop-in, applied in file-name order after the unit"
		}
		r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "read", Why: why})
	}
	r.res.Unit = mainPath
	if len(files) > 0 {
		r.checkConditions(files, path.Base(mainPath))
	}
	host, hostUnread := nodeHost(r.fs, mainPath)
	for _, u := range hostUnread {
		pos := diag.Position{File: u.path}
		r.res.Sources = append(r.res.Sources, Source{Role: "host-file", Path: u.path, State: "unreadable", Why: u.err.Error()})
		if nr, ok := rootfs.AsNotRegular(u.err); ok {
			r.notRegular(stageSystemd, "host-file", nr, pos)
			continue
		}
		// Never a refusal: systemd and k3s would read it; k3sconf could not.
		r.res.incomplete = true
		r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: pos,
			Message: fmt.Sprintf("k3sconf cannot read %s (%s): the host values it holds, for the unit's specifiers, are unknown", u.path, u.err),
			Hint:    "run k3sconf with sudo, or copy the node's files somewhere readable and use --root"})
	}
	u := sources.MergeUnitOn(path.Base(mainPath), files, host)
	r.res.Diagnostics = append(r.res.Diagnostics, u.Diagnostics...)
	if u.Refused != "" {
		// A unit systemd will not load or start is broken input: k3s never runs.
		r.res.brokenInput = true
		r.fail("systemd: "+u.Refused, u.ExecStartPos)
	}
	// Process environment: Environment= first (later wins), then each EnvironmentFile= in
	// order, whose values override Environment= (systemd.exec(5)).
	for _, a := range u.Environment {
		r.setEnv(a, "Environment=")
	}
	assigns, srcs, ds, refusal, refusalPos, unread := readEnvFiles(r.fs, u.EnvironmentFiles)
	if unread {
		r.res.incomplete = true
	}
	r.res.Sources = append(r.res.Sources, srcs...)
	r.res.Diagnostics = append(r.res.Diagnostics, ds...)
	for _, s := range srcs {
		if s.State == "unreadable" {
			// k3sconf could not read an env file: the report is incomplete.
			r.res.incomplete = true
		}
	}
	if refusal != "" {
		r.fail(refusal, refusalPos)
	}
	for _, as := range assigns {
		for _, a := range as {
			r.setEnv(a, "EnvironmentFile")
		}
	}
	if r.opts.Command == "etcd-snapshot" && r.opts.Args == nil && !execStartRuns(u.ExecStart, "etcd-snapshot") {
		// Operators run `k3s etcd-snapshot save` from a shell: the unit's argv does not
		// apply, and neither does its environment.
		r.env = map[string]*EnvVar{}
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "etcd-snapshot-from-shell",
			Message: fmt.Sprintf("resolving `%s etcd-snapshot save` as run from a shell: without %s's ExecStart arguments and environment", r.p.Program, path.Base(mainPath)),
			Hint:    "export the K3S_* variables your shell sets, or put them in config.yaml, to see them here"})
		return
	}
	if r.opts.Args == nil {
		words := u.ExecStart
		// The ':' prefix turns environment expansion off for the command (systemd.service(5)).
		if len(words) > 0 && !strings.Contains(u.ExecStartPrefix, ":") {
			r.undefinedRefs(words)
			words = sources.ExpandCommandLine(words, func(name string) (string, bool) {
				if ev, ok := r.env[name]; ok {
					return ev.Value, true
				}
				return "", false
			})
		}
		if len(words) > 1 {
			for _, w := range words[1:] {
				r.argv = append(r.argv, cliToken(w.Value, sources.KindCLI, w.Pos, w.Raw))
			}
		}
	}
}

// managerEnv are variables systemd itself may put into a service's environment (or
// DefaultEnvironment= in system.conf may): a reference to one is not reported as undefined.
var managerEnv = map[string]bool{
	"PATH": true, "LANG": true, "LANGUAGE": true, "HOME": true, "USER": true, "LOGNAME": true,
	"SHELL": true, "TERM": true, "INVOCATION_ID": true, "JOURNAL_STREAM": true, "NOTIFY_SOCKET": true,
	"MAINPID": true, "MANAGERPID": true, "LISTEN_FDS": true, "LISTEN_PID": true, "LISTEN_FDNAMES": true,
	"WATCHDOG_PID": true, "WATCHDOG_USEC": true, "RUNTIME_DIRECTORY": true, "STATE_DIRECTORY": true,
	"CACHE_DIRECTORY": true, "LOGS_DIRECTORY": true, "CONFIGURATION_DIRECTORY": true,
	"CREDENTIALS_DIRECTORY": true, "SYSTEMD_EXEC_PID": true, "PIDFILE": true,
}

// undefinedRefs reports $NAME and ${NAME} in ExecStart that no Environment= or
// EnvironmentFile= of the unit defines (issue 16): at exec time systemd (replace_env_argv in
// src/basic/env-util.c) replaces ${NAME} with "" and drops a whole-word $NAME, so the flag
// before it gets an empty value or swallows the next word.
func (r *resolver) undefinedRefs(words []sources.Word) {
	var unread []string
	for _, src := range r.res.Sources {
		if src.Role == "envfile" && src.State == "unreadable" {
			unread = append(unread, src.Path)
		}
	}
	for _, ref := range sources.EnvReferences(words) {
		if _, ok := r.env[ref.Name]; ok || managerEnv[ref.Name] || strings.HasPrefix(ref.Name, "LC_") {
			continue
		}
		became := strings.ReplaceAll(words[ref.Index].Value, "${"+ref.Name+"}", "")
		effect := fmt.Sprintf("systemd substitutes an empty string, so the word becomes %q", became)
		if prev := ""; ref.Index > 0 {
			prev = words[ref.Index-1].Value
			if became == "" && strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
				effect = fmt.Sprintf("systemd substitutes an empty string, so %s gets an empty value", prev)
			}
		}
		if ref.Word {
			effect = "systemd drops the whole word, so the arguments after it move up by one"
			if ref.Index > 0 && strings.HasPrefix(words[ref.Index-1].Value, "-") && !strings.Contains(words[ref.Index-1].Value, "=") {
				effect += fmt.Sprintf(" (%s takes the next word as its value, or has none)", words[ref.Index-1].Value)
			}
		}
		if len(unread) > 0 {
			effect += fmt.Sprintf(" (unless %s, which k3sconf could not read, sets it)", strings.Join(unread, " or "))
		}
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "unit-env-undefined", Pos: ref.Pos,
			Message: fmt.Sprintf("%s is not set by any Environment= or EnvironmentFile= of the unit: %s", refText(ref), effect),
			Hint:    fmt.Sprintf("define %s in an Environment= line or an EnvironmentFile= the unit reads, or remove the reference", ref.Name)})
	}
}

func refText(ref sources.EnvRef) string {
	if ref.Word {
		return "$" + ref.Name
	}
	return "${" + ref.Name + "}"
}

func (r *resolver) setEnv(a sources.EnvAssignment, via string) {
	r.seq++
	as := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: sources.KindEnv, Pos: a.Pos}, Value: a.Value}, Name: a.Name, Raw: a.Raw, order: rankEnv + int64(r.seq), secret: r.p.SecretEnv[a.Name] || looksSecretEnv(a.Name, a.Value)}
	ev := r.env[a.Name]
	if ev == nil {
		ev = &EnvVar{Name: a.Name}
		r.env[a.Name] = ev
	}
	if n := len(ev.Assignments); n > 0 {
		prev := ev.Assignments[n-1]
		prev.Outcome = provenance.Overridden
		prev.Reason = fmt.Sprintf("%s is set again at %s (%s); the last assignment wins", a.Name, a.Pos, via)
	}
	as.Outcome = provenance.Applied
	ev.Value = a.Value
	ev.Assignments = append(ev.Assignments, as)
}

func (r *resolver) lookupEnv(name string) (string, *Assignment, bool) {
	ev, ok := r.env[name]
	if !ok {
		return "", nil, false
	}
	return ev.Value, ev.Assignments[len(ev.Assignments)-1], true
}

// flagEnv is the environment as the release's flags see it: a variable no flag of that
// release reads is not there for them (K3S_DATA_DIR before v1.27.16/v1.28.12/v1.29.7/v1.30.3/v1.31.0).
func (r *resolver) flagEnv(name string) (string, *Assignment, bool) {
	if r.beh.NoDataDirEnv && name == r.p.EnvPrefix+"_DATA_DIR" {
		return "", nil, false
	}
	return r.lookupEnv(name)
}

// buildArgs settles the argv when no unit supplied one.
func (r *resolver) buildArgs() {
	if r.opts.Args != nil {
		r.argv = nil
		for i, a := range r.opts.Args {
			r.argv = append(r.argv, cliToken(a, sources.KindCLI, diag.Position{File: "(command line)", Line: 1, Column: i + 1}, a))
		}
	}
	if len(r.argv) == 0 && (r.res.Unit == "" || r.opts.Command == "etcd-snapshot") {
		cmd := r.opts.Command
		if cmd == "" {
			cmd = "server"
		}
		words := []string{cmd}
		if cmd == "etcd-snapshot" {
			words = append(words, "save")
		}
		for _, w := range words {
			r.argv = append(r.argv, cliToken(w, sources.KindCLI, diag.Position{File: "(implied)"}, w))
		}
	}
	for i := range r.argv {
		r.argv[i].order = rankCLI + int64(i)
	}
}

// readError records a file that could not be read. A permission error is k3sconf's alone:
// k3s (root) would read the file, so the report is incomplete but k3s does not refuse. A
// directory where a file belongs (or a file where a folder does) is the node's problem
// (wrongFileType). Any other error (I/O, a FIFO or device, k3sconf's
// size limit) leaves the report incomplete, and k3s stops at that file too as far as
// k3sconf can tell, so the refusal is recorded as well.
func (r *resolver) readError(stage int, pos diag.Position, err error) {
	msg := err.Error()
	if errors.Is(err, fs.ErrPermission) || strings.Contains(msg, "permission denied") {
		r.res.incomplete = true
		if r.said("input-unreadable", pos) {
			return
		}
		r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: pos,
			Message: fmt.Sprintf("k3sconf cannot read %s (%s); what it would set is missing from this report — k3s, running as root, reads it", pos.File, msg),
			Hint:    "run k3sconf with sudo, or copy the node's files somewhere readable and use --root"})
		return
	}
	if tl, ok := rootfs.AsTooLarge(err); ok {
		// k3sconf's own limit: k3s and systemd read a file of any size, so the node is not
		// refused; the report lacks what the file sets.
		r.res.incomplete = true
		if r.said("input-unreadable", pos) {
			return
		}
		size := "more"
		if tl.Size >= 0 {
			size = fmt.Sprintf("%d bytes,", tl.Size)
		}
		r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: pos,
			Message: fmt.Sprintf("k3sconf does not read %s: %s more than its limit of %d bytes; what it would set is missing from this report (k3s reads a file of any size)", pos.File, size, tl.Limit),
			Hint:    "a configuration file is a few KiB: look at what this one holds"})
		return
	}
	if !wrongFileType(err) {
		r.res.incomplete = true
	}
	r.invalidInput(stage, pos, msg)
}

// wrongFileType: a folder where k3s reads a file, or a file where it reads a folder. k3s
// stops with the same error, and k3sconf knows all there is to know: the node's problem,
// not an unread input.
func wrongFileType(err error) bool {
	return errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENOTDIR)
}

// invalidInput records input k3s (or systemd) refuses: a file it cannot parse. The node
// has a problem; k3sconf read everything there was.
func (r *resolver) invalidInput(stage int, pos diag.Position, msg string) {
	r.failAt(stage, msg, pos)
	r.res.brokenInput = true
	if r.said("input-invalid", pos) {
		return
	}
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-invalid", Pos: pos, Message: msg})
}

// said reports whether a finding with code was already made at pos. The k3s wrapper's early
// read of the config files (wrapper.go) and the config reader meet the same file, which is
// parsed once (parseConfigFile) and so fails the same way twice; k3s stops at the first,
// and the finding is said once, with the wrapper's words.
func (r *resolver) said(code string, pos diag.Position) bool {
	for _, d := range r.res.Diagnostics {
		if d.Code == code && d.Pos == pos {
			return true
		}
	}
	return false
}

// loadConfig reproduces Parser.Parse up to the point where the file values are known.
func (r *resolver) loadConfig() []*sources.ConfigFile {
	texts := tokenTexts(r.argv)
	split, found := findStart(texts, r.p.After)
	r.res.splitAt = split
	if !found && r.res.errStage == stageSystemd {
		return nil
	}
	if !found && r.res.errStage != stageSystemd {
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "config-not-read",
			Message: "the command line names none of server, agent or etcd-snapshot, so k3s reads no config file"})
		return nil
	}
	envVal, _, _ := r.lookupEnv(r.p.ConfigEnv)
	cfg, why, _ := findConfigFile(texts, r.p.ConfigEnv, envVal, r.p.ConfigFlags, r.p.DefaultConfig)
	explicit := cfg != r.p.DefaultConfig || why != "the default location"
	if r.opts.Config != "" {
		cfg, why, explicit = r.opts.Config, "given to k3sconf with --config", true
	}
	r.res.ConfigPath, r.res.ConfigWhy = cfg, why
	if cfg == "" {
		r.res.Sources = append(r.res.Sources, Source{Role: "config", State: "ignored", Why: why})
		return nil
	}
	if strings.Contains(cfg, "://") {
		r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-url-ignored",
			Message: fmt.Sprintf("config location %s is a URL; k3s stats it as a file first, finds nothing and reads no config", cfg),
			Hint:    "copy the file onto the node and point K3S_CONFIG_FILE or --config at it"})
	}
	files, ignored, mainMissing, err := configFiles(r.fs, cfg)
	if err != nil {
		if isNotExist(err) {
			r.res.Sources = append(r.res.Sources, Source{Role: "config", Path: cfg, State: "missing", Why: why})
			if explicit && r.beh.MissingExplicitConfigFatal {
				r.failAt(stageConfig, fmt.Sprintf("stat %s: no such file or directory", cfg), diag.Position{File: cfg})
				r.diag(diag.Diagnostic{Severity: diag.Error, Code: "config-missing", Pos: diag.Position{File: cfg},
					Message: fmt.Sprintf("config file %s (%s) does not exist; k3s %s refuses to start", cfg, why, r.beh.Version),
					Hint:    "create the file or remove the setting that points at it"})
			} else if explicit {
				r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "config-missing", Pos: diag.Position{File: cfg},
					Message: fmt.Sprintf("config file %s (%s) does not exist and has no drop-ins; k3s reads no config file", cfg, why),
					Hint:    "create the file, or fix the path"})
			}
			return nil
		}
		r.res.Sources = append(r.res.Sources, Source{Role: "config", Path: cfg, State: "unreadable", Why: err.Error()})
		if nr, ok := rootfs.AsNotRegular(err); ok {
			r.notRegular(stageConfig, "config", nr, diag.Position{File: cfg})
			return nil
		}
		r.readError(stageConfig, diag.Position{File: cfg}, err)
		return nil
	}
	if mainMissing {
		r.res.Sources = append(r.res.Sources, Source{Role: "config", Path: cfg, State: "missing",
			Why: why + "; missing, which is fine because drop-ins exist"})
	}
	var out []*sources.ConfigFile
	r.prefetchConfigs(files)
	for i, f := range files {
		role := "config-dropin"
		w := "drop-in, read after the main file in byte-wise name order"
		if i == 0 && !mainMissing {
			role, w = "config", why
		}
		pc := r.parseConfigFile(f)
		err := pc.readErr
		if err != nil && role == "config-dropin" && errors.Is(err, syscall.EISDIR) && dropinIsDir(r.fs, f) {
			ignored = append(ignored, Source{Role: "config-dropin", Path: f, State: "ignored", Why: "a directory; k3s reads only files"})
			continue
		}
		if err != nil && isNotExist(err) && !(explicit && r.beh.MissingExplicitConfigFatal) {
			// Parser.Parse treats any IsNotExist error from readConfigFile as "no config":
			// a drop-in that vanished, or a dangling symlink, silently drops every file.
			r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "missing", Why: err.Error()})
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "config-all-ignored", Pos: diag.Position{File: f},
				Message: fmt.Sprintf("%s is listed in the drop-in folder but cannot be opened (%v, a dangling symlink?); k3s then reads no config file at all, not even %s", f, errors.Unwrap(err), cfg),
				Hint:    fmt.Sprintf("remove %s or point the link at an existing file", f)})
			r.res.Sources = append(r.res.Sources, ignored...)
			return nil
		}
		if err != nil {
			r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "unreadable", Why: err.Error()})
			if nr, ok := rootfs.AsNotRegular(err); ok {
				r.notRegular(stageConfig, role, nr, diag.Position{File: f})
				return nil
			}
			r.readError(stageConfig, diag.Position{File: f}, err)
			return nil
		}
		cf, ds, perr := pc.file, pc.diags, pc.parseErr
		r.res.Diagnostics = append(r.res.Diagnostics, ds...)
		if perr != nil {
			r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "invalid", Why: perr.Error()})
			pos := diag.Position{File: f}
			var pe *diag.ParseError
			if errors.As(perr, &pe) {
				pos = pe.Pos
			}
			r.invalidInput(stageConfig, pos, perr.Error())
			return nil
		}
		r.res.Sources = append(r.res.Sources, Source{Role: role, Path: f, State: "read", Why: w})
		out = append(out, cf)
	}
	r.res.Sources = append(r.res.Sources, ignored...)
	r.readIgnoredFiles(ignored)
	for _, ig := range ignored {
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "config-dropin-ignored", Pos: diag.Position{File: ig.Path},
			Message: fmt.Sprintf("%s is in the drop-in folder but k3s does not read it: %s", ig.Path, ig.Why),
			Hint:    "rename it to end in .yaml or .yml if it should apply, or move it out of the folder"})
	}
	return out
}

func tokenTexts(ts []token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.text
	}
	return out
}

// sortHistory puts a key's assignments into precedence order.
func sortHistory(h []*Assignment) {
	sort.SliceStable(h, func(i, j int) bool { return h[i].order < h[j].order })
}

// DetectProduct decides between k3s and RKE2 from what is on the node: their units in the
// unit directories, then their /etc/rancher folders. It says why, for `k3sconf sources`.
func DetectProduct(fsys afero.Fs) (*profile.Profile, string) {
	found := func(pr profile.Product) string {
		for _, d := range profile.UnitDirs {
			for _, u := range pr.Units {
				if fi, err := fsys.Stat(path.Join(d, u)); err == nil && !fi.IsDir() {
					return path.Join(d, u)
				}
			}
		}
		return ""
	}
	var names, why []string
	for _, pr := range profile.Products {
		if u := found(pr); u != "" {
			names = append(names, pr.Name)
			why = append(why, u)
		}
	}
	pick := func(name string) *profile.Profile {
		p, _ := profile.ByName(name)
		return p
	}
	switch len(names) {
	case 0:
	case 1:
		return pick(names[0]), fmt.Sprintf("detected: %s exists", why[0])
	default:
		return pick(names[0]), fmt.Sprintf("detected: both %s and %s exist; resolving %s (use --product %s for the other)", why[0], why[1], names[0], names[1])
	}
	for _, pr := range profile.Products {
		if fi, err := fsys.Stat(pr.ConfigDir); err == nil && fi.IsDir() {
			return pick(pr.Name), fmt.Sprintf("detected: no unit found, but %s exists", pr.ConfigDir)
		}
	}
	return pick("k3s"), "no k3s or RKE2 unit or /etc/rancher folder found; assuming k3s"
}

// execStartRuns reports whether an ExecStart argv runs the given k3s command.
func execStartRuns(words []sources.Word, cmd string) bool {
	for _, w := range words {
		if w.Value == cmd {
			return true
		}
	}
	return false
}

// readIgnoredFiles reads the drop-in folder's files that k3s skips for their name, so that
// explain can say "this file sets the key, but k3s never reads it". Unparsable ones are left
// alone: k3s does not read them either.
func (r *resolver) readIgnoredFiles(ignored []Source) {
	for _, ig := range ignored {
		if !strings.Contains(ig.Why, "does not end in") {
			continue
		}
		data, err := readFile(r.fs, ig.Path)
		if err != nil {
			continue
		}
		cf, _, perr := sources.ParseConfig(ig.Path, data)
		if perr != nil {
			continue
		}
		for i := range cf.Entries {
			e := &cf.Entries[i]
			r.seq++
			a := &Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: sources.KindConfig, Pos: valuePos(e)}, Value: sources.ToString(e.Value), Outcome: provenance.Ignored, Reason: fmt.Sprintf("%s is never read: k3s reads only files whose names end in .yaml or .yml from %s", path.Base(ig.Path), path.Dir(ig.Path))}, Name: e.RawKey + ":", Raw: e.Raw, order: rankCLI - 1_000_000 + int64(r.seq)}
			for _, it := range e.Items {
				a.Items = append(a.Items, sources.ToString(it.Value))
			}
			if r.ignoredFileEntries == nil {
				r.ignoredFileEntries = map[string][]*Assignment{}
			}
			r.ignoredFileEntries[e.Key] = append(r.ignoredFileEntries[e.Key], a)
		}
	}
}

// looksSecretEnv catches secrets in variables no profile names: proxy URLs with
// credentials, and names that say what they hold.
func looksSecretEnv(name, value string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "PASSWORD", "SECRET", "PASSWD"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	if strings.HasSuffix(u, "_PROXY") && strings.Contains(value, "@") {
		return true
	}
	return false
}

var k3sWord = regexp.MustCompile(`\bk3s(\s|'s\b|:)`)

// productize words messages for the product: the rules live in k3s's code, which RKE2
// embeds, but the user runs rke2, so "k3s refuses to start" becomes "rke2 refuses to start".
// File names (k3s.service), source paths (k3s-io/k3s, pkg/...) keep their names.
func (r *resolver) productize() {
	if r.p.Program == "k3s" {
		return
	}
	w := func(s string) string { return k3sWord.ReplaceAllString(s, r.p.Program+"$1") }
	for i := range r.res.Diagnostics {
		r.res.Diagnostics[i].Message = w(r.res.Diagnostics[i].Message)
		r.res.Diagnostics[i].Hint = w(r.res.Diagnostics[i].Hint)
	}
	seen := map[*Assignment]bool{}
	fix := func(a *Assignment) {
		if !seen[a] {
			seen[a] = true
			a.Reason = w(a.Reason)
		}
	}
	for _, k := range r.res.Keys {
		k.Note = w(k.Note)
		for i := range k.Advice {
			k.Advice[i] = w(k.Advice[i])
		}
		for _, a := range k.History {
			fix(a)
		}
	}
	for _, a := range r.res.Stray {
		fix(a)
	}
	for i := range r.res.Sources {
		r.res.Sources[i].Why = w(r.res.Sources[i].Why)
	}
}

func (r *resolver) finish() {
	defer r.productize()
	r.checks()
	r.validate()
	r.unitFixes()
	r.addAdvice()
	r.addNotes()
	for _, ev := range r.env {
		r.res.Env = append(r.res.Env, ev)
	}
	sort.Slice(r.res.Env, func(i, j int) bool { return r.res.Env[i].Name < r.res.Env[j].Name })
}
