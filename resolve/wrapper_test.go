package resolve

import "testing"

// The expectations follow github.com/spf13/pflag v1.0.10 flag.go (parseArgs, parseLongArg,
// parseShortArg, parseSingleShortArg, stripUnknownFlagValue), which cmd/k3s/main.go uses to
// find --debug and --data-dir before anything else.
func TestPflagScan(t *testing.T) {
	tests := []struct {
		name, reason string
		args         []string
		long         string
		short        byte
		isBool       bool
		want         string
		wantSet      bool
	}{
		{"long", "a long flag with its value", []string{"k3s", "server", "--data-dir", "/x"}, "data-dir", 'd', false, "/x", true},
		{"long-eq", "--flag=value", []string{"server", "--data-dir=/x"}, "data-dir", 'd', false, "/x", true},
		{"short", "-d value", []string{"server", "-d", "/x"}, "data-dir", 'd', false, "/x", true},
		{"short-attached", "-dvalue", []string{"server", "-d/x"}, "data-dir", 'd', false, "/x", true},
		{"cluster", "an urfave single-dash flag is a pflag cluster: -etcd-s3 has a d, whose value is the rest", []string{"etcd-snapshot", "save", "-etcd-s3-insecure"}, "data-dir", 'd', false, "-s3-insecure", true},
		{"help-in-cluster", "an h in a cluster stops parsing (ErrHelp) before the d", []string{"server", "-hd", "/x"}, "data-dir", 'd', false, "", false},
		{"unknown-swallows", "an unknown --flag without = swallows the next word, so a later flag is still seen", []string{"server", "--token", "-d", "/x"}, "data-dir", 'd', false, "/x", true},
		{"unknown-swallows-value", "the swallowed word is not taken for a flag", []string{"server", "--node-name", "--data-dir=/x"}, "data-dir", 'd', false, "/x", true},
		{"dashdash", "-- ends parsing", []string{"server", "--", "--data-dir=/x"}, "data-dir", 'd', false, "", false},
		{"last-wins", "the last occurrence wins", []string{"server", "-d", "/a", "--data-dir=/b"}, "data-dir", 'd', false, "/b", true},
		{"required", "-d at the end is an error: parsing stops, nothing set", []string{"server", "-d"}, "data-dir", 'd', false, "", false},
		{"debug", "--debug is a bool with an optional value", []string{"server", "--debug"}, "debug", 0, true, "true", true},
		{"debug-false", "--debug=false sets false", []string{"server", "--debug=false"}, "debug", 0, true, "false", true},
		{"debug-bad", "--debug=yes fails to parse: pflag stores false, then stops", []string{"server", "--debug", "--debug=yes", "--debug"}, "debug", 0, true, "false", true},
		{"debug-single-dash", "-debug is a cluster of unknown shorthands, not --debug", []string{"server", "-debug"}, "debug", 0, true, "", false},
		{"help-long", "--help stops parsing", []string{"server", "--help", "--debug"}, "debug", 0, true, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, set := pflagScan(tc.args, tc.long, tc.short, tc.isBool)
			if got != tc.want || set != tc.wantSet {
				t.Errorf("%s: got (%q, %v), want (%q, %v)", tc.reason, got, set, tc.want, tc.wantSet)
			}
		})
	}
}
