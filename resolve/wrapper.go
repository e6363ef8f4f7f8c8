package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/sources"
)

// parsedConfig is one config file read and parsed once: the wrapper's lookup and the main
// parser read the same files, and k3sconf should cost what reading them once costs.
type parsedConfig struct {
	file     *sources.ConfigFile
	diags    []diag.Diagnostic
	readErr  error
	parseErr error
}

func (r *resolver) parseConfigFile(path string) *parsedConfig {
	if pc, ok := r.parsed[path]; ok {
		return pc
	}
	pc := readConfig(r.fs, path)
	if r.parsed == nil {
		r.parsed = map[string]*parsedConfig{}
	}
	r.parsed[path] = pc
	return pc
}

// readConfig reads and parses one config file. It only reads: prefetchConfigs runs it on
// several goroutines at once.
func readConfig(fsys afero.Fs, path string) *parsedConfig {
	pc := &parsedConfig{}
	data, err := readFile(fsys, path)
	if err != nil {
		pc.readErr = err
	} else {
		pc.file, pc.diags, pc.parseErr = sources.ParseConfig(path, data)
	}
	return pc
}

// prefetchMin is the number of config files from which prefetchConfigs reads in parallel.
const prefetchMin = 32

// prefetchConfigs reads and parses the files parseConfigFile has not, on one goroutine per
// CPU, into its cache, before the caller goes through them one by one in k3s's order as
// before (which files it reads, in what order, and where it stops, are the caller's, and
// unchanged). Reading and parsing was a quarter of `show` on a node of 2,000 drop-ins
// (docs/performance.md). Only for a filesystem k3sconf knows to be safe for concurrent
// reads (a --root or the live node, an in-memory tree); a file whose reading panics is
// left to the caller's own read.
func (r *resolver) prefetchConfigs(paths []string) {
	workers := min(runtime.GOMAXPROCS(0), len(paths)/(prefetchMin/2))
	if len(paths) < prefetchMin || workers < 2 || !concurrentReads(r.fs) {
		return
	}
	todo := make([]string, 0, len(paths))
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		if _, ok := r.parsed[p]; !ok && !seen[p] {
			seen[p] = true
			todo = append(todo, p)
		}
	}
	out := make([]*parsedConfig, len(todo))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(todo) {
				return
			}
			func() {
				defer func() { _ = recover() }() // out[i] stays nil: the caller reads it again
				out[i] = readConfig(r.fs, todo[i])
			}()
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if r.parsed == nil {
		r.parsed = make(map[string]*parsedConfig, len(todo))
	}
	for i, p := range todo {
		if out[i] != nil {
			r.parsed[p] = out[i]
		}
	}
}

// concurrentReads reports whether fsys may be read from several goroutines at once: the
// filesystems k3sconf makes (internal/rootfs) and afero's OS and in-memory ones, which lock
// what they share. A library user's own afero.Fs is read from one goroutine, as always.
func concurrentReads(fsys afero.Fs) bool {
	switch fsys.(type) {
	case *rootfs.Fs, *afero.MemMapFs, *afero.OsFs, afero.OsFs:
		return true
	}
	return false
}

// wrapperPreRead reproduces the first thing the k3s multicall wrapper does (cmd/k3s/main.go
// main → findDebug, findDataDir): unless debug and the data dir are already known from the
// environment or the command line, it looks them up in the config files with
// configfilearg.MustFindString, and any error reading or parsing those files is fatal there,
// before the command line is even parsed.
//
// That lookup is not the main config parser: its Parser has no ConfigFlags, so --config on
// the command line is ignored and it reads K3S_CONFIG_FILE or the default path; the main file
// only when os.Stat succeeds; the drop-ins always (pkg/configfilearg/defaultparser.go,
// parser.go FindString). --help, -h, --version or -v anywhere in the arguments short-cut it.
// Before k3s-io/k3s e51494002 (profile.Behaviour.WrapperSkipsDropins) FindString returned
// nothing when the default config file did not exist, reading no drop-in, and any os.Stat
// error on a K3S_CONFIG_FILE was fatal (parser.go at e51494002^; config-missing reports
// that one).
func (r *resolver) wrapperPreRead() {
	args := tokenTexts(r.argv)
	for _, a := range args {
		switch a {
		case "--help", "-h", "--version", "-v":
			return
		}
	}
	if len(args) > 0 {
		switch path.Base(args[0]) {
		case "crictl", "ctr", "kubectl":
			return // errors are only warnings for these
		}
	}
	debugKnown := false
	if v, _, ok := r.lookupEnv(r.p.EnvPrefix + "_DEBUG"); ok {
		if b, err := strconv.ParseBool(v); err == nil && b {
			debugKnown = true
		}
	}
	if !debugKnown {
		// findDebug: a pflag set with only --debug (bool), unknown flags allowed.
		if v, set := pflagScan(args, "debug", 0, true); set {
			b, _ := strconv.ParseBool(v)
			debugKnown = b
		}
	}
	dataDirKnown := false
	if v, _, ok := r.flagEnv(r.p.EnvPrefix + "_DATA_DIR"); ok && v != "" {
		dataDirKnown = true
	}
	if !dataDirKnown {
		// findDataDir: a pflag set with only --data-dir/-d (string), unknown flags allowed.
		if v, set := pflagScan(args, "data-dir", 'd', false); set && v != "" {
			dataDirKnown = true
		}
	}
	if debugKnown && dataDirKnown {
		return
	}
	cfg, fromEnv := r.p.DefaultConfig, false
	if v, _, ok := r.lookupEnv(r.p.ConfigEnv); ok && v != "" {
		cfg, fromEnv = v, true
	}
	if r.opts.Config != "" {
		cfg = r.opts.Config
	}
	var files []string
	if r.beh.WrapperSkipsDropins && !fromEnv {
		// A missing K3S_CONFIG_FILE was fatal there too; config-missing reports it.
		if _, err := r.fs.Stat(cfg); err != nil {
			if isNotExist(err) {
				r.wrapperSkipped = map[string]bool{}
				names, isDir, _ := readDirTyped(r.fs, cfg+".d")
				for _, n := range names {
					if p := path.Join(cfg+".d", n); !(isDir != nil && isDir[n]) {
						r.wrapperSkipped[p] = true
					}
				}
				return
			}
		}
	}
	if fi, err := r.fs.Stat(cfg); err == nil && !fi.IsDir() {
		files = append(files, cfg)
	} else if err == nil && fi.IsDir() {
		files = append(files, cfg) // os.Stat succeeds on a directory; reading it fails
	}
	names, isDir, err := readDirTyped(r.fs, cfg+".d")
	if err != nil && !isNotExist(err) {
		r.wrapperFail(diag.Position{File: cfg + ".d"}, nodeErr("open", cfg+".d", err))
		return
	}
	for _, n := range names {
		l := strings.ToLower(n)
		if !strings.HasSuffix(l, ".yaml") && !strings.HasSuffix(l, ".yml") {
			continue
		}
		p := path.Join(cfg+".d", n)
		if isDir != nil && isDir[n] || isDir == nil && dropinIsDir(r.fs, p) {
			continue
		}
		files = append(files, p)
	}
	r.prefetchConfigs(files)
	for _, f := range files {
		pc := r.parseConfigFile(f)
		if pc.readErr != nil {
			if nr, ok := rootfs.AsNotRegular(pc.readErr); ok {
				role := "config-dropin"
				if f == cfg {
					role = "config"
				}
				r.notRegular(stageWrapperConfig, role, nr, diag.Position{File: f})
				return
			}
			r.wrapperFail(diag.Position{File: f}, pc.readErr)
			return
		}
		if perr := pc.parseErr; perr != nil {
			pos := diag.Position{File: f}
			var pe *diag.ParseError
			if errors.As(perr, &pe) {
				pos = pe.Pos
			}
			r.wrapperFail(pos, perr)
			return
		}
	}
}

func (r *resolver) wrapperFail(pos diag.Position, err error) {
	msg := err.Error()
	var pe *diag.ParseError
	if !errors.As(err, &pe) {
		if _, tooLarge := rootfs.AsTooLarge(err); tooLarge || errors.Is(err, fs.ErrPermission) || strings.Contains(msg, "permission denied") {
			r.readError(stageWrapperConfig, pos, err)
			return
		}
		if !wrongFileType(err) {
			r.res.incomplete = true
		}
	}
	r.res.brokenInput = true
	r.failAt(stageWrapperConfig, msg, pos)
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-invalid", Pos: pos,
		Message: fmt.Sprintf("%s (the k3s wrapper reads the config files to find debug and data-dir before anything else, and stops here)", msg),
		Hint:    "fix the file; the wrapper reads K3S_CONFIG_FILE or the default path even when --config points elsewhere"})
}

// pflagScan reproduces github.com/spf13/pflag v1.0.10 FlagSet.Parse (as k3s pins it) for a
// set that defines one flag (long name, optional one-letter shorthand) and allows unknown
// flags, as cmd/k3s/main.go findDebug and findDataDir use it. It returns the last value the
// flag was set to. pflag's rules that matter here: arguments are interspersed; "--" ends
// parsing; an unknown "--x" without "=" swallows the next argument unless it starts with
// "-"; "-abc" is a cluster of shorthands, each unknown one swallowing the argument after the
// cluster the same way, and a known one taking the rest of the cluster ("-dfoo") or the next
// argument as its value; "--help" or an "h" in a cluster, and any error, stop parsing.
func pflagScan(args []string, long string, short byte, isBool bool) (value string, set bool) {
	strip := func(a []string) []string {
		if len(a) == 0 || (len(a[0]) > 0 && a[0][0] == '-') {
			return a
		}
		if len(a) > 1 {
			return a[1:]
		}
		return nil
	}
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		if len(s) == 0 || s[0] != '-' || len(s) == 1 {
			continue
		}
		if s[1] == '-' {
			if len(s) == 2 {
				return value, set
			}
			name := s[2:]
			if name[0] == '-' || name[0] == '=' {
				return value, set // invalid syntax: Parse fails
			}
			n, v, hasEq := strings.Cut(name, "=")
			if n != long {
				if n == "help" {
					return value, set // ErrHelp
				}
				if !hasEq {
					args = strip(args)
				}
				continue
			}
			switch {
			case hasEq:
			case isBool:
				v = "true"
			case len(args) > 0:
				v, args = args[0], args[1:]
			default:
				return value, set // value required
			}
			if isBool {
				if _, err := strconv.ParseBool(v); err != nil {
					// pflag's boolValue.Set stores ParseBool's false before it returns the
					// error, which stops parsing.
					return "false", true
				}
			}
			value, set = v, true
			continue
		}
		shorthands, orig, out := s[1:], args, args
		for len(shorthands) > 0 {
			if strings.HasPrefix(shorthands, "test.") {
				break
			}
			c := shorthands[0]
			if short == 0 || c != short {
				if c == 'h' {
					return value, set // ErrHelp
				}
				if len(shorthands) > 2 && shorthands[1] == '=' {
					shorthands, out = "", orig
					continue
				}
				shorthands, out = shorthands[1:], strip(orig)
				continue
			}
			var v string
			switch {
			case len(shorthands) > 2 && shorthands[1] == '=':
				v, out = shorthands[2:], orig
			case isBool:
				v, out = "true", orig
			case len(shorthands) > 1:
				v, out = shorthands[1:], orig
			case len(orig) > 0:
				v, out = orig[0], orig[1:]
			default:
				return value, set // value required
			}
			shorthands = ""
			value, set = v, true
		}
		args = out
	}
	return value, set
}
