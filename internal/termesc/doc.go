// Package termesc escapes control characters in what k3sconf writes, so that text taken
// from a stranger's files (a file name, a value, a quoted line) cannot drive the terminal
// it is shown on: ESC starts the CSI and OSC sequences that move the cursor, rewrite the
// screen, set the window title or a clipboard; BEL rings; CR returns over the line.
//
// [Writer] is the one escaper: the CLI puts it in front of standard output and standard
// error, so every byte of every command passes it after the redactor has run (a secret is
// replaced first, then whatever is left is escaped). It turns every C0 control character
// but tab and newline, DEL and the C1 controls U+0080–U+009F into \u00XX, and a byte that
// is not UTF-8 into \xXX. The \u00XX form is also a valid JSON escape of the same
// character, so a JSON document stays valid and decodes to the same strings (encoding/json
// already escapes C0 inside strings; DEL and C1 it writes raw, and they are escaped here).
// A backslash is left as it is.
package termesc
