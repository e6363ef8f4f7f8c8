package resolve

import (
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// markSecretCopies marks secret every assignment made from a config entry whose value is a
// YAML alias of an anchor set under a secret key (sources.ConfigEntry.SecretCopy:
// `agent-token: &a server` … `node-name: *a`). Its value is the secret's, whatever it
// looks like, so it is redacted as a secret flag's is wherever it is shown, and the checks
// that quote values say "hidden" for it. A list with such an item is marked whole. It runs
// before the checks (finish).
func (r *resolver) markSecretCopies(files []*sources.ConfigFile) {
	var at map[diag.Position]bool
	for _, f := range files {
		for i := range f.Entries {
			e := &f.Entries[i]
			if !e.SecretCopy {
				continue
			}
			if at == nil {
				at = map[diag.Position]bool{}
			}
			at[e.ValuePos] = true
			for _, it := range e.Items {
				at[it.Pos] = true
			}
		}
	}
	if at == nil {
		return
	}
	mark := func(a *Assignment) {
		if a.Kind == sources.KindConfig && at[a.Pos] {
			a.secret = true
		}
	}
	for _, k := range r.res.Keys {
		for _, a := range k.History {
			mark(a)
		}
	}
	for _, a := range r.res.Stray {
		mark(a)
	}
}

// redacted stands for a copy of a secret in a message the resolver builds, as redactURL
// writes it for a URL's password.
const redacted = "REDACTED"

// copiesSecret reports whether a token's value comes from a config entry that copies a
// secret by YAML alias (sources.ConfigEntry.SecretCopy).
func (t *token) copiesSecret() bool {
	return t != nil && t.from != nil && t.from.entry != nil && t.from.entry.SecretCopy
}

// quote is v as a message the resolver builds quotes it: REDACTED when the key's value in
// force copies a secret by YAML alias (markSecretCopies), so k3s's own error text
// ("invalid ip format 'REDACTED'") never prints it. The output's redactor cannot do this:
// a secret that spells a plain word is redacted only where it is quoted as a value, and
// k3s's texts quote values in prose. Checks decide on the real value; only the text they
// build hides it.
func (r *resolver) quote(key, v string) string {
	if v != "" && r.copied(key) {
		return redacted
	}
	return v
}

// copied reports whether the key's value in force, or an item of it, copies a secret.
func (r *resolver) copied(key string) bool {
	k := r.res.Key(key)
	if k == nil {
		return false
	}
	for _, a := range k.History {
		if a.secret && (a.Outcome == provenance.Applied || a.Outcome == provenance.Appended || a.Outcome == contributing) {
			return true
		}
	}
	return false
}
