package ansible

import "github.com/k3sconf/k3sconf/provenance"

// The sources a task gets beyond those of its play and role: its own vars: and those of
// its blocks and includes (task vars), the include_vars and set_fact results of tasks that
// ran before it on the host, and the vars: of the include_tasks/include_role that loaded
// it (include params). ansible-core 2.14 vars/manager.py get_vars merges them, for a task,
// after the task's role vars: task.get_vars() ("task vars"), the host's _vars_cache
// ("include_vars"), its _nonpersistent_fact_cache ("set_fact"), then the task's role's
// params and task.get_include_params() ("include params"), then extra vars. Task.get_vars
// (playbook/task.py) and Block.get_vars (playbook/block.py) merge the parent's vars first
// and their own last, so an inner block beats an outer one and the task beats its blocks;
// Task.get_include_params takes the vars of every include_tasks/include_role above
// (C._ACTION_ALL_INCLUDES), not of import_tasks. Read in ansible-core 2.14.18 (Debian 12's
// ansible-core, the ansible/ansible v2.14.18 tag).

// kindRank is the place of a kind in get_vars' order (higher wins).
func kindRank(k provenance.Kind) int {
	switch k {
	case KindRoleDefaults:
		return 0
	case KindInventory, KindGroupVars, KindHostVars:
		return 1
	case KindPlayVars:
		return 2
	case KindRoleVars:
		return 3
	case KindTaskVars:
		return 4
	case KindIncludeVars:
		return 5
	case KindSetFact:
		return 6
	case KindRoleParams:
		return 7
	case KindIncludeParams:
		return 8
	case KindExtra:
		return 9
	}
	return 1
}

// Overlay returns v (nil: undefined) with the assignments adds merged at their precedence
// level, as a task sees the variable: each add is placed after every assignment of its
// kind or a lower one (adds of one kind in the order given, lowest first), and the value
// in force is settled again. v is not changed (its assignments are copied); with no adds
// v itself is returned.
func Overlay(v *Var, name string, adds []*Assignment) *Var {
	if len(adds) == 0 {
		return v
	}
	out := &Var{Name: name}
	if v != nil {
		for _, a := range v.History {
			c := *a
			out.History = append(out.History, &c)
		}
	}
	for _, a := range adds {
		c := *a
		i := len(out.History)
		for i > 0 && kindRank(out.History[i-1].Kind) > kindRank(c.Kind) {
			i--
		}
		out.History = append(out.History, nil)
		copy(out.History[i+1:], out.History[i:])
		out.History[i] = &c
	}
	settle(out, false)
	return out
}

// NewAssignment is an assignment of a value (as written or as evaluated) at pos, for
// [Overlay].
func NewAssignment(kind provenance.Kind, pos provenance.Position, value any, level, scope, raw string) *Assignment {
	return &Assignment{Assignment: provenance.Assignment[any]{Source: provenance.Source{Kind: kind, Pos: pos}, Value: value}, Level: level, Scope: scope, Raw: raw}
}
