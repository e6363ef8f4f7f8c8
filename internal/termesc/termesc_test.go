package termesc

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct{ name, reason, in, want string }{
		{"plain", "printable text, tabs and newlines pass", "a\tb\nc é €", "a\tb\nc é €"},
		{"csi", "ESC of a CSI sequence", "x\x1b[2Jy", `x\u001b[2Jy`},
		{"osc", "an OSC title sequence ended by BEL", "\x1b]0;pwned\x07", `\u001b]0;pwned\u0007`},
		{"cr", "a carriage return would overwrite the line", "ok\rbad", `ok\u000dbad`},
		{"del", "DEL", "a\x7fb", `a\u007fb`},
		{"c1-csi", "U+009B is CSI for terminals that take C1 controls", "a\u009b2Jb", `a\u009b2Jb`},
		{"bidi-override", "U+202E makes the rest of the line read backwards", "evil\u202egnp.yaml", `evil\u202egnp.yaml`},
		{"bidi-isolate", "U+2066..U+2069 isolate and reorder text", "a\u2066b\u2069c", `a\u2066b\u2069c`},
		{"line-separator", "U+2028 breaks a line where no newline is", "a\u2028b", `a\u2028b`},
		{"near-bidi", "U+2010 (a hyphen) is shown", "a\u2010b", "a\u2010b"},
		{"invalid", "a byte that is not UTF-8", "a\x9bb", `a\x9bb`},
		{"long-ascii", "the word-at-a-time scan stops at a control in the middle", strings.Repeat("a", 13) + "\x1b" + strings.Repeat("b", 9), strings.Repeat("a", 13) + `\u001b` + strings.Repeat("b", 9)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("%s: String(%q) = %q, want %q", tc.reason, tc.in, got, tc.want)
			}
		})
	}
}

// TestNoControlLeaves: for random bytes written in random pieces, the output holds no
// control character but tab and newline, no C1 control and no invalid UTF-8, and equals
// String of the whole (a sequence split across writes is escaped as if whole).
func TestNoControlLeaves(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("ab \t\n\x1b\x07\r\x00\x7f\xc2\x9b\x85\xe2\x82\xac\xc3\xa9\xff[")
	for n := 0; n < 20000; n++ {
		in := make([]byte, rng.Intn(40))
		for i := range in {
			in[i] = alphabet[rng.Intn(len(alphabet))]
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		for rest := in; len(rest) > 0; {
			k := 1 + rng.Intn(len(rest))
			if _, err := w.Write(rest[:k]); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
		}
		w.Flush()
		got := out.String()
		if got != String(string(in)) {
			t.Fatalf("pieces %q: %q, whole: %q", in, got, String(string(in)))
		}
		if !utf8.ValidString(got) {
			t.Fatalf("%q: invalid UTF-8 left: %q", in, got)
		}
		for _, r := range got {
			if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f {
				t.Fatalf("%q: control %U left: %q", in, r, got)
			}
		}
	}
}

// TestJSONStaysValid: a JSON document of strings with every control character, escaped,
// is still valid JSON and decodes to the same strings.
func TestJSONStaysValid(t *testing.T) {
	var s []string
	for r := rune(0); r < 0xa0; r++ {
		s = append(s, "x"+string(r)+"y")
	}
	b, _ := json.Marshal(s)
	esc := String(string(b))
	var back []string
	if err := json.Unmarshal([]byte(esc), &back); err != nil {
		t.Fatalf("escaped JSON no longer parses: %v", err)
	}
	for i := range s {
		if s[i] != back[i] {
			t.Errorf("%q decoded as %q", s[i], back[i])
		}
	}
}

// TestEveryOffset: a control character or C1 at any offset of a long ASCII text is found,
// whichever of the word-at-a-time paths (32 bytes, 8 bytes, byte by byte) reaches it.
func TestEveryOffset(t *testing.T) {
	for _, bad := range []string{"\x1b", "\x7f", "\u009b", "\xff"} {
		for off := 0; off < 130; off++ {
			in := strings.Repeat("a", off) + bad + strings.Repeat("é", 3) + strings.Repeat("b", 70)
			got := String(in)
			if strings.Contains(got, bad) || !strings.HasPrefix(got, strings.Repeat("a", off)+`\`) || !strings.HasSuffix(got, strings.Repeat("é", 3)+strings.Repeat("b", 70)) {
				t.Fatalf("offset %d, %q: %q", off, bad, got)
			}
		}
	}
	if s := strings.Repeat("plain text, tabs\tand newlines\n", 20); String(s) != s {
		t.Error("safe text must pass unchanged")
	}
}
