package kubespray

import (
	"math/big"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/output"
)

// redacted replaces a secret value in output: output.Redacted, the word k3sconf uses.
const redacted = output.Redacted

// IsSecretName reports whether a variable (or dict key) named so holds a secret: the one
// name rule of k3sconf (output.SecretName, docs/secrets.md), which also decides for k3s
// flags, environment variables and pass-through arguments.
func isSecretName(name string) bool { return output.SecretName(name) }

// redact replaces secret values in the report, by the nearest name: a variable's value is
// judged by the variable's name, a dict value by its key (at any depth), a list item by
// the name of its list. A string under a secret name is REDACTED; a boolean, a number or
// null stays as it is (kube_encrypt_secret_data: true tells nothing: a switch is no
// secret), a number is REDACTED but its type is still shown ("int"); a vaulted
// value ($ANSIBLE_VAULT;…) is REDACTED under any name; other strings go through the word
// rules (URL passwords, NAME=VALUE). Messages, hints and reasons go through the same
// redactor, which knows the redacted values.
func (r *Report) redact() {
	red := output.NewTextRedactor(false)
	for _, ex := range r.Vars {
		for _, v := range exVars(ex) {
			learnVar(red, v)
		}
		learnRuntime(red, ex)
	}
	red.Done()
	for _, ex := range r.Vars {
		for _, v := range exVars(ex) {
			r.redactVar(red, v)
		}
		redactRuntime(red, ex)
	}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		d.Message, d.Hint, d.Key = red.Scrub(d.Message), red.Scrub(d.Hint), red.Key(d.Key)
	}
}

// exVars are the variables an explained variable shows: its value, its value at the play
// before the host joins its run-time groups (Before), the values it refers to, and its
// value at every use site (the same *Var may be shared between them: redacting
// is idempotent).
func exVars(ex *Explained) []*ansible.Var {
	vs := append([]*ansible.Var{ex.Var, ex.Before}, ex.Refs...)
	for _, s := range ex.Sites {
		vs = append(vs, s.Var)
	}
	for _, g := range ex.Values {
		vs = append(vs, g.Var)
	}
	return vs
}

// learnVar teaches the redactor the secret strings of v, so text quoting them is redacted.
func learnVar(red *output.Redactor, v *ansible.Var) {
	if v == nil {
		return
	}
	for _, a := range v.History {
		walkSecrets(red, nameFor(v.Name, a), a.Value, func(name, s string) { red.Learn(name, s) })
	}
}

// nameFor is the name an assignment's value is judged under: the variable's, or a secret
// name for a copy of a secret by YAML alias (ansible.Assignment.SecretCopy: mirror_login: *rp
// of registry_password: &rp x), so the copy is hidden whatever it spells.
func nameFor(name string, a *ansible.Assignment) string {
	if a.SecretCopy {
		return "secret"
	}
	return name
}

// walkSecrets calls f for every string of v that redactNamed hides by its name, and for
// the value of a secret flag on its own in a list (output.Redactor.FlagValue: f gets the
// flag as the name). red only judges the flags.
func walkSecrets(red *output.Redactor, name string, v any, f func(name, s string)) {
	switch x := v.(type) {
	case string:
		if secretString(name, x) {
			f(name, x)
		}
	case *ansible.Map:
		item := entryName(x)
		for _, it := range x.Items {
			k, ok := it.Key.(string)
			if !ok {
				k = name
			}
			if k == "value" && item != "" {
				k = item
			}
			walkSecrets(red, k, it.Value, f)
		}
	case []any:
		prev := ""
		for _, e := range x {
			s, ok := e.(string)
			if fv, isValue := red.FlagValue(prev, s); ok && isValue {
				if fv != s {
					f(prev, s)
				}
				prev = ""
				continue
			}
			walkSecrets(red, name, e, f)
			prev = s
		}
	}
}

func secretString(name, s string) bool {
	return output.SecretValue(name, s) || vaulted(s)
}

// vaulted: an Ansible Vault payload, whatever its name (ansible-core's
// parsing/vault: the header "$ANSIBLE_VAULT;1.1;AES256"; a !vault tag reads as <vaulted>).
func vaulted(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "$ANSIBLE_VAULT;")
}

func (r *Report) redactVar(red *output.Redactor, v *ansible.Var) {
	if v == nil {
		return
	}
	if v.Value != nil && (isSecretName(v.Name) || v.Source != nil && v.Source.SecretCopy) {
		switch v.Value.(type) {
		case int64, *big.Int, float64:
			// A number under a secret name (registry_password: 123456) is hidden, but
			// keeps its type in the output.
			if r.types == nil {
				r.types = map[*ansible.Var]string{}
			}
			r.types[v] = ansible.TypeName(v.Value)
		}
	}
	for _, a := range v.History {
		before := ansible.Repr(a.Value)
		a.Value = redactNamed(red, nameFor(v.Name, a), a.Value)
		if a.Raw != "" && ansible.Repr(a.Value) != before {
			a.Raw = ""
		}
		a.Raw = red.Scrub(a.Raw)
		a.Reason = red.Scrub(a.Reason)
	}
	if v.Source != nil {
		v.Value = v.Source.Value
	}
}

// TypeName is the Python type of v's value as read, as explain prints it (a redacted
// number keeps its type: "int").
func (r *Report) TypeName(v *ansible.Var) string {
	if t, ok := r.types[v]; ok {
		return t
	}
	return ansible.TypeName(v.Value)
}

// redactNamed redacts v, found under name (see redact).
func redactNamed(red *output.Redactor, name string, v any) any {
	switch x := v.(type) {
	case string:
		if vaulted(x) {
			return redacted
		}
		// The one rule for a value under a name (output.Redactor.String): by the name,
		// as a copy of a secret, and by what the string holds (URL and DSN credentials,
		// PEM keys, NAME = VALUE lines, base64 of those).
		return red.String(name, x)
	case int64, *big.Int, float64:
		if isSecretName(name) {
			return redacted
		}
		return v
	case *ansible.Map:
		out := &ansible.Map{}
		item := entryName(x)
		for _, it := range x.Items {
			k, ok := it.Key.(string)
			if !ok {
				k = name
			}
			if k == "value" && item != "" {
				k = item // {name: DB_PASSWORD, value: x}: the value by the item's name
			}
			out.Items = append(out.Items, ansible.MapItem{Key: it.Key, Value: redactNamed(red, k, it.Value)})
		}
		return out
	case []any:
		// Each item by the list's name, and the item after a secret flag on its own
		// (["--registry-password", x]) as that flag's value: the list rule every face
		// applies (output.Redactor.FlagValue).
		out := make([]any, len(x))
		prev := ""
		for i, e := range x {
			s, ok := e.(string)
			if fv, isValue := red.FlagValue(prev, s); ok && isValue {
				out[i], prev = fv, ""
				continue
			}
			out[i], prev = redactNamed(red, name, e), s
		}
		return out
	}
	return v
}

// entryName is the name an environment-list item gives its value (output.EntryName):
// {name: DB_PASSWORD, value: x}.
func entryName(m *ansible.Map) string {
	plain := map[string]any{}
	for _, it := range m.Items {
		if k, ok := it.Key.(string); ok && (k == "name" || k == "value") {
			plain[k] = it.Value
		}
	}
	return output.EntryName(plain)
}
