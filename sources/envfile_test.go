package sources

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type envView struct {
	Name, Value, Pos string
}

func viewEnv(as []EnvAssignment) []envView {
	var out []envView
	for _, a := range as {
		out = append(out, envView{a.Name, a.Value, posLC(a.Pos)})
	}
	return out
}

func TestParseEnvFile(t *testing.T) {
	tests := []struct {
		name, reason string
		in           string
		want         []envView
		wantDiags    []string
		version      int
	}{
		{
			name:   "install.sh dash style",
			reason: "dash's `export` output: single quotes, ' written as '\"'\"'",
			in:     "K3S_KUBECONFIG_MODE='644'\nK3S_TOKEN='it'\"'\"'s'\n",
			want:   []envView{{"K3S_KUBECONFIG_MODE", "644", "1:1"}, {"K3S_TOKEN", "it's", "2:1"}},
		},
		{
			name:   "install.sh bash style",
			reason: "bash's `export` output: double quotes; \\\" \\\\ \\$ \\` are unescaped, other backslashes kept",
			in:     "K3S_TOKEN=\"x \\\"y\\\" \\$z \\\\ \\` \\a\"\n",
			want:   []envView{{"K3S_TOKEN", "x \"y\" $z \\ ` \\a", "1:1"}},
		},
		{
			name:   "unquoted",
			reason: "leading and trailing blanks dropped, inner kept, backslash takes the next character",
			in:     "A= a  b  \nB=a\\ b\\\\\nC=\n",
			want:   []envView{{"A", "a  b", "1:1"}, {"B", "a b\\", "2:1"}, {"C", "", "3:1"}},
		},
		{
			name:   "continuations",
			reason: "backslash-newline joins lines unquoted and in double quotes; single quotes span lines as is",
			in:     "A=a\\\nb\nB=\"x\\\ny\"\nC='p\nq'\nD=d\n",
			want:   []envView{{"A", "ab", "1:1"}, {"B", "xy", "3:1"}, {"C", "p\nq", "5:1"}, {"D", "d", "7:1"}},
		},
		{
			name:   "comments",
			reason: "# and ; at the start of a line (after blanks); a comment's trailing backslash does not swallow the next line (v254)",
			in:     "# c\n; c\n   # c\n# c \\\nA=1\n",
			want:   []envView{{"A", "1", "5:1"}},
			// systemd 252 would drop A=1: said as a warning.
			wantDiags: []string{"warning envfile-syntax 4:5"},
		},
		{
			name:   "blanks around name and equals",
			reason: "parse_env_file_internal strips them; Pos is the name",
			in:     "\n  \tA  =  b\n",
			want:   []envView{{"A", "b", "2:4"}},
		},
		{
			name:   "text after closing quote",
			reason: "no trailing comments: the rest of the line joins the value, blanks in between dropped",
			in:     "A='x' # y\nB='a' 'b'\n",
			want:   []envView{{"A", "x# y", "1:1"}, {"B", "ab", "2:1"}},
		},
		{
			name:      "unterminated quote",
			reason:    "systemd pushes what it has at end of file",
			in:        "A='x\nB=1\n",
			want:      []envView{{"A", "x\nB=1\n", "1:1"}},
			wantDiags: []string{"warning envfile-syntax 1:1"},
		},
		{
			name:      "invalid names",
			reason:    "strv_env_clean drops assignments whose name is not letters, digits and _",
			in:        "1A=x\nA-B=y\nOK=z\n",
			want:      []envView{{"OK", "z", "3:1"}},
			wantDiags: []string{"warning envfile-syntax 1:1", "warning envfile-syntax 2:1"},
		},
		{
			name:      "export",
			reason:    "systemd does not strip export: the name \"export A\" is invalid",
			in:        "export A=1\n",
			wantDiags: []string{"warning envfile-export 1:1"},
		},
		{
			name:      "no equals",
			reason:    "lines without = are ignored, also at end of file without newline",
			in:        "ulimit -n 2048\nA=1\nB",
			want:      []envView{{"A", "1", "2:1"}},
			wantDiags: []string{"warning envfile-syntax 1:1", "warning envfile-syntax 3:1"},
		},
		{
			name:   "CRLF and no final newline",
			reason: "\\r is a newline to the env-file parser",
			in:     "A=1\r\nB='2'\r\nC=3",
			want:   []envView{{"A", "1", "1:1"}, {"B", "2", "2:1"}, {"C", "3", "3:1"}},
		},
		{
			name:      "not UTF-8",
			reason:    "check_utf8ness_and_warn fails and the whole file is not loaded",
			in:        "A=1\nB=\xff\n",
			wantDiags: []string{"error envfile-utf8 2:1"},
		},
		{
			name:      "comment ending in a backslash, systemd >= 254",
			reason:    "v254 ends the comment at the newline; the finding says older systemd swallows the next line",
			in:        "# comment \\\n D =9a,\nB=1\n",
			want:      []envView{{"D", "9a,", "2:2"}, {"B", "1", "3:1"}},
			wantDiags: []string{"warning envfile-syntax 1:11"},
		},
		{
			name:    "comment ending in a backslash, systemd 252",
			reason:  "differential test, env file 5: systemd 252's generator drops D, the line after the comment",
			in:      "# comment \\\n D =9a,\nB=1\n",
			version: 252,
			want:    []envView{{"B", "1", "3:1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := ParseEnvFileSystemd("/e.env", []byte(tc.in), tc.version)
			if tc.version != 0 {
				diags = nil
			}
			if diff := cmp.Diff(tc.want, viewEnv(got)); diff != "" {
				t.Errorf("%s\nmismatch (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantDiags, codes(diags)); diff != "" {
				t.Errorf("%s\ndiagnostics mismatch (-want +got):\n%s\n%v", tc.reason, diff, diags)
			}
		})
	}
}

func TestParseEnvFileTestdata(t *testing.T) {
	tests := []struct {
		name, reason string
		file         string
		want         []envView
		wantDiags    []string
	}{
		{
			name:   "dash",
			reason: "what install.sh writes on Debian/Ubuntu",
			file:   "envfile/dash.env",
			want: []envView{
				{"K3S_KUBECONFIG_MODE", "644", "1:1"},
				{"K3S_TOKEN", "it's a secret", "2:1"},
				{"NO_PROXY", "127.0.0.0/8,10.0.0.0/8", "3:1"},
			},
		},
		{
			name:   "bash",
			reason: "what install.sh writes where sh is bash",
			file:   "envfile/bash.env",
			want: []envView{
				{"K3S_KUBECONFIG_MODE", "644", "1:1"},
				{"K3S_TOKEN", `it's a "secret" $HOME`, "2:1"},
			},
		},
		{
			name:   "duplicates",
			reason: "every assignment is returned in order; the earlier K3S_TOKEN is reported as overridden",
			file:   "envfile/duplicates.env",
			want: []envView{
				{"K3S_TOKEN", "first", "2:1"},
				{"K3S_NODE_NAME", "node-1", "4:1"},
				{"K3S_TOKEN", "second", "5:1"},
			},
			wantDiags: []string{"warning envfile-duplicate 2:1", "warning envfile-export 3:1", "warning envfile-syntax 6:1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := ParseEnvFile("/etc/systemd/system/k3s.service.env", readTestdata(t, tc.file))
			if diff := cmp.Diff(tc.want, viewEnv(got)); diff != "" {
				t.Errorf("%s\nmismatch (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantDiags, codes(diags)); diff != "" {
				t.Errorf("%s\ndiagnostics mismatch (-want +got):\n%s\n%v", tc.reason, diff, diags)
			}
		})
	}
	_, diags := ParseEnvFile("/k.env", readTestdata(t, "envfile/duplicates.env"))
	if want := "K3S_TOKEN is assigned twice in /k.env; the last one, at line 5, wins"; diags[0].Message != want {
		t.Errorf("duplicate message = %q, want %q", diags[0].Message, want)
	}
}

func FuzzParseEnvFile(f *testing.F) {
	for _, name := range []string{"envfile/dash.env", "envfile/bash.env", "envfile/duplicates.env"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte("A=\"x\\\ny\" 'z\n# c \\\n\r\nexport B=1\nC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		as, _ := ParseEnvFile("/f.env", data)
		for _, a := range as {
			if a.Pos.Line < 1 || a.Pos.Column < 1 {
				t.Fatalf("bad position %v", a.Pos)
			}
		}
	})
}
