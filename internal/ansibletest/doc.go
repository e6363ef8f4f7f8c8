// Package ansibletest runs ansible-playbook for k3sconf's real-run tests: hermetic (no
// ANSIBLE_* variable of the caller, a config file, home and temp folder of the test's own),
// printing text with the default callback and, where the ansible.posix collection is
// installed, writing the json callback's document and the jsonl callback's lines of the
// same run to files: ansible.posix's json and jsonl callbacks run unchanged as more
// (aggregate) callbacks whose display goes to those files. A test gets both outputs of one run, so it can compare what each says.
package ansibletest
