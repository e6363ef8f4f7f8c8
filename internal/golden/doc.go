// Package golden compares what a txtar scenario produces with the want/ files stored in the
// archive, or rewrites them (`-update`), for the golden tests of resolve, components and
// compose. One archive is one scenario: a comment, input files, then want/ files.
package golden
