package output

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The content rules of the Redactor (docs/secrets.md, "By content"): secrets a value shows
// whatever its name, because of what it holds. They run on values (String, Data), never on
// prose.

// pemPrivate matches a PEM private key block (PKCS#1 "RSA PRIVATE KEY", SEC1 "EC PRIVATE
// KEY", PKCS#8 "PRIVATE KEY" and "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP
// PRIVATE KEY BLOCK"), its end marker or the end of the text: the body between the markers
// is the key. Certificates and public keys are not secret and stay.
var pemPrivate = regexp.MustCompile(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----)((?s:.*?))(-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|$)`)

// pemSpace and pemSpaceEnd are the line breaks around a PEM body, JSON-escaped ones ("\n"
// in a service-account key file held as a string) too.
var pemSpace, pemSpaceEnd = regexp.MustCompile(`^(?:\s|\\[nr])*`), regexp.MustCompile(`(?:\s|\\[nr])*$`)

// redactPEM hides the body of every private key block in s.
func redactPEM(s string) string {
	if !strings.Contains(s, "PRIVATE KEY") {
		return s
	}
	return pemPrivate.ReplaceAllStringFunc(s, func(m string) string {
		sub := pemPrivate.FindStringSubmatch(m)
		body := sub[2]
		lead, trail := pemSpace.FindString(body), pemSpaceEnd.FindString(body)
		if len(lead) == len(body) {
			return m
		}
		return sub[1] + lead + Redacted + trail + sub[3]
	})
}

// redactLines hides the value of every NAME = VALUE (NAME: VALUE) line of s whose NAME is
// secret, with or without blanks around the separator: "admin_password = x" in an ini or
// properties file, "secret_access_key: x" in a config string. A leading "- " (a YAML list
// item), "export " and quotes around NAME are allowed; the value runs to the end of the
// line (quotes and a trailing comma stay). A value that is a switch, empty, or a file
// under a *key name stays, and so does a URL after NAME: ("endpoint: https://…").
func (r *Redactor) redactLines(s string) string {
	if strings.IndexByte(s, '=') < 0 && strings.IndexByte(s, ':') < 0 {
		return s
	}
	var b strings.Builder
	changed := false
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		if red, ok := r.secretLine(line); ok {
			if !changed {
				changed = true
				b.Grow(len(s))
				b.WriteString(s[:start])
			}
			b.WriteString(red)
		} else if changed {
			b.WriteString(line)
		}
		if end < len(s) && changed {
			b.WriteByte('\n')
		}
		start = end + 1
	}
	if !changed {
		return s
	}
	return b.String()
}

// secretLine redacts one line of redactLines.
func (r *Redactor) secretLine(line string) (string, bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	for _, p := range []string{"- ", "export "} {
		if strings.HasPrefix(line[i:], p) {
			i += len(p)
			for i < len(line) && line[i] == ' ' {
				i++
			}
		}
	}
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		i++
	}
	st := i
	for i < len(line) && isNameByte(line[i]) && line[i] != '+' {
		i++
	}
	name := line[st:i]
	if name == "" {
		return "", false
	}
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		i++
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || (line[i] != '=' && line[i] != ':') {
		return "", false
	}
	sep := line[i]
	i++
	if sep == ':' && strings.HasPrefix(line[i:], "//") {
		return "", false // a URL's scheme, not a key
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	k, isBool := r.nameKind(name)
	if k == notSecret || isBool {
		return "", false
	}
	core := strings.TrimRight(line[i:], " \t\r")
	tail := line[i+len(core):]
	open, close := "", ""
	if strings.HasSuffix(core, ",") {
		core, close = core[:len(core)-1], ","
	}
	if len(core) >= 2 && (core[0] == '"' || core[0] == '\'') && core[len(core)-1] == core[0] {
		open, close, core = core[:1], core[len(core)-1:]+close, core[1:len(core)-1]
	}
	red := r.hide(k, name, core)
	if red == core {
		return "", false
	}
	return line[:i] + open + red + close + tail, true
}

// base64Text decodes s when it is standard or URL base64 of at least 24 characters
// (line breaks allowed) that decodes to UTF-8 text: a Kubernetes Secret's data, a
// base64 kubeconfig, a base64 PEM key in tls.key.
func base64Text(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 24 {
		return "", false
	}
	if strings.ContainsAny(t, "\r\n") {
		t = strings.NewReplacer("\r", "", "\n", "", " ", "").Replace(t)
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			return "", false
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(t); err == nil && utf8.Valid(b) && printable(b) {
			return string(b), true
		}
	}
	return "", false
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}
