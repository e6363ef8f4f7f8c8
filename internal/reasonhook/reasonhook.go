// Package reasonhook lets the node face's JSON writer write why an assignment lost without
// building the sentence as a string first. resolve keeps the reason of a config entry a
// later file replaced as compact data (tens of thousands of them on a node of thousands of
// drop-ins) and sets AppendReason; show --json with --show-secrets (nothing to redact in
// the reason) writes it straight into its buffer.
package reasonhook

// AppendReason appends the reason of a (a *resolve.Assignment) to dst, the bytes
// Assignment.Why returns, and reports true, when resolve keeps that reason as compact data;
// otherwise it returns dst and false and the caller uses Why. Set by resolve's init.
var AppendReason func(dst []byte, a any) ([]byte, bool)
