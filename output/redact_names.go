package output

import (
	"strings"
	"unicode"

	"github.com/k3sconf/k3sconf/internal/fuzzy"
)

// The one rule for names (docs/secrets.md, "Which names are secret"). It decides for flag
// names, environment variables, the keys of pass-through items (kubelet-arg:
// registry-password=…), Ansible variables and the keys of dicts at any depth.
//
// A name is split into words at '-', '_', '.' and lower→upper case changes
// ("oidc-client-secret", "K3S_AGENT_TOKEN", "joinKey"). The last word says what the value
// is:
//   - ends with token, secret, password, passwd, passphrase or pass (kube_vip_bgp_peerpass,
//     registry_htpasswd, ansible_become_pass), or is pwd, auth (the docker config's base64
//     "user:password"; vpn-auth), credential(s) or key after another word (etcd_peer_key,
//     kubeadm_certificate_key; a bare "key" is a taint's or a label's): secret;
//   - anything else (…-file, …_dir, …_name, …-expiration, …_size, …_id, …_url, …_data):
//     not secret, whatever words come before: the value names a file, a duration, an
//     object or a switch (token-auth-file, kube_token_dir, token_secret_name,
//     service-account-max-token-expiration, certificates_key_size,
//     kube_encrypt_secret_data).
//
// Checked against the real names: every flag of the k3s and RKE2 profiles (secret exactly
// when the profile marks it, TestSecretNameProfiles), kube-apiserver's, kubelet's and
// kube-controller-manager's *-key-file/*-token-* flags, and kubespray's variables
// (kubernetes-sigs/kubespray 46dbdd39, roles/*/defaults and inventory/sample:
// TestSecretNameKubespray).
func SecretName(name string) bool {
	// Most names end in none of the secret words' last letters: say no at once (a node
	// of 2,000 drop-ins asks a few million times).
	name = strings.TrimRight(name, "-_.+:")
	if name == "" {
		return false
	}
	switch name[len(name)-1] | 0x20 {
	case 'n', 't', 'd', 'e', 's', 'h', 'l', 'y':
	default:
		if !hasUpper(name) { // an environment variable may hold TOKEN anywhere
			return false
		}
	}
	last, more := lastWord(name)
	if last == "" {
		return false
	}
	for _, s := range []string{"token", "secret", "password", "passwd", "passphrase", "pass"} {
		if strings.HasSuffix(last, s) {
			return true
		}
	}
	if envName(name) && last != "file" && last != "dir" && last != "path" {
		// An environment variable: resolve's rule (looksSecretEnv), a secret word anywhere
		// (K3S_TOKEN-X, MY_PASSWORD_2).
		for _, w := range []string{"TOKEN", "PASSWORD", "PASSWD", "SECRET", "ACCESS_KEY"} {
			if strings.Contains(name, w) {
				return true
			}
		}
	}
	switch last {
	case "pwd", "auth", "credential", "credentials", "secrets", "tokens", "passwords":
		return true
	case "key":
		return more
	}
	return false
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// envName: upper case, digits, '_' and '-' (an invalid one: K3S_TOKEN-X), a letter.
func envName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '-':
		default:
			return false
		}
	}
	return letter
}

// lastWord is the last word of a name in lower case (see SecretName), and whether a word
// comes before it.
func lastWord(name string) (string, bool) {
	name = strings.TrimRight(name, "-_.+:")
	i := len(name)
	for i > 0 {
		c := name[i-1]
		if c == '-' || c == '_' || c == '.' {
			break
		}
		i--
		// lower→upper: "joinKey" ends with "Key".
		if c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
			break
		}
	}
	w := name[i:]
	more := strings.Trim(name[:i], "-_.") != ""
	for k := 0; k < len(w); k++ {
		if w[k] >= 'A' && w[k] <= 'Z' {
			return strings.ToLower(w), more
		}
	}
	return w, more
}

// urlValuedName: only the credentials inside such a value are secret (the password of a
// URL or DSN), not the whole value: datastore endpoints, proxies, server URLs.
func urlValuedName(name string) bool {
	if name == "" || (name[len(name)-1]|0x20 != 'y' && name[len(name)-1]|0x20 != 't') {
		return false // not …proxy, not …endpoint
	}
	n := strings.TrimLeft(name, "-")
	if strings.IndexFunc(n, unicode.IsUpper) >= 0 {
		n = strings.ToLower(n)
	}
	return strings.Contains(n, "datastore-endpoint") || strings.Contains(n, "datastore_endpoint") ||
		strings.HasSuffix(n, "_proxy") || strings.HasSuffix(n, "-proxy") || n == "proxy"
}

// nearMiss reports whether name is a typo of one of the secret flag names: k3s refuses
// the flag, but the word after it (or after its '=') is still the operator's secret.
// Levenshtein distance 1 for names of up to 5 bytes, 2 for longer ones (internal/fuzzy, the
// matcher of explain's "did you mean").
func nearMiss(name string, secretFlags []string) bool {
	if len(name) < 4 {
		return false
	}
	for _, s := range secretFlags {
		limit := 2
		if len(s) <= 5 {
			limit = 1
		}
		if abs(len(s)-len(name)) > limit || s == name {
			continue
		}
		if fuzzy.Distance(name, s) <= limit || transposed(name, s) {
			return true
		}
	}
	return false
}

// transposed: a and b differ by two adjacent bytes swapped ("tokne"), one typo that
// Levenshtein counts as two.
func transposed(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// plainWord: a value that spells a word (letters only, at most the first one upper case).
// Such a secret ("secret", "server") is redacted where input quotes it (after its flag,
// after NAME=) but not wherever the word occurs: that would garble the sentences around it.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c > unicode.MaxASCII || !unicode.IsLetter(c) || (i > 0 && unicode.IsUpper(c)) {
			return false
		}
	}
	return true
}

// boolWord: a value that is a switch, not a secret, under any name.
func boolWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false":
		return true
	}
	return false
}

// looksLikePath: a value under a *key name that names a file (kube-apiserver's
// --kubelet-client-key, kubespray's kube_apiserver_client_key: "{{ kube_cert_dir }}/ca.key").
func looksLikePath(s string) bool {
	if strings.HasPrefix(s, "{{") {
		// A path under a templated folder: what follows the last "}}" starts with '/'.
		if i := strings.LastIndex(s, "}}"); i >= 0 {
			s = s[i+2:]
			return strings.HasPrefix(s, "/") && !strings.ContainsAny(s, " \t\n")
		}
		return false
	}
	if strings.ContainsAny(s, " \t\n") || strings.Contains(s, "://") || !strings.Contains(s, "/") {
		return false
	}
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~/")
}

// SecretValue reports whether the value v under name is a secret to redact: a secret name
// with a value that is not a switch, and not a file path under a *key name. Callers with
// typed values (Ansible) never ask for booleans or numbers: those are shown as they are.
func SecretValue(name, v string) bool {
	if v == "" || !SecretName(name) || boolWord(v) {
		return false
	}
	if w, _ := lastWord(name); w == "key" && looksLikePath(v) {
		return false
	}
	return true
}
