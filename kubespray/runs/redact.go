package runs

import (
	"regexp"

	"github.com/k3sconf/k3sconf/ansible/runlog"
	"github.com/k3sconf/k3sconf/output"
)

// Redact hides the secrets the report quotes from its logs and the checkout: every name
// it prints (plays, tasks and handlers as logged or written, hosts, templates, notify
// topics), ansible-playbook's ERROR! lines (a malformed -e is echoed in one), the notes of
// what did not read and why a log could not be read. Each passes k3sconf's one redactor by
// its word rules (red.Scrub, docs/secrets.md): "login password=x", a URL with userinfo,
// '{"registry_password": "x"'. Task output is never read, so it needs none.
//
// It runs after Build: the runs are compared by the names as logged, and two tasks that
// differ only in a secret stay two tasks. With a redactor that hides nothing it changes
// nothing.
func (r *Report) Redact(red *output.Redactor) {
	if !red.On() {
		return
	}
	sc := red.Scrub
	all := func(xs []string) {
		for i := range xs {
			xs[i] = sc(xs[i])
		}
	}
	notes := func(ns []runlog.Note) {
		for i := range ns {
			ns[i].Message = sc(fieldValue(red, ns[i].Message))
		}
	}
	for i := range r.Unread {
		r.Unread[i].Log, r.Unread[i].Error = sc(r.Unread[i].Log), sc(r.Unread[i].Error)
	}
	seen := map[*runlog.Task]bool{}
	for _, run := range r.Runs {
		run.Source = sc(run.Source)
		for _, p := range run.Plays {
			p.Name = sc(p.Name)
			for _, t := range p.Tasks {
				if seen[t] {
					continue
				}
				seen[t] = true
				t.Name, t.Path = sc(t.Name), sc(t.Path)
				for _, res := range t.Results {
					res.Host, res.Delegated = sc(res.Host), sc(res.Delegated)
				}
			}
		}
		for i := range run.Recap {
			run.Recap[i].Host = sc(run.Recap[i].Host)
		}
		for i := range run.Slowest {
			run.Slowest[i].Task = sc(run.Slowest[i].Task)
		}
		notes(run.Errors)
		notes(run.Problems)
	}
	changes := func(cs []runlog.Change) {
		for i := range cs {
			cs[i].Play, cs[i].Task = sc(cs[i].Play), sc(cs[i].Task)
		}
	}
	for i := range r.Last {
		r.Last[i].Host = sc(r.Last[i].Host)
		changes(r.Last[i].EveryRun)
		changes(r.Last[i].New)
	}
	all(r.Missing)
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Message, f.Hint, f.Key = sc(f.Message), sc(f.Hint), red.Key(f.Key)
	}
	if r.Var == nil {
		return
	}
	v := r.Var
	v.Name = sc(v.Name)
	handler := func(h *Handler) {
		h.Role, h.Name, h.Display = sc(h.Role), sc(h.Name), sc(h.Display)
		h.By, h.Does, h.ByHand, h.From = sc(h.By), sc(h.Does), sc(h.ByHand), sc(h.From)
		all(h.Listen)
	}
	use := func(u *Use) {
		u.Role, u.Task, u.Display = sc(u.Role), sc(u.Task), sc(u.Display)
		all(u.Plays)
		all(u.Templates)
		all(u.Notify)
		for i := range u.Handlers {
			handler(&u.Handlers[i])
		}
	}
	if v.Uses != nil {
		for i := range v.Uses.Tasks {
			use(&v.Uses.Tasks[i])
		}
		for i := range v.Uses.Handlers {
			handler(&v.Uses.Handlers[i])
		}
	}
	for i := range v.Hosts {
		h := &v.Hosts[i]
		h.Host = sc(h.Host)
		for j := range h.Tasks {
			use(&h.Tasks[j].Use)
		}
		for j := range h.Handlers {
			handler(&h.Handlers[j].Handler)
		}
		if o := h.Owed; o != nil {
			o.FailedAt = sc(o.FailedAt)
			for j := range o.Tasks {
				use(&o.Tasks[j])
			}
			for j := range o.Handlers {
				handler(&o.Handlers[j])
			}
		}
	}
}

// fieldError is ansible-core's post-validation error of a playbook keyword (FieldAttributeBase
// in lib/ansible/playbook/base.py, 2.14: "the field '%s' has an invalid value (%s), and
// could not be converted to an %s. The error was: %s"): the value stands beside its name
// in parentheses, where no word rule sees the two together.
var fieldError = regexp.MustCompile(`the field '([^']*)' has an invalid value \((.*?)\), and could not be converted`)

// fieldValue judges the value a field error quotes by the field's name and its content
// (red.String), and teaches the redactor a hidden one so that the error's own text ("The
// error was: ...") quoting it again is redacted too.
func fieldValue(red *output.Redactor, msg string) string {
	m := fieldError.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	name, value := msg[m[2]:m[3]], msg[m[4]:m[5]]
	hidden := red.String(name, value)
	if hidden == value {
		return msg
	}
	red.Learn(name, value)
	red.Done()
	return msg[:m[4]] + hidden + msg[m[5]:]
}
