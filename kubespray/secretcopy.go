package kubespray

import (
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/output"
)

// A value the playbook computes from a secret is the secret (issue 25): a set_fact whose
// argument templates `{{ registry_password }}`, directly or through other variables, a
// filter, a dict's secret key or an earlier set_fact, stores a copy of it, whatever the
// variable it sets is named. The evaluator's reads are watched (secretReads) and the
// run-time set is marked (RuntimeSet.secret), as a YAML alias copy is
// (ansible.Assignment.SecretCopy); output hides it under a secret name.

// secretReads records what an evaluation read: a secret variable (by the name rule, a
// copy by YAML alias, a run-time set marked secret, a vaulted value), and the secret
// strings inside the structured values it read (a dict's password key).
type secretReads struct {
	named bool
	held  []string
}

// copies reports whether v, computed by the watched evaluation, copies a secret: the
// evaluation read a secret variable, or v holds a secret string it read inside a dict or
// list (compared without case: `| upper` copies it too).
func (s *secretReads) copies(v any) bool {
	if s.named {
		return true
	}
	if len(s.held) == 0 {
		return false
	}
	found := false
	walkStrings(v, func(x string) {
		x = strings.ToLower(x)
		for _, h := range s.held {
			if strings.Contains(x, strings.ToLower(h)) {
				found = true
			}
		}
	})
	return found
}

// walkStrings calls f for every string in v.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case *ansible.Map:
		for _, it := range x.Items {
			walkStrings(it.Value, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

// watchSecrets wraps the lookup a task's evaluation uses (lookupAt's): the reads are
// recorded in the secretReads returned. A name is a secret when the name rule says so, when
// the static variable is a copy by YAML alias, when the run-time set the caches hold for it
// is marked secret, or when a scope's vars: copy one by alias; a value read is searched for
// the secret strings it holds by structure (walkSecrets).
func (rt *runtimeRun) watchSecrets(lookup ansible.Lookup, pr *PlayRun, n *TaskNode, caches ...map[string]cached) (ansible.Lookup, *secretReads) {
	reads := &secretReads{}
	// A redactor for the list rule of walkSecrets only: it judges the flags in lists.
	rule := output.NewTextRedactor(false)
	var ctx *ansible.Context
	if fr := rt.fileRun(pr, n); fr != nil {
		ctx = rt.hr.Resolve(pr, fr.Role, fr.epochAt(n.Pos.Line))
	} else {
		ctx = rt.hr.Resolve(pr, nil, pr.Epoch)
	}
	secret := func(name string) bool {
		if isSecretName(name) {
			return true
		}
		for _, c := range caches {
			if e, ok := c[name]; ok && e.by != nil && e.by.secret {
				return true
			}
		}
		if n != nil && (scopeCopies(n.Vars, name) || scopeCopies(n.IncludeParams, name)) {
			return true
		}
		if ctx != nil {
			if v := ctx.Var(name); v != nil && v.Source != nil && v.Source.SecretCopy {
				return true
			}
		}
		return false
	}
	return func(name string) (any, bool) {
		v, ok := lookup(name)
		if !ok {
			return v, ok
		}
		if secret(name) {
			reads.named = true
		}
		if s, isStr := v.(string); isStr && vaulted(s) {
			reads.named = true
		}
		walkSecrets(rule, name, v, func(_, s string) { reads.held = append(reads.held, s) })
		return v, ok
	}, reads
}

// scopeCopies reports whether a scope's vars: set name through a YAML alias copy.
func scopeCopies(svs []ScopeVars, name string) bool {
	for _, sv := range svs {
		for _, d := range sv.Defs {
			if d.Name == name && d.SecretCopy {
				return true
			}
		}
	}
	return false
}

// nameFor is the name a run-time set's stored (evaluated) value is judged under: the variable's, or a
// secret name for a copy of a secret.
func (s *RuntimeSet) nameFor(name string) string {
	if s.secret {
		return "secret"
	}
	return name
}

// writtenName is the name a run-time set's value as written is judged under: a template
// that reads a secret (`{{ registry_password }}`) is no secret, a YAML alias copy is.
func (s *RuntimeSet) writtenName(name string) string {
	if s.written {
		return "secret"
	}
	return name
}
