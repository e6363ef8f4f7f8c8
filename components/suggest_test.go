package components

import (
	"math/rand"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/internal/fuzzy"
)

// suggestItemReference is the did-you-mean of disable items as it was before the search
// was bounded and memoized (issue 25): every known name, sorted, measured in full.
func suggestItemReference(item string, known map[string]bool) string {
	cands := []string{strings.ToLower(item), strings.TrimSuffix(item, path.Ext(item)), strings.ToLower(strings.TrimSuffix(item, path.Ext(item)))}
	for _, c := range cands {
		if known[c] && c != item {
			return c
		}
	}
	best, bestD := "", 3
	var keys []string
	for k := range known {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if d := fuzzy.Distance(strings.ToLower(item), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// TestItemSuggesterCases: the answers users see, each for a reason.
func TestItemSuggesterCases(t *testing.T) {
	known := map[string]bool{"traefik": true, "servicelb": true, "local-storage": true, "metrics-server": true, "coredns": true, "custom": true, "custom/sub": true}
	tests := []struct {
		item, want, reason string
	}{
		{"Traefik", "traefik", "a case difference is the known name lowercased"},
		{"coredns.yaml", "coredns", "a file's name with its extension"},
		{"traefk", "traefik", "one deletion away"},
		{"metric-server", "metrics-server", "one insertion away, a name longer than the item"},
		{"local-storag", "local-storage", "within the length bound: one byte shorter"},
		{"servicelbxxx", "", "three bytes longer than servicelb: not below the bound of 3"},
		{"item-1-4-0=x", "", "issue 25's node: nothing near"},
		{"custm", "custom", "the first of the nearest in sorted order"},
	}
	s := newItemSuggester(known)
	for _, tc := range tests {
		for round := 0; round < 2; round++ { // the second answer comes from the memo
			if got := s.suggest(tc.item); got != tc.want {
				t.Errorf("suggest(%q) round %d = %q, want %q: %s", tc.item, round, got, tc.want, tc.reason)
			}
		}
	}
}

// TestItemSuggesterMatchesReference: the bounded, memoized search answers as the full one
// did, on generated names and items (typos, case changes, extensions, unrelated words).
func TestItemSuggesterMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	alphabet := "abcdeKLM-./"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		return string(b)
	}
	mutate := func(s string) string {
		b := []byte(s)
		switch rng.Intn(4) {
		case 0:
			if len(b) > 0 {
				i := rng.Intn(len(b))
				b = append(b[:i], b[i+1:]...)
			}
		case 1:
			i := rng.Intn(len(b) + 1)
			b = append(b[:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, b[i:]...)...)
		case 2:
			return strings.ToUpper(s)
		case 3:
			return s + ".yaml"
		}
		return string(b)
	}
	for round := 0; round < 300; round++ {
		known := map[string]bool{}
		for i := rng.Intn(12); i >= 0; i-- {
			known[word(1+rng.Intn(10))] = true
		}
		var names []string
		for k := range known {
			names = append(names, k)
		}
		sort.Strings(names)
		s := newItemSuggester(known)
		for i := 0; i < 20; i++ {
			item := word(rng.Intn(12))
			if rng.Intn(2) == 0 {
				item = mutate(mutate(names[rng.Intn(len(names))]))
			}
			want := suggestItemReference(item, known)
			if got := s.suggest(item); got != want {
				t.Fatalf("known %v, item %q: suggest %q, the full search %q", names, item, got, want)
			}
		}
	}
}
