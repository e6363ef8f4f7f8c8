package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/k3sconf/k3sconf/helm/values"
)

// Options say what to render.
type Options struct {
	// Helm is the helm binary to run (a path, or a name looked up in PATH).
	Helm string
	// Chart is the chart archive; Release and Namespace name the release (the HelmChart's
	// name and target namespace).
	Chart              []byte
	Release, Namespace string
	// Input is what the Helm job gets: its values files and --set arguments.
	Input values.Input
	// Timeout bounds the run (0: one minute).
	Timeout time.Duration
}

// Result is what Helm said.
type Result struct {
	// Version is `helm version --short`.
	Version string
	// Args are the arguments helm template was given (the scratch folder written as
	// SCRATCH).
	Args []string
	// Failure is set when helm template failed; nil when the chart renders.
	Failure *Failure
	// Skipped names the values files that could not be given (a Secret not read): the
	// render is without them.
	Skipped []string
}

// Failure is a helm template error.
type Failure struct {
	// Message is Helm's error, "Error: " removed, whitespace folded, at most maxMessage
	// bytes; Last its last line (the cause).
	Message, Last string
	// Template is the template position Helm names last (chart/templates/x.tpl:101:18).
	Template string
	// Paths are the .Values paths the message names, dotted as k3sconf writes them.
	Paths []string
	// Schema is set for a values.schema.json failure.
	Schema bool
}

const (
	maxStderr  = 64 << 10
	maxMessage = 2000
)

// ErrNoHelm is returned when the binary cannot be found or run.
var ErrNoHelm = errors.New("helm cannot be run")

// Render runs helm template.
func Render(ctx context.Context, o Options) (*Result, error) {
	bin, err := exec.LookPath(o.Helm)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoHelm, err)
	}
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "k3sconf-render-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	env := isolated(dir)
	res := &Result{}
	if out, err := run(ctx, bin, env, "version", "--short"); err == nil {
		res.Version = strings.TrimSpace(string(out))
	}
	chart := filepath.Join(dir, "chart.tgz")
	if err := os.WriteFile(chart, o.Chart, 0o600); err != nil {
		return nil, err
	}
	args := []string{"template", o.Release, chart, "--namespace", o.Namespace}
	counters := map[int]int{0: 1, 1: 1}
	for _, l := range o.Input.Layers {
		name := values.MountName(l.Kind, counters)
		if l.Text == nil {
			res.Skipped = append(res.Skipped, l.Secret)
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, l.Text, 0o600); err != nil {
			return nil, err
		}
		args = append(args, "--values", p)
	}
	for _, s := range o.Input.Set {
		f, a := s.Arg()
		args = append(args, f, a)
	}
	for _, a := range args {
		res.Args = append(res.Args, strings.ReplaceAll(a, dir, "SCRATCH"))
	}
	out, err := run(ctx, bin, env, args...)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("helm template did not finish in %v", o.Timeout)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("%w: %v", ErrNoHelm, err)
		}
		res.Failure = Parse(strings.ReplaceAll(string(out), dir+string(filepath.Separator), ""))
	}
	return res, nil
}

// isolated is an environment in which helm reaches no network: its home folders are the
// scratch folder, no kubeconfig, and every HTTP(S) request goes to a closed local port.
func isolated(dir string) []string {
	const nowhere = "http://127.0.0.1:9"
	return []string{
		"HOME=" + dir, "HELM_CACHE_HOME=" + filepath.Join(dir, "cache"), "HELM_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"HELM_DATA_HOME=" + filepath.Join(dir, "data"), "HELM_PLUGINS=" + filepath.Join(dir, "plugins"),
		"KUBECONFIG=" + filepath.Join(dir, "no-kubeconfig"), "HELM_KUBECONTEXT=", "HELM_NAMESPACE=",
		"HTTP_PROXY=" + nowhere, "HTTPS_PROXY=" + nowhere, "http_proxy=" + nowhere, "https_proxy=" + nowhere,
		"NO_PROXY=", "no_proxy=", "TMPDIR=" + dir,
	}
}

// run runs helm and returns its standard error (bounded) on failure, its output otherwise
// (bounded; a chart's manifests are not kept).
func run(ctx context.Context, bin string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var stdout, stderr limited
	stdout.max, stderr.max = 4096, maxStderr
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stderr.Bytes(), err
	}
	return stdout.Bytes(), nil
}

// limited keeps the first max bytes written and discards the rest.
type limited struct {
	bytes.Buffer
	max int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

var _ io.Writer = (*limited)(nil)

var (
	valuesRef   = regexp.MustCompile(`\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)`)
	schemaAt    = regexp.MustCompile(`at '(/[^']*)'`)
	templatePos = regexp.MustCompile(`([A-Za-z0-9_.\-]+/templates/[^\s:()]+:\d+:\d+)`)
)

// Parse reads Helm 3's and Helm 4's template errors.
func Parse(stderr string) *Failure {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Use --debug flag") || strings.HasPrefix(l, "WARNING:") || strings.HasPrefix(l, "walk.go:") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, "Error: "))
	}
	f := &Failure{Message: strings.Join(lines, " ")}
	if len(f.Message) > maxMessage {
		f.Message = f.Message[:maxMessage] + "…"
	}
	if len(lines) > 0 {
		f.Last = lines[len(lines)-1]
		// Helm 3 puts the whole chain on one line: its cause follows the last "): " or ">: ".
		if i := strings.LastIndex(f.Last, ">: "); i >= 0 {
			f.Last = f.Last[i+3:]
		}
	}
	if m := templatePos.FindAllString(stderr, -1); len(m) > 0 {
		f.Template = m[len(m)-1]
	}
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			f.Paths = append(f.Paths, p)
		}
	}
	if strings.Contains(stderr, "don't meet the specifications of the schema") {
		f.Schema = true
		for _, m := range schemaAt.FindAllStringSubmatch(stderr, -1) {
			p := ""
			for _, k := range strings.Split(strings.Trim(m[1], "/"), "/") {
				p = values.JoinPath(p, strings.NewReplacer("~1", "/", "~0", "~").Replace(k))
			}
			add(p)
		}
	}
	for _, m := range valuesRef.FindAllStringSubmatch(stderr, -1) {
		add(strings.TrimPrefix(m[1], "."))
	}
	return f
}
