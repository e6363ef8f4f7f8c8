package resolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/k3sconf/k3sconf/profile"
)

// serviceName is the systemd service k3s runs as: the unit read, else the product's unit
// for the command.
func (r *resolver) serviceName() string {
	if r.res.Unit != "" {
		return strings.TrimSuffix(path.Base(r.res.Unit), ".service")
	}
	return strings.TrimSuffix(r.p.Units[r.res.Command], ".service")
}

// notAnEdit are codes whose fix is about how k3sconf reads the node, not an edit of the unit.
var notAnEdit = map[string]bool{"unit-discovered": true, "unit-condition-not-evaluated": true}

// unitFixes makes every fix that edits a unit file end with the daemon-reload that makes
// systemd read the edit (without it, `systemctl restart` starts the old ExecStart and
// environment lines). A finding edits the unit when it points into the unit or one of its
// drop-ins; env files are read at each start and need no reload.
func (r *resolver) unitFixes() {
	units := map[string]bool{}
	for _, s := range r.res.Sources {
		if (s.Role == "unit" || s.Role == "unit-dropin") && s.Path != "" {
			units[s.Path] = true
		}
	}
	svc := r.serviceName()
	if svc == "" {
		return
	}
	reload := fmt.Sprintf("`systemctl daemon-reload && systemctl restart %s`", svc)
	for i := range r.res.Diagnostics {
		d := &r.res.Diagnostics[i]
		if d.Hint == "" || !units[d.Pos.File] || strings.Contains(d.Hint, "daemon-reload") || r.configFix[d.Code+" "+d.Pos.String()] || notAnEdit[d.Code] {
			continue
		}
		if plain := fmt.Sprintf("`systemctl restart %s`", svc); strings.Contains(d.Hint, plain) {
			d.Hint = strings.ReplaceAll(d.Hint, plain, reload)
			continue
		}
		d.Hint = strings.TrimRight(d.Hint, ". ") + ", then " + reload
	}
}

// wrongNameFix is the fix for a wrong name on the command cmdName. A rename to a flag the
// command does not have would send the user the wrong way: --no-deploy on an agent is
// "rename to disable" only on a server (k3s agent has no --disable; pkg/cli/cmds/agent.go),
// so there the fix is to remove it and set the replacement on the servers.
func (r *resolver) wrongNameFix(w *profile.WrongName, cmdName string) string {
	use := strings.TrimSpace(strings.SplitN(w.Use, ":", 2)[0])
	if use == "" || w.Kind != "key" {
		return w.Fix()
	}
	if cmd := r.p.Command(cmdName); cmd != nil && cmd.Lookup(use) == nil {
		return fmt.Sprintf("remove %s (and its value) — %s; %s %s has no --%s either: it is a server flag, so set %s on the servers", w.Name, w.Why, r.p.Program, cmdName, use, w.Use)
	}
	return w.Fix()
}
