package values

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// gen builds random charts, values files and spec.set maps as YAML text, so that YAML 1.1
// words, numbers in every notation, nulls, keys with dots and typed keys reach both Helm
// and the engine exactly as written.
type gen struct{ r *rand.Rand }

var (
	genKeys    = []string{"a", "b", "c", "image", "tag", "ports", "x.y", `"q.r"`, "yes", "on", "1", "1.50", "enabled", "Off", `"null"`}
	genScalars = []string{"1", "1.0", `"1"`, "yes", `"yes"`, "on", "off", "true", "False", "null", "~", "0x1F", "012", "1e3", `"8080"`, "''", "foo", `"a,b"`, "12345678901234567890", "-0", ".5", "-7", `"true"`, "y", "n", "NO", "2001-12-14", "1_000"}
	genSetStr  = []string{"true", "False", "null", "NULL", "1.5", "8080", "", "a,b", `a\,b`, "{x,y}", "{1,true}", "007", "0", "-3", "x=y", `back\slash`, "  sp"}
)

func (g gen) key() string { return genKeys[g.r.Intn(len(genKeys))] }

func (g gen) scalar() string { return genScalars[g.r.Intn(len(genScalars))] }

// value writes a YAML value at the indentation ind (a block map or an inline value).
func (g gen) value(b *strings.Builder, ind string, depth int) {
	switch n := g.r.Intn(10); {
	case n < 4 && depth < 3:
		b.WriteString("\n")
		g.mapping(b, ind+"  ", depth+1)
	case n == 4:
		items := make([]string, g.r.Intn(3))
		for i := range items {
			items[i] = g.scalar()
		}
		b.WriteString(" [" + strings.Join(items, ", ") + "]\n")
	case n == 5:
		b.WriteString(" {}\n")
	case n == 6:
		b.WriteString(" null\n")
	default:
		b.WriteString(" " + g.scalar() + "\n")
	}
}

func (g gen) mapping(b *strings.Builder, ind string, depth int) {
	seen := map[string]bool{}
	for i := 0; i < 1+g.r.Intn(3); i++ {
		k := g.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		b.WriteString(ind + k + ":")
		g.value(b, ind, depth)
	}
}

func (g gen) doc() string {
	var b strings.Builder
	g.mapping(&b, "", 0)
	if g.r.Intn(12) == 0 {
		b.WriteString("---\n")
		g.mapping(&b, "", 0)
	}
	return b.String()
}

// setKey is a --set key: plain keys joined by dots, sometimes an escaped dot or an index.
func (g gen) setKey() string {
	parts := make([]string, 1+g.r.Intn(3))
	for i := range parts {
		k := strings.Trim(g.key(), `"`)
		k = strings.ReplaceAll(k, ".", `\.`)
		if g.r.Intn(8) == 0 {
			k += "[" + strconv.Itoa(g.r.Intn(3)) + "]"
		}
		parts[i] = k
	}
	return strings.Join(parts, ".")
}

func (g gen) set() []SetArg {
	var out []SetArg
	seen := map[string]bool{}
	for i := 0; i < g.r.Intn(4); i++ {
		k := g.setKey()
		if seen[k] {
			continue
		}
		seen[k] = true
		if g.r.Intn(3) == 0 {
			out = append(out, SetArg{Key: k, Value: strconv.Itoa(g.r.Intn(20000) - 100), Int: true})
		} else {
			out = append(out, SetArg{Key: k, Value: genSetStr[g.r.Intn(len(genSetStr))]})
		}
	}
	// helm-controller sorts the keys.
	sortSet(out)
	return out
}

func sortSet(s []SetArg) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Key < s[j-1].Key; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (g gen) helmCase(i int) helmCase {
	c := helmCase{name: fmt.Sprintf("generated-%d", i), defaults: g.doc()}
	for j := 0; j < g.r.Intn(4); j++ {
		c.files = append(c.files, g.doc())
	}
	c.set = g.set()
	return c
}

// TestGeneratedAgainstHelm runs K3SCONF_HELM_CASES generated cases (default 100) on each
// Helm release, K3SCONF_HELM_SEED choosing the sequence.
func TestGeneratedAgainstHelm(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("K3SCONF_HELM_CASES"))
	if n <= 0 {
		n = 100
	}
	seed, _ := strconv.ParseInt(os.Getenv("K3SCONF_HELM_SEED"), 10, 64)
	ran := 0
	for _, o := range oracles {
		helm, ok := o.binary(t)
		if !ok {
			continue
		}
		ran++
		g := gen{rand.New(rand.NewSource(seed + int64(o.major)))}
		cases := make([]helmCase, n)
		for i := range cases {
			cases[i] = g.helmCase(i)
		}
		var mu sync.Mutex
		agree := 0
		var wg sync.WaitGroup
		work := make(chan helmCase)
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range work {
					if compare(t, helm, o, c) {
						mu.Lock()
						agree++
						mu.Unlock()
					}
				}
			}()
		}
		for _, c := range cases {
			work <- c
		}
		close(work)
		wg.Wait()
		t.Logf("%s: %d of %d generated cases agree (seed %d)", o.name, agree, n, seed)
	}
	if ran == 0 {
		t.Skip("no helm binary: set K3SCONF_HELM3_19_0, K3SCONF_HELM3_19_5, K3SCONF_HELM3, K3SCONF_HELM4")
	}
}
