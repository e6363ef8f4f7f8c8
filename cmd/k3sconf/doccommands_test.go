package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestDocCommands runs every command block of README.md and docs/*.md (and the examples of
// the README's question table) over the inputs shipped in examples/, as testscript scripts:
// a command shown with its output (`$ k3sconf …` and the lines below it) must print that
// output; a command shown without output must exit with its documented code (0 unless
// docBlocks says otherwise). A block that cannot run here is listed in docBlocks with the
// reason it is skipped; a new block is tested as it stands, and an entry of docBlocks that
// names no block fails, so the list cannot rot.
//
// In an expected output, a line that is only "…" stands for any number of lines, and "…"
// inside a line for any text. `go test ./cmd/k3sconf -run TestDocCommands -update`
// rewrites the outputs of the blocks that have no "…" with what the commands print now;
// a block with "…" that no longer matches is reported with the real output, to be edited
// by hand.
func TestDocCommands(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := docCommandBlocks(repo)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	dir := t.TempDir()
	var files []string
	for i, b := range blocks {
		spec := docBlocks[b.key]
		seen[b.key] = true
		if why, ok := docFiles[b.file]; ok && spec.skip == "" {
			spec.skip = why
		}
		if spec.skip != "" {
			t.Logf("%s:%d: skipped: %s", b.file, b.line, spec.skip)
			continue
		}
		var script strings.Builder
		fmt.Fprintf(&script, "# %s:%d\ncd $REPO/%s\n", b.file, b.line, spec.dir)
		for j := range b.cmds {
			if spec.stdin != "" {
				fmt.Fprintf(&script, "stdin $REPO/%s\n", spec.stdin)
			}
			fmt.Fprintf(&script, "doc %d %d\n", i, j)
		}
		name := fmt.Sprintf("%03d-%s-%d", i, strings.NewReplacer("/", "_", ".md", "").Replace(b.file), b.line)
		p := filepath.Join(dir, name+".txtar")
		if err := os.WriteFile(p, []byte(script.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for key := range docBlocks {
		if !seen[key] {
			t.Errorf("docBlocks names %q, which is no command block of README.md or docs/*.md any more: remove it", key)
		}
	}
	var mu sync.Mutex
	actual := map[[2]int]string{}
	testscript.Run(t, testscript.Params{
		Files:               files,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"doc": func(ts *testscript.TestScript, neg bool, args []string) {
				var bi, ci int
				fmt.Sscan(args[0], &bi)
				fmt.Sscan(args[1], &ci)
				b := blocks[bi]
				c := b.cmds[ci]
				spec := docBlocks[b.key]
				argv, prog, ok := c.argv(spec.stdin != "")
				if !ok {
					ts.Fatalf("%s:%d: %q is not a k3sconf command; list the block in docBlocks with the reason it is skipped", b.file, c.line, c.text)
				}
				if spec.root != "" && prog == "k3sconf" {
					argv = append([]string{"--root", filepath.Join(repo, spec.root)}, argv...)
				}
				err := ts.Exec(prog, argv...)
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("%s:%d: %v", b.file, c.line, err)
				}
				if want := spec.exit[ci]; code != want {
					ts.Fatalf("%s:%d: %s: exit %d, the docs say %d (set docBlocks[%q].exit)", b.file, c.line, c.text, code, want, b.key)
				}
				if !c.hasOut {
					return
				}
				got := ts.ReadFile("stdout") + ts.ReadFile("stderr")
				got = strings.ReplaceAll(got, repo+string(filepath.Separator), "")
				mu.Lock()
				actual[[2]int{bi, ci}] = got
				mu.Unlock()
				if !outputMatches(c.out, got) {
					if updateDocs() && !c.elided() {
						return // rewritten below
					}
					ts.Fatalf("%s:%d: %s: the output differs from the docs\n--- docs\n%s\n--- now\n%s", b.file, c.line, c.text, strings.Join(c.out, "\n"), got)
				}
			},
		},
	})
	// The scripts run as parallel subtests, after this function returns.
	t.Cleanup(func() {
		if updateDocs() {
			if err := rewriteDocOutputs(repo, blocks, actual); err != nil {
				t.Error(err)
			}
		}
	})
}

// updateDocs is the -update flag of this package's tests (declared with docs/cli.md's).
func updateDocs() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// blockSpec says how a command block runs, or why it does not.
type blockSpec struct {
	skip  string      // why the block is not run (it needs a real node, the network, …)
	dir   string      // the folder it runs in, relative to the repository root
	root  string      // --root given to k3sconf, for a block shown as run on the node itself
	stdin string      // a file given as standard input
	exit  map[int]int // the exit code of command i, when not 0
}

// docFiles are the pages whose blocks are tested elsewhere.
var docFiles = map[string]string{
	"docs/cli.md": "generated from each command's help, which TestCLIReference keeps in step",
}

// docBlocks holds the command blocks that need more than running as written from the
// repository's root, keyed by file and first command. The rest run as written.
var docBlocks = map[string]blockSpec{
	// README.md
	"README.md: k3sconf explain write-kubeconfig-mode":                                                                                                                          {root: "examples/node"},
	"README.md: go run ./cmd/k3sconf --root examples/node explain write-kubeconfig-mode disable tls-san":                                                                        {skip: "the Quick start: its first command is run by TestQuickStart, its second is this test suite"},
	"README.md: go install github.com/k3sconf/k3sconf/cmd/k3sconf@latest":                                                                                                       {skip: "installs from the network"},
	"README.md: V=0.1.0 ARCH=arm64   # amd64, arm64 or armv7":                                                                                                                   {skip: "downloads a release with curl and installs it with sudo"},
	"README.md: source <(k3sconf completion bash)                                  # bash, e.g. in ~/.bashrc":                                                                   {skip: "installs completion into the user's shells; TestCompletionScriptSyntax checks the scripts"},
	"README.md: kubectl get nodes -o json | k3sconf fleet --nodes-json -":                                                                                                       {skip: "needs a cluster (kubectl); the question table's fleet examples run on examples/fleet"},
	"README.md: table: k3sconf --root examples/node check --strict":                                                                                                             {exit: map[int]int{0: 1}},
	"README.md: table: k3sconf --root examples/node status --node-json examples/node/node.json":                                                                                 {exit: map[int]int{0: 1}},
	"README.md: table: k3sconf compose examples/compose/docker-compose.yml":                                                                                                     {exit: map[int]int{0: 1}},
	"README.md: table: k3sconf fleet --nodes-json examples/fleet/nodes.json":                                                                                                    {exit: map[int]int{0: 1}},
	"README.md: table: k3sconf fleet examples/fleet/show":                                                                                                                       {exit: map[int]int{0: 1}},
	"README.md: table: k3sconf kubespray explain containerd_max_container_log_line_size --host node2 -i inventory/mycluster/inventory.ini":                                      {dir: "examples/kubespray"},
	"README.md: table: k3sconf kubespray runs runs/deploy.log runs/rerun.log runs/edited.log --var containerd_max_container_log_line_size -i inventory/mycluster/inventory.ini": {dir: "examples/kubespray"},

	// docs/
	"docs/components.md: k3sconf --root examples/addons components":                                                                                                              {exit: map[int]int{0: 1}},
	"docs/identity-and-compose.md: k3sconf compose examples/compose/docker-compose.yml":                                                                                          {exit: map[int]int{0: 1}},
	"docs/exit-codes.md: k3sconf --root \"$bundle\" check --json > report.json":                                                                                                  {skip: "a shell script around k3sconf (variables, redirection, case $?); testdata/script/exitcodes.txtar tests each code"},
	"docs/fleet.md: kubectl get nodes -o json | k3sconf fleet --nodes-json -":                                                                                                    {stdin: "examples/fleet/nodes.json", exit: map[int]int{0: 1}},
	"docs/fleet.md: ansible-playbook -i inventory.ini examples/ansible/fleet.yml  -e k3sconf_binary=./k3sconf-linux-amd64 -e k3sconf_fleet_dir=./fleet":                          {skip: "needs an inventory of k3s hosts; examples/ansible's test runs the playbook on local hosts"},
	"docs/kubespray.md: k3sconf kubespray explain VAR... --host HOST -i INVENTORY [--kubespray DIR] [-e EXTRA]... [--facts DIR|FILE] [--json]":                                   {skip: "a synopsis with placeholders"},
	"docs/kubespray.md: k3sconf kubespray explain kube_apiserver_admission_plugins_needs_configuration --host node2 -i inv/inventory.ini --kubespray tree":                       {dir: "kubespray/testdata"},
	"docs/kubespray.md: k3sconf kubespray explain containerd_max_container_log_line_size --host node2 -i inventory/mycluster/inventory.ini":                                      {skip: "needs kubespray's own checkout at 46dbdd3 (K3SCONF_KUBESPRAY_DIR, which kubespray's TestRealCheckout uses)"},
	"docs/kubespray.md: ansible-playbook -i inventory/mycluster cluster.yml > deploy.log      # or an older log":                                                                 {skip: "runs ansible-playbook against a cluster's hosts; examples/kubespray/runs holds such logs, and the block below reads them"},
	"docs/kubespray.md: k3sconf kubespray runs runs/deploy.log runs/rerun.log runs/edited.log --var containerd_max_container_log_line_size -i inventory/mycluster/inventory.ini": {dir: "examples/kubespray"},
	"docs/kubespray.md: k3sconf kubespray where containerd_max_container_log_line_size":                                                                                          {skip: "needs kubespray's own checkout at 46dbdd3 (K3SCONF_KUBESPRAY_DIR)"},
	"docs/performance.md: go test ./internal/procbench -run '^$' -bench . -benchtime 11x   # the figures below":                                                                  {skip: "benchmarks: minutes of CPU, and figures that vary by machine"},
	"docs/performance.md: go build -o /tmp/k3sconf ./cmd/k3sconf && go build -o /tmp/floor ./internal/floor":                                                                     {skip: "a valgrind (callgrind) measurement: minutes of CPU, valgrind needed"},
	"docs/performance.md: go build -o /tmp/k3sconf ./cmd/k3sconf":                                                                                                                {skip: "issue 28's measurement against a kubespray checkout and ansible-inventory (valgrind, benchmarks): minutes of CPU"},
	"docs/status.md: sudo k3sconf status":                                                                        {skip: "reads a live node's /proc and asks systemd over D-Bus; testdata/script/status.txtar tests it on a node with a /proc"},
	"docs/values.md: k3sconf values traefik logs.general.level":                                                  {root: "examples/server"},
	"docs/values.md: kubectl get helmcharts,helmchartconfigs,jobs,secrets -n kube-system -o json > objects.json": {skip: "needs a cluster (kubectl); testdata/values/release-*.txtar test --objects on such documents"},
	"docs/testing.md: go test ./... -v 2>&1 | grep -A1 -- '--- SKIP'":                                            {skip: "runs the whole test suite"},
}

// docBlock is one command block of a markdown file.
type docBlock struct {
	file string // relative to the repository root
	line int    // 1-based, the block's first line
	key  string // "FILE: first command"
	cmds []docCmd
}

// docCmd is one command of a block and, for a `$ ` command, the output shown below it.
type docCmd struct {
	line   int
	text   string
	hasOut bool
	out    []string
	// outFrom, outTo are the lines of the file (0-based, outTo exclusive) that hold out;
	// indent is the block's indentation.
	outFrom, outTo int
	indent         string
}

func (c docCmd) elided() bool {
	for _, l := range c.out {
		if strings.Contains(l, "…") {
			return true
		}
	}
	return false
}

// argv splits the command as a POSIX shell would (quotes and backslashes, no expansion)
// and names the program: k3sconf, also for `go run ./cmd/k3sconf`. ok is false for
// anything else, or for shell syntax the test does not run (pipes, redirections); with
// stdin, a pipe into k3sconf is run as k3sconf reading that file.
func (c docCmd) argv(stdin bool) (args []string, prog string, ok bool) {
	words, ok := shellWords(c.text)
	if !ok || len(words) == 0 {
		return nil, "", false
	}
	// `kubectl … | k3sconf … -`: the test gives the producer's output as standard input.
	if stdin {
		for i, w := range words {
			if w == "|" {
				words = words[i+1:]
				break
			}
		}
	}
	for _, w := range words {
		if w == "|" || w == ">" || w == "<" || strings.HasPrefix(w, ">") || w == "&&" || w == ";" {
			return nil, "", false
		}
	}
	switch {
	case words[0] == "k3sconf":
		return words[1:], "k3sconf", true
	case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/k3sconf":
		return words[3:], "k3sconf", true
	}
	return nil, "", false
}

// shellWords splits s into words as sh does for quotes and backslashes; ok is false for
// an unterminated quote. A word that begins with # ends the line.
func shellWords(s string) (words []string, ok bool) {
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, false
			}
			in = true
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case ch == ' ' || ch == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case ch == '#' && !in:
			return words, true
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, true
}

// outputMatches compares an output with the docs' text of it: trailing spaces and
// trailing empty lines do not count, a line "…" matches any number of lines, and "…"
// inside a line any text.
func outputMatches(want []string, got string) bool {
	g := strings.Split(strings.TrimRight(got, "\n"), "\n")
	w := append([]string(nil), want...)
	for len(w) > 0 && strings.TrimSpace(w[len(w)-1]) == "" {
		w = w[:len(w)-1]
	}
	var match func(wi, gi int) bool
	match = func(wi, gi int) bool {
		if wi == len(w) {
			return gi == len(g)
		}
		if strings.TrimSpace(w[wi]) == "…" {
			for k := gi; k <= len(g); k++ {
				if match(wi+1, k) {
					return true
				}
			}
			return false
		}
		return gi < len(g) && lineMatches(w[wi], g[gi]) && match(wi+1, gi+1)
	}
	return match(0, 0)
}

func lineMatches(want, got string) bool {
	want, got = strings.TrimRight(want, " \t"), strings.TrimRight(got, " \t")
	if !strings.Contains(want, "…") {
		return want == got
	}
	parts := strings.Split(want, "…")
	var re strings.Builder
	re.WriteString("^")
	for i, p := range parts {
		if i > 0 {
			re.WriteString(".*")
		}
		re.WriteString(regexp.QuoteMeta(strings.TrimRight(p, " ")))
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String()).MatchString(got)
}

// docCommandBlocks reads README.md and docs/*.md.
func docCommandBlocks(repo string) ([]docBlock, error) {
	files, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	files = append([]string{filepath.Join(repo, "README.md")}, files...)
	var out []docBlock
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(repo, f)
		rel = filepath.ToSlash(rel)
		out = append(out, markdownCommandBlocks(rel, string(data))...)
		if rel == "README.md" {
			out = append(out, questionTableCommands(string(data))...)
		}
	}
	return out, nil
}

var commandStart = regexp.MustCompile(`^(\$ )?(k3sconf|go|kubectl|curl|sudo|ansible-playbook|source|V=\S*|helm|docker|systemctl)( |$)`)

// markdownCommandBlocks finds the fenced blocks (``` with no language, sh, console, bash
// or shell) and the indented blocks whose lines are commands, optionally after `$ `.
func markdownCommandBlocks(file, text string) []docBlock {
	lines := strings.Split(text, "\n")
	var out []docBlock
	add := func(start int, body []string, indent string) {
		b := parseBlock(file, start, body, indent)
		if b != nil {
			out = append(out, *b)
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if lang, ok := strings.CutPrefix(strings.TrimSpace(l), "```"); ok {
			indent := l[:strings.Index(l, "```")]
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				j++
			}
			switch lang {
			case "", "sh", "console", "bash", "shell":
				var body []string
				for _, b := range lines[i+1 : j] {
					body = append(body, strings.TrimPrefix(b, indent))
				}
				add(i+1, body, indent)
			}
			i = j
			continue
		}
		if strings.HasPrefix(l, "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == "") && commandStart.MatchString(strings.TrimPrefix(l, "    ")) {
			j := i
			for j < len(lines) && (strings.HasPrefix(lines[j], "    ") || (strings.TrimSpace(lines[j]) == "" && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "    "))) {
				j++
			}
			var body []string
			for _, b := range lines[i:j] {
				body = append(body, strings.TrimPrefix(b, "    "))
			}
			add(i, body, "    ")
			i = j
		}
	}
	return out
}

// parseBlock splits a block into commands; nil when it holds none. start is the 0-based
// line of the block's first body line.
func parseBlock(file string, start int, body []string, indent string) *docBlock {
	b := &docBlock{file: file, line: start + 1}
	prompt := false
	for _, l := range body {
		if strings.HasPrefix(l, "$ ") {
			prompt = true
		}
	}
	for i := 0; i < len(body); i++ {
		l := body[i]
		text, isCmd := "", false
		if prompt {
			text, isCmd = strings.CutPrefix(l, "$ ")
		} else if commandStart.MatchString(l) {
			text, isCmd = l, true
		}
		if !isCmd {
			if n := len(b.cmds); n > 0 && b.cmds[n-1].hasOut {
				c := &b.cmds[n-1]
				c.out = append(c.out, l)
				c.outTo = start + i + 1
			}
			continue
		}
		c := docCmd{line: start + i + 1, indent: indent}
		for strings.HasSuffix(text, "\\") && i+1 < len(body) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(strings.TrimPrefix(body[i], "$ "))
		}
		c.text = strings.TrimSpace(text)
		c.hasOut = prompt
		c.outFrom, c.outTo = start+i+1, start+i+1
		b.cmds = append(b.cmds, c)
	}
	if len(b.cmds) == 0 {
		return nil
	}
	b.key = file + ": " + b.cmds[0].text
	return b
}

// questionTableCommands returns the k3sconf commands of the example column of the
// README's table "Which command answers which question", each a block of its own.
func questionTableCommands(text string) []docBlock {
	var out []docBlock
	in := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "## ") {
			in = l == "## Which command answers which question"
			continue
		}
		if !in || !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(l, `\|`, "\x00"), "|")
		if len(cells) < 4 || strings.HasPrefix(cells[1], " question") {
			continue
		}
		for _, m := range regexp.MustCompile("`(k3sconf [^`]*)`").FindAllStringSubmatch(cells[3], -1) {
			cmd := strings.ReplaceAll(m[1], "\x00", "|")
			out = append(out, docBlock{file: "README.md", line: i + 1, key: "README.md: table: " + cmd,
				cmds: []docCmd{{line: i + 1, text: cmd}}})
		}
	}
	return out
}

// rewriteDocOutputs writes the outputs the commands printed into the docs, for the
// commands shown with an output that has no "…".
func rewriteDocOutputs(repo string, blocks []docBlock, actual map[[2]int]string) error {
	type edit struct {
		from, to int
		lines    []string
	}
	edits := map[string][]edit{}
	for bi, b := range blocks {
		for ci, c := range b.cmds {
			got, ok := actual[[2]int{bi, ci}]
			if !ok || !c.hasOut || c.elided() || outputMatches(c.out, got) {
				continue
			}
			var lines []string
			for _, l := range strings.Split(strings.TrimRight(got, "\n"), "\n") {
				if l == "" {
					lines = append(lines, "")
				} else {
					lines = append(lines, c.indent+l)
				}
			}
			edits[b.file] = append(edits[b.file], edit{c.outFrom, c.outFrom + trimmedLen(c.out), lines})
		}
	}
	for file, es := range edits {
		p := filepath.Join(repo, filepath.FromSlash(file))
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		sort.Slice(es, func(i, j int) bool { return es[i].from > es[j].from })
		for _, e := range es {
			lines = append(lines[:e.from], append(e.lines, lines[e.to:]...)...)
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// trimmedLen is the number of lines of out without its trailing empty ones.
func trimmedLen(out []string) int {
	n := len(out)
	for n > 0 && strings.TrimSpace(out[n-1]) == "" {
		n--
	}
	return n
}

func TestOutputMatches(t *testing.T) {
	tests := []struct {
		name, got, reason string
		want              []string
		match             bool
	}{
		{"same", "a\nb\n", "every line equal", []string{"a", "b"}, true},
		{"trailing space", "a  \nb\n", "trailing spaces do not count", []string{"a", "b", ""}, true},
		{"line differs", "a\nc\n", "a changed line fails", []string{"a", "b"}, false},
		{"more lines", "a\nb\nc\n", "a line the docs lack fails", []string{"a", "b"}, false},
		{"ellipsis line", "a\nb\nc\nd\n", "a line … stands for any lines", []string{"a", "…", "d"}, true},
		{"ellipsis line empty", "a\nd\n", "… may stand for no line", []string{"a", "…", "d"}, true},
		{"ellipsis at end", "a\nb\nc\n", "a last … takes the rest", []string{"a", "…"}, true},
		{"ellipsis in line", "  shadowed: X is used only when, and more\n", "… inside a line is any text", []string{"  shadowed: X is used only when, …"}, true},
		{"ellipsis in line prefix differs", "  overridden: Y\n", "the text around … must match", []string{"  shadowed: …"}, false},
	}
	for _, tc := range tests {
		if got := outputMatches(tc.want, tc.got); got != tc.match {
			t.Errorf("%s: outputMatches = %v, want %v (%s)", tc.name, got, tc.match, tc.reason)
		}
	}
}

func TestShellWords(t *testing.T) {
	tests := []struct {
		in, reason string
		want       []string
	}{
		{`k3sconf explain a b`, "spaces split", []string{"k3sconf", "explain", "a", "b"}},
		{`go test -run '^$' -bench .`, "single quotes keep $", []string{"go", "test", "-run", "^$", "-bench", "."}},
		{`k3sconf --root "$bundle" check  # comment`, "double quotes; a # word ends the line", []string{"k3sconf", "--root", "$bundle", "check"}},
		{`a\ b c`, "a backslash escapes a space", []string{"a b", "c"}},
	}
	for _, tc := range tests {
		got, ok := shellWords(tc.in)
		if !ok || strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("shellWords(%q) = %q, %v; want %q (%s)", tc.in, got, ok, tc.want, tc.reason)
		}
	}
}

// TestFleetExampleDocuments keeps examples/fleet/show/*.json what `k3sconf --json show
// --secret-salt example-salt --k3s-version v1.33.5+k3s1` writes on the node folders of
// examples/fleet/nodes/ (-update rewrites them).
func TestFleetExampleDocuments(t *testing.T) {
	nodes, err := filepath.Glob("../../examples/fleet/nodes/*")
	if err != nil || len(nodes) == 0 {
		t.Fatalf("no node folders under examples/fleet/nodes (%v)", err)
	}
	for _, n := range nodes {
		var out, errb strings.Builder
		if code := run([]string{"--json", "show", "--secret-salt", "example-salt", "--k3s-version", "v1.33.5+k3s1", "--root", n}, &out, &errb); code != exitOK {
			t.Fatalf("%s: exit %d: %s", n, code, errb.String())
		}
		doc := filepath.Join("../../examples/fleet/show", filepath.Base(n)+".json")
		if updateDocs() {
			if err := os.WriteFile(doc, []byte(out.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != out.String() {
			t.Errorf("%s is not what show writes on %s now: go test ./cmd/k3sconf -run TestFleetExampleDocuments -update", doc, n)
		}
	}
}
