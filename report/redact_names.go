package report

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
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	for _, s := range []string{"token", "secret", "password", "passwd", "passphrase", "pass"} {
		if strings.HasSuffix(last, s) {
			return true
		}
	}
	switch last {
	case "pwd", "auth", "credential", "credentials", "secrets", "tokens", "passwords":
		return true
	case "key":
		return len(words) > 1
	}
	return false
}

// nameWords splits a name into lower-case words (see SecretName).
func nameWords(name string) []string {
	name = strings.TrimLeft(name, "-")
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	var prev rune
	for _, c := range name {
		switch {
		case c == '-' || c == '_' || c == '.':
			flush()
		case unicode.IsUpper(c) && unicode.IsLower(prev):
			flush()
			cur.WriteRune(c)
		default:
			cur.WriteRune(c)
		}
		prev = c
	}
	flush()
	return words
}

// urlValuedName: only the credentials inside such a value are secret (the password of a
// URL or DSN), not the whole value: datastore endpoints, proxies, server URLs.
func urlValuedName(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
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
		if fuzzy.Distance(name, s) <= limit {
			return true
		}
	}
	return false
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
	if strings.ContainsAny(s, " \t\n") || strings.Contains(s, "://") || !strings.Contains(s, "/") {
		return false
	}
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "{{")
}

// SecretValue reports whether the value v under name is a secret to redact: a secret name
// with a value that is not a switch, and not a file path under a *key name. Callers with
// typed values (Ansible) never ask for booleans or numbers: those are shown as they are.
func SecretValue(name, v string) bool {
	if v == "" || !SecretName(name) || boolWord(v) {
		return false
	}
	if w := nameWords(name); w[len(w)-1] == "key" && looksLikePath(v) {
		return false
	}
	return true
}
