package live

import (
	"context"
	"fmt"
	"os"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
)

// SystemBusSockets are where a system D-Bus (or systemd's private bus) listens on a live
// host; [HaveSystemBus] checks them before dialling, so hosts without systemd (containers,
// CI) fall back to files without a connection timeout.
var systemBusSockets = []string{"/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket", "/run/systemd/private"}

// HaveSystemBus reports whether the machine k3sconf runs on has a system bus to ask.
func HaveSystemBus() bool {
	if os.Getenv("DBUS_SYSTEM_BUS_ADDRESS") != "" {
		return true
	}
	for _, s := range systemBusSockets {
		if fi, err := os.Stat(s); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return true
		}
	}
	return false
}

// DBus is the live systemd of the machine k3sconf runs on, read over D-Bus with
// github.com/coreos/go-systemd/v22/dbus. It only reads unit properties: reading them needs
// no privileges, and k3sconf never asks systemd to change anything.
type DBus struct {
	conn *sddbus.Conn
}

// DialSystemd connects to the system bus (as root, to systemd's private socket when there is
// no bus daemon). Close it when done.
func DialSystemd(ctx context.Context) (*DBus, error) {
	c, err := sddbus.NewWithContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to systemd over D-Bus: %w", err)
	}
	return &DBus{conn: c}, nil
}

// Close closes the connection.
func (d *DBus) Close() { d.conn.Close() }

// Unit reads a unit's load and active state, NeedDaemonReload, ExecStart and MainPID.
func (d *DBus) Unit(ctx context.Context, name string) (*UnitState, error) {
	u, err := d.conn.GetUnitPropertiesContext(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("systemd unit %s: %w", name, err)
	}
	s, err := d.conn.GetUnitTypePropertiesContext(ctx, name, "Service")
	if err != nil {
		// A unit that is not loaded has no Service interface; the Unit properties still say so.
		s = nil
	}
	return unitStateFromProperties(u, s)
}
