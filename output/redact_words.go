package output

import "strings"

// The word rules of the Redactor (docs/secrets.md): text is redacted where it quotes
// input, one word (a run of non-blank bytes) at a time, never by replacing a substring of
// the sentence around it (a distinctive secret value excepted: it is no word of prose).

// kind says how a value under a name is redacted.
type kind uint8

const (
	notSecret kind = iota
	wholeSecret
	urlSecret // only the credentials of a URL or DSN
)

// nameKind is the kind of the values of a name as input writes it ("--token", "-t",
// "token+", "K3S_TOKEN", "registry-password", "joinKey"): a flag of the command by the
// profile, a typo of a secret flag, or the name rule.
func (r *Redactor) nameKind(name string) (kind, bool) {
	if name == "" {
		return notSecret, false
	}
	name = skeleton(name)
	if name[0] != '-' && !couldBeSecret(name) {
		// Not a flag word, and no secret word's last letter: the common case (a
		// pass-through key, a YAML key), decided without a map lookup.
		return notSecret, false
	}
	if !isName(strings.TrimSuffix(name, "+")) {
		return notSecret, false
	}
	return r.nameKindOf(name)
}

// typo is nearMiss for the secret flags, cached: the edit distances were most of
// rendering a node of 2,000 drop-ins.
func (r *Redactor) typo(n string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.typos[n]; ok {
		return t
	}
	t := nearMiss(n, r.secretFlags)
	if r.typos == nil {
		r.typos = map[string]bool{}
	}
	r.typos[n] = t
	return t
}

func (r *Redactor) nameKindOf(name string) (kind, bool) {
	n := strings.TrimSuffix(strings.TrimLeft(name, "-"), "+")
	if n == "" {
		return notSecret, false
	}
	if f, ok := r.flags[n]; ok {
		return f.kind, f.isBool
	}
	switch {
	case strings.HasPrefix(name, "-") && r.typo(n):
		// A typo is of a flag: "--agent-tokn", not a pass-through key or a variable.
		return wholeSecret, false
	case urlValuedName(n):
		return urlSecret, false
	case SecretName(n):
		return wholeSecret, false
	}
	return notSecret, false
}

// couldBeSecret: the name ends with a letter a secret name (SecretName, urlValuedName, a
// secret flag) can end with, or holds upper case (an environment variable).
func couldBeSecret(name string) bool {
	last := name[len(name)-1]
	if last == '+' && len(name) > 1 {
		last = name[len(name)-2]
	}
	switch last | 0x20 {
	case 'n', 't', 'd', 'e', 's', 'h', 'l', 'y':
		return true
	}
	return hasUpper(name)
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// isNameByte: a byte of a name; a byte of a non-ASCII letter too, as a name may be spelt
// with a look-alike letter (skeleton).
func isNameByte(c byte) bool {
	return c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '+'
}

// redactAs redacts one value of the kind; a switch ("true") or an empty value stays.
func redactAs(k kind, name, v string) string {
	switch {
	case v == "" || v == Redacted || boolWord(v):
		return v
	case k == urlSecret:
		return redactURL(v)
	case k == wholeSecret:
		if w, _ := lastWord(name); w == "key" && looksLikePath(v) {
			return v
		}
		return Redacted
	}
	return v
}

// Scrub redacts text that quotes input: a message, hint, reason, error, or a value that is
// not itself a known secret (the word rules above). A word after a secret flag is
// redacted when it looks like a value (not a plain word: "Unknown flag --agent-tokn found"
// keeps "found") or is a secret the node sets.
func (r *Redactor) Scrub(s string) string {
	if !r.on || s == "" {
		return s
	}
	return r.text(s, false, nil)
}

// Known redacts text k3sconf rendered itself from its own records, that quotes no input
// but may hold a value the node sets (a reason "replaced by KEY: at FILE:LINE:COLUMN"):
// only the distinctive secrets are looked for. Text that may quote input goes through
// Scrub.
func (r *Redactor) Known(s string) string {
	if !r.on || s == "" {
		return s
	}
	return r.known(s)
}

// Argv redacts a command line given as words (argv, node-args, a compose command): the
// word after a secret flag is its value, whatever it looks like.
func (r *Redactor) Argv(words []string) []string {
	out := make([]string, len(words))
	if !r.on {
		copy(out, words)
		return out
	}
	var pending pend
	for i, w := range words {
		if pending.k != notSecret {
			if o := pending.outer; o != "" && len(w) > len(o) && strings.HasPrefix(w, o) {
				out[i] = o + r.hide(pending.k, pending.name, r.known(w[len(o):]))
			} else {
				out[i] = r.hide(pending.k, pending.name, r.known(w))
			}
			pending = pend{}
			continue
		}
		out[i] = r.text(w, true, &pending)
	}
	return out
}

// Arg redacts one word of a command line on its own ('--token X' as one word).
func (r *Redactor) Arg(w string) string {
	if !r.on || w == "" {
		return w
	}
	return r.text(w, true, nil)
}

// Key redacts a diagnostic's key: a name as input wrote it, which may be a flag and its
// value in one word ("token X" from '--token X').
func (r *Redactor) Key(s string) string {
	if !r.on || s == "" {
		return s
	}
	if name, v, ok := strings.Cut(s, " "); ok {
		if k, _ := r.nameKind(name); k != notSecret {
			return name + " " + r.hide(k, name, v)
		}
	}
	return r.Scrub(s)
}

type pend struct {
	k    kind
	name string
	// quoted: the name was a key ("name": or name:), after which a quoted word is a value.
	quoted bool
	// until: the value is quoted with this byte and goes on to the word that closes it.
	until byte
	// outer: the name came inside a pass-through flag ("--kubelet-arg=" of
	// --kubelet-arg=--registry-password); the next argv word may repeat it
	// (--kubelet-arg=VALUE, a config list spliced in), and only VALUE is hidden.
	outer string
}

// known replaces the distinctive secret values in s.
func (r *Redactor) known(s string) string {
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			with := Redacted
			if red, ok := r.whole[sec]; ok {
				with = red
			}
			s = strings.ReplaceAll(s, sec, with)
		}
	}
	return s
}

const openers = "\"'([{`"
const closers = "\"')]},;:.`"

var isOpener, isCloser, isTrigger [256]bool

func init() {
	for _, c := range []byte("=:-\"'") {
		isTrigger[c] = true
	}
	for i := 0; i < len(openers); i++ {
		isOpener[openers[i]] = true
	}
	for i := 0; i < len(closers); i++ {
		isCloser[closers[i]] = true
	}
}

// text applies the word rules to s; argv: s is a command-line word (its value words are
// values whatever they look like). carry, when not nil, holds a pending secret flag across
// calls (Argv).
func (r *Redactor) text(s string, argv bool, carry *pend) string {
	s = r.known(s)
	var pending pend
	if carry != nil {
		pending = *carry
	}
	if pending.k == notSecret {
		if !r.mayQuote(s) {
			return s
		}
		if argv {
			if red, ok := r.flagElement(s); ok {
				return red
			}
		}
	}
	var b strings.Builder
	changed := false
	// A message quoting a command line as systemd does ("Unbalanced quoting, ignoring:
	// "/usr/local/bin/k3s server --token x …"): inside a double-quoted span that starts with
	// an absolute path the words are argv words.
	cmdline := false
	prev := ""
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		if j > i {
			w := s[i:j]
			if !argv && !cmdline && strings.HasPrefix(w, "\"/") {
				cmdline = true
			}
			var nw string
			if eq, ok := r.blankAssignment(w, prev, &pending); ok {
				nw = eq
			} else {
				nw = r.word(w, argv || cmdline, &pending)
			}
			prev = w
			if t := strings.TrimRight(w, ";:,."); cmdline && len(t) > 1 && t[len(t)-1] == '"' {
				cmdline = false
			}
			if nw != w && !changed {
				changed = true
				b.Grow(len(s))
				b.WriteString(s[:i])
			}
			if changed {
				b.WriteString(nw)
			}
		}
		k := j
		for k < len(s) && isBlank(s[k]) {
			k++
		}
		if changed {
			b.WriteString(s[j:k])
		}
		i = k
	}
	if carry != nil {
		*carry = pending
	}
	if !changed {
		return s
	}
	return b.String()
}

// mayQuote reports whether a word rule can apply to s: a secret name before '=' or before
// a ':' that ends a word (a key), a word starting with '-' that names a secret flag, or a
// URL with '@' after it. One pass, no allocation: most text (reasons, paths, values)
// holds none, and its words need not be split.
func (r *Redactor) mayQuote(s string) bool {
	// The name of "--flag=value" is looked at for its '-' and again for its '=': the last
	// span's answer is kept.
	lastSt, lastEnd, lastSecret := -1, -1, false
	secretAt := func(st, end int) bool {
		if end <= st {
			return false
		}
		if st == lastSt && end == lastEnd {
			return lastSecret
		}
		k, isBool := r.nameKind(s[st:end])
		lastSt, lastEnd, lastSecret = st, end, k != notSecret && !isBool
		return lastSecret
	}
	nameStart := func(i int) int {
		for i > 0 && isNameByte(s[i-1]) {
			i--
		}
		return i
	}
	at := func(i int, c byte) bool {
		switch c {
		case '=':
			if i == lastEnd {
				// The name just looked at ends here ("--flag=": the '-' rule scanned it,
				// and it starts after a blank or an opener, where nameStart stops too).
				return lastSecret
			}
			if j := i; j > 0 && s[j-1] == ' ' {
				// NAME = VALUE, blanks around '=' (ini, properties, a pass-through item).
				for j > 0 && s[j-1] == ' ' {
					j--
				}
				return secretAt(nameStart(j), j)
			}
			return secretAt(nameStart(i), i)
		case ':':
			if i+2 < len(s) && s[i+1] == '/' && s[i+2] == '/' {
				e := strings.IndexAny(s[i:], " \t\n")
				if e < 0 {
					e = len(s) - i
				}
				return strings.IndexByte(s[i:i+e], '@') >= 0
			}
			if i+1 == len(s) || isBlank(s[i+1]) || s[i+1] == '"' || s[i+1] == '\'' {
				st := nameStart(i)
				return (st == 0 || isBlank(s[st-1]) || isOpener[s[st-1]]) && secretAt(st, i)
			}
		case '-':
			if i == 0 || isBlank(s[i-1]) || isOpener[s[i-1]] || s[i-1] == '=' {
				e := i
				for e < len(s) && isNameByte(s[e]) {
					e++
				}
				return secretAt(i, e)
			}
		default: // "registry_password": — the key ends before the quote
			if i+1 < len(s) && s[i+1] == ':' {
				return secretAt(nameStart(i), i)
			}
			// "K3S_TOKEN value": an environment line quoted without its '='.
			e := i + 1
			for e < len(s) && isNameByte(s[e]) {
				e++
			}
			return e < len(s) && s[e] == ' ' && envName(s[i+1:e]) && secretAt(i+1, e)
		}
		return false
	}
	// skip tells, without the call, the bytes at cannot start a rule at: a '-' inside a
	// word ("node-label"), a quote not followed by ':'.
	skip := func(i int, c byte) bool {
		switch c {
		case '-':
			return i > 0 && !isBlank(s[i-1]) && !isOpener[s[i-1]] && s[i-1] != '='
		case '"', '\'':
			return i+1 >= len(s) || (s[i+1] != ':' && !(s[i+1] >= 'A' && s[i+1] <= 'Z'))
		}
		return false
	}
	if len(s) < 64 {
		// Short text (most values): one pass.
		for i := 0; i < len(s); i++ {
			if c := s[i]; isTrigger[c] && !skip(i, c) && at(i, c) {
				return true
			}
		}
		return false
	}
	// Longer text: one strings.IndexByte pass (vectorised) per byte that can start a rule.
	for _, c := range []byte{'=', ':', '-', '"', '\''} {
		for off := 0; ; {
			j := strings.IndexByte(s[off:], c)
			if j < 0 {
				break
			}
			if !skip(off+j, c) && at(off+j, c) {
				return true
			}
			off += j + 1
		}
	}
	return false
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// word redacts one word.
func (r *Redactor) word(w string, argv bool, pending *pend) string {
	lo, hi := 0, len(w)
	for lo < hi && isOpener[w[lo]] {
		lo++
	}
	if pending.k == notSecret && (lo == hi || w[lo] != '-') && w[len(w)-1] != ':' &&
		strings.IndexByte(w, '=') < 0 && !strings.Contains(w, "://") && (lo == 0 || lo == hi || w[lo] < 'A' || w[lo] > 'Z') {
		return w // no rule applies
	}
	for hi > lo && isCloser[w[hi-1]] {
		hi--
	}
	core := w[lo:hi]
	if p := *pending; p.until != 0 {
		if i := strings.IndexByte(w, p.until); i >= 0 {
			*pending = pend{}
			return Redacted + w[i:]
		}
		return Redacted
	}
	if p := *pending; p.k != notSecret {
		*pending = pend{}
		if q := w[0]; p.k == wholeSecret && (q == '"' || q == '\'') && strings.IndexByte(w[1:], q) < 0 {
			// A quoted value with blanks: "abc def".
			*pending = pend{k: p.k, name: p.name, until: q}
			return w[:1] + Redacted
		}
		quoted := (w[0] == '"' || w[0] == '\'') && p.quoted
		if o := p.outer; o != "" && len(core) > len(o) && strings.HasPrefix(core, o) {
			// --kubelet-arg=--registry-password --kubelet-arg=VALUE: only VALUE.
			return w[:lo] + o + r.hide(p.k, p.name, core[len(o):]) + w[hi:]
		}
		if core != "" && (argv || quoted || r.plain[core] || valueLike(core)) {
			if red := r.hide(p.k, p.name, core); red != core {
				return w[:lo] + red + w[hi:]
			}
			return w
		}
	}
	// A flag or a key whose value is the next word: --token, '--token, "registry_password":
	if core != "" && !strings.Contains(core, "=") {
		key := strings.HasPrefix(w[hi:], ":") || strings.HasPrefix(w[hi:], "\":") || strings.HasPrefix(w[hi:], "':")
		if strings.HasPrefix(core, "-") || key {
			if k, isBool := r.nameKind(core); k != notSecret && !isBool {
				// After a key ("registry_password": "x"), a quoted word is its value
				// whatever it says.
				*pending = pend{k: k, name: core, quoted: key}
			}
		} else if lo > 0 && (w[lo-1] == '"' || w[lo-1] == '\'') && hi == len(w) && envName(core) {
			// "K3S_TOKEN value": an environment line quoted without its '=' (systemd
			// ignores it): the rest of the quoted span is the value.
			if k, _ := r.nameKind(core); k != notSecret {
				*pending = pend{k: k, name: core, until: w[lo-1]}
			}
		}
	}
	if i := strings.LastIndexByte(core, '='); i >= 0 && i+1 < len(core) && core[i+1] == '-' {
		// --kubelet-arg=--registry-password: a pass-through flag whose value is the next
		// word.
		if n := core[i+1:]; isName(strings.TrimLeft(n, "-")) {
			if k, isBool := r.nameKind(n); k != notSecret && !isBool {
				*pending = pend{k: k, name: n, outer: core[:i+1]}
			}
		}
	}
	if strings.IndexByte(w, '=') >= 0 {
		var open byte
		w, open = r.assignments(w)
		if open != 0 {
			*pending = pend{k: wholeSecret, until: open}
		}
	}
	if strings.Contains(w, "://") {
		w = r.redactURLs(w)
	}
	return w
}

// flagElement redacts one argv element that is a secret flag with its value, blanks
// included: "--token=a b", "--token a b" (one word: '--token a b' in a unit).
func (r *Redactor) flagElement(s string) (string, bool) {
	lo := 0
	for lo < len(s) && isOpener[s[lo]] {
		lo++
	}
	if lo == len(s) || s[lo] != '-' {
		return "", false
	}
	e := lo
	for e < len(s) && s[e] != '=' && !isBlank(s[e]) {
		e++
	}
	if e == len(s) {
		return "", false
	}
	name := s[lo:e]
	k, isBool := r.nameKind(name)
	if k == notSecret || (isBool && s[e] != '=') {
		return "", false
	}
	v0 := e + 1
	for v0 < len(s) && isBlank(s[v0]) {
		v0++
	}
	hi := len(s)
	for hi > v0 && isCloser[s[hi-1]] && (lo > 0 || s[hi-1] != '.') {
		hi--
	}
	if hi <= v0 {
		return "", false
	}
	red := r.hide(k, name, s[v0:hi])
	return s[:v0] + red + s[hi:], true
}

// valueLike: a word a sentence would not use: not a flag, not a word of letters (a
// capital first, hyphens and apostrophes inside: "config-file", "k3s's" is a value).
func valueLike(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z' && i == 0:
		case (c == '-' || c == '\'') && i > 0 && i < len(s)-1:
		default:
			return true
		}
	}
	return false
}

// assignments redacts the VALUE of every NAME=VALUE in the word whose NAME is secret:
// --token=x, K3S_TOKEN=x, registry-password=x inside --kubelet-arg=registry-password=x,
// joinKey=x inside name=tailscale,joinKey=x. After --flag= the value runs to the end of
// the word; after a bare NAME= it stops at '&', ';' or a ',' that starts the next NAME=.
// open is the quote a redacted value opened and the word did not close ("K3S_TOKEN=abc
// def": the value goes on in the next words).
func (r *Redactor) assignments(w string) (out string, open byte) {
	for i := 0; i < len(w); i++ {
		if w[i] != '=' {
			continue
		}
		st := i
		for st > 0 && isNameByte(w[st-1]) {
			st--
		}
		name := w[st:i]
		k, _ := r.nameKind(name)
		if k == notSecret {
			continue
		}
		end := len(w)
		if !strings.HasPrefix(name, "-") {
			for e := i + 1; e < len(w); e++ {
				if w[e] == '&' || w[e] == ';' || (w[e] == ',' && nextIsAssignment(w[e+1:])) {
					end = e
					break
				}
			}
		}
		for end > i+1 && isCloser[w[end-1]] {
			end--
		}
		v := w[i+1 : end]
		red := r.hide(k, name, v)
		open = 0
		if red == v {
			i = end - 1
			continue
		}
		{
			var q byte
			if st > 0 && (w[st-1] == '"' || w[st-1] == '\'') {
				q = w[st-1]
			} else if i+1 < len(w) && (w[i+1] == '"' || w[i+1] == '\'') {
				q = w[i+1]
			}
			if q != 0 && strings.IndexByte(w[i+2:], q) < 0 {
				open = q
			}
		}
		w = w[:i+1] + red + w[end:]
		i += len(red)
	}
	return w, open
}

func nextIsAssignment(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return i > 0
		}
		if !isNameByte(s[i]) {
			return false
		}
	}
	return false
}

// redactURLs redacts the password of every scheme://user:password@ in the word.
func (r *Redactor) redactURLs(w string) string {
	out := ""
	for {
		i := strings.Index(w, "://")
		if i < 0 {
			return out + w
		}
		// The scheme starts after the last non-scheme byte before "://".
		st := i
		for st > 0 && (isNameByte(w[st-1]) && w[st-1] != '_') {
			st--
		}
		end := i + 3
		for end < len(w) && strings.IndexByte("\"'`,;", w[end]) < 0 && !strings.HasPrefix(w[end:], "://") {
			end++
		}
		// The next URL in the word starts at its scheme: leave it to the next round.
		u := w[st:end]
		if k := strings.Index(w[i+3:end], "://"); k >= 0 {
			u = w[st : i+3+k]
		}
		out += w[:st] + r.hide(urlSecret, "url", u)
		w = w[st+len(u):]
	}
}

// collect learns the secrets inside a value that is not secret as a whole: URL passwords
// and the VALUE of secret NAME=VALUE words.
func (r *Redactor) collect(v string, seen map[string]bool) {
	if v == "" || (strings.IndexByte(v, '=') < 0 && !strings.Contains(v, "@")) {
		return
	}
	r.learn = seen
	r.text(v, true, nil)
	r.learn = nil
}

// collectArgv learns the values of secret flags in input words (the word after
// --agent-tokn, the value in '--token X').
func (r *Redactor) collectArgv(words []string, seen map[string]bool) {
	r.learn = seen
	r.Argv(words)
	r.learn = nil
}

// hide redacts v as a value of the kind, and while collecting records what it hid.
func (r *Redactor) hide(k kind, name, v string) string {
	red := redactAs(k, name, v)
	if r.learn != nil && red != v {
		if k == urlSecret {
			for _, p := range secretParts("datastore-endpoint", v) {
				r.addValue(p, r.learn)
			}
		} else {
			r.addValue(v, r.learn)
		}
	}
	return red
}

// blankAssignment redacts the value of NAME = VALUE written with blanks around '=' (an ini
// or properties line, "oidc-client-secret = x" in a pass-through item): w is "=" or
// "=VALUE" after a secret NAME (prev), or prev is "NAME=" and w the value.
func (r *Redactor) blankAssignment(w, prev string, pending *pend) (string, bool) {
	if prev == "" || pending.k != notSecret || w == "" {
		return "", false
	}
	name := strings.TrimLeft(prev, openers)
	if w[0] == '=' {
		if strings.HasSuffix(name, "=") {
			return "", false
		}
	} else if strings.HasSuffix(name, "=") && strings.Count(name, "=") == 1 {
		name = strings.TrimSuffix(name, "=")
	} else {
		return "", false
	}
	if i := strings.LastIndexAny(name, "=,;"); i >= 0 {
		name = name[i+1:]
	}
	if !isName(skeleton(name)) {
		return "", false
	}
	k, isBool := r.nameKind(name)
	if k == notSecret || isBool {
		return "", false
	}
	if w == "=" {
		*pending = pend{k: k, name: name}
		return w, true
	}
	v := strings.TrimPrefix(w, "=")
	hi := len(v)
	for hi > 0 && isCloser[v[hi-1]] {
		hi--
	}
	if hi == 0 {
		return "", false
	}
	return w[:len(w)-len(v)] + r.hide(k, name, v[:hi]) + v[hi:], true
}
