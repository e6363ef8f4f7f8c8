package compose

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInterpolate(t *testing.T) {
	env := map[string]string{"SET": "v", "EMPTY": ""}
	look := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	cases := []struct {
		name, reason, in, want string
		unset                  int
	}{
		{"braces", "${VAR} takes the value", "a${SET}b", "avb", 0},
		{"bare", "$VAR ends at the first non-name character", "$SET-x", "v-x", 0},
		{"dollar-dollar", "$$ is a literal dollar", "$$SET", "$SET", 0},
		{"default-colon", ":- also replaces an empty value", "${EMPTY:-d}", "d", 0},
		{"default-dash", "- keeps an empty value", "${EMPTY-d}", "", 0},
		{"default-unset", "defaults apply to unset variables", "${NOPE:-latest}", "latest", 0},
		{"nested-default", "a default may itself interpolate", "${NOPE:-${SET}}", "v", 0},
		{"required", ":? without the variable is reported", "${NOPE:?err}", "", 1},
		{"alt", ":+ gives the alternative when set", "${SET:+alt}", "alt", 0},
		{"unset", "an unset variable is empty and reported", "${NOPE}", "", 1},
		{"brace-in-default", "compose-go skips the character after a '{' when it balances braces, so the '}' stays in the default (the one disagreement of the first differential run)", "${d:-{}", "{", 0},
		{"lone-dollar", "a '$' that starts no reference is literal in compose-go v2", "a$1 5$", "a$1 5$", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, unset := interpolate(tc.in, look)
			for _, u := range unset {
				if u.invalid != "" {
					t.Errorf("%s: %q reported as invalid (%q)", tc.reason, tc.in, u.invalid)
				}
			}
			if got != tc.want || len(unset) != tc.unset {
				t.Errorf("%s: interpolate(%q) = %q, %d unset; want %q, %d", tc.reason, tc.in, got, len(unset), tc.want, tc.unset)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	got := splitCommand(`server --node-label "a=b c" --tls-san='x y' plain\ word`)
	want := []string{"server", "--node-label", "a=b c", "--tls-san=x y", "plain word"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestInterpolateInvalid follows compose-spec/compose-go v2.16.0 template/template.go: the
// pattern \$(?i:(?P<escaped>\$)|(?P<named>[_a-z][_a-z0-9]*)|{(?:(?P<braced>…)}|(?P<invalid>)))
// turns a "${" that does not open a well-formed braced reference into InvalidTemplateError,
// and compose refuses the file; any other "$" that starts no reference stays literal.
func TestInterpolateInvalid(t *testing.T) {
	look := func(string) (string, bool) { return "", false }
	cases := []struct{ name, reason, in, invalid string }{
		{"colon-default", "${VAR:default}: a colon must be followed by -, ? or +", "k3s:${K3S_VERSION:v1.30.5-k3s1}", "${K3S_VERSION:v1.30.5-k3s1}"},
		{"digit", "$1 is a literal in compose-go v2: the invalid group follows ${ only", "echo $1", ""},
		{"lone-dollar", "a trailing $ is a literal too", "cost 5$", ""},
		{"empty-braces", "${} has no name", "${}", "${}"},
		{"unclosed", "${VAR without } does not match the braced group", "${VAR", "${VAR"},
		{"digit-name", "a name starts with a letter or _", "${1X}", "${1X}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, unset := interpolate(tc.in, look)
			got := ""
			for _, u := range unset {
				if u.invalid != "" {
					got = u.invalid
				}
			}
			if got != tc.invalid {
				t.Errorf("%s: interpolate(%q) invalid = %q, want %q", tc.reason, tc.in, got, tc.invalid)
			}
		})
	}
}
