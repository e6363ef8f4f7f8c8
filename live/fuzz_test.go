package live

import (
	"strings"
	"testing"
)

// The /proc parsers read whatever a support bundle holds: they must never panic.
func FuzzParseProc(f *testing.F) {
	f.Add([]byte("/usr/local/bin/k3s\x00server\x00"), []byte(statLine(1, "k3s (x)", 0, 9)))
	f.Add([]byte("/usr/local/bin/k3s server\x00\x00\x00"), []byte("1 (a) S"))
	f.Add([]byte(""), []byte(")"))
	f.Fuzz(func(t *testing.T, cmdline, stat []byte) {
		argv, title, hidden := parseCmdline(cmdline)
		if hidden && (argv != nil || !strings.Contains(title, " ")) {
			t.Errorf("hidden with argv %q title %q", argv, title)
		}
		_, _ = classify(procInfo{argv: argv, title: title, hidden: hidden}, "k3s")
		_, _, _ = parseStat(stat)
	})
}

func FuzzParseNodeJSON(f *testing.F) {
	f.Add([]byte(`{"kind":"Node","metadata":{"annotations":{"k3s.io/node-args":"[\"server\"]"}}}`))
	f.Add([]byte(`{"kind":"List","items":[{"kind":"Node"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parseNodeJSON(data, "k3s")
		if err == nil && a.HasArgs {
			_ = joinArgs(a.Args, func(string) argKind { return valueArg })
		}
	})
}
