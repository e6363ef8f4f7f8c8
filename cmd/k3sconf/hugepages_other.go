//go:build !linux

package main

// adviseHugePages does nothing where there is no MADV_HUGEPAGE (hugepages_linux.go).
func adviseHugePages() {}
