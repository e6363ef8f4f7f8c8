package output

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The structured rules of the Redactor (docs/secrets.md): a value is redacted as data,
// before any renderer sees it, so that text and JSON print the same redacted records.

// String redacts one value found under name (its key, variable or flag without dashes; ""
// when it has none): all of it when the name is secret (only the credentials of a URL
// for a URL-valued name; a switch, an empty value and a file under a *key name stay), all
// of it when it is a copy of a secret value the redactor knows (a YAML alias of one, its
// lower-case form), and otherwise what its content shows: PEM private key blocks, base64
// text that holds a secret, NAME = VALUE and NAME: VALUE lines with a secret NAME, and the
// word rules read as a command line (URL passwords, query and DSN parameters,
// --flag VALUE, NAME=VALUE).
func (r *Redactor) String(name, s string) string {
	if !r.on || s == "" || s == Redacted {
		return s
	}
	if name != "" {
		switch k, _ := r.nameKindOf(skeleton(name)); k {
		case wholeSecret:
			if red := redactAs(k, name, s); red != s {
				r.note(s)
				return red
			}
		case urlSecret:
			s = r.hide(urlSecret, name, s)
		}
	}
	if r.isCopy(s) {
		return Redacted
	}
	return r.content(s, 0)
}

// content applies the content rules to a value.
func (r *Redactor) content(s string, depth int) string {
	s = redactPEM(s)
	if depth == 0 {
		if dec, ok := base64Text(s); ok && r.content(dec, 1) != dec {
			r.note(s)
			return Redacted
		}
	}
	s = r.redactLines(s)
	return r.text(s, true, nil)
}

// isCopy: s is a secret value the redactor knows, whole (a distinctive one: a plain word
// is no evidence).
func (r *Redactor) isCopy(s string) bool {
	if len(s) < 4 || plainWord(s) {
		return false
	}
	for _, sec := range r.secrets {
		if sec == s {
			_, url := r.whole[sec]
			return !url
		}
	}
	return false
}

// Data redacts a structured value as decoded from YAML or JSON (maps, lists, strings,
// numbers, switches, null), found under name: a map's values by their keys, a list's
// items by the list's name, each string by String, a number under a secret name whole.
// Two structures name a value's secret elsewhere: an item of an environment list
// ({name: DB_PASSWORD, value: x}: the value by the item's name), and a list item that is
// a secret flag ("--token"), which makes the next item its value. The result is a new
// value; v is not changed.
func (r *Redactor) Data(name string, v any) any {
	if !r.on {
		return v
	}
	return r.data(name, v)
}

// LearnData teaches the redactor every secret Data would hide in v (whole values, and the
// parts the content and word rules hide), so text quoting one (a finding's message, a
// --set argument) is redacted too. Call Done after teaching.
func (r *Redactor) LearnData(name string, v any) {
	if !r.on {
		return
	}
	r.learn = r.seenSet()
	r.data(name, v)
	r.learn = nil
}

func (r *Redactor) data(name string, v any) any {
	switch t := v.(type) {
	case string:
		return r.String(name, t)
	case map[string]any:
		m := make(map[string]any, len(t))
		item := EntryName(t)
		for k, x := range t {
			n := k
			if k == "value" && item != "" {
				n = item
			}
			m[k] = r.data(n, x)
		}
		return m
	case []any:
		out := make([]any, len(t))
		prev := ""
		for i, x := range t {
			s, ok := x.(string)
			if red, isValue := r.flagValue(prev, s); ok && isValue {
				out[i], prev = red, ""
				continue
			}
			out[i], prev = r.data(name, x), s
		}
		return out
	case []string:
		out := make([]string, len(t))
		prev := ""
		for i, s := range t {
			if red, isValue := r.flagValue(prev, s); isValue {
				out[i], prev = red, ""
				continue
			}
			out[i], prev = r.String(name, s), s
		}
		return out
	case float64, float32, int, int64, int32, uint64, json.Number:
		if k, _ := r.nameKindOf(skeleton(name)); k == wholeSecret {
			// Learnt as a finding prints it (%v: 5.9e+15) and as JSON, when it has
			// minLearnedDigits digits: a shorter one (a PIN, a placeholder 1234) would
			// also match line numbers and counts in sentences, and is only hidden as a
			// value.
			for _, s := range []string{fmt.Sprint(t), formatNumber(t)} {
				if digits(s) >= minLearnedDigits {
					r.note(s)
				}
			}
			return Redacted
		}
	}
	return v
}

// FlagValue is the list rule (docs/secrets.md, "By structure"), the one every face applies
// to the items of a list, in order: a YAML sequence (Helm values, kubespray variables, a
// node's pass-through list such as kubelet-arg) or a list of arguments. When prev, the item
// before item, is a flag on its own whose name is secret ("--registry-password",
// "-password", "--token": a secret flag of the command, a typo of one, or a name the one
// name rule calls secret; a switch and a flag that carries its value with '=' or a blank do
// not count), item is that flag's value: FlagValue returns it redacted as one (all of it;
// only a URL's credentials for a URL-valued flag) and true. Otherwise it returns "", false,
// and the caller redacts item as any other (String). The item after a flag's value is
// judged again: ["--registry-password", "x", "--v", "2"] hides x only. Data applies it;
// a face that walks its own list types (an ordered Ansible map, a node's history, one item
// per assignment) calls it with the item it read before.
func (r *Redactor) FlagValue(prev, item string) (string, bool) {
	if !r.on {
		return "", false
	}
	return r.flagValue(prev, item)
}

func (r *Redactor) flagValue(prev, item string) (string, bool) {
	if len(prev) < 2 || prev[0] != '-' || strings.ContainsAny(prev, "= \t\n") {
		return "", false
	}
	if k, isBool := r.nameKind(prev); k != notSecret && !isBool {
		return r.hide(k, prev, item), true
	}
	return "", false
}

// EntryName is the name an environment-list item gives its value: {name: DB_PASSWORD,
// value: x} (Kubernetes' EnvVar, and every chart's extraEnv) is judged as DB_PASSWORD=x.
// "" when m is no such item.
func EntryName(m map[string]any) string {
	n, ok := m["name"].(string)
	if !ok {
		return ""
	}
	if _, ok := m["value"]; !ok {
		return ""
	}
	return n
}

// note records a value a rule hid, while the redactor learns (LearnData).
func (r *Redactor) note(s string) {
	if r.learn != nil && s != "" && s != Redacted {
		r.addValue(s, r.learn)
	}
}

// minLearnedDigits: a number under a secret name is learnt when it has this many digits.
const minLearnedDigits = 6

func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

func formatNumber(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// confusables maps letters that look like ASCII ones (Cyrillic, Greek) to them, for names:
// a key spelt "tоken" with a Cyrillic о is read as token (k3s does not know it, but the
// value is still the operator's secret).
var confusables = strings.NewReplacer(
	"а", "a", "е", "e", "о", "o", "р", "p", "с", "c", "у", "y", "х", "x", "і", "i", "ј", "j", "ѕ", "s", "һ", "h", "ԁ", "d", "к", "k", "т", "t", "п", "n", "г", "r",
	"А", "A", "В", "B", "Е", "E", "К", "K", "М", "M", "Н", "H", "О", "O", "Р", "P", "С", "C", "Т", "T", "Х", "X", "І", "I", "Ѕ", "S",
	"α", "a", "ε", "e", "ο", "o", "ρ", "p", "τ", "t", "κ", "k", "ν", "v", "ι", "i",
	"Α", "A", "Β", "B", "Ε", "E", "Κ", "K", "Μ", "M", "Ν", "N", "Ο", "O", "Ρ", "P", "Τ", "T", "Χ", "X",
)

// skeleton is name with its look-alike letters read as ASCII ones.
func skeleton(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return confusables.Replace(name)
		}
	}
	return name
}
