package resolve

import (
	"github.com/k3sconf/k3sconf/diag"
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
