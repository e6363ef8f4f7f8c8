package resolve_test

// k3s's own pkg/configfilearg tests, replayed through resolve.Resolve.
//
// The cases come from pkg/configfilearg/parser_test.go and defaultparser_test.go of k3s main
// (read from the manuelbuil/k3s mirror, HEAD 66a14f0e8, whose configfilearg package is the
// reference commit of k3s-semantics.md §0). Each row names the k3s test and case it
// reproduces. The want values are k3s's expected outputs, not k3sconf's: a row that fails is
// a disagreement with k3s to fix in the product, never in the table.
//
// What configfilearg produces is the spliced argv, so the rows assert Result.Args. k3sconf
// then runs its urfave/cli emulation on that argv, which may set Result.Error for made-up
// flags ("-t 12345", "--notaflag"); that later stage is not configfilearg's and is not
// asserted here. Rows that expect configfilearg itself to fail (YAML errors) assert a
// non-empty Result.Error together with Result.InputInvalid.
//
// Adaptations, because the k3s binary only ever runs DefaultParser:
//   - k3s's Parser tests use a bare Parser: no ValidFlags, and their own DefaultConfig and
//     EnvName. Here the parser is always DefaultParser: After = server, agent,
//     etcd-snapshot:1; the default config is /etc/rancher/k3s/config.yaml; the environment
//     variable is K3S_CONFIG_FILE (set through the unit, the only environment k3sconf sees);
//     and stripInvalidFlags filters server and etcd-snapshot. A test DefaultConfig of "" or
//     "missing" becomes "no file at the default path"; "def" and "./testdata/data.yaml" used
//     as DefaultConfig become the default path. Each row says what it changed.
//   - resolve.Options.Args is argv without argv[0]; k3s's MustParse cases start with "k3s",
//     which is dropped here. Parser.Parse cases have no argv[0] in k3s; here k3s would see
//     "k3s" prepended, so args[1] (the stripInvalidFlags command) is the row's first arg.
//   - Relative config paths ("./testdata/data.yaml", "value", "missing") are kept verbatim and
//     the files are written at those same paths in the MemMapFs, so the path k3s opens and
//     the path in the node are the same string.
//
// Not reproduced:
//   - Test_UnitParser_FindString (10 cases) and Test_UnitMustFindString (7 cases): k3sconf
//     does not model FindString/MustFindString, the wrapper's pre-extraction look-up of
//     data-dir, debug and prefer-bundled-bin (k3s-semantics.md §1.8).
//   - Test_UnitParser_findConfigFileFlag "default case": it checks that a nil argv with an
//     empty DefaultConfig yields "". DefaultParser's DefaultConfig is never empty, and a nil
//     argv never reaches findConfigFileFlag (findStart finds nothing first), which
//     findStartCases "default case" already covers.

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

const (
	defaultConfig = "/etc/rancher/k3s/config.yaml"
	k3sUnitPath   = "/etc/systemd/system/k3s.service"
)

// The YAML of k3s's pkg/configfilearg/testdata, byte for byte (data.yaml and the drop-ins
// have no final newline).
const (
	dataYAML = `foo-bar: baz
alice: bob
a-slice:
- 1
- "2"
- ""
- three
isempty:
c: b
isfalse: false
islast: true`

	data01YML = `foo-bar: get-overriden
a-slice:
- 1
- "1.5"
- "2"
- ""
- three
b-string: one
c-slice:
- one
- two
d-slice:
- one
- two
f-string: beta`

	// data02IgnoreTXT must be skipped: a drop-in needs a .yaml or .yml suffix.
	data02IgnoreTXT = "foo-bar: ignored\n"

	data02YAML = `foo-bar: bar-foo
b-string+: two
c-slice+:
- three
d-slice:
- three
- four
e-slice+:
- one
- two`

	defaultDataYAML = `token: 12345
node-label: DEAFBEEF
etcd-s3: true
etcd-s3-bucket: my-backup
notaflag : true
kubelet-arg: "max-pods=999"`

	invalidYAML = "!invalid\n"
)

// dataOutput is testDataOutput of Test_UnitParser_Parse: data.yaml merged with its drop-ins.
var dataOutput = []string{
	"--foo-bar=bar-foo",
	"--alice=bob",
	"--a-slice=1",
	"--a-slice=1.5",
	"--a-slice=2",
	"--a-slice=",
	"--a-slice=three",
	"--isempty=",
	"-c=b",
	"--isfalse=false",
	"--islast=true",
	"--b-string=one",
	"--b-string=two",
	"--c-slice=one",
	"--c-slice=two",
	"--c-slice=three",
	"--d-slice=three",
	"--d-slice=four",
	"--f-string=beta",
	"--e-slice=one",
	"--e-slice=two",
}

// dataTree is testdata/data.yaml and testdata/data.yaml.d/ placed at file.
func dataTree(file string) map[string]string {
	return map[string]string{
		file:                                dataYAML,
		file + ".d/01-data.yml":             data01YML,
		file + ".d/02-data-ignore-this.txt": data02IgnoreTXT,
		file + ".d/02-data.yaml":            data02YAML,
	}
}

// files merges file maps; later maps win.
func files(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

type configfileargCase struct {
	name string
	// reason names the k3s test and case, and any adaptation.
	reason string
	// files are the node's files, path → content.
	files map[string]string
	// env is K3S_CONFIG_FILE in the unit's environment ("" sets nothing).
	env string
	// unit writes /etc/systemd/system/k3s.service even when env is empty: without a unit
	// and without arguments k3sconf implies "server", which k3s never does.
	unit bool
	// args is the argv without argv[0].
	args []string
	// want is the spliced argv k3s's test expects, without argv[0].
	want []string
	// wantErr: configfilearg itself fails (k3s returns an error; MustParse is fatal).
	wantErr bool
}

func runConfigfileargCases(t *testing.T, cases []configfileargCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			paths := make([]string, 0, len(tc.files))
			for p := range tc.files {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				if err := afero.WriteFile(fsys, p, []byte(tc.files[p]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.env != "" || tc.unit {
				unit := "[Service]\n"
				if tc.env != "" {
					unit += fmt.Sprintf("Environment=\"K3S_CONFIG_FILE=%s\"\n", tc.env)
				}
				unit += "ExecStart=/usr/local/bin/k3s server\n"
				if err := afero.WriteFile(fsys, k3sUnitPath, []byte(unit), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Never nil: a nil Args means "take ExecStart from the unit".
			args := append([]string{}, tc.args...)
			res, err := resolve.Resolve(resolve.Options{FS: fsys, Args: args})
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if tc.wantErr {
				if res.Error == "" || !res.InputInvalid() {
					t.Errorf("%s\nwant configfilearg to fail (Error set, InputInvalid), got Error=%q InputInvalid=%v args=%q",
						tc.reason, res.Error, res.InputInvalid(), argValues(res))
				}
				return
			}
			if res.InputInvalid() {
				t.Errorf("%s\nconfigfilearg must not fail, got Error=%q", tc.reason, res.Error)
			}
			if diff := cmp.Diff(tc.want, argValues(res), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nspliced argv mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func argValues(res *resolve.Result) []string {
	out := make([]string, 0, len(res.Args))
	for _, a := range res.Args {
		out = append(out, a.Value)
	}
	return out
}

// TestConfigfileargFindStart reproduces Test_UnitParser_findStart. k3s checks the prefix and
// suffix findStart returns; through Resolve they show as where the config values land: a
// default config.yaml holds one key valid for both server and etcd-snapshot, so its argument
// sits exactly between k3s's prefix and suffix. found=false shows as the argv unchanged.
func TestConfigfileargFindStart(t *testing.T) {
	cfg := map[string]string{defaultConfig: "etcd-s3: true\n"}
	const v = "--etcd-s3=true"
	why := func(c string) string {
		return "parser_test.go Test_UnitParser_findStart " + c + " (After is DefaultParser's own: server, agent, etcd-snapshot:1)"
	}
	runConfigfileargCases(t, []configfileargCase{
		{
			name:   "default case",
			reason: why(`"default case": nil args, found=false; a unit supplies the (empty) environment so k3sconf does not imply "server"`),
			files:  cfg, unit: true,
			args: nil,
			want: nil,
		},
		{
			name:   "simple case",
			reason: why(`"simple case": [server] splits after server`),
			files:  cfg,
			args:   []string{"server"},
			want:   []string{"server", v},
		},
		{
			name:   "also simple case",
			reason: why(`"also simple case": [server foo] → prefix [server], suffix [foo]`),
			files:  cfg,
			args:   []string{"server", "foo"},
			want:   []string{"server", v, "foo"},
		},
		{
			name:   "longer simple case",
			reason: why(`"longer simple case": [server foo bar] → prefix [server], suffix [foo bar]`),
			files:  cfg,
			args:   []string{"server", "foo", "bar"},
			want:   []string{"server", v, "foo", "bar"},
		},
		{
			name:   "not found",
			reason: why(`"not found": no After word, args unchanged and no config read`),
			files:  cfg,
			args:   []string{"not-server", "foo", "bar"},
			want:   []string{"not-server", "foo", "bar"},
		},
		{
			name:   "command (with optional subcommands) but no flags",
			reason: why(`"command (with optional subcommands) but no flags": bare etcd-snapshot splits after it`),
			files:  cfg,
			args:   []string{"etcd-snapshot"},
			want:   []string{"etcd-snapshot", v},
		},
		{
			name:   "command (with optional subcommands) and flags",
			reason: why(`"command (with optional subcommands) and flags": etcd-snapshot:1 does not take "-f" as the subcommand`),
			files:  cfg,
			args:   []string{"etcd-snapshot", "-f"},
			want:   []string{"etcd-snapshot", v, "-f"},
		},
		{
			name:   "command and subcommand with no flags",
			reason: why(`"command and subcommand with no flags": etcd-snapshot:1 splits after "list"`),
			files:  cfg,
			args:   []string{"etcd-snapshot", "list"},
			want:   []string{"etcd-snapshot", "list", v},
		},
		{
			name:   "command and subcommand with flags",
			reason: why(`"command and subcommand with flags": [etcd-snapshot list -f] → prefix [etcd-snapshot list], suffix [-f]`),
			files:  cfg,
			args:   []string{"etcd-snapshot", "list", "-f"},
			want:   []string{"etcd-snapshot", "list", v, "-f"},
		},
		{
			name:   "another command and subcommand with flags",
			reason: why(`"another command and subcommand with flags": [etcd-snapshot save --s3] → prefix [etcd-snapshot save], suffix [--s3]`),
			files:  cfg,
			args:   []string{"etcd-snapshot", "save", "--s3"},
			want:   []string{"etcd-snapshot", "save", v, "--s3"},
		},
		{
			name:   "command and too many subcommands",
			reason: why(`"command and too many subcommands": :1 takes exactly one more argument`),
			files:  cfg,
			args:   []string{"etcd-snapshot", "list", "delete", "foo", "bar"},
			want:   []string{"etcd-snapshot", "list", v, "delete", "foo", "bar"},
		},
	})
}

// TestConfigfileargFindConfigFileFlag reproduces Test_UnitParser_findConfigFileFlag. k3s
// checks the path findConfigFileFlag returns; here each candidate file sets node-label to
// its own name, so the spliced argv shows which one was read, and an unchanged argv shows
// that none was (the function returned ""). k3s's test calls the function on bare args; to
// reach it through Parse an argv needs an After word, so each row adds "server". The test's
// DefaultConfig "def" is DefaultParser's /etc/rancher/k3s/config.yaml, and its DefaultConfig
// "" is "no file at the default path".
func TestConfigfileargFindConfigFileFlag(t *testing.T) {
	def := map[string]string{defaultConfig: "node-label: from=def\n"}
	value := map[string]string{"value": "node-label: from=value\n"}
	env := map[string]string{"env": "node-label: from=env\n"}
	why := func(c string) string {
		return "parser_test.go Test_UnitParser_findConfigFileFlag " + c
	}
	runConfigfileargCases(t, []configfileargCase{
		{
			name: "simple case",
			reason: why(`"simple case": [asdf -c value] → "value". "server" appended so that Parse reads the file; ` +
				`"-c value" before the subcommand still counts; args[1]=asdf has no ValidFlags, so nothing is stripped`),
			files: value,
			args:  []string{"asdf", "-c", "value", "server"},
			want:  []string{"asdf", "-c", "value", "server", "--node-label=from=value"},
		},
		{
			name:   "invalid args string",
			reason: why(`"invalid args string": [-c] (last argument) → "", no config read`),
			args:   []string{"server", "-c"},
			want:   []string{"server", "-c"},
		},
		{
			name:   "empty arg value",
			reason: why(`"empty arg value": [-c=] → "", no config read`),
			args:   []string{"server", "-c="},
			want:   []string{"server", "-c="},
		},
		{
			name:   "empty arg value override default",
			reason: why(`"empty arg value override default": [-c=] → "" even though the default config exists`),
			files:  def,
			args:   []string{"server", "-c="},
			want:   []string{"server", "-c="},
		},
		{
			name:   "invalid args always return no value",
			reason: why(`"invalid args always return no value": [-c] → "" even though the default config exists`),
			files:  def,
			args:   []string{"server", "-c"},
			want:   []string{"server", "-c"},
		},
		{
			name:   "value override default",
			reason: why(`"value override default": [-c value] → "value", not the default`),
			files:  files(def, value),
			args:   []string{"server", "-c", "value"},
			want:   []string{"server", "--node-label=from=value", "-c", "value"},
		},
		{
			name:   "default gets used when nothing is passed",
			reason: why(`"default gets used when nothing is passed": → the default path`),
			files:  def,
			args:   []string{"server"},
			want:   []string{"server", "--node-label=from=def"},
		},
		{
			name:   "env override args",
			reason: why(`"env override args": K3S_CONFIG_FILE=env (set in the unit) beats [-c value]`),
			files:  files(def, value, env),
			env:    "env",
			args:   []string{"server", "-c", "value"},
			want:   []string{"server", "--node-label=from=env", "-c", "value"},
		},
		{
			name:   "garbage in start and end",
			reason: why(`"garbage in start and end": [before -c value after] → "value"; "server" put first so that Parse reads the file`),
			files:  files(def, value),
			args:   []string{"server", "before", "-c", "value", "after"},
			want:   []string{"server", "--node-label=from=value", "before", "-c", "value", "after"},
		},
	})
}

// TestConfigfileargParse reproduces Test_UnitParser_Parse: reading, merging (drop-in order,
// suffix filter, "+" append, first-seen key order), missing files and parse errors.
func TestConfigfileargParse(t *testing.T) {
	why := func(c string) string { return "parser_test.go Test_UnitParser_Parse " + c }
	runConfigfileargCases(t, []configfileargCase{
		{
			name:   "default case",
			reason: why(`"default case": nil args → nil, although DefaultConfig (testdata/data.yaml, here the default path) exists`),
			files:  dataTree(defaultConfig), unit: true,
			args: nil,
			want: nil,
		},
		{
			name: "read config file when not specified/server",
			reason: why(`"read config file when not specified", adapted: k3s's test Parser has no ValidFlags; ` +
				`DefaultParser filters [server] against ServerFlags, which drop every made-up key of data.yaml except c (alias of config)`),
			files: dataTree(defaultConfig),
			args:  []string{"server"},
			want:  []string{"server", "-c=b"},
		},
		{
			name: "read config file when not specified/agent",
			reason: why(`"read config file when not specified", adapted: the test's After also lists agent, ` +
				`which DefaultParser does not filter, so the whole testDataOutput is spliced after it`),
			files: dataTree(defaultConfig),
			args:  []string{"agent"},
			want:  cat([]string{"agent"}, dataOutput),
		},
		{
			name:   "ignore missing config when not set",
			reason: why(`"ignore missing config when not set": no file at the default path → args unchanged`),
			args:   []string{"server"},
			want:   []string{"server"},
		},
		{
			name:   "ignore missing config when set",
			reason: why(`"ignore missing config when set": [server -c=missing], the file missing → args unchanged, no error`),
			args:   []string{"server", "-c=missing"},
			want:   []string{"server", "-c=missing"},
		},
		{
			name:    "fail when config cannot be parsed",
			reason:  why(`"fail when config cannot be parsed": testdata/invalid.yaml ("!invalid") as the default config → error`),
			files:   map[string]string{defaultConfig: invalidYAML},
			args:    []string{"server"},
			wantErr: true,
		},
		{
			name: "fail when dropin cannot be parsed",
			reason: why(`"fail when dropin cannot be parsed": main file missing, its only drop-in ` +
				`(testdata/invalid-dropin.yaml.d/01-data.yml, "!invalid") at the default path's .d → error`),
			files:   map[string]string{defaultConfig + ".d/01-data.yml": invalidYAML},
			args:    []string{"server"},
			wantErr: true,
		},
		{
			name: "read config file",
			reason: why(`"read config file": the After word is not the first argument; "-c" after it is found; ` +
				`args[1]=before has no ValidFlags, so nothing is stripped`),
			files: dataTree("./testdata/data.yaml"),
			args:  []string{"before", "server", "before", "-c", "./testdata/data.yaml", "after"},
			want:  cat([]string{"before", "server"}, dataOutput, []string{"before", "-c", "./testdata/data.yaml", "after"}),
		},
		{
			name:   "read single config file",
			reason: why(`"read single config file": a drop-in named as the config is read alone; its first "b-string+" is a plain set`),
			files:  dataTree("./testdata/data.yaml"),
			args:   []string{"before", "server", "before", "-c", "./testdata/data.yaml.d/02-data.yaml", "after"},
			want: []string{"before", "server",
				"--foo-bar=bar-foo",
				"--b-string=two",
				"--c-slice=three",
				"--d-slice=three",
				"--d-slice=four",
				"--e-slice=one",
				"--e-slice=two",
				"before", "-c", "./testdata/data.yaml.d/02-data.yaml", "after"},
		},
	})
}

// TestConfigfileargMustParse reproduces Test_UnitMustParse (defaultparser_test.go), which runs
// DefaultParser itself: stripInvalidFlags for server and etcd-snapshot (token is not an
// etcd-snapshot flag), none for agent. k3s sets DefaultParser.DefaultConfig to "" for the
// rows without a config; here that is "no file at the default path". argv[0] "k3s" is dropped.
func TestConfigfileargMustParse(t *testing.T) {
	dd := map[string]string{defaultConfig: defaultDataYAML}
	why := func(c string) string { return "defaultparser_test.go Test_UnitMustParse " + c }
	runConfigfileargCases(t, []configfileargCase{
		{
			name:   "Basic server",
			reason: why(`"Basic server"`),
			args:   []string{"server"},
			want:   []string{"server"},
		},
		{
			name:   "Server with known flags",
			reason: why(`"Server with known flags": single tokens with spaces pass through untouched`),
			args:   []string{"server", "-t 12345", "--write-kubeconfig-mode 644"},
			want:   []string{"server", "-t 12345", "--write-kubeconfig-mode 644"},
		},
		{
			name:   "Server with known flags and config with known and unknown flags",
			reason: why(`"Server with known flags and config with known and unknown flags": notaflag stripped, the rest before the CLI args`),
			files:  dd,
			args:   []string{"server", "--write-kubeconfig-mode 644"},
			want: []string{"server", "--token=12345", "--node-label=DEAFBEEF",
				"--etcd-s3=true", "--etcd-s3-bucket=my-backup", "--kubelet-arg=max-pods=999", "--write-kubeconfig-mode 644"},
		},
		{
			name:   "Basic etcd-snapshot",
			reason: why(`"Basic etcd-snapshot"`),
			args:   []string{"etcd-snapshot", "save"},
			want:   []string{"etcd-snapshot", "save"},
		},
		{
			name:   "Etcd-snapshot with known flags",
			reason: why(`"Etcd-snapshot with known flags"`),
			args:   []string{"etcd-snapshot", "save", "--s3=true"},
			want:   []string{"etcd-snapshot", "save", "--s3=true"},
		},
		{
			name: "Etcd-snapshot with config with known and unknown flags",
			reason: why(`"Etcd-snapshot with config with known and unknown flags": token, node-label, notaflag ` +
				`and kubelet-arg are not etcd-snapshot flags and are stripped`),
			files: dd,
			args:  []string{"etcd-snapshot", "save"},
			want:  []string{"etcd-snapshot", "save", "--etcd-s3=true", "--etcd-s3-bucket=my-backup"},
		},
		{
			name:   "Agent with known flags",
			reason: why(`"Agent with known flags"`),
			args:   []string{"agent", "--token=12345"},
			want:   []string{"agent", "--token=12345"},
		},
		{
			name: "Agent with config with known and unknown flags, flags are not skipped",
			reason: why(`"Agent with config with known and unknown flags, flags are not skipped": ` +
				`agent has no ValidFlags entry, so --notaflag stays (urfave rejects it later)`),
			files: dd,
			args:  []string{"agent"},
			want: []string{"agent", "--token=12345", "--node-label=DEAFBEEF",
				"--etcd-s3=true", "--etcd-s3-bucket=my-backup", "--notaflag=true", "--kubelet-arg=max-pods=999"},
		},
	})
}
