package kubespray

import (
	"strings"
)

// Notified lists the handlers of the play that a task's notify: reaches, and those the
// reached handlers notify in turn, each once, in the order found. A notify name reaches
// the last handler loaded whose name, or "role : name", it is, and every handler listening
// to it (ansible-core 2.14 plugins/strategy/__init__.py _process_pending_results and
// search_handler_blocks_by_name). A name that is templated or reaches nothing is left out
// (ansible warns "The requested handler … was not found").
func (pl *TreePlay) Notified(n *TaskNode) []HandlerRun {
	var out []HandlerRun
	seen := map[*TaskNode]bool{}
	queue := []*TaskNode{n}
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		for _, name := range from.Notify {
			for _, h := range pl.handlersFor(name) {
				if seen[h] {
					continue
				}
				seen[h] = true
				out = append(out, HandlerRun{Handler: h, By: name, From: from, Does: describeHandler(h)})
				queue = append(queue, h)
			}
		}
	}
	return out
}

// handlersFor is what one notify entry reaches: the named handler (the last one loaded
// wins), then every listener.
func (pl *TreePlay) handlersFor(name string) []*TaskNode {
	var out []*TaskNode
	for i := len(pl.Handlers) - 1; i >= 0; i-- {
		h := pl.Handlers[i]
		if h.Name != "" && (h.Name == name || h.Role+" : "+h.Name == name) {
			out = append(out, h)
			break
		}
	}
	for _, h := range pl.Handlers {
		for _, l := range h.Listen {
			if l == name {
				if len(out) == 0 || out[0] != h {
					out = append(out, h)
				}
				break
			}
		}
	}
	return out
}

// notifiers are the tasks of the play (not handlers) whose notifications reach handler h,
// directly or through other handlers.
func (pl *TreePlay) notifiers(h *TaskNode) []*TaskNode {
	if pl.notifierIdx == nil {
		// Once per play: every task's notifications, by the handler they reach.
		pl.notifierIdx = map[*TaskNode][]*TaskNode{}
		for _, t := range pl.Tasks {
			if len(t.Notify) == 0 {
				continue
			}
			seen := map[*TaskNode]bool{}
			for _, hr := range pl.Notified(t) {
				if !seen[hr.Handler] {
					seen[hr.Handler] = true
					pl.notifierIdx[hr.Handler] = append(pl.notifierIdx[hr.Handler], t)
				}
			}
		}
	}
	return pl.notifierIdx[h]
}

// describeHandler says what a handler does from its module and arguments as written.
func describeHandler(h *TaskNode) string {
	a := h.Args
	switch h.Action {
	case "service", "systemd", "systemd_service", "sysvinit", "ansible.posix.systemd", "community.general.systemd":
		name := a["name"]
		if name == "" {
			name = a["unit"]
		}
		verb := map[string]string{"restarted": "restarts", "reloaded": "reloads", "started": "starts", "stopped": "stops"}[a["state"]]
		dr := a["daemon_reload"]
		if dr == "" {
			dr = a["daemon-reload"]
		}
		reload := ""
		if b := strings.ToLower(dr); b == "true" || b == "yes" || b == "1" {
			reload = "reloads systemd's unit files"
		}
		switch {
		case verb != "" && name != "" && reload != "":
			return reload + " and " + verb + " " + name
		case verb != "" && name != "":
			return verb + " " + name
		case reload != "":
			return reload
		}
		return h.Action + " " + name
	case "command", "shell", "raw":
		cmd := a["_raw_params"]
		if cmd == "" {
			cmd = a["cmd"]
		}
		if cmd == "" {
			cmd = a["argv"]
		}
		return "runs `" + strings.TrimSpace(cmd) + "`"
	case "meta":
		return "meta " + a["_raw_params"]
	case "":
		return "(no module)"
	}
	return "runs module " + h.Action
}
