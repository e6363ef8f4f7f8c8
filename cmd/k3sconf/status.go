package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/internal/livereport"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/resolve"
)

// runStatus implements `k3sconf status`: is what the files say what runs? It exits 1 when a
// restart or daemon-reload is pending, a key's running value differs, or nothing about the
// running process could be learnt; 3 when a node file cannot be read or parsed (code).
func runStatus(stdout, stderr io.Writer, g globals, res *resolve.Result, red *output.Redactor, code int) int {
	st, err := inspectLive(g, res)
	if err != nil {
		fmt.Fprintf(stderr, "k3sconf status: %v\n", err)
		// A --node-json file that cannot be read is input k3sconf could not read; one
		// that is no node object is a wrong argument.
		if isReadError(err) {
			return exitInput
		}
		return exitUsage
	}
	if st.Pending() {
		code = worst(code, exitProblem)
	}
	if g.json {
		return writeJSON(stdout, stderr, livereport.JSON(st, red, g.showSecrets), code)
	}
	livereport.Text(stdout, st, red, g.showSecrets)
	return code
}

// inspectLive compares the node's running k3s with res. It is also the hook for explain:
//
//	if st, err := inspectLive(g, res); err == nil {
//		if v, from, ok := st.Value(k.Name(), g.showSecrets); ok { … "running: v (from)" … }
//	}
//
// systemd is asked over D-Bus only for the machine k3sconf runs on (--root /) and only when
// it has a system bus.
func inspectLive(g globals, res *resolve.Result) (*live.Status, error) {
	opts := live.Options{
		Node:    k3sconf.Node(g.root),
		Resolve: resolve.Options{Command: g.command, Unit: g.unit, Config: g.config, Version: g.version},
		Today:   res,
	}
	opts.Resolve.FS = opts.Node
	if g.nodeJSON != "" {
		// The one reader of file arguments; a stream is documented here
		// (--node-json <(kubectl get node NAME -o json)).
		b, err := rootfs.ReadArg(g.nodeJSON, true)
		if err != nil {
			return nil, fmt.Errorf("--node-json: %w", err)
		}
		opts.NodeJSON = b
	}
	if isLiveRoot(g.root) {
		if aux, err := os.ReadFile("/proc/self/auxv"); err == nil {
			opts.ClockTicks = live.ClockTicks(aux)
		}
		if live.HaveSystemBus() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if d, err := live.DialSystemd(ctx); err == nil {
				defer d.Close()
				opts.Systemd = d
			} else {
				opts.Systemd = failedSystemd{err}
			}
		}
	}
	return live.Inspect(opts)
}

// nodeJSONCode is what a failed --node-json costs explain and check, which go on without
// the running values: said on stderr, exit 3 when the file could not be read (2, as for
// status, when it is no node object). Without --node-json it is nothing: a live node that
// cannot be inspected only has no running values.
func nodeJSONCode(stderr io.Writer, g globals, err error) int {
	if err == nil || g.nodeJSON == "" {
		return exitOK
	}
	fmt.Fprintf(stderr, "k3sconf: %v\n", err)
	if isReadError(err) {
		return exitInput
	}
	return exitUsage
}

// isReadError reports whether err says a file could not be read (missing, no permission,
// a FIFO or device, over the size limit): input k3sconf could not read, exit 3.
func isReadError(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return true
	}
	if _, ok := rootfs.AsNotRegular(err); ok {
		return true
	}
	_, ok := rootfs.AsTooLarge(err)
	return ok
}

func isLiveRoot(root string) bool {
	if root == "" {
		return true
	}
	abs, err := filepath.Abs(root)
	return err == nil && abs == "/"
}

// failedSystemd reports why the bus could not be used, so status says it fell back to files.
type failedSystemd struct{ err error }

func (f failedSystemd) Unit(context.Context, string) (*live.UnitState, error) { return nil, f.err }
