// Package procbench measures k3sconf as users run it: as a whole process, against the
// floor (internal/floor), a program that only reads every config file once and decodes it
// once with yaml.v2. BenchmarkProcess builds both binaries, writes synthetic nodes
// (internal/benchnode) of 200, 500 and 2,000 drop-ins and uses examples/node, then runs the
// floor and k3sconf alternately, so that a change in the machine's load affects both. It
// reports medians, their ratio and the peak RSS of each program (docs/performance.md).
//
// The package has no code of its own outside its tests; this file exists for its
// documentation.
package procbench
