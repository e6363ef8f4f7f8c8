// Package runs is `k3sconf kubespray runs`: it reads ansible-playbook logs with
// [runlog.Parse] and answers "did my re-run apply it?".
//
// Per run it gives the PLAY RECAP per host and the verdict it carries, the failures
// ansible ignored or rescued (listed as such, never as the verdict), the slowest tasks and
// the number of tasks changed per host. Across the runs given, in order, it splits the last
// run's changed tasks per host into those that changed in every earlier run too ("changes
// every run": kubespray has dozens) and the new ones: a second run's changes are the ones
// that happen every time, and only knowing them tells that a new change in the third run
// is yours.
//
// With a variable ([Options.Var]) and the kubespray checkout, it finds the tasks that use
// the variable (directly or through a template they render) and the handlers they notify,
// through a [Finder] ([FindUses] takes them from [kubespray.Where]'s task sites and handler
// resolution), and says per host of the last run whether those tasks changed and whether
// their handlers ran: "took effect", "changed but the handler did not run", "ran and changed
// nothing", or "did not run"; given the run's --tags/--skip-tags ([Options.Tags]), which of
// them the selection reaches ([kubespray.SelectedSites]).
//
// Nothing a task printed reaches the report: the parser keeps no task output, and every
// string taken from a log (task, play and host names) is printed with control characters
// escaped.
//
// What `k3sconf kubespray runs` prints, text and --json, is rendered from the [Report] by
// internal/runsreport; a program reads the Report.
package runs
