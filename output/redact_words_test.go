package output

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScrubWords: the word rules on text that quotes input, and on prose they must leave
// alone. The redactor knows one distinctive secret (s3cr3t-Value) and one that spells a
// word (secret).
func TestScrubWords(t *testing.T) {
	r := NewTextRedactor(false)
	r.addSecret("token", "s3cr3t-Value")
	r.addSecret("agent-token", "secret")
	tests := []struct{ name, in, want, reason string }{
		{"flag-eq", "--token=abc123", "--token=REDACTED", "--flag=VALUE"},
		{"flag-next", "k3s server --token abc123 --debug", "k3s server --token REDACTED --debug", "the word after a secret flag"},
		{"one-word", "'--token abc123'", "'--token REDACTED'", "a flag and its value in one quoted word"},
		{"typo", "--agent-tokn abc123", "--agent-tokn REDACTED", "a typo of a secret flag"},
		{"env-line", "Invalid environment assignment, ignoring: K3S_TOKEN-X=abc123", "Invalid environment assignment, ignoring: K3S_TOKEN-X=REDACTED", "NAME=VALUE with a secret NAME"},
		{"specifier", "Failed to resolve unit specifiers in --etcd-s3-secret-key=ab%zc: unknown specifier %z", "Failed to resolve unit specifiers in --etcd-s3-secret-key=REDACTED: unknown specifier %z", "the value ends before the message's ':'"},
		{"unbalanced", `Unbalanced quoting, ignoring: "/usr/local/bin/k3s server --token abc123 --datastore-endpoint 'mysql://k3s:pw9@tcp(db)/k3s`,
			`Unbalanced quoting, ignoring: "/usr/local/bin/k3s server --token REDACTED --datastore-endpoint 'mysql://k3s:REDACTED@tcp(db)/k3s`, "a quoted command line"},
		{"unbalanced-word", `Unbalanced quoting, ignoring: "/usr/local/bin/k3s server --token password --debug 'x"; systemd marks the unit bad-setting`,
			`Unbalanced quoting, ignoring: "/usr/local/bin/k3s server --token REDACTED --debug 'x"; systemd marks the unit bad-setting`, "a quoted command line: its words are argv words, a plain word after --token too"},
		{"quoted-blanks", `Invalid syntax, ignoring: "K3S_TOKEN=abc def ghi`, `Invalid syntax, ignoring: "K3S_TOKEN=REDACTED REDACTED REDACTED`, "a quoted value with blanks goes on to its closing quote (or the end)"},
		{"pass-through", "--kubelet-arg=registry-password=abc123", "--kubelet-arg=registry-password=REDACTED", "a secret key=value inside a pass-through arg"},
		{"pass-through-list", "[image-credential-provider-config=/etc/x.yaml, oidc-client-secret=abc]", "[image-credential-provider-config=/etc/x.yaml, oidc-client-secret=REDACTED]", "list items"},
		{"url", "--server https://admin:pw9@10.0.0.1:6443", "--server https://admin:REDACTED@10.0.0.1:6443", "userinfo in any URL"},
		{"proxy-env", "HTTPS_PROXY=http://u:pw9@proxy:3128", "HTTPS_PROXY=http://u:REDACTED@proxy:3128", "a proxy: only the password"},
		{"json-key", `{"registry_password": "abc123", "x": [`, `{"registry_password": "REDACTED", "x": [`, "a JSON key and its value"},
		{"yaml-key", "line 3: token: abc123", "line 3: token: REDACTED", "a YAML key and its value"},
		{"known", "the token s3cr3t-Value is wrong", "the token REDACTED is wrong", "a distinctive secret the node sets, anywhere"},
		{"vpn", "name=tailscale,joinKey=abc123,controlServerURL=https://h", "name=tailscale,joinKey=REDACTED,controlServerURL=https://h", "a bare NAME= value stops at the next NAME="},
		{"bool", "--kubelet-arg=anonymous-auth=false", "--kubelet-arg=anonymous-auth=false", "a switch under a secret-ish name is no secret"},
		// Prose stays whole.
		{"prose-word-secret", "k3s skips a secret key; the secret is not shown", "k3s skips a secret key; the secret is not shown", "a secret that spells a word is not replaced in sentences"},
		{"prose-flag", `k3s skips it with "Unknown flag --agent-tokn found in config.yaml, skipping"`, `k3s skips it with "Unknown flag --agent-tokn found in config.yaml, skipping"`, "a word after a flag that is a word of a sentence stays"},
		{"prose-hyphen", "either -t or --token (config-file keys count as flags)", "either -t or --token (config-file keys count as flags)", "hyphenated words are prose"},
		{"prose-flag-name", "etcd-s3-secret-key and kube_encrypt_secret_data", "etcd-s3-secret-key and kube_encrypt_secret_data", "names holding the secret word stay"},
		{"known-after-flag", "--agent-token secret", "--agent-token REDACTED", "a word secret is redacted where it is quoted as a value"},
		{"path-key", "--kube-apiserver-arg=kubelet-client-key=/var/lib/k.key", "--kube-apiserver-arg=kubelet-client-key=/var/lib/k.key", "a *-key that names a file"},
	}
	for _, tc := range tests {
		if got := r.Scrub(tc.in); got != tc.want {
			t.Errorf("%s: %s:\n  Scrub(%q)\n  = %q\n want %q", tc.name, tc.reason, tc.in, got, tc.want)
		}
	}
}

// TestArgv: in an argv the word after a secret flag is its value whatever it looks like.
func TestArgv(t *testing.T) {
	r := NewTextRedactor(false)
	got := r.Argv([]string{"server", "--token", "secret", "--agent-tokn", "word", "--etcd-s3-secret-key a b", "--datastore-endpoint", "postgres://u:pw@db/k3s", "--token=a b c", "--debug"})
	want := []string{"server", "--token", "REDACTED", "--agent-tokn", "REDACTED", "--etcd-s3-secret-key REDACTED", "--datastore-endpoint", "postgres://u:REDACTED@db/k3s", "--token=REDACTED", "--debug"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Argv word %d = %q, want %q", i, got[i], want[i])
		}
	}
	show := NewTextRedactor(true)
	if got := show.Scrub("--token abc123"); got != "--token abc123" {
		t.Errorf("--show-secrets redacts nothing: %q", got)
	}
}

// TestPassThroughSplitArgv: a pass-through flag whose value is the next word
// (--kubelet-arg=--registry-password) hides only the value of the next word when that word
// repeats the pass-through flag (--kubelet-arg=VALUE: a config list spliced into argv), and
// the whole next word otherwise; a flag that is no secret hides nothing.
func TestPassThroughSplitArgv(t *testing.T) {
	r := NewTextRedactor(false)
	tests := []struct {
		name   string
		in     []string
		want   []string
		reason string
	}{
		{"spliced", []string{"--kubelet-arg=--registry-password", "--kubelet-arg=QQsplit1"}, []string{"--kubelet-arg=--registry-password", "--kubelet-arg=REDACTED"}, "the value only"},
		{"bare", []string{"--kubelet-arg=--registry-password", "QQsplit1"}, []string{"--kubelet-arg=--registry-password", "REDACTED"}, "the next word is the value"},
		{"other-flag", []string{"--kubelet-arg=--registry-password", "--v=QQsplit1"}, []string{"--kubelet-arg=--registry-password", "REDACTED"}, "another flag after it: the whole word, as before"},
		{"not-secret", []string{"--kubelet-arg=--v", "--kubelet-arg=2"}, []string{"--kubelet-arg=--v", "--kubelet-arg=2"}, "no secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, r.Argv(tc.in)); diff != "" {
				t.Errorf("%s: Argv mismatch (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
	if got, want := r.Scrub("ExecStart=k3s server --kubelet-arg=--registry-password --kubelet-arg=QQsplit1 --v=2"), "ExecStart=k3s server --kubelet-arg=--registry-password --kubelet-arg=REDACTED --v=2"; got != want {
		t.Errorf("Scrub (a command line quoted in text):\n got %q\nwant %q", got, want)
	}
}
