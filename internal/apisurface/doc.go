// Package apisurface counts the public surface of k3sconf: the exported identifiers of
// every package a library user can import (not internal/, not a main package), so a test
// can hold it to a budget. It has no code a program uses; its test is the point.
package apisurface
