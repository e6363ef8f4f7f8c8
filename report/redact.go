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
}

// NewRedactor collects every secret value in the result; with show set it redacts nothing.
func NewRedactor(res *resolve.Result, show bool) *Redactor {
	r := &Redactor{on: !show}
	if show {
		return r
	}
	seen := map[string]bool{}
	add := func(name, v string) {
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
	return r
}

// Value redacts a value of the named flag or variable: all of it for tokens and keys, only
// the password for datastore endpoints and proxy URLs.
func (r *Redactor) Value(name, v string) string {
	if !r.on || v == "" {
		return v
	}
	parts := secretParts(name, v)
	if len(parts) == 1 && parts[0] == v {
		return Redacted
	}
	for _, p := range parts {
		v = strings.ReplaceAll(v, p, Redacted)
	}
	return v
}

// Scrub removes every known secret from free text (messages, reasons, raw input).
func (r *Redactor) Scrub(s string) string {
	if !r.on {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Redacted)
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
