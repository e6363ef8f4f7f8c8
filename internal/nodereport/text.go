package nodereport

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/noderecord"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
)

// origin renders where an assignment was made: "config /etc/…/config.yaml:3:24".
func origin(a *resolve.Assignment) string {
	if a == nil {
		return "default"
	}
	return string(a.Kind) + " " + a.Pos.String()
}

// Header prints what was resolved: product, command, version, unit and config.
func Header(w io.Writer, res *resolve.Result) {
	cmd := res.Command
	if res.Subcommand != "" {
		cmd += " " + res.Subcommand
	}
	fmt.Fprintf(w, "%s %s (%s %s, urfave/cli %s)\n", res.Product, cmd, res.Product, res.Version, res.Era)
	if res.Unit != "" {
		fmt.Fprintf(w, "unit:   %s\n", res.Unit)
	}
	if res.ConfigPath != "" {
		fmt.Fprintf(w, "config: %s (%s)\n", res.ConfigPath, res.ConfigWhy)
	}
}

// Show prints one line per key that is set (all keys with all), with its origin. The line
// that counts the findings is [FindingsSummary]'s, which the caller adds: the findings are
// more than the resolver's (package findings), and show must count what check lists.
func Show(w io.Writer, res *resolve.Result, red *output.Redactor, all bool) {
	Header(w, res)
	if res.Error != "" {
		fmt.Fprintf(w, "\n%s %s: %s\n", res.Product, res.RefusalPhrase(), red.Scrub(res.Error))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tFROM")
	shown := 0
	for _, k := range res.Keys {
		if k.Source == nil && !all {
			continue
		}
		shown++
		from := origin(k.Source)
		if n := contributors(k); n > 1 {
			from += fmt.Sprintf(" (+%d more)", n-1)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", k.Name(), report.FormatValue(noderecord.Value(k, red)), from)
	}
	tw.Flush()
	if shown == 0 {
		fmt.Fprintln(w, "(every key has its default; --all lists them)")
	}
}

// FindingsSummary counts findings as [CheckFindings] does (a refusal without an error
// finding counts as one error; notes too), for show: "2 warnings, 1 note; run `k3sconf
// check` for details." Nothing when there is nothing to count.
func FindingsSummary(w io.Writer, res *resolve.Result, all []diag.Diagnostic) {
	errors, warnings, notes := findingCounts(res, all)
	if errors+warnings+notes == 0 {
		return
	}
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{errors, "error"}, {warnings, "warning"}, {notes, "note"}} {
		if p.n > 0 {
			parts = append(parts, plural(p.n, p.word))
		}
	}
	fmt.Fprintf(w, "\n%s; run `k3sconf check` for details.\n", strings.Join(parts, ", "))
}

// findingCounts is what check's last line counts.
func findingCounts(res *resolve.Result, ds []diag.Diagnostic) (errors, warnings, notes int) {
	errors = countSeverity(ds, diag.Error)
	warnings = countSeverity(ds, diag.Warning)
	notes = countSeverity(ds, diag.Info)
	if res.Error != "" && errors == 0 {
		errors = 1
	}
	return errors, warnings, notes
}

// contributors counts the assignments whose items make up a list in force.
func contributors(k *resolve.Key) int {
	n := 0
	for _, a := range k.History {
		if a.Outcome == provenance.Applied || a.Outcome == provenance.Appended {
			n++
		}
	}
	return n
}

// PrintArgs prints the argv k3s parses, one argument per line with its origin.
func PrintArgs(w io.Writer, res *resolve.Result, red *output.Redactor) {
	args := Args(res, red)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, a := range res.Args {
		fmt.Fprintf(tw, "%s\t%s %s\n", shellQuote(args[i]), a.Kind, a.Pos)
	}
	tw.Flush()
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}();&|<>#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Sources prints every input considered, in precedence order.
func Sources(w io.Writer, res *resolve.Result) {
	Header(w, res)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ROLE\tSTATE\tPATH\tWHY")
	for _, s := range res.Sources {
		p := s.Path
		if p == "" {
			p = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Role, s.State, p, s.Why)
	}
	tw.Flush()
}

// Check prints the diagnostics, worst first, and returns how many errors and warnings
// there are.
func Check(w io.Writer, res *resolve.Result, red *output.Redactor) (errors, warnings int) {
	return CheckFindings(w, res, res.Diagnostics, red)
}

// CheckFindings is Check over a list of findings gathered beyond the resolver's (package
// findings adds the components' and status's).
func CheckFindings(w io.Writer, res *resolve.Result, all []diag.Diagnostic, red *output.Redactor) (errors, warnings int) {
	ds := sortedFindings(all)
	if res.Error != "" {
		fmt.Fprintf(w, "%s %s: %s\n", res.Product, res.RefusalPhrase(), red.Scrub(res.Error))
		if !res.ErrorPos.IsZero() {
			fmt.Fprintf(w, "  at %s\n", res.ErrorPos)
		}
		if n := res.AfterFixing(); n > 0 {
			fmt.Fprintf(w, "  and %s after fixing it (k3s reports one per restart; marked \"after fixing the above\")\n", plural(n, "more refusal"))
		}
		fmt.Fprintln(w)
	}
	writeFindings(w, ds, red)
	errors, warnings, notes := findingCounts(res, ds)
	if len(ds) == 0 && res.Error == "" {
		fmt.Fprintln(w, "no findings")
	} else {
		fmt.Fprintf(w, "\n%s, %s, %s\n", plural(errors, "error"), plural(warnings, "warning"), plural(notes, "note"))
	}
	return errors, warnings
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Findings prints diagnostics worst first (errors, then warnings, then notes; file order
// within each), with the fix under each one. The caller's slice is left as it is.
func Findings(w io.Writer, ds []diag.Diagnostic, red Scrubber) {
	writeFindings(w, sortedFindings(ds), red)
}

// sortedFindings is ds worst first, in their order within a severity.
func sortedFindings(ds []diag.Diagnostic) []diag.Diagnostic {
	sorted := append([]diag.Diagnostic{}, ds...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Severity.Rank() > sorted[j].Severity.Rank() })
	return sorted
}

func writeFindings(w io.Writer, ds []diag.Diagnostic, red Scrubber) {
	for _, d := range ds {
		fmt.Fprintf(w, "%s[%s] %s\n", d.Severity, d.Code, posOrDash(d.Pos))
		fmt.Fprintf(w, "  %s\n", red.Scrub(d.Message))
		if d.Hint != "" {
			fmt.Fprintf(w, "  fix: %s\n", red.Scrub(d.Hint))
		}
	}
}

// Scrubber removes secrets from text; *output.Redactor is one.
type Scrubber interface{ Scrub(string) string }

func posOrDash(p diag.Position) string {
	if p.IsZero() {
		return "-"
	}
	return p.String()
}

func countSeverity(ds []diag.Diagnostic, s diag.Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Explain tells the story of one key: the value in force, where it came from, and every
// other assignment in precedence order with what became of it.
func Explain(w io.Writer, res *resolve.Result, k *resolve.Key, red *output.Redactor) {
	r := noderecord.Redact(k, red)
	fmt.Fprintf(w, "%s = %s\n", r.Name(), report.FormatValue(r.Value()))
	if kind, pos, _, ok := r.Source(); !ok {
		def := k.Flag.Default
		switch {
		case k.Flag.Type == "stringslice" && def == "":
			def = "empty list"
		case def == "":
			def = `""`
		}
		fmt.Fprintf(w, "  from: the built-in default (%s)", def)
		if k.Flag.DefaultNote != "" {
			fmt.Fprintf(w, "; when it is empty, %s uses %s", res.Product, k.Flag.DefaultNote)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "  from: %s %s  %s\n", kind, pos, r.SourceText())
	}
	if r.Note() != "" {
		fmt.Fprintf(w, "  note: %s\n", r.Note())
	}
	if k.Flag.Critical && res.Command == "server" {
		what := "the same value"
		if k.Name() == "disable" {
			what = "the same choice for servicelb (the other items may differ)"
		}
		fmt.Fprintf(w, "  critical: every server of the cluster must use %s; %s refuses a server whose value differs when it joins (\"critical configuration value mismatch\")\n", what, res.Product)
	}
	if res.Error != "" {
		fmt.Fprintf(w, "  but %s %s: %s\n", res.Product, res.RefusalPhrase(), red.Scrub(res.Error))
	}
	if hist := slices.Collect(r.History(noderecord.Text)); len(hist) > 0 {
		fmt.Fprintln(w, "\n  every assignment, in precedence order (defaults, environment, config files, command line):")
		posW := 0
		for _, e := range hist {
			posW = max(posW, len(e.Pos.String()))
		}
		for i, e := range hist {
			fmt.Fprintf(w, "  %2d. %-6s  %-*s  %s\n", i+1, e.Kind, posW, e.Pos, e.Text)
			fmt.Fprintf(w, "      %s: %s\n", e.Outcome, e.Reason)
		}
	}
	if advice := r.Advice(); len(advice) > 0 {
		fmt.Fprintln(w, "\n  what to do:")
		for _, a := range advice {
			fmt.Fprintf(w, "  - %s\n", a)
		}
	}
	for _, d := range res.Diagnostics {
		if d.Key == k.Name() {
			fmt.Fprintf(w, "\n  %s[%s] %s\n", d.Severity, d.Code, red.Scrub(d.Message))
			if d.Hint != "" {
				fmt.Fprintf(w, "    fix: %s\n", red.Scrub(d.Hint))
			}
		}
	}
}

// ExplainStray prints the assignments of a name the command has no flag for: config keys k3s
// skipped, or arguments that made it refuse to start.
func ExplainStray(w io.Writer, res *resolve.Result, name string, red *output.Redactor) {
	var found []*resolve.Assignment
	for _, a := range res.Stray {
		n := strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(a.Name, "-"), ":"), "+")
		if n == name {
			found = append(found, a)
		}
	}
	if len(found) == 0 {
		return
	}
	fmt.Fprintf(w, "%s is set, but %s %s has no such flag:\n", name, res.Product, res.Command)
	prev := ""
	for i, a := range found {
		e := noderecord.Stray(name, a, prev, red)
		prev = noderecord.LastItem(a)
		fmt.Fprintf(w, "  %2d. %-6s  %s  %s\n", i+1, e.Kind, e.Pos, e.Text)
		fmt.Fprintf(w, "      %s: %s\n", e.Outcome, e.Reason)
	}
}
