package resolve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/sources"
)

// maxFileSize bounds every file read. Real config files, units and env files are a few
// kilobytes; anything this large is not a configuration file.
const maxFileSize = 16 << 20

// readFile reads a node file with one open, refusing directories and huge files with an
// error that names the node path (never the --root prefix).
//
// It never blocks: a FIFO, socket or device is refused with a *rootfs.NotRegularError before
// it is opened (and again after, should it have been swapped in between).
func readFile(fsys afero.Fs, name string) ([]byte, error) {
	// rootfs.Fs.Open itself refuses a FIFO, socket or device before opening it, so the
	// stat first is needed only for other filesystems, or to say why an open failed in the
	// same words as always (a stat and an lstat per file saved on a --root node).
	var f afero.File
	var err error
	if _, ok := fsys.(*rootfs.Fs); ok {
		f, err = fsys.Open(name)
	}
	if f == nil {
		if err := rootfs.CheckRegular(fsys, name); err != nil {
			if _, ok := rootfs.AsNotRegular(err); ok {
				return nil, err
			}
			return nil, nodeErr("stat", name, err)
		}
		f, err = fsys.Open(name)
	}
	if err != nil {
		if _, ok := rootfs.AsNotRegular(err); ok {
			return nil, err
		}
		return nil, nodeErr("open", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nodeErr("stat", name, err)
	}
	if k := rootfs.SpecialKind(fi.Mode()); k != "" && !rootfs.IsDevNull(fi) {
		return nil, &rootfs.NotRegularError{Path: name, Kind: k}
	}
	if fi.IsDir() {
		return nil, &os.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	if fi.Size() > maxFileSize {
		return nil, &rootfs.TooLargeError{Path: name, Size: fi.Size(), Limit: maxFileSize}
	}
	// Size the buffer from the stat, as os.ReadFile does, so a file is read in one call.
	data := make([]byte, 0, fi.Size()+512)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nodeErr("read", name, err)
		}
		if len(data) > maxFileSize {
			break
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
	if len(data) > maxFileSize {
		return nil, &rootfs.TooLargeError{Path: name, Size: -1, Limit: maxFileSize}
	}
	return data, nil
}

// nodeErr rewrites a filesystem error so that it names the path as on the node.
func nodeErr(op, name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: op, Path: name, Err: pe.Err}
	}
	return fmt.Errorf("%s %s: %w", op, name, err)
}

// unitFiles finds a unit and its drop-ins the way systemd's unit search path does: the unit
// file from the first directory that has it; drop-ins "<unit>.d/*.conf" from every directory,
// where a drop-in in a higher-priority directory masks one of the same name in a lower one,
// applied in file-name order.
//
// unread are the paths k3sconf could not look at (a unit directory it may not search, a
// drop-in folder it may not list): systemd, as root, would, so the report is incomplete.
func unitFiles(fsys afero.Fs, dirs []string, name, explicit string) (main string, dropins []string, searched []string, unread []unreadPath) {
	if explicit != "" {
		main = explicit
		dirs = []string{path.Dir(explicit)}
		name = path.Base(explicit)
	} else {
		for _, d := range dirs {
			p := path.Join(d, name)
			searched = append(searched, p)
			fi, err := fsys.Stat(p)
			if (err == nil && !fi.IsDir()) || unitMasked(fsys, p) != "" {
				main = p
				break
			}
			if err != nil && cannotLook(err) {
				unread = append(unread, unreadPath{p, err})
			}
		}
	}
	seen := map[string]string{}
	for _, d := range dirs {
		dd := path.Join(d, name+".d")
		infos, err := afero.ReadDir(fsys, dd)
		if err != nil {
			if cannotLook(err) {
				unread = append(unread, unreadPath{dd, err})
			}
			continue
		}
		for _, fi := range infos {
			if fi.IsDir() || !strings.HasSuffix(fi.Name(), ".conf") {
				continue
			}
			if _, ok := seen[fi.Name()]; !ok {
				seen[fi.Name()] = path.Join(dd, fi.Name())
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		dropins = append(dropins, seen[n])
	}
	return main, dropins, searched, unread
}

// unreadPath is a path k3sconf could not look at, and why.
type unreadPath struct {
	path string
	err  error
}

// cannotLook tells an error that hides whether a path exists (no permission to search or
// list a directory, an I/O error) from one that says it does not (ENOENT, ENOTDIR).
func cannotLook(err error) bool {
	return !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR)
}

// configFiles reproduces dotDFiles and the start of readConfigFile (k3s
// pkg/configfilearg/parser.go): the drop-in folder is "<file>.d"; os.ReadDir sorts by name,
// byte-wise; an entry is used when it is not a directory and its name ends in .yaml or .yml,
// ignoring case. A missing folder is fine; any other error reading it is fatal. The main file
// is read first when it exists; when it does not, the drop-ins alone are fine; with neither,
// k3s reads no config (os.IsNotExist).
func configFiles(fsys afero.Fs, file string) (files []string, ignored []Source, mainMissing bool, err error) {
	dir := file + ".d"
	// Names only (one getdents, no stat per entry, like os.ReadDir's DirEntry): a candidate
	// that turns out to be a directory is found when it is opened (see dropinIsDir).
	names, derr := readDirNames(fsys, dir)
	switch {
	case derr == nil:
		for _, n := range names {
			lower := strings.ToLower(n)
			if !strings.HasSuffix(lower, ".yaml") && !strings.HasSuffix(lower, ".yml") {
				ignored = append(ignored, Source{Role: "config-dropin", Path: path.Join(dir, n), State: "ignored", Why: "name does not end in .yaml or .yml; k3s skips it"})
				continue
			}
			files = append(files, path.Join(dir, n))
		}
	case isNotExist(derr):
	default:
		return nil, ignored, false, nodeErr("open", dir, derr)
	}
	fi, serr := fsys.Stat(file)
	if serr != nil {
		if isNotExist(serr) && len(files) > 0 {
			return files, ignored, true, nil
		}
		return nil, ignored, isNotExist(serr), nodeErr("stat", file, serr)
	}
	_ = fi
	return append([]string{file}, files...), ignored, false, nil
}

// readDirNames lists a folder's entries sorted byte-wise, as os.ReadDir does.
func readDirNames(fsys afero.Fs, dir string) ([]string, error) {
	names, _, err := readDirTyped(fsys, dir)
	return names, err
}

// dirEntryReader is a directory that reports its entries' types from the listing itself
// (*os.File, and so the --root filesystem): a real directory among them is known without a
// stat, as os.ReadDir knows it for k3s's dotDFiles.
type dirEntryReader interface {
	ReadDir(n int) ([]fs.DirEntry, error)
}

// readDirTyped lists a folder's entries sorted byte-wise and says which are real
// directories (not links to one: DirEntry describes the entry itself). isDir is nil when
// the filesystem cannot tell from the listing; then ask dropinIsDir.
func readDirTyped(fsys afero.Fs, dir string) (names []string, isDir map[string]bool, err error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if dr, ok := f.(dirEntryReader); ok {
		ents, err := dr.ReadDir(-1)
		if err != nil {
			return nil, nil, err
		}
		isDir = map[string]bool{}
		for _, e := range ents {
			names = append(names, e.Name())
			if e.IsDir() {
				isDir[e.Name()] = true
			}
		}
		sort.Strings(names)
		return names, isDir, nil
	}
	names, err = f.Readdirnames(-1)
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	return names, nil, nil
}

// dropinIsDir reports whether a drop-in candidate is a real directory, which k3s's dotDFiles
// skips (DirEntry.IsDir). A symlink to a directory is not skipped: DirEntry describes the
// link itself, so k3s tries to read it and fails.
func dropinIsDir(fsys afero.Fs, name string) bool {
	if l, ok := fsys.(afero.Lstater); ok {
		if fi, _, err := l.LstatIfPossible(name); err == nil {
			return fi.IsDir()
		}
	}
	fi, err := fsys.Stat(name)
	return err == nil && fi.IsDir()
}

// isNotExist is os.IsNotExist, plus ENOTDIR, which afero's base-path filesystem returns for
// a path under a regular file and which os.Stat on the real node reports as not existing
// only for ENOENT. Keep ENOTDIR separate so the k3s behaviour stays exact.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist)
}

// readEnvFiles reads the unit's EnvironmentFile= files in order. A missing optional ("-")
// file is skipped; a missing required one makes systemd refuse to start the unit.
func readEnvFiles(fsys afero.Fs, refs []sources.EnvFileRef) (assigns [][]sources.EnvAssignment, srcs []Source, diags []diag.Diagnostic, refusal string, refusalPos diag.Position, unread bool) {
	for _, ref := range refs {
		data, err := readFile(fsys, ref.Path)
		if err != nil {
			if isNotExist(err) {
				if ref.Optional {
					srcs = append(srcs, Source{Role: "envfile", Path: ref.Path, State: "missing-optional",
						Why: fmt.Sprintf("EnvironmentFile=-%s at %s: the '-' makes a missing file fine", ref.Path, ref.Pos)})
					assigns = append(assigns, nil)
					continue
				}
				srcs = append(srcs, Source{Role: "envfile", Path: ref.Path, State: "missing",
					Why: fmt.Sprintf("EnvironmentFile=%s at %s is required (no '-') and missing: systemd will not start the unit", ref.Path, ref.Pos)})
				if refusal == "" {
					refusal = fmt.Sprintf("systemd: Failed to load environment files: %s does not exist (EnvironmentFile= without '-')", ref.Path)
					refusalPos = ref.Pos
				}
				diags = append(diags, diag.Diagnostic{Severity: diag.Error, Code: "unit-envfile-missing", Pos: ref.Pos,
					Message: fmt.Sprintf("EnvironmentFile=%s is missing and not marked optional; systemd refuses to start the service", ref.Path),
					Hint:    fmt.Sprintf("create %s or write EnvironmentFile=-%s", ref.Path, ref.Path)})
				assigns = append(assigns, nil)
				continue
			}
			unread = true
			srcs = append(srcs, Source{Role: "envfile", Path: ref.Path, State: "unreadable", Why: err.Error()})
			msg := fmt.Sprintf("cannot read %s: %v", ref.Path, err)
			if nr, ok := rootfs.AsNotRegular(err); ok {
				what, _ := specialOutcome("envfile", nr.Kind, "")
				msg = fmt.Sprintf("%s is a %s, not a regular file: k3sconf does not read it (a read could wait forever), so what it would set is missing from this report; %s",
					nr.Path, nr.Kind, what)
			}
			hint := ""
			if _, ok := rootfs.AsNotRegular(err); ok {
				hint = fmt.Sprintf("replace %s with a regular file", ref.Path)
			}
			diags = append(diags, diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: ref.Pos, Message: msg, Hint: hint})
			assigns = append(assigns, nil)
			continue
		}
		as, ds := sources.ParseEnvFile(ref.Path, data)
		diags = append(diags, ds...)
		assigns = append(assigns, as)
		srcs = append(srcs, Source{Role: "envfile", Path: ref.Path, State: "read",
			Why: fmt.Sprintf("EnvironmentFile= at %s", ref.Pos)})
	}
	return assigns, srcs, diags, refusal, refusalPos, unread
}

// nodeHost reads what the node's own files say about the host-dependent specifiers (%H %l %q
// %m %o %w %B %W %M %A): /etc/hostname (systemd's read_etc_hostname: the first line that is
// not empty or a comment, trimmed), /etc/machine-info's PRETTY_HOSTNAME, /etc/machine-id (32
// hex digits) and /etc/os-release, falling back to /usr/lib/os-release as systemd does. A
// file that is missing or unreadable leaves its specifiers unknown.
//
// unread are the files that exist but could not be read (a FIFO, a device, no permission):
// the caller reports them, since the report is then incomplete.
func nodeHost(fsys afero.Fs, unitPath string) (h sources.Host, unread []unreadPath) {
	h = sources.Host{FragmentPath: unitPath}
	read := func(p string) ([]byte, error) {
		b, err := readFile(fsys, p)
		if err != nil && cannotLook(err) {
			unread = append(unread, unreadPath{p, err})
		}
		return b, err
	}
	defer func() {
		for _, u := range unread {
			h.Unreadable = append(h.Unreadable, u.path)
		}
	}()
	if b, err := read("/etc/hostname"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			h.Hostname, h.HasHostname = l, true
			break
		}
	}
	if b, err := read("/etc/machine-info"); err == nil {
		as, _ := sources.ParseEnvFile("/etc/machine-info", b)
		for _, a := range as {
			if a.Name == "PRETTY_HOSTNAME" {
				h.PrettyHostname = a.Value
			}
		}
	}
	if b, err := read("/etc/machine-id"); err == nil {
		id := strings.TrimSpace(string(b))
		if len(id) == 32 && strings.Trim(id, "0123456789abcdef") == "" {
			h.MachineID, h.HasMachineID = id, true
		}
	}
	for _, p := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		b, err := read(p)
		if err != nil {
			continue
		}
		as, _ := sources.ParseEnvFile(p, b)
		h.OSRelease = map[string]string{}
		for _, a := range as {
			h.OSRelease[a.Name] = a.Value
		}
		break
	}
	return h, unread
}

// unitMasked says why systemd counts the unit file at p as masked, or "" when it does not: a
// symbolic link to /dev/null (what `systemctl mask` makes; under --root the node's /dev/null
// usually is not there, so the link's text is what counts), or a file that is a device
// (null_or_empty in src/basic/stat-util.c treats every character or block device as empty;
// checked with systemd --test: a link to /dev/zero is "masked" too).
func unitMasked(fsys afero.Fs, p string) string {
	if lr, ok := fsys.(afero.LinkReader); ok {
		if t, err := lr.ReadlinkIfPossible(p); err == nil && path.Clean(t) == "/dev/null" {
			return "a link to /dev/null"
		}
	}
	if fi, err := fsys.Stat(p); err == nil && fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice) != 0 {
		return "a device"
	}
	return ""
}
