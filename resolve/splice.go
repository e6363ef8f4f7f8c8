package resolve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/sources"
)

// token is one argv element on its way to the CLI parser. A node with thousands of drop-ins
// of lists has a token per list item (~116,000 on 2,000 drop-ins of flow lists), all live
// while the CLI passes run: a config token keeps only its entry and item index and looks its
// position, raw text and key up there (pos, raw, name); a command-line word keeps its own in
// cli. 64 bytes instead of 128 (docs/performance.md).
type token struct {
	text string
	kind sources.Kind
	// from is the config entry a config argument came from; item is the index into its
	// Items, or -1 for a scalar value (see posRawOf).
	from *configEntry
	item int32
	// order sorts the assignment this token makes into precedence order.
	order int64
	// cli is where a command-line word was written (nil for a config argument).
	cli *cliOrigin
}

// cliOrigin is the position and raw text of a word that is not a config value.
type cliOrigin struct {
	pos diag.Position
	raw string
}

// cliToken is a token of a command-line word (or another word with its own position).
func cliToken(text string, kind sources.Kind, pos diag.Position, raw string) token {
	return token{text: text, kind: kind, item: -1, cli: &cliOrigin{pos: pos, raw: raw}}
}

// pos is where the token was written: the config list item's or value's position, or the
// word's.
func (t *token) pos() diag.Position {
	if t.cli != nil {
		return t.cli.pos
	}
	if t.from != nil {
		pos, _ := posRawOf(t.from, int(t.item))
		return pos
	}
	return diag.Position{}
}

// raw is the token's text as written.
func (t *token) raw() string {
	if t.cli != nil {
		return t.cli.raw
	}
	if t.from != nil {
		_, raw := posRawOf(t.from, int(t.item))
		return raw
	}
	return ""
}

// name is how the source spelled the key (config: "disable+"), for explanations; "" for a
// command-line word.
func (t *token) name() string {
	if t.from != nil {
		return t.from.entry.RawKey
	}
	return ""
}

// Precedence ranks for sorting a key's history: defaults, then the environment, then config
// files in the order k3s reads them, then the command line. Orders are int64: rankCLI does not
// fit a 32-bit int, and k3sconf is released for linux/arm (.goreleaser.yaml).
const (
	rankEnv    = 1_000_000_000
	rankConfig = 2_000_000_000
	rankCLI    = 3_000_000_000
)

// findStart reproduces Parser.findStart (k3s pkg/configfilearg/parser.go): the first argument
// equal to an After word is the split point; "word:N" moves the split N arguments further when
// that argument exists and does not start with "-". It scans every argument, not just the
// subcommand position.
func findStart(args []string, after []string) (split int, found bool) {
	words := make([]string, len(after))
	skips := map[string]int{}
	for i, a := range after {
		words[i] = a
		if name, n, ok := strings.Cut(a, ":"); ok {
			if k, err := strconv.Atoi(n); err == nil && name != "" {
				words[i] = name
				skips[name] = k
			}
		}
	}
	for i, v := range args {
		for _, w := range words {
			if v != w {
				continue
			}
			if skip := skips[w]; skip != 0 {
				if len(args) <= i+skip || strings.HasPrefix(args[i+skip], "-") {
					return i + 1, true
				}
				return i + skip + 1, true
			}
			return i + 1, true
		}
	}
	return len(args), false
}

// findConfigFile reproduces Parser.findConfigFileFlag: a non-empty K3S_CONFIG_FILE in the
// process environment wins; then the first "--config X" / "-c X" / "--config=X" / "-c=X"
// anywhere in argv; then the default. A --config that is the last argument yields "" (no
// config file is read; the CLI parser later complains).
func findConfigFile(args []string, envName, envValue string, flags []string, def string) (path, why string, argIndex int) {
	if envName != "" && envValue != "" {
		return envValue, fmt.Sprintf("%s is set in the k3s process environment; it beats --config on the command line", envName), -1
	}
	for i, a := range args {
		for _, f := range flags {
			if a == f {
				if len(args) > i+1 {
					return args[i+1], fmt.Sprintf("given as %s on the command line", f), i
				}
				return "", fmt.Sprintf("%s is the last argument and has no value, so k3s reads no config file", f), i
			}
			if strings.HasPrefix(a, f+"=") {
				return a[len(f)+1:], fmt.Sprintf("given as %s= on the command line", f), i
			}
		}
	}
	return def, "the default location", -1
}

// configArgName is the flag name stripInvalidFlags derives from a generated argument with
// the regexp ^-+([^=]*)= (written out by hand: it runs once per argument): the text between
// the leading dashes and the first "=", or the whole argument when there is no match.
func configArgName(arg string) string {
	rest := strings.TrimLeft(arg, "-")
	if len(rest) == len(arg) {
		return arg
	}
	if i := strings.IndexByte(rest, '='); i >= 0 {
		return rest[:i]
	}
	return arg
}

// configTokens renders merged keys as k3s does: "-k=v" for one-byte keys, "--key=v"
// otherwise, one argument per list item, none for an empty list.
//
// The tokens start at index before of the returned slice, whose capacity leaves after more:
// room for the command-line words the caller splices around them.
//
// The arguments' texts are cut from one string (they all stay in the result's Args): one
// allocation instead of one per argument, 90,000 on 2,000 drop-ins of lists.
func configTokens(keys []*mergedKey, before, after int) []token {
	n, size := 0, 0
	for _, mk := range keys {
		n += len(mk.pieces)
		for i := range mk.pieces {
			size += len("--=") + len(mk.name) + len(mk.pieces[i].text)
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, mk := range keys {
		prefix := "--"
		if len(mk.name) == 1 {
			prefix = "-"
		}
		for i := range mk.pieces {
			b.WriteString(prefix)
			b.WriteString(mk.name)
			b.WriteByte('=')
			b.WriteString(mk.pieces[i].text)
		}
	}
	all, off := b.String(), 0
	out := make([]token, before, before+n+after)
	for _, mk := range keys {
		prefix := "--"
		if len(mk.name) == 1 {
			prefix = "-"
		}
		for i := range mk.pieces {
			p := &mk.pieces[i]
			end := off + len(prefix) + len(mk.name) + 1 + len(p.text)
			out = append(out, token{
				order: rankConfig + p.from.order*1000 + int64(max(p.item, 0)%1000),
				text:  all[off:end],
				kind:  sources.KindConfig,
				from:  p.from,
				item:  int32(p.item),
			})
			off = end
		}
	}
	return out
}
