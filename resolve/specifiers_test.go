package resolve_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestHostSpecifiers: the host-dependent specifiers come from the node's own files under
// --root (/etc/hostname, /etc/machine-id, /etc/machine-info, /etc/os-release); what no file
// says (%b %v %a) stays as written with a unit-specifier finding that says why.
func TestHostSpecifiers(t *testing.T) {
	const unit = "[Service]\nEnvironment=NODE=%H\nEnvironmentFile=-/etc/%l.env\nExecStart=/usr/local/bin/k3s server --node-label=h=%H,l=%l,q=%q,m=%m,o=%o,w=%w,B=%B,W=%W,t=%t,f=%f,y=%y --node-name=%b-%v-%a\n"
	tests := []struct {
		name, reason string
		files        map[string]string
		wantLabel    string
		wantUnknown  []string // letters reported by unit-specifier
	}{
		{
			name:   "node files present",
			reason: "each value from the node's file; VARIANT_ID missing from os-release is empty, as in systemd",
			files: map[string]string{
				"/etc/hostname":   "# set by cloud-init\nnode-a.example.com\n",
				"/etc/machine-id": "0123456789abcdef0123456789abcdef\n",
				"/etc/os-release": "ID=ubuntu\nVERSION_ID=\"24.04\"\nBUILD_ID=rolling\n",
			},
			wantLabel:   "h=node-a.example.com,l=node-a,q=node-a.example.com,m=0123456789abcdef0123456789abcdef,o=ubuntu,w=24.04,B=rolling,W=,t=/run,f=/k3s,y=/etc/systemd/system/k3s.service",
			wantUnknown: []string{"%b", "%v", "%a"},
		},
		{
			name:   "pretty host name and the os-release fallback",
			reason: "%q is PRETTY_HOSTNAME from /etc/machine-info; /usr/lib/os-release is read when /etc/os-release is missing",
			files: map[string]string{
				"/etc/hostname":       "n2\n",
				"/etc/machine-info":   "PRETTY_HOSTNAME=\"Node 2\"\n",
				"/etc/machine-id":     "0123456789abcdef0123456789abcdef\n",
				"/usr/lib/os-release": "ID=rhel\nVERSION_ID=9.4\n",
			},
			wantLabel:   "h=n2,l=n2,q=Node 2,m=0123456789abcdef0123456789abcdef,o=rhel,w=9.4,B=,W=,t=/run,f=/k3s,y=/etc/systemd/system/k3s.service",
			wantUnknown: []string{"%b", "%v", "%a"},
		},
		{
			name:        "no node files",
			reason:      "a bundle without /etc/hostname etc.: the specifiers stay as written, each with a finding (in Environment=, EnvironmentFile= and ExecStart=)",
			files:       map[string]string{},
			wantLabel:   "h=%H,l=%l,q=%q,m=%m,o=%o,w=%w,B=%B,W=%W,t=/run,f=/k3s,y=/etc/systemd/system/k3s.service",
			wantUnknown: []string{"%H", "%l", "%H", "%l", "%q", "%m", "%o", "%w", "%B", "%W", "%b", "%v", "%a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			_ = afero.WriteFile(fs, "/etc/systemd/system/k3s.service", []byte(unit), 0o644)
			for p, s := range tc.files {
				_ = afero.WriteFile(fs, p, []byte(s), 0o644)
			}
			res, err := resolve.Resolve(resolve.Options{FS: fs})
			if err != nil {
				t.Fatal(err)
			}
			var label string
			for _, a := range res.Args {
				if v, ok := strings.CutPrefix(a.Value, "--node-label="); ok {
					label = v
				}
			}
			if diff := cmp.Diff(tc.wantLabel, label); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
			var unknown []string
			for _, d := range res.Diagnostics {
				if d.Code == "unit-specifier" {
					unknown = append(unknown, d.Message[len("specifier "):len("specifier ")+2])
				}
			}
			if diff := cmp.Diff(tc.wantUnknown, unknown); diff != "" {
				t.Errorf("%s\nunit-specifier findings (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
