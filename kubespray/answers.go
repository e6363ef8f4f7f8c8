package kubespray

import "sort"

// TagAnswer is what ansible-playbook --tags Tag does with the uses of a variable: the
// template and other tasks it runs that use it, and the handlers they notify.
type TagAnswer struct {
	Tag string
	// Rewrites are the template tasks that render a file using the variable (or use it in
	// their arguments).
	Rewrites []*TaskNode
	// Tasks are the other tasks that use it.
	Tasks []*TaskNode
	// Handlers are the handlers those tasks notify (they run whatever the tags, when the
	// task reports changed), and handlers that use the variable themselves and are
	// notified by a selected task.
	Handlers []HandlerRun
}

// anyTag is a tag no task carries: a task it selects runs under every --tags.
const anyTag = "\x00 any tag"

// Answers gives, for each tag that reaches a use, what --tags TAG does with it. Tasks that
// run under every --tags (always) are answered once, under Tag "" (first), and left out
// of the other answers.
func Answers(uses []Use) []TagAnswer {
	tags := []string{""}
	for _, u := range uses {
		tags = appendUniq(tags, u.Tags...)
	}
	sort.Strings(tags)
	var out []TagAnswer
	for _, tg := range tags {
		a := TagAnswer{Tag: tg}
		sel := func(n *TaskNode) bool {
			if tg == "" {
				return n.Selected([]string{anyTag}, nil)
			}
			return n.Selected([]string{tg}, nil) && !n.Selected([]string{anyTag}, nil)
		}
		seenT := map[string]bool{}
		seenH := map[*TaskNode]bool{}
		for _, u := range uses {
			for _, s := range u.Sites {
				if s.Task.Handler {
					for _, by := range s.NotifiedBy {
						if sel(by) && !seenH[s.Task] {
							seenH[s.Task] = true
							a.Handlers = append(a.Handlers, HandlerRun{Handler: s.Task, From: by, Does: describeHandler(s.Task)})
						}
					}
					continue
				}
				key := s.Task.DisplayName() + "\x00" + s.Task.Pos.String()
				if !sel(s.Task) || seenT[key] {
					continue
				}
				seenT[key] = true
				if s.Task.Action == "template" || (len(s.Task.Templates) > 0 && u.Kind == "template") {
					a.Rewrites = append(a.Rewrites, s.Task)
				} else {
					a.Tasks = append(a.Tasks, s.Task)
				}
				for _, h := range s.Handlers {
					if !seenH[h.Handler] && !seenHandlerAs(a.Handlers, h.Handler) {
						seenH[h.Handler] = true
						a.Handlers = append(a.Handlers, h)
					}
				}
			}
		}
		if len(a.Rewrites)+len(a.Tasks)+len(a.Handlers) > 0 {
			out = append(out, a)
		}
	}
	return out
}

// seenHandlerAs: the same handler of the same file, reached in another play.
func seenHandlerAs(hs []HandlerRun, h *TaskNode) bool {
	for _, x := range hs {
		if x.Handler.Pos == h.Pos && x.Handler.DisplayName() == h.DisplayName() {
			return true
		}
	}
	return false
}

// SelectedSites are the sites of uses that ansible-playbook --tags only --skip-tags skip
// runs (a handler site when one of its notifiers runs), in order: what a run log should
// show for the variable. Match them to a log by Task.Play().Name and Task.DisplayName()
// ("TASK [role : name]", "RUNNING HANDLER [role : name]").
func SelectedSites(uses []Use, only, skip []string) []TaskSite {
	var out []TaskSite
	for _, u := range uses {
		for _, s := range u.Sites {
			if !s.Task.Handler {
				if s.Task.Selected(only, skip) {
					out = append(out, s)
				}
				continue
			}
			for _, by := range s.NotifiedBy {
				if by.Selected(only, skip) {
					out = append(out, s)
					break
				}
			}
		}
	}
	return out
}
