package sources

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rogpeppe/go-internal/txtar"
	yamlv2 "gopkg.in/yaml.v2"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/benchnode"
)

// compareFast runs the fast path on data and, when it accepts the file, checks that the
// yaml.v3 path gives the same entries (values, types, raw text, positions) and the same
// diagnostics, and that the real yaml.v2 v2.4.0 decodes the same keys and values into a
// MapSlice, as k3s does. It reports whether the fast path accepted the file.
func compareFast(t *testing.T, name string, data []byte) bool {
	t.Helper()
	text := normalizeEncoding(data)
	fcf, fdiags, ok := parseFast("/c.yaml", text)
	if !ok {
		return false
	}
	scf, sdiags, err := parseSlow("/c.yaml", text)
	if err != nil {
		t.Errorf("%s: the fast path accepted a file the yaml.v3 path refuses (%v):\n%s", name, err, data)
		return true
	}
	opts := cmp.Options{cmpopts.EquateNaNs()}
	if d := cmp.Diff(scf, fcf, opts); d != "" {
		t.Errorf("%s: fast path result differs from the yaml.v3 path (-v3 +fast):\n%s\ninput:\n%s", name, d, data)
	}
	if d := cmp.Diff(sdiags, fdiags); d != "" {
		t.Errorf("%s: fast path diagnostics differ (-v3 +fast):\n%s\ninput:\n%s", name, d, data)
	}
	var ms yamlv2.MapSlice
	if err := yamlv2.Unmarshal(data, &ms); err != nil {
		t.Errorf("%s: the fast path accepted a file yaml.v2 refuses (%v):\n%s", name, err, data)
		return true
	}
	var got, want []string
	for _, e := range fcf.Entries {
		plus := ""
		if e.Append {
			plus = "+"
		}
		got = append(got, fmt.Sprintf("%s%s=%T %#v", e.Key, plus, e.Value, e.Value))
	}
	for _, it := range ms {
		k := ToString(it.Key)
		plus := ""
		if strings.HasSuffix(k, "+") {
			k, plus = strings.TrimSuffix(k, "+"), "+"
		}
		want = append(want, fmt.Sprintf("%s%s=%T %#v", k, plus, it.Value, it.Value))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: fast path values differ from yaml.v2 (-v2 +fast):\n%s\ninput:\n%s", name, d, data)
	}
	return true
}

// genConfig writes a config file from pieces that real files use and pieces just outside
// the fast path's subset, so that both acceptance and every reason to decline are tried.
func genConfig(r *rand.Rand) []byte {
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	keys := []string{"node-label", "tls-san", "kubelet-arg", "node-name", "token", "write-kubeconfig-mode",
		"a", "k", "1", "true", "y", "null", "2001-12-14", "a.b", "x_y", "a/b", "0x1F", "1e3", "N", "Null",
		"-a", "a b", "\"q\"", "'q'", "<<", "? a", "a#b", "~", "é", "a\tb", ".inf", "+1", "_a"}
	scalars := []string{"value-1", "item-3-4=x", "0644", "\"0644\"", "'it''s'", "'a'", "\"a\\nb\"", "\"\"", "''",
		"yes", "no", "on", "Off", "y", "N", "~", "null", "1.5", ".inf", "-.INF", ".nan", "1_000", "0b101",
		"-0b11", "12345678901234567890", "-9223372036854775809", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
		"2001-12-14 21:59:43.10", "a: b", "a:b", "a #c", "a#c", "- a", "-a", "-", "[a, b]", "{a: 1}", "&x a",
		"*x", "!!str 1", "! 1", "|", ">", "%x", "@x", "`x", "a,b", "a]", "?a", ":a", "<<", "a   ", "a\tb",
		"'unterminated", "\"x\" y", "'x' # c", "\"x\"#c", "héllo", "+1", "-1", "+.5", "0o17", "1:2",
		"12:30:00", "0x_1F", "1e3", "3.", "-", "--x", "...", "a: ", "'a:b'", "\"a # b\"", "10.0.0.1/8",
		"https://example.com:6443", "role=edge:NoSchedule", "K10abc::server:secret", "a ,b", "a'b", "a\"b"}
	flows := []string{"[a, b]", "[]", "[ a ,b ]", "['x', \"y\"]", "[1, yes, ~]", "[a,b]", "[ ]", "[.5, 0x1F, 0644]",
		"[2001-12-14]", "['it''s', 'a,b']", "[a b, c]", "[-1, +1]", "[a]  # c", "[\"a b\" ,  'c' ]", "[x=y, role=edge]"}
	scalars = append(scalars, flows...)
	scalars = append(scalars, "[a, ]", "[a: b]", "[-]", "[a#b]", "[a, #c", "[[a]]", "[{a: 1}]", "[a]b", "[,]", "[a,,b]",
		"[a", "['a'b]", "[\"a\\n\"]", "[a]#c", "[ - a]", "[?a]", "[a, b", "[é]")
	// Half the files use only what real files use, so that most of them are accepted and
	// compared; the other half mixes in everything else.
	clean := r.Intn(2) == 0
	// rare is true once in n draws, and never in a clean file.
	rare := func(n int) bool { return !clean && r.Intn(n) == 0 }
	if clean {
		keys = keys[:20]
		scalars = append(scalars[:25:25], "a #c", "'a:b'", "\"a # b\"", "10.0.0.1/8", "https://example.com:6443",
			"role=edge:NoSchedule", "K10abc::server:secret", "a ,b", "a'b", "a\"b", "-1", "+1", "0o17", "1:2",
			"2001-12-14 21:59:43.10", "2001-12-14t21:59:43.10-05:00", "-9223372036854775809", "--x", "a]", "a,b")
		scalars = append(scalars, flows...)
	}
	var b strings.Builder
	if clean && r.Intn(4) == 0 {
		b.WriteString(pick([]string{"---\n", "# head\n---\n", "---  \n", "\n---\n# c\n"}))
	}
	nl := "\n"
	if rare(40) {
		nl = "\r\n"
	}
	if rare(30) {
		b.WriteString(pick([]string{"---\n", "\ufeff", "%YAML 1.1\n---\n", "  ", "# head\n", "\n"}))
	}
	n := r.Intn(8)
	for i := 0; i < n; i++ {
		if r.Intn(6) == 0 {
			b.WriteString(strings.Repeat(" ", r.Intn(4)) + pick([]string{"# comment", "#", "", "   "}) + nl)
		}
		key := pick(keys)
		if r.Intn(3) == 0 {
			key += "+"
		}
		if rare(200) {
			key = strings.Repeat("k", 990+r.Intn(60))
		}
		b.WriteString(key)
		if clean {
			b.WriteString(":")
		} else {
			b.WriteString(pick([]string{":", ":", ":", " :", ":\t"}))
		}
		switch r.Intn(3) {
		case 0, 1:
			if clean {
				b.WriteString(pick([]string{" ", " ", " ", "  "}) + pick(scalars))
			} else {
				b.WriteString(pick([]string{" ", " ", " ", "  ", ""}) + pick(scalars))
			}
			if r.Intn(5) == 0 {
				b.WriteString(pick([]string{" # c", "#c", "  ", " #"}))
			}
			b.WriteString(nl)
			if rare(15) {
				b.WriteString(strings.Repeat(" ", r.Intn(4)) + pick(scalars) + nl)
			}
		default:
			if r.Intn(4) == 0 {
				b.WriteString(pick([]string{" # c", "  ", " #x", "#x"}))
			}
			b.WriteString(nl)
			indent := pick([]string{"", "  ", "  ", "    ", " "})
			items := r.Intn(4)
			for j := 0; j < items; j++ {
				if r.Intn(8) == 0 {
					b.WriteString(strings.Repeat(" ", r.Intn(5)) + pick([]string{"# c", ""}) + nl)
				}
				ind := indent
				if rare(25) {
					ind = pick([]string{"", " ", "   ", "      "})
				}
				if clean {
					b.WriteString(ind + pick([]string{"- ", "- ", "-  "}) + pick(scalars))
				} else {
					b.WriteString(ind + pick([]string{"- ", "- ", "-  ", "-", "-\t"}) + pick(scalars))
				}
				if r.Intn(6) == 0 {
					b.WriteString(pick([]string{" # c", "#c", " "}))
				}
				b.WriteString(nl)
				if rare(25) {
					b.WriteString(indent + "  " + pick(scalars) + nl)
				}
			}
		}
	}
	if rare(20) {
		b.WriteString(pick([]string{"---\nb: 1\n", "...\n", "  trailing\n", "\x00"}))
	}
	s := b.String()
	if r.Intn(10) == 0 {
		s = strings.TrimSuffix(s, nl)
	}
	return []byte(s)
}

// TestFastPathMatchesYAMLv3 is the fast path's differential test: on 20,000 generated files
// (fixed seeds), the benchmark node's drop-ins, every YAML file in the repository's test
// data (alone and inside txtar archives) and the fuzz corpora, the fast path either declines
// or gives exactly what the yaml.v3 path and yaml.v2 give.
func TestFastPathMatchesYAMLv3(t *testing.T) {
	accepted, withMarker, withFlow, total := 0, 0, 0, 0
	for seed := int64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewSource(seed))
		for i := 0; i < 1000; i++ {
			total++
			data := genConfig(r)
			if compareFast(t, fmt.Sprintf("seed %d case %d", seed, i), data) {
				accepted++
				if bytes.Contains(data, []byte("---")) {
					withMarker++
				}
				if bytes.Contains(data, []byte(": [")) {
					withFlow++
				}
			}
		}
	}
	if withMarker < 500 || withFlow < 500 {
		t.Errorf("only %d accepted files start with a --- marker, %d have a flow sequence", withMarker, withFlow)
	}
	for i := 0; i < 50; i++ {
		total++
		if !compareFast(t, fmt.Sprintf("benchnode %d", i), []byte(benchnode.Config(i, 25))) {
			t.Errorf("the fast path declines the benchmark drop-in %d", i)
		}
		accepted++
	}
	t.Logf("generated: fast path accepted %d of %d files (%d with a leading ---, %d with a flow sequence)", accepted, total, withMarker, withFlow)

	// Named files the fast path must accept, each compared like the generated ones.
	for _, tc := range []struct{ name, reason, in string }{
		{"long value", "libyaml limits simple keys, not values", "a: " + strings.Repeat("v", 3000) + "\n"},
		{"long item", "nor sequence items", "a:\n  - " + strings.Repeat("v", 3000) + "\n"},
		{"1000-byte key", "the longest key the fast path takes", strings.Repeat("k", 1000) + ": v\n"},
		{"indentless sequence", "items at the key's own indentation, as kubespray writes them", "a:\n- x\n- y\nb: 1\n"},
		{"comments everywhere", "comment lines at any indentation between items and keys", "# h\na: # c\n    # c\n  - x # c\n# c\n  - 'y' # c\n\nb: \"z\"  # c\n"},
		{"no final newline", "the last line ends the file", "a: 1\nb:\n  - c"},
		{"leading marker", "a file that starts its only document with ---", "# k3s\n---\na: 1\n"},
		{"flow sequences", "one-line flow sequences of scalars, empty ones included", "disable: [traefik, servicelb]\ntls-san: ['a', \"b\"]\nx: []\ny: [ 1 , yes ]  # c\n"},
		{"typed keys", "YAML 1.1 typing applies to keys too", "yes: 1\n1_000: 2\n2001-12-14: 3\nnull: 4\n0x1F: 5\n"},
		{"duplicate keys", "the later value replaces the earlier; a finding says so", "a: 1\nb+:\n- x\na: 2\nb+:\n- y\n"},
	} {
		total++
		if !compareFast(t, tc.name, []byte(tc.in)) {
			t.Errorf("%s: %s; the fast path declined %q", tc.name, tc.reason, tc.in)
		}
	}

	files, accCorpus := 0, 0
	check := func(name string, data []byte) {
		files++
		if compareFast(t, name, data) {
			accCorpus++
		}
	}
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if n := de.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			check(p, data)
		case strings.HasSuffix(p, ".txtar"):
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
					check(p+":"+f.Name, f.Data)
				}
			}
		case strings.Contains(filepath.ToSlash(p), "/testdata/fuzz/FuzzParseConfig/") ||
			strings.Contains(filepath.ToSlash(p), "/testdata/fuzz/FuzzFastPath/"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if in, ok := fuzzBytes(data); ok {
				check(p, in)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("only %d YAML files found in the repository's test data", files)
	}
	t.Logf("repository: fast path accepted %d of %d YAML files", accCorpus, files)
}

// fuzzBytes reads a "go test fuzz v1" corpus file holding one []byte.
func fuzzBytes(data []byte) ([]byte, bool) {
	lines := bytes.SplitN(data, []byte("\n"), 2)
	if len(lines) != 2 || string(lines[0]) != "go test fuzz v1" {
		return nil, false
	}
	v := strings.TrimSpace(string(lines[1]))
	if !strings.HasPrefix(v, "[]byte(") || !strings.HasSuffix(v, ")") {
		return nil, false
	}
	var s string
	if _, err := fmt.Sscanf(v[len("[]byte("):len(v)-1], "%q", &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// TestFastPathDeclines names inputs the fast path must leave to the yaml.v3 path, each for
// the reason given.
func TestFastPathDeclines(t *testing.T) {
	tests := []struct{ name, reason, in string }{
		{"null value", "an empty value's position is the next token's in yaml.v3", "a:\nb: 1\n"},
		{"continued plain scalar", "a deeper line continues the plain scalar", "a: b\n  c\n"},
		{"mapping value in value", "': ' inside a plain scalar is an error", "a: b: c\n"},
		{"tab", "tabs are not scanned", "a:\tb\n"},
		{"crlf", "CR line breaks are not scanned", "a: b\r\n"},
		{"non-ASCII", "columns count characters", "a: é\n"},
		{"second document", "documents are not split", "---\na: b\n---\nc: d\n"},
		{"marker with content", "a value on the marker line", "--- a\n"},
		{"end marker", "the document end marker", "a: b\n...\n"},
		{"anchor", "anchors and aliases are not followed", "a: &x b\nc: *x\n"},
		{"tag", "tags change typing", "a: !!str 1\n"},
		{"flow map", "flow mappings are not scanned", "a: {b: c}\n"},
		{"multi-line flow", "a flow sequence continued on the next line", "a: [b,\n  c]\n"},
		{"trailing comma", "a flow sequence ending in a comma", "a: [b, ]\n"},
		{"nested flow", "a flow sequence inside a flow sequence", "a: [[b]]\n"},
		{"block scalar", "block scalars are not scanned", "a: |\n  b\n"},
		{"escape", "double-quoted escapes are not decoded", "a: \"b\\n\"\n"},
		{"multi-line quoted", "a quoted scalar continued on the next line", "a: 'b\n  c'\n"},
		{"merge key", "merge keys carry a diagnostic", "<<: {a: 1}\n"},
		{"indented mapping", "a root mapping not at column 1", "  a: b\n"},
		{"nested mapping", "a nested mapping value", "a:\n  b: c\n"},
		{"null item", "an empty item's position", "a:\n- \n- b\n"},
		{"long key", "libyaml's 1024-character simple key limit", strings.Repeat("k", 1100) + ": v\n"},
		{"uneven items", "items at another indentation", "a:\n  - b\n - c\n"},
		{"quoted key", "quoted keys are not scanned", "\"a\": b\n"},
		{"text after quote", "a quoted scalar followed by text", "a: 'b' c\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, ok := parseFast("/c.yaml", []byte(tc.in)); ok {
				t.Errorf("%s: the fast path accepted %q", tc.reason, tc.in)
			}
		})
	}
}

// FuzzFastPath compares the fast path with the yaml.v3 path and yaml.v2 on any input.
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{"", "a: 1\n", "a:\n- b\n- 'c'\n", "a+:\n  - \"x\" # c\nb: yes\n",
		"k: [a, 1, yes, null, 0644, 1.0]\n", "a: b\n  c\n", "---\na: 1\n", "a: [b, 'c', 1]\n", benchnode.Config(3, 25)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareFast(t, "fuzz", data)
	})
}

// TestDuplicatesSearchMatchesMap checks decoder.duplicates, which searches small files and
// hashes large ones, against the first-occurrence rule written out with a map, on generated
// key lists (fixed seed) on both sides of the size limit.
func TestDuplicatesSearchMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 140; n++ {
		var entries []ConfigEntry
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%d", r.Intn(n/2+1))
			entries = append(entries, ConfigEntry{RawKey: k, Key: k, Append: r.Intn(4) == 0, KeyPos: diag.Position{File: "/c.yaml", Line: i + 1, Column: 1}})
		}
		var want []string
		first := map[string]int{}
		for i, e := range entries {
			if j, ok := first[e.Key]; !ok {
				first[e.Key] = i
			} else if !e.Append {
				want = append(want, fmt.Sprintf("%d:%d", e.KeyPos.Line, entries[j].KeyPos.Line))
			}
		}
		d := &decoder{path: "/c.yaml"}
		d.duplicates(entries)
		var got []string
		for _, dg := range d.diags {
			var l, j int
			fmt.Sscanf(dg.Message[strings.Index(dg.Message, " on line ")+len(" on line "):], "%d is also set on line %d", &l, &j)
			got = append(got, fmt.Sprintf("%d:%d", l, j))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%d keys: duplicates differ (-want +got):\n%s", n, diff)
		}
	}
}

// TestMaxResolveWord: resolvePlain skips the word lookup for longer scalars, so no word may
// be longer.
func TestMaxResolveWord(t *testing.T) {
	longest := 0
	for w := range resolveWords {
		longest = max(longest, len(w))
	}
	if longest != maxResolveWord {
		t.Errorf("the longest word in resolveWords has %d bytes, maxResolveWord is %d", longest, maxResolveWord)
	}
}
