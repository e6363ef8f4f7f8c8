package kubespray

import (
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
)

// ks007Fix is the fix of KS007 (a variable set only on a commented-out line of the
// inventory's group_vars): "remove the '#'" only where that would set it. The line would
// be an inventory value (group_vars: ansible-core 2.14's levels 3 and 5), which beats role
// defaults and nothing else: play vars and vars_files, role vars, task and block vars,
// include_vars, set_fact, role and include params and -e all beat it (vars/manager.py
// get_vars, then the task's own scope; the differentials of runtime_test.go check that a
// set_fact whose when: holds replaces the inventory's value for the tasks after it). So at
// each use site of the host the winner is sorted into one the line would beat (nothing,
// a role default) or one it would not; a run-time set_fact or include_vars that may run
// (its when: depends on facts) is named as a caveat.
func ks007Fix(name string, ex *Explained) string {
	strong, weak := aboveInventory(ex)
	caveat := ""
	for _, rs := range ex.SetAtRunTime {
		if rs.Runs == "unsure" {
			caveat = fmt.Sprintf(" (unless the %s at %s runs: it depends on %s, and it beats every inventory value)", rs.Kind, rs.Pos, strings.Join(orNames(rs.Facts), ", "))
			break
		}
	}
	if len(strong) == 0 {
		return "remove the '#' to set it" + caveat
	}
	a := strong[0]
	if a.Kind == ansible.KindExtra {
		if weak > 0 {
			return "remove the '#' to set it for the uses -e does not reach; where it does, extra vars beat every inventory value: change the -e"
		}
		return "removing the '#' would change nothing: -e sets it, and extra vars beat every inventory value: change the -e instead"
	}
	winner := winnerText(a, ex)
	if weak > 0 {
		return fmt.Sprintf("remove the '#' to set it for the uses nothing stronger sets; at the others %s wins over any inventory value (-e %s=… beats it)", winner, name)
	}
	more := ""
	if len(strong) > 1 {
		more = fmt.Sprintf(" (and %d more such sources at other uses)", len(strong)-1)
	}
	return fmt.Sprintf("removing the '#' would change nothing: %s%s beats every inventory value (ansible-core 2.14's precedence); to set it pass -e %s=… (extra vars beat it, on every host and in every play; -e @file.yml keeps its type)%s", winner, more, name, changeText(a, ex))
}

// ks002Hint is KS002's fix (the variable is set for a group the host is not in): adding the
// host to the group, or setting it in group_vars/all, gives it an inventory value, which
// changes nothing where a source above the inventory wins at every use.
func ks002Hint(name string, ex *Explained, hint string) string {
	strong, weak := aboveInventory(ex)
	if len(strong) == 0 || weak > 0 {
		return hint
	}
	if strong[0].Kind == ansible.KindExtra {
		return "an inventory value would change nothing here: -e sets it, and extra vars beat every inventory value"
	}
	return fmt.Sprintf("an inventory value would change nothing here: %s beats every inventory value; pass -e %s=… to set it (on every host and in every play)", winnerText(strong[0], ex), name)
}

// aboveInventory sorts the winners at the use sites the host runs (or at play level, for a
// variable no task uses): the distinct ones an inventory value would not beat, and the
// number of sites where one would.
func aboveInventory(ex *Explained) (strong []*ansible.Assignment, weak int) {
	var winners []*ansible.Assignment
	if len(ex.Values) > 0 {
		for _, g := range ex.Values {
			for _, s := range g.Sites {
				if !s.Runs() {
					continue
				}
				winners = append(winners, winnerOf(s.Var))
			}
		}
	} else {
		winners = append(winners, winnerOf(ex.Var))
	}
	seen := map[string]bool{}
	for _, a := range winners {
		if !beatsInventory(a) {
			weak++
			continue
		}
		if k := string(a.Kind) + "\x00" + a.Pos.String(); !seen[k] {
			seen[k] = true
			strong = append(strong, a)
		}
	}
	return strong, weak
}

// winnerOf is the assignment in force (nil when the variable is undefined).
func winnerOf(v *ansible.Var) *ansible.Assignment {
	if v == nil {
		return nil
	}
	return v.Source
}

// beatsInventory: an assignment of a kind above every inventory level (a commented-out
// group_vars line, uncommented, would not win over it). A playbook's group_vars/host_vars
// are ranked among the inventory's (KS003 is about them), not counted here.
func beatsInventory(a *ansible.Assignment) bool {
	if a == nil {
		return false
	}
	switch a.Kind {
	case ansible.KindRoleDefaults, ansible.KindInventory, ansible.KindGroupVars, ansible.KindHostVars:
		return false
	}
	return true
}

// winnerText names the winning assignment: its level as explain prints it, and where.
func winnerText(a *ansible.Assignment, ex *Explained) string {
	if rs := runtimeSetAt(a, ex); rs != nil {
		return fmt.Sprintf("the %s of task %q (%s)", rs.Kind, rs.Task.DisplayName(), rs.Pos)
	}
	return fmt.Sprintf("%s (%s)", a.Level, a.Pos)
}

// changeText says what else decides it: the run-time task's when:, or the place that sets
// it (play vars, role vars, task vars, params: files of the checkout or playbook).
func changeText(a *ansible.Assignment, ex *Explained) string {
	if rs := runtimeSetAt(a, ex); rs != nil {
		if len(rs.Task.When) > 0 {
			return fmt.Sprintf("; the task (%s) runs when: %s", rs.Task.Pos, strings.Join(rs.Task.When, " and "))
		}
		return ""
	}
	return ", or change it at " + a.Pos.String()
}

// runtimeSetAt is the set_fact or include_vars of ex that made a, if it is one.
func runtimeSetAt(a *ansible.Assignment, ex *Explained) *RuntimeSet {
	if a.Kind != ansible.KindSetFact && a.Kind != ansible.KindIncludeVars {
		return nil
	}
	for i := range ex.SetAtRunTime {
		if rs := &ex.SetAtRunTime[i]; rs.Pos == a.Pos && rs.Task != nil {
			return rs
		}
	}
	return nil
}

// ownRoleHint is KS011's fix: the inventory beats role defaults, but not role vars (of any
// role: ansible-core 2.14's level 11 is above every inventory level); -e beats both.
func ownRoleHint(name string, roleVars bool) string {
	if roleVars {
		return fmt.Sprintf("pass it as an extra var (-e %s=…, or -e @file.yml to keep its type) to give every role the same value: role vars beat every inventory value", name)
	}
	return "set the variable in the inventory (or with -e) to give every role the same value"
}
