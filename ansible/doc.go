// Package ansible resolves Ansible variables for one host the way ansible-core 2.14 does
// for a task at play level, and keeps the provenance of every assignment: the value in
// force, where it was written (file:line:column) and every other assignment in precedence
// order with the reason it lost.
//
// What it models, with the ansible-core 2.14.18 source it follows (Debian 12's
// ansible-core, read under /usr/lib/python3/dist-packages/ansible):
//
//   - inventory sources: an INI file (plugins/inventory/ini.py), a YAML file
//     (plugins/inventory/yaml.py) or a folder of them (inventory/manager.py parse_source:
//     sorted names, hidden files, group_vars/host_vars and INVENTORY_IGNORE_EXTS skipped);
//     groups, children, all and ungrouped (inventory/data.py reconcile_inventory);
//   - INI values: host-line words split by shlex (comments=True) and both host-line and
//     [group:vars] values passed through ast.literal_eval (ini.py _parse_value), so
//     "false" stays a string while "False" becomes a bool;
//   - YAML values typed as PyYAML's YAML 1.1 resolver types them (yes/on are booleans,
//     0644 is octal, 1_000 is 1000, 1e3 is a string, dates are dates);
//   - group_vars/ and host_vars/ beside each inventory source and beside the top playbook
//     (plugins/vars/host_group_vars.py, parsing/dataloader.py find_vars_files and
//     _get_dir_vars_files: NAME, NAME.yml, NAME.yaml, NAME.json, the first that exists,
//     a folder read recursively in sorted order);
//   - the merge order of vars/manager.py get_vars with the default VARIABLE_PRECEDENCE and
//     PLAYBOOK_VARS_ROOT=top: role defaults (play roles, dependencies first), inventory
//     group vars (all, then groups sorted by inventory/helpers.py sort_groups: depth, then
//     ansible_group_priority, then name), group_vars/all (inventory, then playbook),
//     group_vars/<group> (inventory, then playbook), inventory host vars, host_vars/
//     (inventory, then playbook), play vars, role vars, extra vars;
//   - combine_vars with hash_behaviour=replace (utils/vars.py): a dict replaces a dict.
//
// [Resolve] does not evaluate Jinja: a templated value is kept as written and the variables
// it references are listed ([Refs]). [Eval] and [Template] evaluate the part of Jinja that
// deciding what runs needs — the kubespray walker uses them for `when:` conditions and
// templated include_tasks and include_role names: literals, names, attribute and
// subscript access, boolean and comparison operators, a few filters (default, bool,
// length, …) and tests (defined, none, …), and strings that hold Jinja templated in turn
// as ansible's lazy templating does. Anything else (facts, lookups, other filters,
// {% %} blocks) is [ErrUnknown], which callers treat as unknown, never as false.
package ansible
