package sources

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSwallowedLines(t *testing.T) {
	tests := []struct {
		name, reason string
		unit         string
		want         []string // "line:col" of each finding
		wantIn       string   // part of the first message
		wantLast     string   // part of the last message
	}{
		{
			name:   "environment swallowed",
			reason: "issue 16 (freedyc/tekton-cicd): a trailing backslash on the last ExecStart line joins the Environment= line",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s \\\n    server \\\n\nEnvironment=\"HTTP_PROXY=http://p:3128\"\n",
			want:   nil,
		},
		{
			name:   "environment swallowed without a blank line",
			reason: "the next non-comment line is joined",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s \\\n    server \\\nEnvironment=\"HTTP_PROXY=http://p:3128\"\n",
			want:   []string{"4:1"},
			wantIn: "so HTTP_PROXY is never set",
		},
		{
			name:   "a section header swallowed",
			reason: "[Install] after a trailing backslash is part of the command",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s server \\\n[Install]\nWantedBy=multi-user.target\n",
			want:   []string{"3:1"},
			wantIn: "backslash at /u:2:37",
		},
		{
			name:     "capped",
			reason:   "25 swallowed lines give 20 findings, the last one counting the other 5",
			unit:     "[Service]\nExecStart=/bin/x \\\n" + strings.Repeat("Restart=always \\\n", 25) + "end\n",
			want:     []string{"3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1", "11:1", "12:1", "13:1", "14:1", "15:1", "16:1", "17:1", "18:1", "19:1", "20:1", "21:1", "22:1"},
			wantIn:   "",
			wantLast: "5 more continuation lines",
		},
		{
			name:   "an installer-quoted taint is an argument",
			reason: "install.sh writes '--node-taint' \\ 'CriticalAddonsOnly=true:NoExecute' \\; systemd 252 --test puts CriticalAddonsOnly=true:NoExecute in the command line, and removing the backslash would end ExecStart at --node-taint",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s \\\n    server \\\n    '--node-taint' \\\n    'CriticalAddonsOnly=true:NoExecute' \\\n    '--disable' \\\n    'traefik' \\\n\n",
		},
		{
			name:   "an unquoted Key=Value that systemd does not read is an argument",
			reason: "CriticalAddonsOnly is no systemd setting; only names systemd 252 reads count as swallowed settings",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s server \\\n  --node-taint \\\n  CriticalAddonsOnly=true:NoExecute\n",
		},
		{
			name:   "a quoted Environment= is an argument too",
			reason: "a setting name never starts with a quote, so the line was meant as an argument",
			unit:   "[Service]\nExecStart=/bin/x \\\n  '--env' \\\n  'Environment=prod'\n",
		},
		{
			name:   "a swallowed Restart= still fires",
			reason: "Restart is a setting systemd reads: the triggering case next to the quiet ones",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s server \\\nRestart=always\n",
			want:   []string{"3:1"},
		},
		{
			name:   "flags on continuation lines are fine",
			reason: "--flag=Value lines are the normal use of continuation",
			unit:   "[Service]\nExecStart=/usr/local/bin/k3s \\\n  server \\\n  --node-label=Role=edge \\\n  K3S_X=1\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			uf, _ := ParseUnit("/u", []byte(tc.unit))
			u := MergeUnit("k3s.service", []*UnitFile{uf})
			var got []string
			msg, last := "", ""
			for _, d := range u.Diagnostics {
				if d.Code == "unit-continuation-swallowed" {
					got = append(got, posLC(d.Pos))
					if msg == "" {
						msg = d.Message
					}
					last = d.Message
				}
			}
			if tc.wantLast != "" && !strings.Contains(last, tc.wantLast) {
				t.Errorf("%s\nlast message %q lacks %q", tc.reason, last, tc.wantLast)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
			if tc.wantIn != "" && !strings.Contains(msg, tc.wantIn) {
				t.Errorf("%s\nmessage %q lacks %q", tc.reason, msg, tc.wantIn)
			}
		})
	}
}
