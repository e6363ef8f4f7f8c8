package output

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Redacted replaces a secret in output.
const Redacted = "REDACTED"

// Redactor hides secret values. The zero value (or one made with show=true) hides nothing.
//
// It redacts in two ways, and nowhere else (docs/secrets.md):
//   - Value: the value of a key known to be secret (a secret flag, a secret variable),
//     all of it, or only the password of a URL or DSN;
//   - Scrub and Argv: text that carries input (values of other keys, raw text, argv
//     words, messages, hints, errors), word by word: a word after a secret flag, the
//     VALUE of NAME=VALUE, --flag=VALUE, "NAME": VALUE whose NAME is secret (a secret flag,
//     a typo of one, a secret name by SecretName), the password of any URL with userinfo,
//     and the secret values the node sets wherever they occur; a secret that spells a
//     word ("secret") only where it is quoted as a value, so sentences stay whole.
type Redactor struct {
	on bool
	// secrets are distinctive secret values (not a plain word), longest first: replaced
	// wherever they occur.
	secrets []string
	// plain are secret values that spell a word: redacted only as a value.
	plain map[string]bool
	// whole maps a URL or DSN holding a password to its redacted form; Scrub replaces
	// those values whole, so a password that also spells the scheme, user or database
	// ("postgres://postgres:postgres@…") leaves them alone.
	whole map[string]string
	// flags are the command's flags by name (aliases included); secretFlags the names of
	// the secret ones, for typos.
	flags       map[string]flagInfo
	secretFlags []string
	// learn, while the word rules collect (LearnInside, LearnArgv), records the values
	// they hide; seen, while a face teaches, the values already recorded.
	learn map[string]bool
	seen  map[string]bool
	// typos caches the typo rule (Redactor.typo).
	mu    sync.Mutex
	typos map[string]bool
}

// flagInfo is how a flag's values are redacted (a secret flag: all of it; a URL-valued
// one: its password), and whether it takes no value.
type flagInfo struct {
	kind   kind
	isBool bool
}

func newFlagInfo(name string, secret, isBool bool) flagInfo {
	switch {
	case secret && urlValuedName(name):
		return flagInfo{urlSecret, false}
	case secret:
		return flagInfo{wholeSecret, false}
	case urlValuedName(name):
		return flagInfo{urlSecret, isBool}
	}
	return flagInfo{notSecret, isBool}
}

// NewTextRedactor returns a redactor that knows no node: it applies the name and URL rules
// (kubespray, and any text without a resolved node); Learn teaches it values.
func NewTextRedactor(show bool) *Redactor {
	r := &Redactor{on: !show}
	if r.on {
		r.whole, r.plain = map[string]string{}, map[string]bool{}
		r.secretFlags = append(r.secretFlags, defaultSecretFlags...)
	}
	return r
}

// defaultSecretFlags are k3s's and RKE2's secret flags (profile.secretFlags), for the typo
// rule of a redactor that knows no node.
var defaultSecretFlags = []string{"token", "agent-token", "datastore-endpoint", "vpn-auth", "etcd-s3-access-key",
	"etcd-s3-secret-key", "etcd-s3-session-token", "s3-access-key", "s3-secret-key", "s3-session-token", "etcd-token"}

// addSecret adds a secret value of the named key or variable, sorted at once (the tests'
// shorthand for Learn then Done).
func (r *Redactor) addSecret(name, v string) {
	if !r.on {
		return
	}
	r.add(name, v, map[string]bool{})
	r.sortSecrets()
}

func (r *Redactor) sortSecrets() {
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	out := r.secrets[:0]
	for i, s := range r.secrets {
		if i == 0 || s != r.secrets[i-1] {
			out = append(out, s)
		}
	}
	r.secrets = out
}

func (r *Redactor) add(name, v string, seen map[string]bool) {
	if urlValuedName(name) {
		if red := redactURL(v); red != v {
			r.whole[v] = red
			if !seen[v] {
				seen[v] = true
				r.secrets = append(r.secrets, v)
			}
		}
	}
	for _, s := range secretParts(name, v) {
		r.addValue(s, seen)
	}
}

// addValue records one secret value.
func (r *Redactor) addValue(s string, seen map[string]bool) {
	if seen[s] || s == "" || boolWord(s) {
		return
	}
	seen[s] = true
	if plainWord(s) || len(s) < 4 {
		r.plain[s] = true
		return
	}
	r.secrets = append(r.secrets, s)
	// A copy of the secret in lower case ("lowercased (X → x)", as node-name is) is the
	// secret too.
	if low := strings.ToLower(s); low != s && !seen[low] && !plainWord(low) {
		seen[low] = true
		r.secrets = append(r.secrets, low)
	}
}

// Flag tells the redactor a flag of the command the text is about (each of its names,
// aliases included): a secret flag's value is hidden whole (only the credentials for a
// URL-valued one), a switch takes no value. The first call replaces the default secret
// flags the typo rule compares with (k3s's and RKE2's) by the command's own. A face that
// knows a product's flag catalog (the node's, from its profile) calls it for every flag
// before it teaches values.
func (r *Redactor) Flag(name string, secret, isBool bool) {
	if !r.on {
		return
	}
	if r.flags == nil {
		r.flags = map[string]flagInfo{}
		r.secretFlags = r.secretFlags[:0]
	}
	r.flags[name] = newFlagInfo(name, secret, isBool)
	if secret {
		r.secretFlags = append(r.secretFlags, name)
	}
}

// Learn teaches the redactor a secret value it was handed whole: the value of the named
// flag or variable (its URL password only, for a URL-valued name). It leaves the
// values unsorted until Done: a face teaching thousands calls Done once.
func (r *Redactor) Learn(name, v string) {
	if !r.on {
		return
	}
	r.add(name, v, r.seenSet())
}

// LearnInside teaches the secrets inside a value that is not secret as a whole: URL
// passwords and the VALUE of secret NAME=VALUE words (an argv word, a pass-through item).
func (r *Redactor) LearnInside(v string) {
	if !r.on {
		return
	}
	r.collect(v, r.seenSet())
}

// LearnArgv teaches the values of secret flags in input words (the word after
// --agent-tokn, the value in '--token X'), read by the argv rules.
func (r *Redactor) LearnArgv(words []string) {
	if !r.on {
		return
	}
	r.collectArgv(words, r.seenSet())
}

// Done ends teaching (Learn, LearnInside, LearnArgv): the values learnt are put longest
// first, as the redactor replaces them. A redactor is used only after Done.
func (r *Redactor) Done() {
	if !r.on {
		return
	}
	r.seen = nil
	r.sortSecrets()
}

func (r *Redactor) seenSet() map[string]bool {
	if r.seen == nil {
		r.seen = map[string]bool{}
		for _, s := range r.secrets {
			r.seen[s] = true
		}
		for s := range r.plain {
			r.seen[s] = true
		}
	}
	return r.seen
}

// Value redacts a value of the named flag or variable: all of it for tokens and keys, only
// the password for datastore endpoints and proxy URLs.
func (r *Redactor) Value(name, v string) string {
	if !r.on || v == "" {
		return v
	}
	if urlValuedName(name) {
		return redactURL(v)
	}
	return Redacted
}

var dsnPassword = regexp.MustCompile(`(?i)(?:password|pwd)=([^\s;&]+)`)

// querySecret matches a secret-bearing parameter: key=value pairs in a URL query or a
// key/value DSN whose name says password, token, secret or key.
var querySecret = regexp.MustCompile(`(?i)((?:^|[?&;\s])[a-z0-9_.-]*(?:password|passwd|pwd|token|secret|key)=)([^\s;&]*)`)

// redactURL redacts the secrets of a URL or DSN by position, as git and curl do: the
// password of scheme://user:password@host (or user:password@tcp(host) without scheme) and
// the values of password/token/secret/key parameters. Scheme, user, host, path and the
// other parameters stay readable.
func redactURL(v string) string {
	out := v
	rest, prefix := v, ""
	if i := strings.Index(v, "://"); i >= 0 {
		prefix, rest = v[:i+3], v[i+3:]
	}
	// The authority ends at the first "/" after the "@" (passwords may hold "/" too, so
	// the last "@" before the host is the separator).
	if at := strings.LastIndex(authority(rest), "@"); at >= 0 {
		userinfo := rest[:at]
		if c := strings.IndexByte(userinfo, ':'); c >= 0 && c+1 < len(userinfo) {
			out = prefix + userinfo[:c+1] + Redacted + rest[at:]
		}
	}
	return querySecret.ReplaceAllStringFunc(out, func(m string) string {
		sub := querySecret.FindStringSubmatch(m)
		if sub[2] == "" {
			return m
		}
		return sub[1] + Redacted
	})
}

// authority is the part of a URL after the scheme up to the start of the query, where
// user:password@ can be.
func authority(rest string) string {
	if q := strings.IndexAny(rest, "?"); q >= 0 {
		rest = rest[:q]
	}
	return rest
}

// secretParts returns the pieces of v that are secret.
func secretParts(name, v string) []string {
	if v == "" {
		return nil
	}
	if !urlValuedName(name) {
		return []string{v}
	}
	var out []string
	// scheme://user:password@host… (postgres, mysql-style with tcp(...), etcd, http proxies)
	if i := strings.Index(v, "://"); i >= 0 {
		rest := v[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			userinfo := rest[:at]
			if c := strings.IndexByte(userinfo, ':'); c >= 0 {
				out = append(out, userinfo[c+1:])
				if dec, err := url.PathUnescape(userinfo[c+1:]); err == nil && dec != userinfo[c+1:] {
					out = append(out, dec)
				}
			}
		}
	} else if at := strings.LastIndex(v, "@"); at >= 0 {
		// mysql DSN without scheme: user:password@tcp(host:3306)/db
		userinfo := v[:at]
		if c := strings.IndexByte(userinfo, ':'); c >= 0 {
			out = append(out, userinfo[c+1:])
		}
	}
	for _, m := range dsnPassword.FindAllStringSubmatch(v, -1) {
		out = append(out, m[1])
	}
	var nonEmpty []string
	for _, p := range out {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	return nonEmpty
}

// Merge returns one redactor that knows the secrets and flags of all of rs (the nodes of
// a compose file, today's files and the running process); nil entries are skipped. With
// none (or when the first hides nothing) it redacts as show says.
func Merge(show bool, rs ...*Redactor) *Redactor {
	m := NewTextRedactor(show)
	if show {
		return m
	}
	m.flags = map[string]flagInfo{}
	m.secretFlags = nil
	names := map[string]bool{}
	for _, r := range rs {
		if r == nil || !r.on {
			continue
		}
		m.secrets = append(m.secrets, r.secrets...)
		for k, v := range r.plain {
			m.plain[k] = v
		}
		for k, v := range r.whole {
			m.whole[k] = v
		}
		for k, v := range r.flags {
			m.flags[k] = v
		}
		for _, n := range r.secretFlags {
			if !names[n] {
				names[n] = true
				m.secretFlags = append(m.secretFlags, n)
			}
		}
	}
	if len(m.secretFlags) == 0 {
		m.secretFlags = append(m.secretFlags, defaultSecretFlags...)
	}
	m.sortSecrets()
	return m
}

// On reports whether the redactor hides secrets (false with --show-secrets).
func (r *Redactor) On() bool { return r != nil && r.on }
