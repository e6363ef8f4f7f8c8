// Package noderecord is the node face's redaction step: it turns what resolve found about
// a node into records whose every value has been through the node's [output.Redactor], and
// it is the only code of the face that reads a raw value. The renderers
// (internal/nodereport: show, explain, args and their --json documents) take these records;
// a test there type-checks them and fails if one reads a value, raw text or list item of
// an assignment or key itself, so neither text nor JSON can print what the redactor did not
// see.
//
// A [Key] holds the key privately and hands out its value in force ([Key.Value]), its note
// and advice, where its value came from ([Key.Source]) and its history ([Key.History]),
// each entry an [Entry] built when it is read: the history of a node with thousands of
// drop-ins is most of its output (docs/performance.md), and each renderer reads it once,
// so a record does not hold it all at once.
package noderecord
