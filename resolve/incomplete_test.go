package resolve_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/resolve"
)

// failFs fails every Open of one path with err: a permission error, an I/O error. Tests run
// as root in CI, where chmod 000 does not stop a read, so the errors are injected.
type failFs struct {
	afero.Fs
	path string
	err  error
}

func (f failFs) Open(name string) (afero.File, error) {
	if name == f.path {
		return nil, &os.PathError{Op: "open", Path: name, Err: f.err}
	}
	return f.Fs.Open(name)
}

func (f failFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if name == f.path {
		return nil, &os.PathError{Op: "open", Path: name, Err: f.err}
	}
	return f.Fs.OpenFile(name, flag, perm)
}

// TestIncompleteOrRefused: Result tells "k3sconf could not read an input" (Incomplete, exit
// 3) from "k3s or systemd would refuse the node" (Refused, exit 1), per file.
func TestIncompleteOrRefused(t *testing.T) {
	const envPath = "/etc/systemd/system/k3s.service.env"
	unit := "[Service]\nEnvironmentFile=-" + envPath + "\nExecStart=/usr/local/bin/k3s server\n"
	tests := []struct {
		name, reason   string
		files          map[string]string
		fail           string
		err            error
		wantIncomplete bool
		wantRefused    bool
		wantCode       string // a diagnostic code the result must have
		// onDisk: the node is written to a folder and read through k3sconf.Node, for errors
		// afero's in-memory filesystem does not give as the OS does (ENOTDIR).
		onDisk bool
	}{
		{name: "ok", reason: "a node k3s starts", files: map[string]string{unitPath: unit, configPath: "token: abc\n"}},
		{name: "broken-yaml", reason: "k3s reads config.yaml and refuses it: a node problem, nothing unread",
			files: map[string]string{unitPath: unit, configPath: "token: abc\n  bad: x: y\n"}, wantRefused: true, wantCode: "input-invalid"},
		{name: "broken-yaml-dropin", reason: "the same for a drop-in",
			files: map[string]string{unitPath: unit, configPath: "token: abc\n", configPath + ".d/10-x.yaml": "a: [\n"}, wantRefused: true, wantCode: "input-invalid"},
		{name: "refused-unit", reason: "systemd refuses a unit without ExecStart=: a node problem",
			files: map[string]string{unitPath: "[Service]\nType=simple\n"}, wantRefused: true},
		{name: "config-permission", reason: "k3sconf may not read config.yaml; k3s (root) would: incomplete, not refused",
			files: map[string]string{unitPath: unit, configPath: "token: abc\n"}, fail: configPath, err: fs.ErrPermission,
			wantIncomplete: true, wantCode: "input-unreadable"},
		{name: "config-io-error", reason: "an I/O error reading config.yaml: incomplete (and k3s stops there too)",
			files: map[string]string{unitPath: unit, configPath: "token: abc\n"}, fail: configPath, err: syscall.EIO,
			wantIncomplete: true, wantRefused: true, wantCode: "input-invalid"},
		{name: "unit-permission", reason: "k3sconf may not read the unit",
			files: map[string]string{unitPath: unit}, fail: unitPath, err: fs.ErrPermission, wantIncomplete: true, wantCode: "input-unreadable"},
		{name: "envfile-permission", reason: "k3sconf may not read an env file: what it sets is missing (was not flagged before)",
			files: map[string]string{unitPath: unit, envPath: "K3S_TOKEN=x\n"}, fail: envPath, err: fs.ErrPermission,
			wantIncomplete: true, wantCode: "input-unreadable"},
		{name: "dropins-is-a-file", reason: "a file at config.yaml.d: k3s stops with \"not a directory\"; k3sconf saw everything",
			files: map[string]string{unitPath: unit, configPath: "a: b\n", configPath + ".d": "x"}, wantRefused: true, onDisk: true},
		{name: "config-is-a-directory", reason: "a folder at config.yaml: k3s stops with the same error; k3sconf saw everything",
			files: map[string]string{unitPath: unit, configPath + "/x": "a: b\n"}, wantRefused: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := afero.NewMemMapFs()
			dir := t.TempDir()
			if tc.onDisk {
				mem = k3sconf.Node(dir)
			}
			for p, c := range tc.files {
				if tc.onDisk {
					// k3sconf.Node is read-only: write through the OS.
					host := filepath.Join(dir, filepath.FromSlash(p))
					if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(host, []byte(c), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := afero.WriteFile(mem, p, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var fsys afero.Fs = mem
			if tc.fail != "" {
				fsys = failFs{Fs: mem, path: tc.fail, err: tc.err}
			}
			res, err := resolve.Resolve(resolve.Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			if res.Incomplete() != tc.wantIncomplete || res.Refused() != tc.wantRefused {
				t.Errorf("%s: Incomplete %v Refused %v, want %v %v (error %q)", tc.reason, res.Incomplete(), res.Refused(), tc.wantIncomplete, tc.wantRefused, res.Error)
			}
			// InputInvalid is the older, wider question: an input could not be read or parsed
			// (a refusal from a flag, with every file read, is not).
			if want := tc.wantIncomplete || tc.wantRefused; res.InputInvalid() != want {
				t.Errorf("%s: InputInvalid %v, want %v", tc.reason, res.InputInvalid(), want)
			}
			if tc.wantCode != "" {
				var codes []string
				for _, d := range res.Diagnostics {
					codes = append(codes, d.Code)
				}
				if !strings.Contains(" "+strings.Join(codes, " ")+" ", " "+tc.wantCode+" ") {
					t.Errorf("%s: no %s diagnostic in %v", tc.reason, tc.wantCode, codes)
				}
			}
			// The k3s wrapper's early read and the config reader meet the same file: one
			// finding, not two identical ones ("2 errors" for one broken config.yaml).
			said := map[string]bool{}
			for _, d := range res.Diagnostics {
				k := fmt.Sprintf("%s %+v", d.Code, d.Pos)
				if said[k] {
					t.Errorf("%s: %s at %s said twice: %v", tc.reason, d.Code, d.Pos.File, res.Diagnostics)
				}
				said[k] = true
			}
		})
	}
}

// denyFs fails Stat, Lstat, Open and ReadDir of every path under dir with EACCES: a unit
// directory k3sconf may not search (tests run as root, where chmod does not stop it).
type denyFs struct {
	afero.Fs
	dir string
}

func (f denyFs) denied(name string) bool {
	return name == f.dir || strings.HasPrefix(name, f.dir+"/")
}

func (f denyFs) Stat(name string) (os.FileInfo, error) {
	if f.denied(name) {
		return nil, &os.PathError{Op: "stat", Path: name, Err: syscall.EACCES}
	}
	return f.Fs.Stat(name)
}

func (f denyFs) Open(name string) (afero.File, error) {
	if f.denied(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	return f.Fs.Open(name)
}

func (f denyFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if f.denied(name) {
		return nil, true, &os.PathError{Op: "lstat", Path: name, Err: syscall.EACCES}
	}
	if l, ok := f.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := f.Fs.Stat(name)
	return fi, false, err
}

// TestWrongCauseOrCode: k3sconf's own limits and permissions are incomplete input (exit
// 3), never a refusal by k3s and never "not found".
func TestWrongCauseOrCode(t *testing.T) {
	unit := "[Service]\nExecStart=/usr/local/bin/k3s server\n"
	t.Run("unit-dir-denied", func(t *testing.T) {
		mem := afero.NewMemMapFs()
		afero.WriteFile(mem, unitPath, []byte(unit), 0o644)
		res, err := resolve.Resolve(resolve.Options{FS: denyFs{Fs: mem, dir: "/etc/systemd/system"}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Incomplete() || res.Refused() {
			t.Errorf("a unit directory k3sconf may not search: incomplete, not refused (Incomplete %v, error %q)", res.Incomplete(), res.Error)
		}
		found := false
		for _, d := range res.Diagnostics {
			if d.Code == "input-unreadable" && strings.HasPrefix(d.Pos.File, "/etc/systemd/system") {
				found = true
			}
		}
		if !found {
			t.Errorf("want input-unreadable naming the unit directory: %v", res.Diagnostics)
		}
	})
	t.Run("unit-dir-readable", func(t *testing.T) {
		mem := afero.NewMemMapFs()
		afero.WriteFile(mem, unitPath, []byte(unit), 0o644)
		res, _ := resolve.Resolve(resolve.Options{FS: mem})
		if res.Incomplete() {
			t.Errorf("clean case: a readable unit directory is complete: %v", res.Diagnostics)
		}
	})
	t.Run("config-over-limit", func(t *testing.T) {
		dir := t.TempDir()
		host := filepath.Join(dir, filepath.FromSlash(configPath))
		os.MkdirAll(filepath.Dir(host), 0o755)
		if err := os.WriteFile(host, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(host, 17<<20); err != nil {
			t.Fatal(err)
		}
		res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(dir)})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Incomplete() || res.Refused() {
			t.Errorf("a config over k3sconf's limit: k3s reads it, so incomplete and not refused (error %q)", res.Error)
		}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Code == "input-unreadable" && d.Pos.File == configPath {
				n++
			}
			if d.Code == "input-invalid" {
				t.Errorf("no input-invalid for k3sconf's own limit: %v", d)
			}
		}
		if n != 1 {
			t.Errorf("want one input-unreadable for %s, got %d: %v", configPath, n, res.Diagnostics)
		}
	})
}
