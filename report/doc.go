// Package report redacts a resolved node's values as k3sconf prints them: [NewRedactor] is
// the [output.Redactor] of one [resolve.Result] (the profile's secret flags and every secret
// value the node sets), [KeyValue] a key's value through it, and [FormatValue] the value as
// text (lists in brackets, strings quoted only when needed).
//
// What a library caller gets from resolve is unredacted; a program that prints a node's
// values uses these three, as examples/embed does. The command's own documents and text
// renderers are internal (internal/nodereport).
package report
