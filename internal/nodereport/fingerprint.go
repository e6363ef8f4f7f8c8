package nodereport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/k3sconf/k3sconf/resolve"
)

// FleetDoc is what `k3sconf --json show --secret-salt SALT` adds for `k3sconf fleet`: a
// fingerprint of each secret value, so that documents gathered from many nodes in one run
// can tell whether their tokens agree without any of them holding a token, and the name
// the node registers under.
//
// A fingerprint is HMAC-SHA256 keyed with the salt over the key name and the value,
// truncated to 64 bits (16 hex digits): nothing reversible is written, and without the salt
// a fingerprint cannot be checked against guessed values. SaltID (the HMAC of a fixed
// string) lets fleet tell documents made with the same salt from others without the salt
// being written anywhere.
type FleetDoc struct {
	SaltID string `json:"saltId"`
	// Fingerprints maps each secret key that has a value to its fingerprint.
	Fingerprints map[string]string `json:"secretFingerprints"`
	// NodeName is the name the node registers under ("" when unknown), NodeNameFrom where
	// it comes from (node-name, hostname-file, hostname), Hostname the host name read.
	NodeName     string `json:"nodeName,omitempty"`
	NodeNameFrom string `json:"nodeNameFrom,omitempty"`
	Hostname     string `json:"hostname,omitempty"`
}

// fingerprintBytes is the length kept of the HMAC: 64 bits tell different secrets apart in
// any fleet, and are too short to serve as the secret's hash.
const fingerprintBytes = 8

// SaltID identifies a salt without revealing it.
func SaltID(salt string) string { return mac(salt, "k3sconf fleet salt id") }

// Fingerprint is the fingerprint of a secret key's value under salt. Tokens are compared
// as k3s compares them: the password of "K10<ca-hash>::<user>:<password>" and a bare
// password are the same token (k3s-io/k3s pkg/clientaccess/token.go parseToken).
// The key name is part of the fingerprint, so equal values of unrelated keys do not look
// alike; token and agent-token share one name, because an agent's token is checked
// against the servers' agent-token (or token).
func Fingerprint(salt, key, value string) string {
	domain := key
	if key == "agent-token" {
		domain = "token"
	}
	return mac(salt, domain+"\x00"+NormalizeSecret(key, value))
}

// NormalizeSecret is the part of a secret value k3s compares: for token and agent-token,
// the password of a full K10 token.
func NormalizeSecret(key, value string) string {
	switch key {
	case "token", "agent-token":
		if rest, ok := strings.CutPrefix(value, "K10"); ok {
			if _, creds, ok := strings.Cut(rest, "::"); ok {
				if _, pw, ok := strings.Cut(creds, ":"); ok && pw != "" {
					return pw
				}
				return creds
			}
		}
	}
	return value
}

func mac(salt, msg string) string {
	h := hmac.New(sha256.New, []byte(salt))
	h.Write([]byte(msg))
	return hex.EncodeToString(h.Sum(nil)[:fingerprintBytes])
}

// SecretFingerprints fingerprints every secret key of res that has a value. A list value
// is fingerprinted as its items joined by commas.
func SecretFingerprints(res *resolve.Result, salt string) map[string]string {
	out := map[string]string{}
	for _, k := range res.Keys {
		if !k.Flag.Secret {
			continue
		}
		var v string
		switch x := k.Value.(type) {
		case string:
			v = x
		case []string:
			v = strings.Join(x, ",")
		}
		if v == "" {
			continue
		}
		out[k.Name()] = Fingerprint(salt, k.Name(), v)
	}
	return out
}
