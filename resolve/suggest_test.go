package resolve

import (
	"fmt"
	"testing"

	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/profile"
)

// bruteSuggest is suggestHint without the length prefilter: the reference the fast path
// must agree with.
func bruteSuggest(name string, cmd *profile.Command) string {
	best, bestD := "", max(2, len(name)/3+1)
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if d := fuzzy.Distance(name, n); d < bestD {
				best, bestD = f.Name, d
			}
		}
	}
	if best != "" && best != name {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return fmt.Sprintf("remove the key, or check `k3s %s --help` for the flag you meant", cmd.Name)
}

// The length prefilter is only an optimisation: for every flag name of every command,
// mutated in the ways people misspell (drop, double, swap, truncate), the hint must be
// the one the exhaustive search gives.
func TestSuggestHintPrefilterAgreesWithBruteForce(t *testing.T) {
	for _, p := range []*profile.Profile{profile.K3s(), profile.RKE2()} {
		for _, cmdName := range []string{"server", "agent"} {
			cmd := p.Command(cmdName)
			if cmd == nil {
				continue
			}
			checked := 0
			for _, f := range cmd.Flags {
				n := f.Name
				variants := []string{n, n + "s", n + n[len(n)-1:], "x" + n, n[:len(n)/2], "a"}
				if len(n) > 1 {
					variants = append(variants, n[1:], n[:len(n)-1], n[1:]+n[:1])
				}
				for _, v := range variants {
					if got, want := suggestHint(v, cmd), bruteSuggest(v, cmd); got != want {
						t.Errorf("%s %s: suggestHint(%q) = %q, exhaustive search says %q", p.Name, cmdName, v, got, want)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Fatalf("%s %s: no flags to check", p.Name, cmdName)
			}
		}
	}
}

// A misspelling gets its suggestion, and asking again for the same name (as a hostile file
// repeating one key does) returns the cached answer rather than searching again.
func TestSuggestIsCachedPerName(t *testing.T) {
	r := &resolver{}
	cmd := profile.K3s().Command("server")
	first := r.suggest("write-kubeconfig-mod", cmd)
	if first != `did you mean "write-kubeconfig-mode"?` {
		t.Fatalf("suggest = %q", first)
	}
	r.hints["write-kubeconfig-mod"] = "sentinel"
	if got := r.suggest("write-kubeconfig-mod", cmd); got != "sentinel" {
		t.Fatalf("second call searched again: %q", got)
	}
}
