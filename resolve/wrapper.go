package resolve

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
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
	pc := &parsedConfig{}
	data, err := readFile(r.fs, path)
	if err != nil {
		pc.readErr = err
	} else {
		pc.file, pc.diags, pc.parseErr = sources.ParseConfig(path, data)
	}
	if r.parsed == nil {
		r.parsed = map[string]*parsedConfig{}
	}
	r.parsed[path] = pc
	return pc
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
	dataDirKnown := false
	if v, _, ok := r.flagEnv(r.p.EnvPrefix + "_DATA_DIR"); ok && v != "" {
		dataDirKnown = true
	}
	// pflag, with unknown flags allowed, scanning every argument up to "--".
	for i, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "--debug":
			debugKnown = true
		case strings.HasPrefix(a, "--debug="):
			if b, err := strconv.ParseBool(a[len("--debug="):]); err == nil && b {
				debugKnown = true
			}
		case a == "--data-dir" || a == "-d":
			if i+1 < len(args) && args[i+1] != "" {
				dataDirKnown = true
			}
		case strings.HasPrefix(a, "--data-dir="):
			dataDirKnown = dataDirKnown || a[len("--data-dir="):] != ""
		case strings.HasPrefix(a, "-d") && !strings.HasPrefix(a, "--"):
			v := strings.TrimPrefix(strings.TrimPrefix(a, "-d"), "=")
			dataDirKnown = dataDirKnown || v != ""
		}
	}
	if debugKnown && dataDirKnown {
		return
	}
	cfg := r.p.DefaultConfig
	if v, _, ok := r.lookupEnv(r.p.ConfigEnv); ok && v != "" {
		cfg = v
	}
	if r.opts.Config != "" {
		cfg = r.opts.Config
	}
	var files []string
	if fi, err := r.fs.Stat(cfg); err == nil && !fi.IsDir() {
		files = append(files, cfg)
	} else if err == nil && fi.IsDir() {
		files = append(files, cfg) // os.Stat succeeds on a directory; reading it fails
	}
	names, err := readDirNames(r.fs, cfg+".d")
	if err != nil && !isNotExist(err) {
		r.wrapperFail(diag.Position{File: cfg + ".d"}, nodeErr("open", cfg+".d", err).Error())
		return
	}
	for _, n := range names {
		l := strings.ToLower(n)
		if !strings.HasSuffix(l, ".yaml") && !strings.HasSuffix(l, ".yml") {
			continue
		}
		p := path.Join(cfg+".d", n)
		if dropinIsDir(r.fs, p) {
			continue
		}
		files = append(files, p)
	}
	for _, f := range files {
		pc := r.parseConfigFile(f)
		if pc.readErr != nil {
			r.wrapperFail(diag.Position{File: f}, pc.readErr.Error())
			return
		}
		if perr := pc.parseErr; perr != nil {
			pos := diag.Position{File: f}
			var pe *diag.ParseError
			if errors.As(perr, &pe) {
				pos = pe.Pos
			}
			r.wrapperFail(pos, perr.Error())
			return
		}
	}
}

func (r *resolver) wrapperFail(pos diag.Position, msg string) {
	if strings.Contains(msg, "permission denied") {
		r.inputError(stageWrapperConfig, pos, msg)
		return
	}
	r.res.inputInvalid = true
	r.failAt(stageWrapperConfig, msg, pos)
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-invalid", Pos: pos,
		Message: fmt.Sprintf("%s (the k3s wrapper reads the config files to find debug and data-dir before anything else, and stops here)", msg),
		Hint:    "fix the file; the wrapper reads K3S_CONFIG_FILE or the default path even when --config points elsewhere"})
}
