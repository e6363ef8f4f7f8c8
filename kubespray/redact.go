package kubespray

import (
	"regexp"

	"github.com/k3sconf/k3sconf/ansible"
)

// Redacted replaces a secret value in output (the word the rest of k3sconf uses).
const Redacted = "REDACTED"

// secretName matches variable (and dict key) names whose values are secrets: kubespray's
// *_password, *_token, registry credentials, cloud keys (e.g. kube_oidc_client_secret,
// registry_password, aws_secret_access_key, ansible_become_password).
var secretName = regexp.MustCompile(`(?i)(password|passwd|secret|token|private_key|access_key|api_key|credentials?$|_pass$|^ansible_become_pass)`)

// IsSecretName reports whether a variable named so holds a secret.
func IsSecretName(name string) bool { return secretName.MatchString(name) }

// redact replaces secret values in the report: whole variables with a secret name, and
// values under secret-named keys inside dicts.
func (r *Report) redact() {
	for _, ex := range r.Vars {
		redactVar(ex.Var)
		for _, rv := range ex.Refs {
			redactVar(rv)
		}
		// Every use site's value too (the same *Var may be shared: redacting is
		// idempotent).
		for _, s := range ex.Sites {
			redactVar(s.Var)
		}
		for _, g := range ex.Values {
			redactVar(g.Var)
		}
	}
}

func redactVar(v *ansible.Var) {
	if v == nil {
		return
	}
	secret := IsSecretName(v.Name)
	for _, a := range v.History {
		if secret {
			a.Value, a.Raw = Redacted, ""
		} else {
			a.Value = redactValue(a.Value)
			if a.Raw != "" && ansible.Repr(a.Value) != ansible.Repr(redactValue(a.Value)) {
				a.Raw = ""
			}
		}
	}
	if v.Source != nil {
		v.Value = v.Source.Value
	}
}

func redactValue(v any) any {
	switch x := v.(type) {
	case *ansible.Map:
		out := &ansible.Map{}
		for _, it := range x.Items {
			if k, ok := it.Key.(string); ok && IsSecretName(k) {
				out.Items = append(out.Items, ansible.MapItem{Key: it.Key, Value: Redacted})
				continue
			}
			out.Items = append(out.Items, ansible.MapItem{Key: it.Key, Value: redactValue(it.Value)})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(e)
		}
		return out
	}
	return v
}
