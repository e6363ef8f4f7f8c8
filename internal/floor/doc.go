// Command floor is the yardstick of k3sconf's process-level benchmark: the least work any
// reader of a k3s node's configuration must do. It reads config.yaml and every
// config.yaml.d/*.yaml and *.yml file under a root once, in name order, and decodes each
// with yaml.v2 (what k3s's pkg/configfilearg does), then exits. It prints nothing unless a
// file cannot be read or decoded (exit 1).
//
// Usage: floor ROOT
package main
