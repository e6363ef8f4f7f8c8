package output

import "testing"

// TestSecretName: the rule on the names of kubespray's variables
// (kubernetes-sigs/kubespray 46dbdd39: roles/*/defaults, inventory/sample), Kubernetes
// components' flags given as k3s pass-through args, and environment variables.
func TestSecretName(t *testing.T) {
	tests := []struct {
		name   string
		secret bool
		reason string
	}{
		{"registry_password", true, "ends with password"},
		{"kube_oidc_client_secret", true, "ends with secret"},
		{"hcloud_api_token", true, "ends with token"},
		{"kube_vip_bgp_peerpass", true, "ends with pass"},
		{"registry_htpasswd", true, "an htpasswd file's content"},
		{"ansible_become_pass", true, "Ansible's become password"},
		{"external_oracle_auth_passphrase", true, "a key's passphrase"},
		{"kubeadm_certificate_key", true, "*_key: key material"},
		{"etcd_peer_key", true, "*_key"},
		{"kube_encryption_key", true, "*_key"},
		{"external_huaweicloud_secret_key", true, "*_key"},
		{"auth", true, "a docker config's auth: base64 user:password"},
		{"containerd_registry_auth", true, "*_auth (a list of dicts: redacted by its keys' names)"},
		{"cinder_application_credential_secret", true, "ends with secret"},
		{"key", false, "a bare key is a taint's or a label's (tolerations: [{key: …}])"},
		{"kube_etcd_key_file", false, "a file name"},
		{"kube_token_dir", false, "a folder"},
		{"token_secret_name", false, "the name of a Secret object"},
		{"kube_encrypt_secret_data", false, "a switch"},
		{"certificates_key_size", false, "a number of bits"},
		{"docker_ubuntu_repo_gpgkey", false, "a URL of a public key"},
		{"docker_ubuntu_repo_repokey", false, "a public key's fingerprint"},
		{"supplementary_addresses_in_ssl_keys", false, "addresses"},
		{"secrets_encryption_query", false, "a query"},
		{"cinder_application_credential_id", false, "an identifier"},
		{"credentials_dir", false, "a folder"},
		{"oidc-client-secret", true, "kube-apiserver pass-through: ends with secret"},
		{"registry-password", true, "ends with password"},
		{"cloud-provider-token", true, "ends with token"},
		{"token-auth-file", false, "kube-apiserver --token-auth-file: a file"},
		{"service-account-key-file", false, "a file"},
		{"service-account-max-token-expiration", false, "a duration"},
		{"enable-bootstrap-token-auth", true, "ends with auth; its value is a switch and stays (SecretValue)"},
		{"K3S_TOKEN", true, "environment"},
		{"K3S_TOKEN_FILE", false, "a file"},
		{"AWS_SECRET_ACCESS_KEY", true, "*_KEY"},
		{"AWS_ACCESS_KEY_ID", true, "an environment variable naming an access key (k3s: secret)"},
		{"K3S_TOKEN-X", true, "an environment variable (an invalid one) with TOKEN in it"},
		{"joinKey", true, "vpn-auth's joinKey: camel case"},
		{"controlServerURL", false, "a URL"},
		{"--agent-token", true, "dashes do not count"},
	}
	for _, tc := range tests {
		if got := SecretName(tc.name); got != tc.secret {
			t.Errorf("SecretName(%q) = %v, want %v: %s", tc.name, got, tc.secret, tc.reason)
		}
	}
}

// TestSecretValue: what the name rule hides, by the value's shape.
func TestSecretValue(t *testing.T) {
	tests := []struct {
		name, value string
		secret      bool
		reason      string
	}{
		{"registry_password", "hunter2", true, "a string under a secret name"},
		{"kube_api_anonymous_auth", "true", false, "a switch is no secret"},
		{"etcd_peer_client_auth", "False", false, "a switch, any case"},
		{"registry_password", "", false, "nothing to hide"},
		{"kube_apiserver_client_key", "{{ kube_cert_dir }}/ca.key", false, "a *_key that names a file"},
		{"kubelet-client-key", "/var/lib/rancher/k3s/agent/client.key", false, "kube-apiserver --kubelet-client-key: a path"},
		{"kubeadm_certificate_key", "e6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204", true, "key material"},
		{"kube_encrypt_token", "{{ lookup('password', credentials_dir + '/x.creds') }}", true, "a template under a token name: hidden (it is the recipe of a secret)"},
	}
	for _, tc := range tests {
		if got := SecretValue(tc.name, tc.value); got != tc.secret {
			t.Errorf("SecretValue(%q, %q) = %v, want %v: %s", tc.name, tc.value, got, tc.secret, tc.reason)
		}
	}
}

// TestNearMiss: typos of secret flags, and names that are not.
func TestNearMiss(t *testing.T) {
	r := NewTextRedactor(false)
	for _, n := range []string{"agent-tokn", "tokne", "etcd-s3-secret-kye", "toke", "agnet-token", "vpn-auht"} {
		if !nearMiss(n, r.secretFlags) {
			t.Errorf("%s is a typo of a secret flag", n)
		}
	}
	for _, n := range []string{"token", "tls-san", "taken-over", "tok", "node-token", "agent-token-file"} {
		if nearMiss(n, r.secretFlags) {
			t.Errorf("%s is not a typo of a secret flag (a flag itself, too short, or too far)", n)
		}
	}
}
