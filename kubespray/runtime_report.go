package kubespray

import (
	"errors"
	"fmt"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/output"
)

// loadFacts reads the host's facts (Options.Facts). A file that cannot be read or parsed
// is a finding (the report goes on without facts: exit 3 when unreadable, 1 when it does
// not parse).
func (r *Report) loadFacts(o Options) *ansible.Facts {
	if o.Facts == "" {
		return nil
	}
	f, err := ansible.LoadFacts(o.Facts, o.Host)
	if err == nil && f == nil {
		r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "KS013", Pos: diag.Position{File: o.Facts},
			Message: fmt.Sprintf("no facts for %s in %s (no %s.json or %s there): conditions and file names on facts are listed per case, as without --facts", o.Host, o.Facts, o.Host, o.Host),
			Hint:    fmt.Sprintf("save them with: ansible -i INVENTORY %s -m setup > %s/%s.json", o.Host, o.Facts, o.Host)})
		return nil
	}
	if err != nil {
		var fe *ansible.FactsError
		d := diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: diag.Position{File: o.Facts},
			Message: "--facts: " + err.Error() + " (the report is made without facts)"}
		if !errors.As(err, &fe) {
			r.InputError = true
		} else {
			d.Code = "KS013"
			d.Hint = "give the output of `ansible -m setup HOST`, an ansible_facts dump, or a file of ansible's jsonfile fact cache"
			r.Invalid = true
		}
		r.Diagnostics = append(r.Diagnostics, d)
		return nil
	}
	return f
}

// SourceReason is why v's source is the value in force, as explain prints it: the
// highest-precedence assignment, and whether a set_fact or include_vars task of the run
// would beat it (v is ex.Var or the value of one of ex.Values). The source assignment's own
// Reason does not say the latter.
func (ex *Explained) SourceReason(v *ansible.Var) string {
	if v == nil || v.Source == nil {
		return ""
	}
	return sourceReason(v.Source, ex.pendingSets(v))
}

// sourceReason is the reason given to the value in force: the highest-precedence
// assignment, or (when a task of the run sets the variable and is not applied here) the
// highest before the run.
func sourceReason(a *ansible.Assignment, pending []RuntimeSet) string {
	switch {
	case a.Kind == ansible.KindSetFact || a.Kind == ansible.KindIncludeVars:
		return "set while the playbook runs, by a task before this use; the highest-precedence assignment here"
	case len(pending) == 0:
		return "the highest-precedence assignment for this host"
	}
	for _, s := range pending {
		if s.Runs == "yes" {
			return "the highest-precedence assignment before the run; a task below sets it while the play runs, which beats it"
		}
	}
	return "the highest-precedence assignment before the run; a task below may set it while the play runs, which would beat it"
}

// pendingSets are the run-time assignments that run (or may) and would beat v's source but
// are not in its history (not applied where v holds: after the use, or not sure to run).
func (ex *Explained) pendingSets(v *ansible.Var) []RuntimeSet {
	var out []RuntimeSet
	for _, s := range ex.SetAtRunTime {
		if s.Runs == "no" || v != nil && !beats(v.Source) {
			continue
		}
		applied := false
		if v != nil {
			for _, a := range v.History {
				applied = applied || a.Pos == s.Pos && (a.Kind == ansible.KindSetFact || a.Kind == ansible.KindIncludeVars)
			}
		}
		if !applied {
			out = append(out, s)
		}
	}
	return out
}

// Beats reports whether s, when it runs, replaces src for the tasks after it: set_fact
// and include_vars are above everything but role params, include params and extra vars.
func (s RuntimeSet) Beats(src *ansible.Assignment) bool { return beats(src) }

// SiteAfter reports whether a use site runs after the task of s (and so sees its value,
// when s runs).
func (r *Report) SiteAfter(st Site, s RuntimeSet) bool {
	if r.rt != nil {
		return r.rt.siteOrder(st) > s.order
	}
	return st.Play.Index > s.Play.Index
}

// learnRuntime teaches the redactor the secret strings the run-time sets of ex assign.
func learnRuntime(red *output.Redactor, ex *Explained) {
	for _, s := range ex.SetAtRunTime {
		walkSecrets(red, s.writtenName(ex.Name), s.Value, func(name, x string) { red.Learn(name, x) })
		walkSecrets(red, s.nameFor(ex.Name), s.Evaluated, func(name, x string) { red.Learn(name, x) })
	}
}

// redactRuntime redacts the run-time sets of ex by the one rule (redactNamed) and scrubs
// their texts.
func redactRuntime(red *output.Redactor, ex *Explained) {
	for i := range ex.SetAtRunTime {
		s := &ex.SetAtRunTime[i]
		s.Value = redactNamed(red, s.writtenName(ex.Name), s.Value)
		s.Evaluated = redactNamed(red, s.nameFor(ex.Name), s.Evaluated)
		s.Why = red.Scrub(s.Why)
	}
}
