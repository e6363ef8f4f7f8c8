package kubespray

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMatchLinesAsRegexp: the byte scan finds the same lines and columns as the word
// regexp where used to run on every line (a property test over generated files).
func TestMatchLinesAsRegexp(t *testing.T) {
	name := "bin_dir"
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	bits := []string{name, "x" + name, name + "_x", "_" + name, " ", "\n", "{{ ", " }}", "é", "\t", "a", "-", name + "9"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := r.IntN(20); j >= 0; j-- {
			b.WriteString(bits[r.IntN(len(bits))])
		}
		data := []byte(b.String())
		var want [][2]int
		sc := bufio.NewScanner(bytes.NewReader(data))
		ln := 0
		for sc.Scan() {
			ln++
			if loc := re.FindStringIndex(sc.Text()); loc != nil {
				want = append(want, [2]int{ln, loc[0] + strings.Index(sc.Text()[loc[0]:], name) + 1})
			}
		}
		if d := cmp.Diff(want, matchLines(data, name)); d != "" {
			t.Fatalf("%q (-regexp +scan):\n%s", data, d)
		}
	}
}
