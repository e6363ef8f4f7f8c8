package live

import (
	"context"
	"fmt"
	"time"
)

// Systemd answers questions about a loaded unit. The real implementation talks to systemd
// over D-Bus ([DialSystemd]); tests use a fake.
type Systemd interface {
	Unit(ctx context.Context, name string) (*UnitState, error)
}

// UnitState is what systemd has loaded and running for a unit.
type UnitState struct {
	// LoadState is "loaded", "not-found", …; ActiveState "active", "inactive", "failed", ….
	LoadState, ActiveState string
	// NeedDaemonReload is true when a unit file or drop-in changed on disk after systemd
	// loaded it: the next start still uses the old definition.
	NeedDaemonReload bool
	// ExecStart holds the argv of each loaded ExecStart= command, argv[0] first, as systemd
	// stores it: before $VARIABLE expansion.
	ExecStart [][]string
	// MainPID is the service's main process, 0 when none.
	MainPID int
	// ActiveEnter is when the unit last became active (for Type=notify k3s, when it
	// reported ready: seconds after it started). ExecMainStart is when the main process
	// was started. Zero when unknown.
	ActiveEnter, ExecMainStart time.Time
}

// unitStateFromProperties decodes the org.freedesktop.systemd1.Unit and .Service properties
// as github.com/coreos/go-systemd/v22/dbus returns them (godbus variants' values).
func unitStateFromProperties(unit, service map[string]any) (*UnitState, error) {
	st := &UnitState{}
	st.LoadState, _ = unit["LoadState"].(string)
	st.ActiveState, _ = unit["ActiveState"].(string)
	st.NeedDaemonReload, _ = unit["NeedDaemonReload"].(bool)
	st.ActiveEnter = usecTime(unit["ActiveEnterTimestamp"])
	if service == nil {
		return st, nil
	}
	switch pid := service["MainPID"].(type) {
	case uint32:
		st.MainPID = int(pid)
	case int32:
		st.MainPID = int(pid)
	case int:
		st.MainPID = pid
	}
	st.ExecMainStart = usecTime(service["ExecMainStartTimestamp"])
	// ExecStart is a(sasbttttuii): path, argv, ignore-failure, start/stop timestamps, pid,
	// exit code, status. godbus gives structs inside variants as []any.
	if cmds, ok := service["ExecStart"].([][]any); ok {
		for _, c := range cmds {
			if len(c) < 2 {
				return nil, fmt.Errorf("ExecStart: unexpected shape %v", c)
			}
			argv, ok := c[1].([]string)
			if !ok {
				return nil, fmt.Errorf("ExecStart: argv is %T, want []string", c[1])
			}
			st.ExecStart = append(st.ExecStart, argv)
		}
	}
	return st, nil
}

// usecTime converts systemd's microseconds since the epoch; 0 is "never".
func usecTime(v any) time.Time {
	u, ok := v.(uint64)
	if !ok || u == 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(u)).UTC()
}
