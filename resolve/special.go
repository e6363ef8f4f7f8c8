package resolve

import (
	"fmt"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// specialOutcome says what the product does with a path that is a FIFO, a socket or a device
// where it expects a file, and whether that stops it from running. k3sconf itself never reads
// such a path (see rootfs.ReadFile).
//
// k3s reads config files with os.ReadFile (pkg/configfilearg/parser.go readConfigFile), an
// ordinary blocking open and read. systemd 252, checked with `systemd --test` on this
// project's CI image: a unit file that is a FIFO or socket is not taken as a unit ("Unit
// k3s.service not found"); one that is a character or block device counts as masked
// (null_or_empty in src/basic/stat-util.c treats every device as /dev/null); a drop-in that is
// a FIFO makes systemd wait for a writer while it loads units, a device is read to its end
// (/dev/null: empty; /dev/zero: never ends), a socket cannot be opened and the drop-in is
// skipped. EnvironmentFile= is read by the service manager when the service starts
// (exec_spawn → exec_context_load_environment → load_env_file, src/core/execute.c and
// src/basic/env-file.c): an ordinary blocking open, so a FIFO holds the start until a writer
// comes; a socket fails to open and the start fails unless the path has the '-' prefix.
func specialOutcome(role, kind, program string) (what string, stops bool) {
	switch role {
	case "config", "config-dropin":
		switch kind {
		case "FIFO":
			return fmt.Sprintf("%s blocks at start reading it (os.ReadFile waits for a writer) and never gets to run", program), true
		case "socket":
			return fmt.Sprintf("%s cannot open it (\"no such device or address\") and refuses to start", program), true
		default:
			return fmt.Sprintf("%s reads the device to its end as YAML (/dev/null reads as an empty file; /dev/zero or a terminal never ends)", program), false
		}
	case "unit":
		switch kind {
		case "FIFO", "socket":
			return "systemd does not take it as a unit file: the unit is \"not found\" and the service cannot be started", true
		default:
			return "systemd counts a unit file that is a device as masked (as a link to /dev/null): the service cannot be started", true
		}
	case "unit-dropin":
		switch kind {
		case "FIFO":
			return "systemd waits for a writer while it loads units (boot, daemon-reload) and hangs there", false
		case "socket":
			return "systemd cannot open it and loads the unit without this drop-in", false
		default:
			return "systemd reads the device to its end (/dev/null is an empty drop-in; /dev/zero never ends and systemd hangs)", false
		}
	case "host-file":
		// /etc/hostname, /etc/machine-id, /etc/os-release: what the unit's specifiers (and
		// the node name from the host name) would be is unknown.
		return "the values it holds (host name, machine ID or OS release, for the unit's specifiers) are unknown", false
	case "envfile":
		switch kind {
		case "FIFO":
			return "systemd opens it when the service starts and the start waits until a writer opens the FIFO", false
		case "socket":
			return "systemd cannot open it when the service starts and the start fails, unless EnvironmentFile= has the '-' prefix", false
		default:
			return "systemd reads the device to its end when the service starts (/dev/null sets nothing)", false
		}
	}
	return "", false
}

// notRegular records a path k3sconf will not read because it is not a regular file: the
// report is incomplete (input-unreadable, as for a permission error), and the finding says what
// the product would do with it.
func (r *resolver) notRegular(stage int, role string, nr *rootfs.NotRegularError, pos diag.Position) {
	what, stops := specialOutcome(role, nr.Kind, r.p.Program)
	if pos.File == "" {
		pos.File = nr.Path
	}
	r.res.incomplete = true
	for _, d := range r.res.Diagnostics {
		// The wrapper's early read and the config reader meet the same file: say it once.
		if d.Code == "input-unreadable" && d.Pos == pos {
			return
		}
	}
	msg := fmt.Sprintf("%s is a %s, not a regular file: k3sconf does not read it (a read could wait forever), so what it would set is missing from this report; %s",
		nr.Path, nr.Kind, what)
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: pos, Message: msg,
		Hint: fmt.Sprintf("replace %s with a regular file", nr.Path)})
	if stops {
		r.failAt(stage, fmt.Sprintf("%s is a %s: %s", nr.Path, nr.Kind, what), pos)
	}
}
