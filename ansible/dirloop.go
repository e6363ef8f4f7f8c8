package ansible

import (
	"fmt"
	"os"
	"syscall"

	"github.com/k3sconf/k3sconf/diag"
)

// CodeDirLoop is the finding for a link to a folder that holds it (a symbolic link to "."
// or to a parent) inside a folder ansible walks: an inventory folder given to -i, or a
// group_vars/host_vars folder.
const CodeDirLoop = "AN004"

// dirID is a folder's identity: device and inode, whatever path reached it.
type dirID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) (dirID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{uint64(st.Dev), uint64(st.Ino)}, true
}

// dirWalk keeps the real folders on the path being walked. ansible-core follows every
// link to a folder (inventory/manager.py parse_source and vars/host_group_vars.py
// _get_dir_vars_files recurse with os.listdir and os.path.isdir), so a link back to a
// folder it is inside makes it walk the same folder again and again: with two links to "."
// in group_vars/all, ansible-core 2.14.18's ansible-playbook had not ended after 60 s
// (the paths grow until the kernel's 40-link limit, 2^40 of them). k3sconf enters each
// real folder once per path: a link to a folder already on the path is not followed and is
// reported; a folder reached again by another path (not a loop: a link to a sibling) is
// read again, as ansible reads it, so the order of assignments stays ansible's.
type dirWalk struct {
	open map[dirID]string
	// visits bounds the folders read in all (links to siblings can still multiply).
	visits int
}

// maxDirVisits bounds one walk: a real inventory or group_vars tree has tens of folders.
const maxDirVisits = 10000

// enter reports whether dir (described by fi) may be walked; leave must follow a true
// answer. For a loop it returns the finding.
func (w *dirWalk) enter(dir string, fi os.FileInfo) (ok bool, d *diag.Diagnostic) {
	id, known := idOf(fi)
	if !known {
		return true, nil
	}
	if prev, loop := w.open[id]; loop {
		return false, &diag.Diagnostic{Severity: diag.Error, Code: CodeDirLoop, Pos: diag.Position{File: dir},
			Message: fmt.Sprintf("a link to the folder %s, which holds it: ansible-core follows it again and again and does not end (k3sconf reads the folder once and skips the link)", prev),
			Hint:    "remove the link; a link to a folder outside this tree is fine"}
	}
	w.visits++
	if w.visits > maxDirVisits {
		return false, &diag.Diagnostic{Severity: diag.Error, Code: "input-unreadable", Pos: diag.Position{File: dir},
			Message: fmt.Sprintf("k3sconf stops here: more than %d folders reached through links; the rest is not read", maxDirVisits),
			Hint:    "k3sconf's limit, not Ansible's: the report is incomplete"}
	}
	if w.open == nil {
		w.open = map[dirID]string{}
	}
	w.open[id] = dir
	return true, nil
}

func (w *dirWalk) leave(fi os.FileInfo) {
	if id, ok := idOf(fi); ok {
		delete(w.open, id)
	}
}
