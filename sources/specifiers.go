package sources

import (
	"path"
	"strings"
)

// Host is what the node's own files say about the values of systemd's host-dependent
// specifiers. A field that is "" with its Has* flag false is unknown: the specifier stays as
// written, with a unit-specifier finding saying why.
type Host struct {
	// Hostname is the first line of /etc/hostname: systemd sets the kernel host name from it
	// at boot (hostname_setup), and %H reads the kernel host name.
	Hostname    string
	HasHostname bool
	// PrettyHostname is PRETTY_HOSTNAME from /etc/machine-info (%q); "" falls back to the
	// host name.
	PrettyHostname string
	// MachineID is /etc/machine-id (%m).
	MachineID    string
	HasMachineID bool
	// OSRelease holds /etc/os-release (or /usr/lib/os-release); nil when neither exists.
	OSRelease map[string]string
	// FragmentPath is the unit file's node path (%y, %Y); "" takes the first file given.
	FragmentPath string
	// BootID (%b), KernelRelease (%v) and Arch (%a, systemd's name: x86-64, arm64) are not in
	// a node's files; only a caller looking at the running machine sets them.
	BootID, KernelRelease, Arch string
	// Unreadable are the files above that exist but could not be read (a FIFO, a device, no
	// permission). Their specifiers stay as written, but without a unit-specifier finding:
	// the caller reports the file itself (input-unreadable), and one cause is one finding —
	// "which the node does not have" would be untrue besides.
	Unreadable []string
}

// unreadSpecifier marks, in the map of [SystemSpecifiers], a letter whose file exists but
// could not be read: expandSpecifiers leaves it as written and does not report it missing.
const unreadSpecifier = "\x00unreadable"

// specifierFiles are the node files each host-dependent specifier's value comes from.
var specifierFiles = map[string]string{
	"/etc/hostname": "Hlq", "/etc/machine-id": "m", "/etc/os-release": "owBWAM", "/usr/lib/os-release": "owBWAM",
}

// specifierUnknown says why a specifier systemd knows has no value k3sconf can know from the
// node's files. Values are what the finding says.
var specifierUnknown = map[byte]string{
	'a': "the architecture of the running system (uname -m, as systemd names it: x86-64, arm64, …) is not in the node's files",
	'b': "the boot ID changes at every boot and is not in the node's files",
	'v': "the kernel release of the running kernel (uname -r) is not in the node's files",
	'H': "the host name comes from /etc/hostname, which the node does not have",
	'l': "the host name comes from /etc/hostname, which the node does not have",
	'q': "the host name comes from /etc/machine-info or /etc/hostname, which the node does not have",
	'm': "the machine ID comes from /etc/machine-id, which the node does not have (or is not 32 hex digits)",
	'o': "the OS release comes from /etc/os-release, which the node does not have",
	'w': "the OS release comes from /etc/os-release, which the node does not have",
	'B': "the OS release comes from /etc/os-release, which the node does not have",
	'W': "the OS release comes from /etc/os-release, which the node does not have",
	'A': "the OS release comes from /etc/os-release, which the node does not have",
	'M': "the OS release comes from /etc/os-release, which the node does not have",
}

// SystemSpecifiers returns the value of every specifier systemd 252 expands in a system
// unit's settings (systemd.unit(5) "Specifiers"; the table of unit_full_printf_full in
// src/core/unit-printf.c with COMMON_SYSTEM_SPECIFIERS, COMMON_CREDS_SPECIFIERS and
// COMMON_TMP_SPECIFIERS from src/shared/specifier.h, v252), each checked against `systemd
// --test` (sources/systemd_diff_test.go). Letters whose value k3sconf cannot know from the
// node's files are absent (see specifierUnknown); letters systemd does not know are an error
// (expandSpecifiers).
//
// Values that are the same on every system for the system manager:
//
//	%t /run  %S /var/lib  %C /var/cache  %L /var/log  %E /etc  %T /tmp  %V /var/tmp
//	%u root  %U 0  %g root  %G 0  (the system manager's credentials, not the User= of the unit)
//	%h /root  %s /bin/sh  (PID 1 runs as root without $HOME or $SHELL: get_home_dir and
//	          get_shell fall back to root's built-in values)
//	%d /run/credentials/<unit>
//	%c /<unit>, %r "" and %R "": deprecated cgroup specifiers; the slice is not yet assigned
//	          when the unit file is parsed, so systemd expands them to these (and warns)
func SystemSpecifiers(unitName string, h Host) map[byte]string {
	m := UnitSpecifiers(unitName)
	for k, v := range map[byte]string{
		't': "/run", 'S': "/var/lib", 'C': "/var/cache", 'L': "/var/log", 'E': "/etc",
		'T': "/tmp", 'V': "/var/tmp",
		'u': "root", 'U': "0", 'g': "root", 'G': "0",
		'h': "/root", 's': "/bin/sh",
		'd': "/run/credentials/" + unitName,
		'c': "/" + unitName, 'r': "", 'R': "",
	} {
		m[k] = v
	}
	m['f'] = unitFilename(unitName)
	if h.FragmentPath != "" {
		m['y'] = h.FragmentPath
		m['Y'] = path.Dir(h.FragmentPath)
	}
	if h.HasHostname {
		m['H'] = h.Hostname
		short := h.Hostname
		if i := strings.IndexByte(short, '.'); i >= 0 {
			short = short[:i]
		}
		m['l'] = short
		m['q'] = h.Hostname
		if h.PrettyHostname != "" {
			m['q'] = h.PrettyHostname
		}
	}
	for k, v := range map[byte]string{'b': h.BootID, 'v': h.KernelRelease, 'a': h.Arch} {
		if v != "" {
			m[k] = v
		}
	}
	if h.HasMachineID {
		m['m'] = h.MachineID
	}
	if h.OSRelease != nil {
		for k, field := range map[byte]string{'o': "ID", 'w': "VERSION_ID", 'B': "BUILD_ID", 'W': "VARIANT_ID", 'M': "IMAGE_ID", 'A': "IMAGE_VERSION"} {
			m[k] = h.OSRelease[field]
		}
	}
	for _, f := range h.Unreadable {
		for _, c := range []byte(specifierFiles[f]) {
			if _, known := m[c]; !known {
				m[c] = unreadSpecifier
			}
		}
	}
	return m
}

// unitFilename is %f: "/" + the unescaped instance, or for a unit without one the unescaped
// prefix (unit_name_path_unescape / unit_name_to_path): "k3s.service" is "/k3s",
// "mnt-data.mount" would be "/mnt/data".
func unitFilename(unitName string) string {
	s := UnitSpecifiers(unitName)
	p := s['i']
	if p == "" {
		p = s['p']
	}
	u := unitNameUnescape(p)
	if u == "/" || u == "" {
		return "/"
	}
	return "/" + strings.TrimLeft(u, "/")
}
