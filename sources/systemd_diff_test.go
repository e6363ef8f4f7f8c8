package sources

// Differential test against the real systemd: generated units (and drop-ins) are loaded by
// `systemd --test --system` and by k3sconf, and argv, environment and whether the unit loads
// are compared; generated env files are parsed by systemd's environment.d generator (the same
// parser as EnvironmentFile=, src/basic/env-file.c) and by ParseEnvFile.
//
// It needs systemd (checked against 252, Debian 12) and setpriv: test mode refuses to run as
// root, so it runs as uid/gid 65534. It skips with a message where either is missing. The
// numbers of cases: K3SCONF_SYSTEMD_CASES (default 500 units and 500 env files; CI time is a
// few seconds because all units are loaded by one systemd run).

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const generatorPath = "/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator"

func diffCases() int {
	if n, err := strconv.Atoi(os.Getenv("K3SCONF_SYSTEMD_CASES")); err == nil && n > 0 {
		return n
	}
	return 500
}

// asNobody returns the command run as uid/gid 65534, or skips.
func asNobody(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	sp, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not found: the systemd differential test needs it to run systemd --test unprivileged")
	}
	var cmd *exec.Cmd
	if os.Getuid() == 0 {
		cmd = exec.Command(sp, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups"}, args...)...)
	} else {
		cmd = exec.Command(args[0], args[1:]...)
	}
	cmd.Env = env
	return cmd
}

func needSystemd(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("systemd")
	if err != nil {
		for _, c := range []string{"/usr/lib/systemd/systemd", "/lib/systemd/systemd"} {
			if _, e := os.Stat(c); e == nil {
				return c
			}
		}
		t.Skip("systemd not found: the differential test against systemd --test is skipped (CI has systemd 252)")
	}
	return p
}

// testHost is the machine systemd --test runs on, for the host-dependent specifiers.
func testHost(t *testing.T, fragment string) Host {
	h := Host{FragmentPath: fragment}
	if n, err := os.Hostname(); err == nil {
		h.Hostname, h.HasHostname = n, true
	}
	if b, err := os.ReadFile("/etc/machine-info"); err == nil {
		as, _ := ParseEnvFile("/etc/machine-info", b)
		for _, a := range as {
			if a.Name == "PRETTY_HOSTNAME" {
				h.PrettyHostname = a.Value
			}
		}
	}
	if b, err := os.ReadFile("/etc/machine-id"); err == nil {
		h.MachineID, h.HasMachineID = strings.TrimSpace(string(b)), true
	}
	for _, p := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		if b, err := os.ReadFile(p); err == nil {
			as, _ := ParseEnvFile(p, b)
			h.OSRelease = map[string]string{}
			for _, a := range as {
				h.OSRelease[a.Name] = a.Value
			}
			break
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		h.BootID = strings.ReplaceAll(strings.TrimSpace(string(b)), "-", "")
	}
	var u syscall.Utsname
	if syscall.Uname(&u) == nil {
		var b []byte
		for _, c := range u.Release {
			if c == 0 {
				break
			}
			b = append(b, byte(c))
		}
		h.KernelRelease = string(b)
	}
	h.Arch = map[string]string{"amd64": "x86-64", "arm64": "arm64", "386": "x86", "arm": "arm", "ppc64le": "ppc64-le", "s390x": "s390x", "riscv64": "riscv64"}[runtime.GOARCH]
	return h
}

// ---------------------------------------------------------------------------------------
// Generators (fixed seeds: case i uses rand.NewSource(i))

type gen struct{ r *rand.Rand }

func (g gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }
func (g gen) chance(p float64) bool    { return g.r.Float64() < p }

// word is one command-line or Environment= word as written.
func (g gen) word(env bool) string {
	var b strings.Builder
	n := 1 + g.r.Intn(3)
	for i := 0; i < n; i++ {
		switch g.r.Intn(14) {
		case 0:
			b.WriteString(`"` + g.plain(env) + " " + g.plain(env) + `"`)
		case 1:
			b.WriteString(`'` + g.plain(env) + `'`)
		case 2:
			b.WriteString(g.pick(`\x41`, `\101`, `\u00e9`, `\s`, `\\`, `\"`, `\'`, `\t`, `\z`, `\q`, `\x00`, `\U0001F600`))
		case 3:
			b.WriteString(g.pick("%n", "%N", "%p", "%i", "%f", "%t", "%S", "%C", "%L", "%E", "%T", "%V", "%u", "%U", "%g", "%G",
				"%h", "%s", "%d", "%H", "%l", "%m", "%o", "%w", "%B", "%W", "%M", "%A", "%b", "%v", "%a", "%y", "%Y", "%q", "%j", "%J", "%P", "%I", "%%", "%-", "%"))
		case 4:
			if g.chance(0.05) {
				b.WriteString(g.pick("%x", "%k", "%1", "%Z", "%D"))
			} else {
				b.WriteString("--flag")
			}
		case 5:
			b.WriteString(`""`)
		case 6:
			if g.chance(0.03) {
				b.WriteString(g.pick(`"`, `'`)) // unbalanced
			} else {
				b.WriteString("=")
			}
		case 7:
			b.WriteString(g.pick("$X", "${X}", "$$", "a$"))
		default:
			b.WriteString(g.plain(env))
		}
	}
	return b.String()
}

func (g gen) plain(env bool) string {
	const letters = "abcXYZ019_.,:/-+é"
	n := 1 + g.r.Intn(5)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(string([]rune(letters)[g.r.Intn(len([]rune(letters)))]))
	}
	return b.String()
}

func (g gen) envWord() string {
	name := g.pick("A", "B", "K3S_TOKEN", "_x", "x1", "1BAD", "A-B", "")
	switch g.r.Intn(6) {
	case 0:
		return `"` + name + "=" + g.plain(true) + " " + g.plain(true) + `"`
	case 1:
		return name + `="` + g.plain(true) + ` x"`
	case 2:
		return g.plain(true) // no '='
	default:
		w := g.word(true)
		// No escapes that make a newline: systemd --test prints Environment= values raw.
		return name + "=" + w
	}
}

func (g gen) execValue() string {
	var cmds []string
	n := 1
	if g.chance(0.08) {
		n = 2 + g.r.Intn(2)
	}
	for c := 0; c < n; c++ {
		prefix := ""
		if g.chance(0.25) {
			prefix = g.pick("-", "@", ":", "+", "!", "!!", "-@", "@-", "--", "+!", "-:")
		}
		exe := g.pick("/usr/local/bin/k3s", "/usr/local/bin/k3s", "/usr/local/bin/k3s", "k3s", "/bin/sh", `"/usr/local/bin/k3s"`, "%t/x", "/usr//bin/./k3s", "/opt/%N/k3s")
		if g.chance(0.08) {
			exe = g.pick("/usr/bin/", "/bin/a\\x01b", "./k3s", `"/bin/a b"`, "")
		}
		parts := []string{prefix + exe}
		if prefix != "" && strings.Contains(prefix, "@") {
			parts = append(parts, "k3s-argv0")
		}
		for i := g.r.Intn(6); i > 0; i-- {
			if g.chance(0.05) {
				parts = append(parts, `\;`)
			}
			parts = append(parts, g.word(false))
		}
		cmds = append(cmds, strings.Join(parts, " "))
	}
	return strings.Join(cmds, g.pick(" ; ", " ; ", " ;", " ;; "))
}

// continued writes value over several lines sometimes: a backslash-newline continuation,
// comment lines inside it, trailing blanks.
func (g gen) continued(key, value string) string {
	words := strings.Split(value, " ")
	var b strings.Builder
	b.WriteString(key + "=")
	for i, w := range words {
		if i > 0 {
			if g.chance(0.2) {
				b.WriteString(" \\\n")
				if g.chance(0.3) {
					b.WriteString(g.pick("# a comment\n", "; another\n", "  # indented\n"))
				}
				b.WriteString(g.pick("  ", "\t", ""))
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(w)
	}
	b.WriteString(g.pick("", "", " ", "\t"))
	return b.String()
}

type genUnit struct {
	name  string
	files []string // main, then drop-ins (10-*.conf, 20-*.conf)
}

func (g gen) unit(i int) genUnit {
	u := genUnit{name: fmt.Sprintf("kd%04d.service", i)}
	if g.chance(0.1) {
		u.name = fmt.Sprintf("kd%04d@edge-1\\x2dx.service", i)
	}
	svc := func(main bool) string {
		var lines []string
		if main && g.chance(0.3) {
			lines = append(lines, "[Unit]", "Description=generated "+g.plain(false))
			if g.chance(0.15) {
				lines = append(lines, g.pick("SuccessAction=exit", "SuccessAction=none", "SuccessAction=bogus"))
			}
		}
		lines = append(lines, g.pick("[Service]", "[Service]", "[Service]", "[Service]", "[service]", " [Service] "))
		if main && g.chance(0.3) {
			lines = append(lines, "Type="+g.pick("notify", "oneshot", "oneshot", "simple", "bogus"))
		}
		if g.chance(0.05) {
			lines = append(lines, g.pick("RemainAfterExit=yes", "RemainAfterExit=no", "RemainAfterExit=maybe", "SuccessAction=exit", "SuccessAction=none"))
		}
		for k := g.r.Intn(3); k > 0; k-- {
			if g.chance(0.1) {
				lines = append(lines, "Environment=")
				continue
			}
			var ws []string
			for j := 1 + g.r.Intn(3); j > 0; j-- {
				ws = append(ws, g.envWord())
			}
			lines = append(lines, g.continued(g.pick("Environment", "Environment", "environment", "Environment "), strings.Join(ws, " ")))
		}
		if g.chance(0.2) {
			lines = append(lines, "EnvironmentFile="+g.pick("-", "")+g.pick("/etc/default/%N", "/etc/x", "rel/path", "/etc/%x", "/e/%H"))
		}
		if !main && g.chance(0.8) {
			lines = append(lines, "ExecStart=")
		}
		if g.chance(0.15) {
			// Other Exec*= settings are parsed the same way: a fatal error there counts too.
			lines = append(lines, g.continued(g.pick("ExecStartPre", "ExecStop", "ExecStartPost", "ExecReload"), g.execValue()))
		}
		if main || g.chance(0.7) {
			lines = append(lines, g.continued(g.pick("ExecStart", "ExecStart", "ExecStart ", "execstart"), g.execValue()))
		}
		if g.chance(0.3) {
			lines = append(lines, "Environment=AFTER="+g.plain(false))
		}
		if g.chance(0.05) {
			lines = append(lines, g.pick("[Bad", "Environment=U=\xff", "NoEquals"))
		}
		if g.chance(0.1) {
			lines = append([]string{"# leading comment"}, lines...)
		}
		nl := "\n"
		if g.chance(0.1) {
			nl = "\r\n"
		}
		return strings.Join(lines, nl) + nl
	}
	u.files = append(u.files, svc(true))
	for d := g.r.Intn(3); d > 0; d-- {
		u.files = append(u.files, svc(false))
	}
	return u
}

// ---------------------------------------------------------------------------------------
// systemd --test dump

type dumped struct {
	load     string
	env      map[string]string
	envFiles []string
	cmds     [][]string
}

var unitHeader = regexp.MustCompile(`^\t-> Unit (.+):$`)

func parseDump(out string) map[string]*dumped {
	units := map[string]*dumped{}
	var cur *dumped
	inExec := false
	for _, l := range strings.Split(out, "\n") {
		if m := unitHeader.FindStringSubmatch(l); m != nil {
			cur = &dumped{env: map[string]string{}}
			units[m[1]] = cur
			inExec = false
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(l, "\t\tUnit Load State: "):
			cur.load = strings.TrimPrefix(l, "\t\tUnit Load State: ")
		case strings.HasPrefix(l, "\t\tEnvironment: "):
			kv := strings.TrimPrefix(l, "\t\tEnvironment: ")
			k, v, _ := strings.Cut(kv, "=")
			cur.env[k] = v
		case strings.HasPrefix(l, "\t\tEnvironmentFile: "):
			cur.envFiles = append(cur.envFiles, strings.TrimPrefix(l, "\t\tEnvironmentFile: "))
		case l == "\t\t-> ExecStart:":
			inExec = true
		case inExec && strings.HasPrefix(l, "\t\t\tCommand Line: "):
			cur.cmds = append(cur.cmds, unquoteDump(strings.TrimPrefix(l, "\t\t\tCommand Line: ")))
		case !strings.HasPrefix(l, "\t\t\t"):
			inExec = false
		}
	}
	return units
}

// unquoteDump splits a Command Line: as quote_command_line writes it (shell_maybe_quote:
// words with special characters in double quotes, with \" \\ \` \$ and C escapes).
func unquoteDump(s string) []string {
	var out []string
	i := 0
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			break
		}
		var b []byte
		quoted := false
		for i < len(s) && (quoted || s[i] != ' ') {
			c := s[i]
			switch {
			case c == '"':
				quoted = !quoted
				i++
			case c == '\\' && i+1 < len(s):
				n := s[i+1]
				i += 2
				switch n {
				case 'a':
					b = append(b, '\a')
				case 'b':
					b = append(b, '\b')
				case 'f':
					b = append(b, '\f')
				case 'n':
					b = append(b, '\n')
				case 'r':
					b = append(b, '\r')
				case 't':
					b = append(b, '\t')
				case 'v':
					b = append(b, '\v')
				case 'x':
					v, _ := strconv.ParseUint(s[i:i+2], 16, 8)
					b = append(b, byte(v))
					i += 2
				default:
					if n >= '0' && n <= '7' && i+1 < len(s) {
						v, _ := strconv.ParseUint(s[i-1:i+2], 8, 8)
						b = append(b, byte(v))
						i += 2
					} else {
						b = append(b, n)
					}
				}
			default:
				b = append(b, c)
				i++
			}
		}
		out = append(out, string(b))
	}
	return out
}

// TestSystemdDifferentialUnits loads generated units with systemd --test and with k3sconf.
func TestSystemdDifferentialUnits(t *testing.T) {
	sd := needSystemd(t)
	n := diffCases()
	base := worldReadableDir(t)
	base, _ = filepath.EvalSymlinks(base)
	dir := filepath.Join(base, "etc/systemd/system")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for p := dir; p != base; p = filepath.Dir(p) {
		_ = os.Chmod(p, 0o755)
	}
	var units []genUnit
	var wants []string
	for i := 0; i < n; i++ {
		u := gen{rand.New(rand.NewSource(int64(i)))}.unit(i)
		units = append(units, u)
		wants = append(wants, u.name)
		write(t, filepath.Join(dir, u.name), u.files[0])
		for j, d := range u.files[1:] {
			write(t, filepath.Join(dir, u.name+".d", fmt.Sprintf("%d0-gen.conf", j+1)), d)
		}
	}
	// Every letter and digit after "%", in each setting that expands specifiers: which ones
	// systemd 252 knows, and what an unknown one does there (fatal in ExecStart=, the word is
	// dropped in Environment=, the line in EnvironmentFile=).
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for i := 0; i < len(letters); i++ {
		c := string(letters[i])
		for j, body := range []string{
			"ExecStart=/bin/x A%" + c + "B\n",
			"Environment=A=%" + c + " B=1\nExecStart=/bin/x\n",
			"EnvironmentFile=-/e/%" + c + "\nExecStart=/bin/x\n",
		} {
			name := fmt.Sprintf("kspec%d-%d.service", i, j)
			u := genUnit{name: name, files: []string{"[Service]\n" + body}}
			units = append(units, u)
			wants = append(wants, name)
			write(t, filepath.Join(dir, name), u.files[0])
		}
	}
	write(t, filepath.Join(dir, "kdiff.target"), "[Unit]\nWants="+strings.Join(wants, " ")+"\n")
	env := []string{"SYSTEMD_UNIT_PATH=" + dir + ":", "HOME=/root", "SHELL=/bin/sh", "PATH=/usr/bin:/bin", "SYSTEMD_LOG_LEVEL=warning"}
	cmd := asNobody(t, env, sd, "--test", "--system", "--unit=kdiff.target", "--no-pager")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && stdout.Len() == 0 {
		t.Skipf("systemd --test did not run (%v): %s", err, stderr.String())
	}
	got := parseDump(stdout.String())
	disagree, loaded, truncated := 0, 0, 0
	for _, u := range units {
		d := got[u.name]
		if d == nil {
			t.Errorf("%s: not in systemd's dump", u.name)
			continue
		}
		var files []*UnitFile
		for j, text := range u.files {
			p := filepath.Join(dir, u.name)
			if j > 0 {
				p = filepath.Join(dir, u.name+".d", fmt.Sprintf("%d0-gen.conf", j))
			}
			uf, _ := ParseUnit(p, []byte(text))
			files = append(files, uf)
		}
		m := MergeUnitOn(u.name, files, testHost(t, filepath.Join(dir, u.name)))
		if d.load == "loaded" {
			loaded++
		}
		for _, dg := range m.Diagnostics {
			if dg.Code == "unit-dropin-truncated" {
				truncated++
				break
			}
		}
		problem := compareUnit(m, d)
		if problem != "" {
			disagree++
			if disagree <= 10 {
				var logs []string
				for _, l := range strings.Split(stderr.String(), "\n") {
					if strings.Contains(l, u.name) {
						logs = append(logs, l)
					}
				}
				t.Errorf("%s disagrees with systemd: %s\nsystemd says:\n%s\nk3sconf says:\n%v\n%s", u.name, problem,
					strings.Join(logs, "\n"), m.Diagnostics, strings.Join(u.files, "\n---- drop-in ----\n"))
			}
		}
	}
	t.Logf("systemd differential: %d generated units and %d specifier probes (%d load, %d refused, %d with a drop-in cut short by a fatal error), %d agree with systemd --test",
		n, len(units)-n, loaded, len(units)-loaded, truncated, len(units)-disagree)
}

func compareUnit(m *Unit, d *dumped) string {
	loaded := d.load == "loaded"
	if loaded != (m.Refused == "") {
		return fmt.Sprintf("systemd load state %q, k3sconf refused=%q", d.load, m.Refused)
	}
	if !loaded {
		return ""
	}
	var cmds [][]string
	for _, c := range m.Commands {
		var argv []string
		for _, w := range c.Argv {
			argv = append(argv, w.Value)
		}
		cmds = append(cmds, argv)
	}
	if fmt.Sprintf("%q", cmds) != fmt.Sprintf("%q", d.cmds) {
		return fmt.Sprintf("ExecStart: systemd %q, k3sconf %q", d.cmds, cmds)
	}
	env := map[string]string{}
	for _, a := range m.Environment {
		env[a.Name] = a.Value
	}
	if fmt.Sprint(sortedKV(env)) != fmt.Sprint(sortedKV(d.env)) {
		return fmt.Sprintf("Environment: systemd %q, k3sconf %q", sortedKV(d.env), sortedKV(env))
	}
	var files []string
	for _, f := range m.EnvironmentFiles {
		p := f.Path
		if f.Optional {
			p = "-" + p
		}
		files = append(files, p)
	}
	if fmt.Sprint(files) != fmt.Sprint(d.envFiles) {
		return fmt.Sprintf("EnvironmentFile: systemd %q, k3sconf %q", d.envFiles, files)
	}
	return ""
}

func sortedKV(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// worldReadableDir is a temp dir uid 65534 can read (t.TempDir's parent is mode 0700).
func worldReadableDir(t *testing.T) string {
	t.Helper()
	parent := os.TempDir()
	if !traversable(parent) {
		parent = "/tmp"
	}
	if !traversable(parent) {
		t.Skipf("no temp folder uid 65534 can enter (%s, /tmp): the systemd differential test is skipped", os.TempDir())
	}
	base, err := os.MkdirTemp(parent, "k3sconf-systemd-diff-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}

// envFileText generates an env file: quoting, escapes, continuation lines, comments, CRLF,
// invalid names, "export", blanks. No '$' (the generator expands it; EnvironmentFile= does
// not) and no empty values (the generator drops them).
func (g gen) envFileText() string {
	var lines []string
	for k := 1 + g.r.Intn(6); k > 0; k-- {
		name := g.pick("A", "B", "K3S_TOKEN", "_x", "x1", "1BAD", "A-B", "export C", " D ", "E\t")
		var v string
		switch g.r.Intn(9) {
		case 0:
			v = `"` + g.plain(true) + ` \" \\ \n \` + "`" + ` x` + g.pick("", "\\\n y") + `"`
		case 1:
			v = `'` + g.plain(true) + ` \n "q"` + g.pick("", "\nsecond line") + `'`
		case 2:
			v = g.plain(true) + `\` + "\n" + g.plain(true)
		case 3:
			v = g.plain(true) + "  " + g.pick("", "# not a comment", "\t")
		case 4:
			v = `"` + g.plain(true) + `"` + g.plain(true) + `'` + g.plain(true) + `'`
		case 5:
			v = `\"` + g.plain(true) + `\\` + g.plain(true)
		case 6:
			v = g.plain(true) + "=" + g.plain(true)
		default:
			v = g.plain(true)
		}
		line := name + g.pick("=", "=", " = ", "= ") + v
		if g.chance(0.1) {
			line = g.pick("# comment \\", "; comment", "", "   ", "NOEQUALS", "#A=commented")
		}
		lines = append(lines, line)
	}
	nl := "\n"
	if g.chance(0.15) {
		nl = "\r\n"
	}
	end := nl
	if g.chance(0.1) {
		end = ""
	}
	return strings.Join(lines, nl) + end
}

// TestSystemdDifferentialEnvFiles parses generated env files with systemd's environment.d
// generator and with ParseEnvFile. systemd --test does not read EnvironmentFile= (it is
// read when the service starts), so the generator stands in: it reads the file with
// load_env_file_pairs, the parser EnvironmentFile= uses, then drops empty values and
// expands $VAR (kept out of the generated files).
func TestSystemdDifferentialEnvFiles(t *testing.T) {
	if _, err := os.Stat(generatorPath); err != nil {
		t.Skipf("%s not found: the env-file differential test is skipped (CI has systemd 252)", generatorPath)
	}
	n := diffCases()
	base := worldReadableDir(t)
	disagree := 0
	for i := 0; i < n; i++ {
		text := gen{rand.New(rand.NewSource(int64(100000 + i)))}.envFileText()
		if strings.Contains(text, "$") {
			continue
		}
		dir := filepath.Join(base, fmt.Sprint(i))
		p := filepath.Join(dir, "environment.d", "x.conf")
		write(t, p, text)
		_ = os.Chmod(dir, 0o755)
		cmd := asNobody(t, []string{"XDG_CONFIG_HOME=" + dir, "PATH=/usr/bin:/bin"}, generatorPath)
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("environment.d generator did not run: %v", err)
		}
		as, _ := ParseEnvFileSystemd(p, []byte(text), 252)
		// The generator's own environment is empty (only the two variables above, which the
		// files never name), values are applied in order, and an empty value unsets.
		want := map[string]string{}
		for _, a := range as {
			if a.Value == "" {
				delete(want, a.Name)
				continue
			}
			want[a.Name] = a.Value
		}
		got := map[string]string{}
		for _, rec := range splitGeneratorOutput(string(out)) {
			k, v, _ := strings.Cut(rec, "=")
			v = unquoteGenerator(v)
			if k == "XDG_CONFIG_HOME" || k == "PATH" {
				continue
			}
			got[k] = v
		}
		if fmt.Sprintf("%q", sortedKV(want)) != fmt.Sprintf("%q", sortedKV(got)) {
			disagree++
			if disagree <= 10 {
				t.Errorf("env file %d disagrees with systemd:\n%q\nsystemd:  %q\nk3sconf: %q", i, text, sortedKV(got), sortedKV(want))
			}
		}
	}
	t.Logf("systemd differential: %d generated env files, %d agree with systemd's env-file parser", n, n-disagree)
}

var envRecord = regexp.MustCompile(`(?m)^(A|B|K3S_TOKEN|_x|x1|C|D|E|XDG_CONFIG_HOME|PATH)=`)

// splitGeneratorOutput splits NAME=VALUE records; values may hold newlines, so a record
// starts only at a line beginning with one of the names the generator can produce.
func splitGeneratorOutput(out string) []string {
	idx := envRecord.FindAllStringIndex(out, -1)
	var recs []string
	for i, m := range idx {
		end := len(out)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		recs = append(recs, strings.TrimSuffix(out[m[0]:end], "\n"))
	}
	return recs
}

// unquoteGenerator undoes the generator's quoting of a value with special characters:
// double quotes, with \", \\, \` and \$ escaped.
func unquoteGenerator(v string) string {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	v = v[1 : len(v)-1]
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
				continue
			case 't':
				b.WriteByte('\t')
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// traversable reports whether every folder from / to dir lets others in (o+x).
func traversable(dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(d); err == nil {
		d = r
	}
	for {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == "/" {
			return true
		}
		d = filepath.Dir(d)
	}
}
