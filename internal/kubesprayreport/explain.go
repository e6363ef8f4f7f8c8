package kubesprayreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/output"
)

// Text renders the explain report as `k3sconf explain` does: the value with its type and
// source, then every assignment in precedence order with what became of it.
func Text(w io.Writer, r *kubespray.Report) {
	fmt.Fprintf(w, "host %s; groups (merge order): %s", r.Host, strings.Join(r.Groups, ", "))
	if len(r.Added) > 0 {
		fmt.Fprintf(w, " (added at run time by kubespray's dynamic_groups: %s)", strings.Join(r.Added, ", "))
	}
	fmt.Fprintln(w)
	if r.Run != nil {
		n := 0
		var not []string
		for _, pr := range r.Run.Plays {
			if pr.Runs {
				n++
			} else {
				not = append(not, fmt.Sprintf("%q (hosts: %s)", pr.Play.Name, pr.Play.Hosts))
			}
		}
		fmt.Fprintf(w, "runs %d of the %d plays of cluster.yml", n, len(r.Run.Plays))
		if len(not) > 0 {
			fmt.Fprintf(w, "; not: %s", strings.Join(not, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, ex := range r.Vars {
		fmt.Fprintln(w)
		switch {
		case ex.NotUsed:
			fmt.Fprintf(w, "%s is used by no task, template or handler that %s runs\n", ex.Name, r.Host)
			writeMissed(w, r.Host, ex)
			if ex.Var == nil {
				fmt.Fprintf(w, "  and no play %s runs sets it at play level (the roles that define it do not run there)\n", r.Host)
			} else {
				if ex.Play != nil {
					fmt.Fprintf(w, "# no task on %s uses it; the value a task at play level of play %q (%s) would see:\n", r.Host, ex.Play.Name, ex.Play.Pos)
				}
				writeVar(w, r, ex, ex.Var)
				if ex.BeforePlay != nil {
					was := "undefined"
					if ex.Before != nil {
						was = ansible.Repr(ex.Before.Value) + " (from " + ex.Before.Source.Level + " " + ex.Before.Source.Pos.String() + ")"
					}
					joins := "the groups it is added to at run time"
					if len(r.Added) > 0 {
						joins += " (" + strings.Join(r.Added, ", ") + ")"
					}
					fmt.Fprintf(w, "  before that, at play %q (%s), where %s has not yet joined %s, it is %s\n",
						ex.BeforePlay.Play.Name, ex.BeforePlay.Play.Pos, r.Host, joins, was)
				}
			}
		case len(ex.Values) == 1:
			fmt.Fprintf(w, "# the same at every use site %s runs: %s\n", r.Host, siteSummary(ex.Values[0].Sites))
			writeVar(w, r, ex, ex.Var)
			writeSources(w, ex.Values[0])
			writeMissed(w, r.Host, ex)
		default:
			fmt.Fprintf(w, "# %s differs between the plays and roles that use it on %s (%d values):\n", ex.Name, r.Host, len(ex.Values))
			for i, g := range ex.Values {
				if i > 0 {
					fmt.Fprintln(w)
				}
				fmt.Fprintf(w, "# value %d of %d, at: %s\n", i+1, len(ex.Values), siteSummary(g.Sites))
				writeVar(w, r, ex, g.Var)
				writeSources(w, g)
			}
			writeMissed(w, r.Host, ex)
		}
		for _, d := range r.Diagnostics {
			if d.Key == ex.Name {
				printDiag(w, d)
			}
		}
	}
	first := true
	for _, d := range r.Diagnostics {
		if d.Key != "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nfindings about the inventory and checkout:")
			first = false
		}
		printDiag(w, d)
	}
}

// writeSources names the other assignments the same value comes from at other sites.
func writeSources(w io.Writer, g kubespray.ValueGroup) {
	if len(g.Sources) < 2 {
		return
	}
	fmt.Fprintf(w, "  the same value comes from different places at different sites:\n")
	for _, a := range g.Sources {
		n := 0
		for _, s := range g.Sites {
			if s.Var != nil && s.Var.Source.Pos == a.Pos && s.Var.Source.Level == a.Level {
				n++
			}
		}
		fmt.Fprintf(w, "    %s %s  %s  (%d sites)\n", a.Kind, a.Pos, a.Level, n)
	}
}

// writeVar prints one value with its source and every assignment.
func writeVar(w io.Writer, r *kubespray.Report, ex *kubespray.Explained, v *ansible.Var) {
	if v == nil && ex.Unread != nil {
		fmt.Fprintf(w, "%s is not known on %s: k3sconf did not expand the value set at %s (see the findings)\n", ex.Name, r.Host, ex.Unread)
		return
	}
	if v == nil {
		fmt.Fprintf(w, "%s is undefined on %s\n", ex.Name, r.Host)
		// A task may still set it while the play runs: say which.
		writeRuntimeSets(w, r, ex, nil)
		return
	}
	fmt.Fprintf(w, "%s = %s  (%s)\n", ex.Name, ansible.Repr(v.Value), r.TypeName(v))
	fmt.Fprintf(w, "  from: %s %s  %s\n", v.Source.Kind, v.Source.Pos, v.Source.Level)
	if len(ex.RefNames) > 0 && v == ex.Var {
		fmt.Fprintf(w, "  templated (shown as written, not evaluated); it uses:\n")
		for _, rn := range ex.RefNames {
			found := false
			for _, rv := range ex.Refs {
				if rv.Name == rn {
					found = true
					fmt.Fprintf(w, "    %s = %s  (%s)  from: %s %s  %s\n", rn, short(ansible.Repr(rv.Value)), r.TypeName(rv), rv.Source.Kind, rv.Source.Pos, rv.Source.Level)
				}
			}
			if !found {
				fmt.Fprintf(w, "    %s: not set by the inventory, -e or the play's roles (a fact, a magic or loop variable, or undefined)\n", rn)
			}
		}
	}
	fmt.Fprintf(w, "\n  every assignment, in precedence order (role defaults, inventory, group_vars, host_vars, play vars, role vars, task vars, include_vars, set_fact, role params, include params, extra vars):\n")
	width := 0
	for _, a := range v.History {
		if n := len(a.Kind); n > width {
			width = n
		}
	}
	for i, a := range v.History {
		fmt.Fprintf(w, "  %2d. %-*s %s  %s  %s\n", i+1, width, a.Kind, a.Pos, a.Level, ansible.Repr(a.Value))
		reason := a.Reason
		if a == v.Source {
			reason = ex.SourceReason(v)
		}
		fmt.Fprintf(w, "      %s: %s\n", a.Outcome, reason)
	}
	writeRuntimeSets(w, r, ex, v)
}

// siteSummary names the plays and roles of a group of sites, and how many sites:
// `3 use sites in play "P" (through group k8s_cluster, added at run time): role a, role b
// (if when: …)`.
func siteSummary(sites []kubespray.Site) string {
	type play struct {
		name  string
		roles []string
	}
	var plays []*play
	idx := map[*kubespray.PlayRun]*play{}
	for _, s := range sites {
		p := idx[s.Play]
		if p == nil {
			name := fmt.Sprintf("play %q", s.Play.Play.Name)
			if s.Play.Joined != "" {
				name += " (through group " + s.Play.Joined + ", added at run time)"
			}
			if s.Play.Unsure != "" {
				name += " (if " + s.Play.Unsure + ")"
			}
			p = &play{name: name}
			idx[s.Play] = p
			plays = append(plays, p)
		}
		role := "its own tasks"
		if s.Role != nil {
			role = s.Role.Path()
		}
		if len(s.Unsure) > 0 {
			role += " (if " + strings.Join(s.Unsure, "; ") + ")"
		}
		found := false
		for _, r := range p.roles {
			found = found || r == role
		}
		if !found {
			p.roles = append(p.roles, role)
		}
	}
	var parts []string
	for _, p := range plays {
		parts = append(parts, p.name+": "+strings.Join(p.roles, ", "))
	}
	n := len(sites)
	word := "sites"
	if n == 1 {
		word = "site"
	}
	return fmt.Sprintf("%d use %s in %s", n, word, strings.Join(parts, "; "))
}

// writeMissed lists the use sites the host does not run, and why (grouped by reason).
func writeMissed(w io.Writer, host string, ex *kubespray.Explained) {
	type miss struct {
		why   string
		where []string
	}
	var ms []*miss
	idx := map[string]*miss{}
	for _, s := range ex.Sites {
		if s.Runs() {
			continue
		}
		why := s.Skip
		if !s.Play.Runs {
			why = "play " + fmt.Sprintf("%q", s.Play.Play.Name) + " does not run on " + host + " (hosts: " + s.Play.Play.Hosts + ")"
		}
		m := idx[why]
		if m == nil {
			m = &miss{why: why}
			idx[why] = m
			ms = append(ms, m)
		}
		loc := s.Use.Pos.String()
		found := false
		for _, x := range m.where {
			found = found || x == loc
		}
		if !found {
			m.where = append(m.where, loc)
		}
	}
	if len(ms) == 0 {
		return
	}
	fmt.Fprintf(w, "  use sites %s does not run:\n", host)
	for _, m := range ms {
		where := m.where
		more := ""
		if len(where) > 3 {
			more = fmt.Sprintf(" and %d more", len(where)-3)
			where = where[:3]
		}
		fmt.Fprintf(w, "    %s: %s%s\n", m.why, strings.Join(where, ", "), more)
	}
}

func printDiag(w io.Writer, d diag.Diagnostic) {
	fmt.Fprintf(w, "\n  %s[%s]", d.Severity, d.Code)
	if !d.Pos.IsZero() {
		fmt.Fprintf(w, " %s:", d.Pos)
	}
	fmt.Fprintf(w, " %s\n", d.Message)
	if d.Hint != "" {
		fmt.Fprintf(w, "    fix: %s\n", d.Hint)
	}
}

// ExplainDoc is the --json document of `k3sconf kubespray explain`.
type explainDoc struct {
	output.Envelope
	Host          string             `json:"host"`
	Groups        []string           `json:"groups"`
	DynamicGroups []string           `json:"dynamicGroups"`
	Keys          map[string]*keyDoc `json:"keys"`
	// Plays are the plays of cluster.yml in order, and whether the host runs each.
	Plays       []playRunDoc        `json:"plays"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
}

// PlayRunDoc is one play of cluster.yml for the host.
type playRunDoc struct {
	playDoc
	Hosts string `json:"hosts"`
	Runs  bool   `json:"runs"`
	// JoinedThrough names the group, added at run time, through which the host runs it.
	JoinedThrough string `json:"joinedThrough,omitempty"`
	Unsure        string `json:"unsure,omitempty"`
}

// KeyDoc is one variable, shaped as a key of `show --json` (value, source, history) plus
// its Python type, the play it was resolved for and the variables a template uses.
type keyDoc struct {
	Value   any                `json:"value"`
	Type    string             `json:"type"`
	Defined bool               `json:"defined"`
	Source  output.Source      `json:"source"`
	History []output.History   `json:"history"`
	Play    *playDoc           `json:"play,omitempty"`
	Refs    map[string]*refDoc `json:"refs,omitempty"`
	// Used is false when the host runs none of the variable's use sites (value and
	// source are then those of a task at play level of play).
	Used bool `json:"used"`
	// DistinctValues is the number of different values (value and type) at the use sites
	// the host runs.
	DistinctValues int `json:"distinctValues"`
	// UseSites are the tasks, templates and handlers using the variable, once per play
	// and role run that runs them (or would: runs false, with skip saying why).
	UseSites []useSiteDoc `json:"useSites"`
	// SetAtRunTime are the set_fact and include_vars tasks assigning it (runtime_render.go).
	SetAtRunTime []runtimeSetDoc `json:"setAtRunTime"`
	// Before, for a variable no task of the host uses, is its value at play level of an
	// earlier play the host runs before it joins the groups kubespray adds at run time,
	// when that differs from the one shown (the text's "before that, at play …").
	Before *beforeDoc `json:"before,omitempty"`
}

// BeforeDoc is Explained.Before: the play, the groups not yet joined there, the value.
type beforeDoc struct {
	Play    playDoc        `json:"play"`
	Joins   []string       `json:"joins"`
	Defined bool           `json:"defined"`
	Value   any            `json:"value"`
	Type    string         `json:"type"`
	Source  *output.Source `json:"source,omitempty"`
}

// UseSiteDoc is one use site as one play and role run it on the host.
type useSiteDoc struct {
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	Kind   string   `json:"kind"`
	Task   string   `json:"task,omitempty"`
	Play   playDoc  `json:"play"`
	Role   string   `json:"role,omitempty"`
	Runs   bool     `json:"runs"`
	Skip   string   `json:"skip,omitempty"`
	Unsure []string `json:"unsure,omitempty"`
	// Joined names the group, added at run time, through which the host runs the play.
	Joined  string         `json:"joinedThrough,omitempty"`
	Value   any            `json:"value,omitempty"`
	Type    string         `json:"type,omitempty"`
	Defined bool           `json:"defined"`
	Source  *output.Source `json:"source,omitempty"`
}

// PlayDoc names a play.
type playDoc struct {
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// RefDoc is a variable a template uses, one level down.
type refDoc struct {
	Value   any            `json:"value"`
	Type    string         `json:"type"`
	Defined bool           `json:"defined"`
	Source  *output.Source `json:"source,omitempty"`
}

func source(a *ansible.Assignment) output.Source {
	return output.Source{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column, Name: a.Level}
}

// JSON builds the --json document of `k3sconf kubespray explain`, for encoding/json
// (docs/schema/kubespray-explain.schema.json describes it).
func JSON(r *kubespray.Report) any { return explainJSON(r) }

func explainJSON(r *kubespray.Report) *explainDoc {
	d := &explainDoc{Envelope: output.NewEnvelope("kubespray", "kubespray explain", "kubespray explain"),
		Host: r.Host, Groups: r.Groups, DynamicGroups: r.Added, Keys: map[string]*keyDoc{}, Diagnostics: []output.Diagnostic{}}
	if d.Groups == nil {
		d.Groups = []string{}
	}
	if d.DynamicGroups == nil {
		d.DynamicGroups = []string{}
	}
	for _, ex := range r.Vars {
		k := &keyDoc{History: []output.History{}, Source: output.Source{Kind: "undefined"}, Type: "undefined"}
		if ex.Play != nil {
			k.Play = &playDoc{Name: ex.Play.Name, File: ex.Play.Pos.File, Line: ex.Play.Pos.Line}
		}
		if v := ex.Var; v != nil {
			k.Defined = true
			k.Value = ansible.ToJSONValue(v.Value)
			k.Type = r.TypeName(v)
			k.Source = source(v.Source)
			for _, a := range v.History {
				if a == v.Source {
					continue
				}
				k.History = append(k.History, output.History{Kind: string(a.Kind), File: a.Pos.File, Line: a.Pos.Line, Column: a.Pos.Column,
					Name: a.Level, Raw: a.Raw, Value: ansible.Repr(a.Value), Outcome: string(a.Outcome), Reason: a.Reason})
			}
			if len(ex.RefNames) > 0 {
				k.Refs = map[string]*refDoc{}
				for _, rn := range ex.RefNames {
					rd := &refDoc{Type: "undefined"}
					for _, rv := range ex.Refs {
						if rv.Name == rn {
							s := source(rv.Source)
							rd = &refDoc{Value: ansible.ToJSONValue(rv.Value), Type: r.TypeName(rv), Defined: true, Source: &s}
						}
					}
					k.Refs[rn] = rd
				}
			}
		}
		k.Used = !ex.NotUsed
		if ex.NotUsed && ex.Var != nil && ex.BeforePlay != nil {
			b := &beforeDoc{Play: playDoc{Name: ex.BeforePlay.Play.Name, File: ex.BeforePlay.Play.Pos.File, Line: ex.BeforePlay.Play.Pos.Line},
				Joins: nonNilStrings(r.Added), Type: "undefined"}
			if v := ex.Before; v != nil {
				src := source(v.Source)
				b.Defined, b.Value, b.Type, b.Source = true, ansible.ToJSONValue(v.Value), r.TypeName(v), &src
			}
			k.Before = b
		}
		k.SetAtRunTime = runtimeDocs(ex)
		k.DistinctValues = len(ex.Values)
		k.UseSites = []useSiteDoc{}
		for _, st := range ex.Sites {
			u := useSiteDoc{File: st.Use.Pos.File, Line: st.Use.Pos.Line, Column: st.Use.Pos.Column, Kind: st.Use.Kind, Task: st.Use.Task,
				Play: playDoc{Name: st.Play.Play.Name, File: st.Play.Play.Pos.File, Line: st.Play.Play.Pos.Line},
				Runs: st.Runs(), Skip: st.Skip, Joined: st.Play.Joined}
			u.Unsure = append(u.Unsure, st.Unsure...)
			if st.Play.Unsure != "" {
				u.Unsure = append(u.Unsure, st.Play.Unsure)
			}
			if !st.Play.Runs && u.Skip == "" {
				u.Skip = "the play does not run on " + r.Host
			}
			if st.Role != nil {
				u.Role = st.Role.Path()
			}
			if st.Runs() {
				u.Type = "undefined"
				if v := st.Var; v != nil {
					u.Defined, u.Value, u.Type = true, ansible.ToJSONValue(v.Value), ansible.TypeName(v.Value)
					src := source(v.Source)
					u.Source = &src
				}
			}
			k.UseSites = append(k.UseSites, u)
		}
		d.Keys[ex.Name] = k
	}
	d.Plays = []playRunDoc{}
	if r.Run != nil {
		for _, pr := range r.Run.Plays {
			d.Plays = append(d.Plays, playRunDoc{playDoc: playDoc{Name: pr.Play.Name, File: pr.Play.Pos.File, Line: pr.Play.Pos.Line},
				Hosts: pr.Play.Hosts, Runs: pr.Runs, JoinedThrough: pr.Joined, Unsure: pr.Unsure})
		}
	}
	for _, dg := range r.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, output.Diagnostic{Severity: string(dg.Severity), Code: dg.Code, File: dg.Pos.File, Line: dg.Pos.Line,
			Column: dg.Pos.Column, Key: dg.Key, Message: dg.Message, Hint: dg.Hint})
	}
	return d
}

func nonNilStrings(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// short keeps a referenced value to one readable line (--json has it whole).
func short(s string) string {
	if len(s) > 160 {
		return s[:150] + "… (" + fmt.Sprint(len(s)) + " chars; --json has all)"
	}
	return s
}
