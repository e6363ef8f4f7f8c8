// Package ansibletest runs ansible-playbook for k3sconf's real-run tests: hermetic (no
// ANSIBLE_* variable of the caller, a config file, home and temp folder of the test's own),
// printing text with the default callback and, where the ansible.posix collection is
// installed, writing the json callback's document of the same run to a file: ansible.posix's
// json callback runs unchanged as a second (aggregate) callback whose display goes to that
// file. A test gets both outputs of one run, so it can compare what each says.
package ansibletest
