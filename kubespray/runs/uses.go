package runs

import (
	"path/filepath"
	"strings"

	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/kubespray"
)

// Use is a task or handler of cluster.yml that uses the variable, directly or through a
// template it renders, with the handlers it notifies: one per task of a file, over the plays
// that run it ([kubespray.Use] Sites).
type Use struct {
	// Role is the role the task runs as ("container-engine/containerd"), "" for a play's
	// own task.
	Role string
	// Task is the task's name as written; Display is its name as ansible-playbook prints it
	// in "TASK [...]" or "RUNNING HANDLER [...]" ([kubespray.TaskNode.DisplayName]), what the
	// log is matched on.
	Task    string
	Display string
	Handler bool
	// Plays are the plays of cluster.yml that run it.
	Plays []string
	// Pos is where the task is (for a template, the task that renders it).
	Pos diag.Position
	// Templates are the templates under the role's templates/ that use the variable and that
	// the task renders, when the task uses the variable through them.
	Templates []string
	// Notify are the task's notify: entries (handler names or listen topics).
	Notify []string
	// Handlers are the handlers its notifications reach in the plays that run it, followed
	// through handlers that notify others ([kubespray.TreePlay.Notified]).
	Handlers []Handler
	// Sites are where's sites of the task, one per play and path reaching it.
	Sites []kubespray.TaskSite
}

// Handler is a handler some use notifies.
type Handler struct {
	Role    string
	Name    string
	Display string
	Listen  []string
	Pos     diag.Position
	// By is the notify: entry that reached it; Does says what it does ("restarts containerd").
	By   string
	Does string
	// ByHand is the shell command that does on the host what the handler does, when the
	// handler says it plainly: a systemd or service restart, reload, start or stop of a unit
	// named without Jinja ("systemctl daemon-reload && systemctl restart containerd"). ""
	// otherwise: a handler with a when:, a templated argument, any other module (a command
	// handler's line may need its environment:, chdir or Jinja, which the handler holds).
	ByHand string
	// From is the display name of the task or handler whose notify: names it; FromHandler is
	// set when that is a handler (it notifies only if it reports changed itself).
	From        string
	FromHandler bool
}

// Uses are the tasks that use a variable and the handlers they notify.
type Uses struct {
	Tasks    []Use
	Handlers []Handler
}

// Finder finds the tasks of the checkout in dir that use the variable name and the
// handlers they notify. [FindUses] is the one built on `kubespray where`; the runs report
// takes any.
type Finder func(dir, name string) (*Uses, error)

// FindUses is a [Finder] over [kubespray.Where]: the task sites of every use (the task, the
// template task rendering a template, the handler), merged per task of a file over the
// plays that run it, with the handlers where resolves for them (by name, "role : name" or
// listen:, in the play, as ansible-core 2.14 does).
func FindUses(dir, name string) (*Uses, error) {
	ws, err := kubespray.Where(dir, name)
	if err != nil {
		return nil, err
	}
	rolesDir := filepath.Join(dir, "roles")
	out := &Uses{}
	seen := map[string]int{}
	seenHandler := map[string]bool{}
	for _, w := range ws {
		for _, s := range w.Sites {
			n := s.Task
			k := n.Pos.String() + "\x00" + n.DisplayName()
			i, ok := seen[k]
			if !ok {
				i = len(out.Tasks)
				seen[k] = i
				out.Tasks = append(out.Tasks, Use{Role: n.Role, Task: n.Name, Display: n.DisplayName(), Handler: n.Handler, Pos: n.Pos, Notify: n.Notify})
			}
			u := &out.Tasks[i]
			u.Sites = append(u.Sites, s)
			if pl := n.Play(); pl != nil && !contains(u.Plays, pl.Name) {
				u.Plays = append(u.Plays, pl.Name)
			}
			if w.Kind == "template" {
				if rel, ok := templateRel(rolesDir, w.Role, w.Pos.File); ok && !contains(u.Templates, rel) {
					u.Templates = append(u.Templates, rel)
				}
			}
			for _, hr := range s.Handlers {
				h := Handler{Role: hr.Handler.Role, Name: hr.Handler.Name, Display: hr.Handler.DisplayName(), Listen: hr.Handler.Listen, Pos: hr.Handler.Pos, By: hr.By, Does: hr.Does, ByHand: byHand(hr.Handler)}
				if hr.From != nil && hr.From != n {
					h.From, h.FromHandler = hr.From.DisplayName(), hr.From.Handler
				}
				hk := h.Pos.String() + "\x00" + h.Display
				if !hasHandler(u.Handlers, hk) {
					u.Handlers = append(u.Handlers, h)
				}
				if !seenHandler[hk] {
					seenHandler[hk] = true
					out.Handlers = append(out.Handlers, h)
				}
			}
		}
	}
	return out, nil
}

func hasHandler(hs []Handler, key string) bool {
	for _, h := range hs {
		if h.Pos.String()+"\x00"+h.Display == key {
			return true
		}
	}
	return false
}

// Selected: ansible-playbook --tags only --skip-tags skip runs the use in some play (a
// handler when a task notifying it runs): [kubespray.SelectedSites] on its sites.
func (u Use) Selected(only, skip []string) bool {
	return len(kubespray.SelectedSites([]kubespray.Use{{Sites: u.Sites}}, only, skip)) > 0
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// templateRel is a template's path under its role's templates/ folder.
func templateRel(rolesDir, role, file string) (string, bool) {
	base := filepath.Join(rolesDir, filepath.FromSlash(role), "templates")
	rel, err := filepath.Rel(base, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// byHand is [Handler.ByHand] for the handler n, read from its module and arguments as
// written: the systemd module family (ansible-core 2.14's systemd_service, alias systemd)
// by systemctl, the service and sysvinit modules by service(8) (which is systemctl's
// front on a systemd host). A handler with a when: is left out: whether it would have run
// depends on the run.
func byHand(n *kubespray.TaskNode) string {
	if n == nil || len(n.When) > 0 {
		return ""
	}
	a := n.Args
	for _, v := range a {
		if ansible.IsTemplated(v) {
			return ""
		}
	}
	switch n.Action {
	case "systemd", "systemd_service", "service", "sysvinit":
		name := a["name"]
		if name == "" {
			name = a["unit"]
		}
		verb := map[string]string{"restarted": "restart", "reloaded": "reload", "started": "start", "stopped": "stop"}[a["state"]]
		if a["scope"] != "" && a["scope"] != "system" {
			return "" // systemctl --user: not for a person to guess
		}
		if n.Action == "service" || n.Action == "sysvinit" {
			if verb == "" || name == "" || strings.ContainsAny(name, " \t'\"$`;&|") {
				return ""
			}
			return "service " + name + " " + verb
		}
		dr := a["daemon_reload"]
		if dr == "" {
			dr = a["daemon-reload"]
		}
		var cmds []string
		switch strings.ToLower(dr) {
		case "true", "yes", "1", "on":
			cmds = append(cmds, "systemctl daemon-reload")
		}
		if verb != "" && name != "" {
			if strings.ContainsAny(name, " \t'\"$`;&|") {
				return ""
			}
			cmds = append(cmds, "systemctl "+verb+" "+name)
		}
		return strings.Join(cmds, " && ")
	}
	return ""
}
