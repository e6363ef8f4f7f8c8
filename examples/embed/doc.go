// Command embed shows how another tool can use k3sconf's engine: it resolves a node and fails
// (exit 1) when a key is not set from the place the tool expects — here, a fleet policy that
// write-kubeconfig-mode must come from config files, never from the unit's command line.
//
//	go run ./examples/embed examples/node write-kubeconfig-mode
package main
