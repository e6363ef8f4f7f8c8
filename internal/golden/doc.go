// Package golden runs the txtar scenario tests of resolve, components and compose: Archives
// walks a folder of archives as subtests, CheckNames and LoadFiles turn an archive's input
// files into an in-memory node, and Check compares what a scenario produces with the want/
// files stored in the archive, or rewrites them (`-update`). One archive is one scenario: a
// comment, input files, then want/ files.
package golden
