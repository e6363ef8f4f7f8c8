// Package benchnode builds synthetic k3s nodes of a chosen size for benchmarks.
package benchnode
