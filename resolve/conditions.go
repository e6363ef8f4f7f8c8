package resolve

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/sources"
)

// Conditions and assertions of the [Unit] section, as systemd.unit(5) (systemd 252)
// describes them: before starting the unit systemd checks every Condition…= and
// Assert…=; a "!" after the "=" negates one, a "|" makes it a triggering condition (the
// unit needs only one of those to hold, and all the others), and an empty assignment of any
// of them resets the whole list. A condition that fails skips the unit ("Condition check
// resulted in … being skipped"): the job succeeds and nothing runs. An assertion that fails
// fails the start job. Either way k3s never runs.
//
// Only the checks that need nothing but the node's files are evaluated (on the node, under
// --root); the others (ConditionVirtualization=, ConditionHost=, ConditionKernelCommandLine=,
// …) are listed in a note as not evaluated, and assumed to hold.
var fileConditions = map[string]func(fs afero.Fs, p string) bool{
	"PathExists": func(fs afero.Fs, p string) bool { _, err := fs.Stat(p); return err == nil },
	"PathExistsGlob": func(fs afero.Fs, p string) bool {
		m, err := afero.Glob(fs, p)
		return err == nil && len(m) > 0
	},
	"PathIsDirectory": func(fs afero.Fs, p string) bool { fi, err := fs.Stat(p); return err == nil && fi.IsDir() },
	"FileNotEmpty": func(fs afero.Fs, p string) bool {
		fi, err := fs.Stat(p)
		return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
	},
	"FileIsExecutable": func(fs afero.Fs, p string) bool {
		fi, err := fs.Stat(p)
		return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
	},
	"DirectoryNotEmpty": func(fs afero.Fs, p string) bool {
		ents, err := afero.ReadDir(fs, p)
		return err == nil && len(ents) > 0
	},
}

// binDirs are the folders whose missing files say nothing about the node (see above).
var binDirs = map[string]bool{"/usr/local/bin": true, "/usr/bin": true, "/bin": true, "/usr/sbin": true, "/sbin": true, "/usr/local/sbin": true, "/opt/bin": true}

type unitCondition struct {
	e                      sources.UnitEntry
	kind                   string // "Condition" or "Assert"
	check                  string // "PathExists"
	arg                    string
	negate, trigger, known bool
	holds                  bool
}

// checkConditions evaluates the unit's conditions and assertions over its files (main file
// first, then drop-ins). A failed one means k3s never runs: that is the refusal.
func (r *resolver) checkConditions(files []*sources.UnitFile, unit string) {
	var conds []unitCondition
	for _, f := range files {
		for _, e := range f.Entries {
			if e.Section != "Unit" {
				continue
			}
			kind := ""
			switch {
			case strings.HasPrefix(e.Key, "Condition"):
				kind = "Condition"
			case strings.HasPrefix(e.Key, "Assert"):
				kind = "Assert"
			default:
				continue
			}
			if e.Value == "" {
				conds = nil // an empty assignment resets every condition and assertion
				continue
			}
			c := unitCondition{e: e, kind: kind, check: strings.TrimPrefix(e.Key, kind)}
			v := e.Value
			if strings.HasPrefix(v, "|") {
				c.trigger, v = true, strings.TrimLeft(v[1:], " ")
			}
			if strings.HasPrefix(v, "!") {
				c.negate, v = true, strings.TrimLeft(v[1:], " ")
			}
			c.arg = v
			if fn := fileConditions[c.check]; fn != nil && path.IsAbs(v) && !strings.Contains(v, "%") {
				res := fn(r.fs, path.Clean(v))
				// A path that is absent counts only where the node's files hold its folder:
				// a bundle or --root copy without /usr/local/bin says nothing about k3s's
				// binary. A path that is there is evidence either way.
				// Binaries are left out of node copies as a rule (a bundle keeps the
				// scripts next to them, not the 70 MB k3s), so a missing file in a bin
				// folder is no evidence either.
				if fi, err := r.fs.Stat(path.Dir(path.Clean(v))); res || (err == nil && fi.IsDir() && !binDirs[path.Dir(path.Clean(v))]) {
					c.known = true
					c.holds = res != c.negate
				}
			}
			conds = append(conds, c)
		}
	}
	if len(conds) == 0 {
		return
	}
	var unknown []string
	for _, kind := range []string{"Assert", "Condition"} {
		var failed *unitCondition
		triggers, triggerHolds, triggerUnknown := 0, false, false
		var firstTrigger *unitCondition
		for i := range conds {
			c := &conds[i]
			if c.kind != kind {
				continue
			}
			if !c.known {
				continue
			}
			if c.trigger {
				triggers++
				triggerHolds = triggerHolds || c.holds
				if firstTrigger == nil {
					firstTrigger = c
				}
				continue
			}
			if !c.holds && failed == nil {
				failed = c
			}
		}
		for i := range conds {
			if c := &conds[i]; c.kind == kind && !c.known && c.trigger {
				triggerUnknown = true
			}
		}
		if failed == nil && triggers > 0 && !triggerHolds && !triggerUnknown {
			failed = firstTrigger
		}
		if failed == nil {
			continue
		}
		what := r.conditionText(failed)
		if kind == "Assert" {
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "unit-condition-unmet", Pos: failed.e.Pos,
				Message: fmt.Sprintf("%s=%s does not hold on this node (%s): systemd fails the start job of %s (\"Assertion failed\"), so k3s never runs", failed.e.Key, failed.e.Value, what, unit),
				Hint:    fmt.Sprintf("create what the assertion needs, or remove %s= from %s", failed.e.Key, failed.e.Pos.File)})
			r.fail(fmt.Sprintf("systemd: Assertion failed for %s: %s=%s (%s)", unit, failed.e.Key, failed.e.Value, what), failed.e.Pos)
		} else {
			r.diag(diag.Diagnostic{Severity: diag.Error, Code: "unit-condition-unmet", Pos: failed.e.Pos,
				Message: fmt.Sprintf("%s=%s does not hold on this node (%s): systemd skips %s (\"Condition check resulted in … being skipped\"), reports success, and k3s never runs", failed.e.Key, failed.e.Value, what, unit),
				Hint:    fmt.Sprintf("create what the condition needs, or remove %s= from %s", failed.e.Key, failed.e.Pos.File)})
			r.fail(fmt.Sprintf("systemd: %s is skipped: %s=%s is not met (%s)", unit, failed.e.Key, failed.e.Value, what), failed.e.Pos)
		}
		break
	}
	for _, c := range conds {
		if !c.known {
			unknown = append(unknown, c.e.Key+"="+c.e.Value)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		r.diag(diag.Diagnostic{Severity: diag.Info, Code: "unit-condition-not-evaluated", Pos: diag.Position{File: files[0].Path},
			Message: fmt.Sprintf("%s has conditions k3sconf could not evaluate from the node's files (a host check, or a path whose folder the files do not hold; assumed to hold): %s; if one fails on the machine, systemd skips the unit (a Condition) or fails it (an Assert), and k3s never runs", unit, strings.Join(unknown, ", ")),
			Hint:    fmt.Sprintf("on the node, `systemctl status %s` names a condition that failed", unit)})
	}
}

// conditionText says what the node's files show for a file condition.
func (r *resolver) conditionText(c *unitCondition) string {
	p := path.Clean(c.arg)
	_, err := r.fs.Stat(p)
	state := "it exists"
	if err != nil {
		state = "it does not exist"
	}
	if c.negate {
		return fmt.Sprintf("%s must not satisfy %s, and %s", p, c.check, state)
	}
	return fmt.Sprintf("%s: %s", p, state)
}
