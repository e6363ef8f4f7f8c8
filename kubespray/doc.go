// Package kubespray is k3sconf's kubespray profile: it reads a kubespray checkout's
// cluster.yml (and the playbooks it imports), the roles each play loads, and answers
// "which value does variable X take on host H, from which file, and what did it beat?"
// with package ansible, plus findings specific to kubespray's layout and `where`: the
// tasks and templates that use a variable and the tags they run under.
//
// [Checkout.Tasks] builds each play's task list as ansible-core 2.14 does (imports
// followed statically, includes as if they ran, tasks_from, apply:, meta dependencies,
// handlers); [TaskNode.Selected] is ansible's tag selection for one task, include gates
// included; [Where] finds a variable's uses with the tasks that run them ([TaskSite]) and the
// handlers those notify ([HandlerRun]); [Answers] says per tag what a --tags run rewrites
// and restarts.
//
// One command reads the checkout once ([Load]) and compiles cluster.yml once
// ([Checkout.Tasks]): one model of the playbook, the [TaskTree], host-independent. It
// holds every task and handler of every play with its tags, includes, templated choices
// and handlers, which where, runs and the tag answers read, and the structure a host's
// run goes through: each play's roles: entries with their role params and `when:`, their
// meta dependencies, the roles import_role and include_role can name, the tasks files
// includes and imports can name, the `when:` of blocks and includes, group_by tasks, and
// play.get_roles(). [TaskTree.Run] (the [HostRun]) is one host's pass over that tree:
// which plays it runs ([PlayRun]), with which inventory groups (an epoch per group added
// at run time by dynamic_groups or group_by), which role runs with their dependency chain
// ([RoleRun]) and which tasks files ([FileRun]), with `when:` and templated names
// evaluated for the host; explain resolves values in it ([HostRun.Resolve]) at the use
// sites it maps the uses to ([HostRun.Sites]), and follows the set_fact and include_vars
// tasks of the same tree in the host's order. TestDifferentialUseSites,
// TestDifferentialTags and TestDifferentialRuntime check both readings against
// ansible-playbook.
//
// What `k3sconf kubespray explain` and `where` print, text and --json, is rendered by
// internal/kubesprayreport from the [Report] and the [Use]s: a program reads those.
//
// Read for this (kubernetes-sigs/kubespray at 46dbdd3, 2026-08-21): cluster.yml,
// playbooks/cluster.yml, playbooks/boilerplate.yml, playbooks/install_etcd.yml,
// roles/dynamic_groups/tasks/main.yml (k8s_cluster and the old group names are built at
// run time with group_by: kube-master -> kube_control_plane, kube-node -> kube_node,
// calico-rr -> calico_rr, no-floating -> no_floating, and k8s_cluster = kube_node +
// kube_control_plane + calico_rr), roles/kubespray_defaults/{defaults,vars}/main/*.yml.
package kubespray
