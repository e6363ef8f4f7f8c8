package report

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/resolve"
)

// Redacted replaces a secret in output.
const Redacted = "REDACTED"

// Redactor hides secret values. The zero value (or one made with show=true) hides nothing.
type Redactor struct {
	on      bool
	secrets []string // longest first
	// whole maps a URL or DSN holding a password to its redacted form; Scrub replaces
	// those values whole, so a password that also spells the scheme, user or database
	// ("postgres://postgres:postgres@…") leaves them alone.
	whole map[string]string
}

// NewRedactor collects every secret value in the result; with show set it redacts nothing.
func NewRedactor(res *resolve.Result, show bool) *Redactor {
	r := &Redactor{on: !show}
	if show {
		return r
	}
	seen := map[string]bool{}
	r.whole = map[string]string{}
	add := func(name, v string) {
		if partialSecret(name) {
			if red := redactURL(v); red != v {
				r.whole[v] = red
				r.secrets = append(r.secrets, v)
			}
			return
		}
		for _, s := range secretParts(name, v) {
			if len(s) >= 4 && !seen[s] {
				seen[s] = true
				r.secrets = append(r.secrets, s)
			}
		}
	}
	visit := func(name string, a *resolve.Assignment) {
		if !a.Secret() {
			return
		}
		add(name, a.Value)
		add(name, a.Raw)
		for _, it := range a.Items {
			add(name, it)
		}
	}
	for _, k := range res.Keys {
		for _, a := range k.History {
			visit(k.Name(), a)
		}
	}
	for _, a := range res.Stray {
		visit(strings.TrimSuffix(strings.TrimLeft(a.Name, "-"), ":"), a)
	}
	for _, ev := range res.Env {
		for _, a := range ev.Assignments {
			visit(ev.Name, a)
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	// A secret flag whose value k3s never parsed (it sits inside a word k3s rejected, such
	// as one ${VAR} holding "--token x --server y") is in no assignment: find it by name in
	// the input words (command-line words, stray assignments, environment values), never in
	// prose, and redact that value wherever it appears.
	var names, plain []string
	for _, k := range res.Keys {
		if k.Flag.Secret {
			for _, n := range k.Flag.Names() {
				names = append(names, regexp.QuoteMeta(n))
				plain = append(plain, n)
			}
		}
	}
	if len(names) > 0 {
		sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
		re := regexp.MustCompile(`(?:^|[\s"'])--?(` + strings.Join(names, "|") + `)(?:=|\s+)([^\s"']+)`)
		mentions := newFlagMentions(plain)
		scan := func(word string) {
			if !mentions.in(word) {
				return
			}
			for _, m := range re.FindAllStringSubmatch(word, -1) {
				add(m[1], m[2])
			}
		}
		for _, a := range res.Args {
			scan(a.Value)
		}
		for _, a := range res.Stray {
			scan(a.Value)
			scan(a.Raw)
		}
		for _, ev := range res.Env {
			for _, a := range ev.Assignments {
				scan(a.Value)
			}
		}
		sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	}
	return r
}

// Value redacts a value of the named flag or variable: all of it for tokens and keys, only
// the password for datastore endpoints and proxy URLs.
func (r *Redactor) Value(name, v string) string {
	if !r.on || v == "" {
		return v
	}
	if partialSecret(name) {
		return redactURL(v)
	}
	return Redacted
}

// Scrub removes every known secret from free text (messages, reasons, raw input).
func (r *Redactor) Scrub(s string) string {
	if !r.on {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			with := Redacted
			if red, ok := r.whole[sec]; ok {
				with = red
			}
			s = strings.ReplaceAll(s, sec, with)
		}
	}
	return s
}

// partialSecret lists flags and variables whose values are URLs or DSNs: only the password
// inside is secret.
func partialSecret(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	return strings.Contains(n, "datastore-endpoint") || strings.Contains(n, "datastore_endpoint") ||
		strings.HasSuffix(n, "_proxy") || strings.HasSuffix(n, "-proxy")
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
	if !partialSecret(name) {
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

// flagMentions finds words that hold "-NAME" followed by "=" or a blank (RE2's \s) for
// one of the names: every match of NewRedactor's expression does. Most words (every
// argument of a large node) hold none, and the expression need not run: it cost 10% of
// show on 2,000 drop-ins.
type flagMentions struct {
	names []string
	// first marks the bytes a name starts with; all is set when a name is empty.
	first [256]bool
	all   bool
}

func newFlagMentions(names []string) *flagMentions {
	m := &flagMentions{names: names}
	for _, n := range names {
		if n == "" {
			m.all = true
			continue
		}
		m.first[n[0]] = true
	}
	return m
}

// in looks at each '-' of the word once, and at the names only where one may start.
func (m *flagMentions) in(word string) bool {
	for i := 0; i < len(word); i++ {
		if word[i] != '-' || (!m.all && (i+1 == len(word) || !m.first[word[i+1]])) {
			continue
		}
		rest := word[i+1:]
		for _, n := range m.names {
			if len(rest) > len(n) && strings.HasPrefix(rest, n) && strings.IndexByte("= \t\n\f\r", rest[len(n)]) >= 0 {
				return true
			}
		}
	}
	return false
}

// secretKey matches the names of values (Helm chart values, dict keys) that hold secrets:
// passwords, tokens, secrets, private and API keys, credentials. A bare "key" does not count
// (tolerations, label selectors and Secret key references use it for names).
var secretKey = regexp.MustCompile(`(?i)(password|passwd|secret|token|private_?key|access_?key|api_?key|credentials?$)`)

// secretKeyRef matches names that refer to a secret rather than hold one (secretName,
// existingSecretRef, tokenSecretNamespace).
var secretKeyRef = regexp.MustCompile(`(?i)(name|ref|refs|namespace|enabled)$`)

// IsSecretKey reports whether a value under a key of this name is a secret; callers show
// such values as REDACTED unless --show-secrets.
func IsSecretKey(name string) bool {
	return secretKey.MatchString(name) && !secretKeyRef.MatchString(name)
}

// On reports whether the redactor hides secrets (false with --show-secrets).
func (r *Redactor) On() bool { return r != nil && r.on }
