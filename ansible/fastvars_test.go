package ansible

import (
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sameValue compares two loaded values exactly: type, and content (a NaN equals a NaN).
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, int64, string:
		return a == b
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	case Date:
		y, ok := b.(Date)
		return ok && x.T.Equal(y.T) && x.T.Location().String() == y.T.Location().String() && x.Time == y.Time && x.Offset == y.Offset
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Map:
		y, ok := b.(*Map)
		if !ok || len(x.Items) != len(y.Items) || (x.Items == nil) != (y.Items == nil) {
			return false
		}
		for i := range x.Items {
			if !sameValue(x.Items[i].Key, y.Items[i].Key) || !sameValue(x.Items[i].Value, y.Items[i].Value) {
				return false
			}
		}
		return true
	}
	return fmt.Sprintf("%T %#v", a, a) == fmt.Sprintf("%T %#v", b, b)
}

// checkFastVars: when fastVars accepts data, its entries are the yaml.v3 path's, and that
// path read the file without an error. It reports whether fastVars accepted.
func checkFastVars(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := fastVars(name, data)
	if !ok {
		return false
	}
	slow, err := loadVarsYAMLv3(name, data)
	if err != nil {
		t.Errorf("%s: fastVars accepted a file yaml.v3 refuses (%v):\n%s", name, err, data)
		return true
	}
	if len(fast) != len(slow) {
		t.Errorf("%s: %d entries, yaml.v3 %d:\n%s", name, len(fast), len(slow), data)
		return true
	}
	for i := range fast {
		f, s := fast[i], slow[i]
		if f.Name != s.Name || f.Raw != s.Raw || f.Pos != s.Pos || f.SecretCopy != s.SecretCopy || !sameValue(f.Value, s.Value) {
			t.Errorf("%s: entry %d: fast %+v (%s), yaml.v3 %+v (%s):\n%s", name, i, f, Repr(f.Value), s, Repr(s.Value), data)
		}
	}
	return true
}

// TestFastVarsMatchesYAMLv3 compares fastVars with the yaml.v3 path on hand-written cases
// (each says whether the fast path must take it: the shapes kubespray's files have) and
// on every YAML file of the repository and, with K3SCONF_KUBESPRAY_DIR, of a kubespray
// checkout (all its vars files must be read the same; most must take the fast path).
func TestFastVarsMatchesYAMLv3(t *testing.T) {
	for _, tc := range []struct {
		name, reason, in string
		fast             bool
	}{
		{"scalars", "plain scalars of every resolver type", "a: 1\nb: yes\nc: ~\nd: 1.5\ne: 0x1F\nf: 2001-12-14\ng: text with spaces\nh: -1\ni: .inf\nj: 017\nk: 1:30\n", true},
		{"quoted", "quotes keep the text; '' and the ASCII escapes", "a: 'it''s'\nb: \"x\\\"y\\\\z\\n\\t\"\nc: \"\"\nd: ''\ne: \"yes\"\n", true},
		{"comments", "comments after values, between keys, indented anywhere", "---\n# head\na: 1 # one\n   # stray\nb: 'x'  # two\n\nc: \"y\" #three\n", true},
		{"hash inside", "a # without a blank before it is text", "a: x#y\nb: 'p #q'\n", true},
		{"nested", "mappings of mappings", "a:\n  b:\n    c: 1\n    d: [] # none\n  e: {}\nf: 2\n", true},
		{"sequences", "block sequences, indented or at the key's column", "a:\n  - 1\n  - two\nb:\n- x\n- y\nc: 3\n", true},
		{"entry mappings", "a mapping on a sequence entry's line, with an indentless sequence inside", "a:\n  - name: x\n    list:\n    - 1\n    - 2\n    other: 3\n  - name: y\nb:\n- k: v\n  l: w\n", true},
		{"null values", "a key with nothing after it is null", "a:\nb: # nothing\nc: 1\n", true},
		{"duplicate keys", "each is an entry, as the yaml.v3 path gives", "a: 1\na: 2\nb:\n  x: 1\n  x: 2\n", true},
		{"typed keys", "keys are typed as values are", "1.36.0: a\ntrue: b\nnull: c\n10: d\n", true},
		{"utf8", "printable UTF-8 in values and comments", "a: héllo # ça\nb: '日本'\n", true},
		{"sha256", "colons not followed by a blank are text", "a:\n  arm64:\n    1.2.3: sha256:abc\n    v1: \"sha256:def\"\n", true},
		{"templates quoted", "kubespray's templates are quoted", "a: \"{{ b }}/c\"\nd: \"{% if x %}y{% endif %}\"\n", true},
		{"continued plain", "a deeper line continues a plain scalar", "a: x\n  y\nb: 1\n", false},
		{"value next line", "a scalar on the line after its key", "a:\n  x\n", false},
		{"anchor", "anchors and aliases", "a: &x 1\nb: *x\n", false},
		{"tag", "tags", "a: !!str 1\n", false},
		{"block scalars", "literal and folded, every chomping", "a: |\n  x\n   y\n\n  z\n\nb: >-\n  p\n  q\n\n  r\n    s\n  t\nc: |+\n  k\n\n\nd: >\n  # not a comment\n  w\n# a comment\ne:\n- >\n  in a list\n- |-\n    deeper\n", true},
		{"block scalar at the end", "the file ends inside the scalar", "a: >-\n  x\n  y\n", true},
		{"block scalar blank lines", "blank lines first, some with spaces", "a: |\n\n  \n  x\n  \n      \n  y\n", true},
		{"block scalar no newline", "the last line lacks its line break", "a: |\n  x", false},
		{"block scalar indicator", "an indentation indicator", "a: |2\n   x\n", false},
		{"block scalar empty", "nothing indented under it", "a: |\nb: 1\n", false},
		{"block scalar blank deeper", "a blank line deeper than the first content line", "a: |\n      \n  x\n", false},
		{"flow mapping", "flow mappings with content", "b: {c: d}\n", false},
		{"multi-line quoted", "a quoted scalar over two lines", "a: \"x\n  y\"\n", false},
		{"rare escape", "escapes beyond ASCII", "a: \"\\u00e9\"\nb: \"\\x41\"\n", false},
		{"slash escape", "yaml.v3 has no \\/", "a: \"x\\/y\"\n", false},
		{"tab", "tabs", "a:\tb\n", false},
		{"crlf", "CR line ends", "a: 1\r\nb: 2\r\n", false},
		{"two documents", "a second document", "a: 1\n---\nb: 2\n", false},
		{"directive", "a directive", "%YAML 1.1\n---\na: 1\n", false},
		{"merge", "merge keys", "a:\n  <<: {}\n", false},
		{"quoted keys", "quoted keys are strings, whatever they spell", "'a': 1\n\"1.17\": x\n'yes': 2\nb:\n  '1.5': sha256:ab\n", true},
		{"quoted key no blank", "a quoted key whose ':' a non-blank follows", "'a':1\n", false},
		{"flow sequences", "one-line flow sequences of scalars", "a: [x, 'y', \"z\"]\nb: [ \"addon/coredns\" ]\nc: [1, yes, ~]\nd:\n- [p]\n", true},
		{"flow trailing comma", "a trailing comma", "a: [x, ]\n", false},
		{"flow nested", "a flow sequence inside one", "a: [[x]]\n", false},
		{"colon start", "a plain scalar may start with ':' when a non-blank follows", "addr: :5000\nb: -x\n", true},
		{"slash keys", "names with '/'", "a:\n  kubernetes.io/os: linux\n", true},
		{"root sequence", "a root that is not a mapping", "- a\n- b\n", false},
		{"root scalar", "a scalar root", "hello\n", false},
		{"indented root", "a root mapping not at column 1", "  a: 1\n  b: 2\n", false},
		{"empty", "no content", "# only a comment\n", false},
		{"json", "a JSON document", "{\"a\": 1}\n", false},
		{"mapping in value", "': ' inside a plain value", "a: b: c\n", false},
		{"bad indent", "a key between two indentations", "a:\n    b: 1\n  c: 2\n", false},
		{"nested sequence", "a sequence on an entry's line", "a:\n- - x\n", false},
		{"empty entry", "a lone -", "a:\n-\n- x\n", false},
		{"ls", "a line separator is a line break for libyaml", "a: x\u2028y\n", false},
		{"bom", "a byte order mark", "\ufeffa: 1\n", false},
		{"nel", "NEL is a line break for libyaml", "a: 1 # x\u0085b: 2\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkFastVars(t, tc.name, []byte(tc.in)); got != tc.fast {
				t.Errorf("%s: fast path taken %v, want %v", tc.reason, got, tc.fast)
			}
		})
	}
	var files []string
	_ = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			files = append(files, p)
		}
		return nil
	})
	ks := os.Getenv("K3SCONF_KUBESPRAY_DIR")
	var ksVars, ksFast int
	if ks != "" {
		_ = filepath.WalkDir(ks, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
				files = append(files, p)
			}
			return nil
		})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fast := checkFastVars(t, f, data)
		if ks != "" && strings.HasPrefix(f, ks) && (strings.Contains(f, "/defaults/") || strings.Contains(f, "/vars/") || strings.Contains(f, "group_vars")) {
			ksVars++
			if fast {
				ksFast++
			}
		}
	}
	if ks != "" {
		t.Logf("kubespray vars files read by the fast path: %d of %d", ksFast, ksVars)
		if ksFast*10 < ksVars*8 {
			t.Errorf("the fast path reads only %d of kubespray's %d vars files: the shapes it takes have drifted", ksFast, ksVars)
		}
	}
}

// TestFastVarsGenerated compares the two paths on random files built from the pieces the
// fast path handles and the ones it must decline, mixed.
func TestFastVarsGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	keys := []string{"a", "b_c", "1.2.3", "yes", "null", "k-1", "x.y", "10"}
	scalars := []string{"1", "x", "yes", "~", "'q''r'", "\"d\\\"e\\n\"", "[]", "{}", "a #c", "sha256:ab", "-1", "2001-12-14", ".5", "0o7", "", "# c", "é", "a:b", "'x'#", "\"\\/\"", "&a 1", "*a", "!!int 3", "|", "a: b", "[1]", "- x", "-", "x:", "'open", "\"open"}
	var gen func(b *strings.Builder, indent, depth int)
	gen = func(b *strings.Builder, indent, depth int) {
		pad := strings.Repeat(" ", indent)
		for n := 1 + r.Intn(3); n > 0; n-- {
			switch k := r.Intn(10); {
			case k < 5 || depth > 3:
				fmt.Fprintf(b, "%s%s: %s\n", pad, keys[r.Intn(len(keys))], scalars[r.Intn(len(scalars))])
			case k < 7:
				fmt.Fprintf(b, "%s%s:\n", pad, keys[r.Intn(len(keys))])
				gen(b, indent+1+r.Intn(3), depth+1)
			case k < 8:
				fmt.Fprintf(b, "%s%s:\n", pad, keys[r.Intn(len(keys))])
				in := indent + r.Intn(3)
				for m := 1 + r.Intn(3); m > 0; m-- {
					if r.Intn(3) == 0 {
						fmt.Fprintf(b, "%s- %s: %s\n", strings.Repeat(" ", in), keys[r.Intn(len(keys))], scalars[r.Intn(len(scalars))])
						fmt.Fprintf(b, "%s  %s: %s\n", strings.Repeat(" ", in), keys[r.Intn(len(keys))], scalars[r.Intn(len(scalars))])
					} else {
						fmt.Fprintf(b, "%s- %s\n", strings.Repeat(" ", in), scalars[r.Intn(len(scalars))])
					}
				}
			case k < 9 && r.Intn(2) == 0:
				fmt.Fprintf(b, "%s# comment\n\n", strings.Repeat(" ", r.Intn(6)))
			case k < 9:
				heads := []string{"|", ">", "|-", ">+", ">-", "|+", "| # c", "|2"}
				fmt.Fprintf(b, "%s%s: %s\n", pad, keys[r.Intn(len(keys))], heads[r.Intn(len(heads))])
				lines := []string{"x", "y z", "", "  ", " deeper", "# hash", "      ", "k: v"}
				in := indent + r.Intn(4)
				for m := 1 + r.Intn(4); m > 0; m-- {
					fmt.Fprintf(b, "%s%s\n", strings.Repeat(" ", in), lines[r.Intn(len(lines))])
				}
			default:
				fmt.Fprintf(b, "%s%s\n", strings.Repeat(" ", indent+r.Intn(3)), scalars[r.Intn(len(scalars))])
			}
		}
	}
	taken := 0
	const n = 3000
	for i := 0; i < n; i++ {
		var b strings.Builder
		if r.Intn(4) == 0 {
			b.WriteString("---\n")
		}
		gen(&b, 0, 0)
		if checkFastVars(t, fmt.Sprintf("gen%d.yml", i), []byte(b.String())) {
			taken++
		}
	}
	t.Logf("the fast path took %d of %d generated files", taken, n)
	if taken < n/10 || taken > n*9/10 {
		t.Errorf("the fast path took %d of %d generated files: the generator no longer mixes both kinds", taken, n)
	}
}

// FuzzFastVars: whatever fastVars accepts, it reads as the yaml.v3 path does.
func FuzzFastVars(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a:\n  - x\n  - y: z\n", "a:\n- 'x'\nb: \"y\\n\"\n", "---\na: {} # c\n", "a: x#y\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastVars(t, "fuzz.yml", data)
	})
}
