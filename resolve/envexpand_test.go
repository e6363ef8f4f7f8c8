package resolve_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestExecStartEnvExpansion: how systemd expands variables in ExecStart before k3s sees its
// argv (replace_env_argv, src/basic/env-util.c; systemd.service(5) "Command lines"), and the
// unit-env-undefined finding for variables nothing defines.
func TestExecStartEnvExpansion(t *testing.T) {
	tests := []struct {
		name, reason string
		unit         string
		want         []string
		wantUndef    int
	}{
		{"braced-defined", "${X} is replaced inside the word", "[Service]\nEnvironment=X=n1\nExecStart=/usr/local/bin/k3s server --node-name=${X}\n",
			[]string{"server", "--node-name=n1"}, 0},
		{"braced-undefined", "an unset ${X} becomes the empty string", "[Service]\nExecStart=/usr/local/bin/k3s server --node-name=${X}\n",
			[]string{"server", "--node-name="}, 1},
		{"word-undefined", "an unset whole-word $X removes the word", "[Service]\nExecStart=/usr/local/bin/k3s server --node-name $X --debug\n",
			[]string{"server", "--node-name", "--debug"}, 1},
		{"word-split", "a whole-word $X is split at blanks", "[Service]\nEnvironment=\"X=--debug --node-name=a\"\nExecStart=/usr/local/bin/k3s server $X\n",
			[]string{"server", "--debug", "--node-name=a"}, 0},
		{"colon-prefix", "the ':' prefix turns expansion off (systemd.service(5)): the words stay as written and nothing is undefined",
			"[Service]\nExecStart=:/usr/local/bin/k3s server --node-name=${X} $Y\n",
			[]string{"server", "--node-name=${X}", "$Y"}, 0},
		{"manager-variable", "variables systemd itself sets are not reported", "[Service]\nExecStart=/usr/local/bin/k3s server --data-dir=${STATE_DIRECTORY}\n",
			[]string{"server", "--data-dir="}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte(tc.unit), 0o644)
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range res.Args {
				got = append(got, a.Value)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nargv (-want +got):\n%s", tc.reason, diff)
			}
			n := 0
			for _, d := range res.Diagnostics {
				if d.Code == "unit-env-undefined" {
					n++
				}
			}
			if n != tc.wantUndef {
				t.Errorf("%s\n%d unit-env-undefined findings, want %d: %v", tc.reason, n, tc.wantUndef, res.Diagnostics)
			}
		})
	}
}
