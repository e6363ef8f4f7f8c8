// Package runlog reads what ansible-playbook printed and says, per run, what happened on
// each host: the PLAY RECAP (the verdict), the result of every task per host (changed, ok,
// failed, ignored, rescued, unreachable, skipped), the failures ansible ignored, the
// slowest tasks, and, across several runs of the same playbook, which of the last run's
// changes happen every run and which are new.
//
// [Parse] takes the output of the default stdout callback (ansible-core 2.14
// plugins/callback/default.py, read in Debian 12's ansible-core 2.14.18), with or without
// the profile_tasks callback (ansible.posix 1.5.4 plugins/callback/profile_tasks.py:
// a timing line after each task banner and a list of the slowest tasks after the recap;
// kubespray's ansible.cfg enables it with callbacks_enabled = profile_tasks), the same text
// as ansible's log_path file writes it (each line prefixed with a date, p=, u= and n=), and
// the output of the json stdout callback (ansible.posix 1.5.4 plugins/callback/json.py:
// one JSON document with plays, tasks, per-host results and stats) and of the jsonl one
// (plugins/callback/jsonl.py: one line per event as it happens, so a run cut off keeps what
// came before; it marks handlers). ANSI colour codes
// (ANSIBLE_FORCE_COLOR) are removed before anything is read.
//
// What the text says, and what it does not:
//
//   - The PLAY RECAP line of a host is the verdict: failed= and unreachable= above zero
//     mean the run failed on that host. A "fatal:" line followed by "...ignoring" is a
//     failure ansible ignored (ignore_errors or ignore_unreachable), counted under
//     ignored=; a "fatal:" the host ran on after (a block's rescue) is counted under
//     rescued=. Neither is a verdict.
//   - Only lines that start in the first column are read: result dumps (-v, debug's msg)
//     are indented, so what a task printed can never pass for an event. Loop items
//     ("changed: [h] => (item=…)") make one result: changed if any item changed, failed if
//     any item failed.
//   - A log holding several runs (log_path appends) is split at each new PLAY banner
//     after a recap.
//   - With display_skipped_hosts = no (kubespray's ansible.cfg) and display_ok_hosts = no,
//     skipped and ok results are not printed: the recap still counts them.
//   - The json callback does not say whether a failed result was ignored or rescued (the
//     host's stats tell when it had only one kind; [Result.Continued] says that the host ran
//     on), nor whether a task was a handler (one from a role's handlers/ file is taken as
//     one).
//
// Task output (stdout, msg, loop item labels) is never kept: it may hold secrets.
package runlog
