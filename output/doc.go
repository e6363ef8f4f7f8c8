// Package output is the shared output layer of every k3sconf command: what a face (the
// k3s/RKE2 node, fleet, Helm values, kubespray) hands over once it has its records, and
// nothing that knows a product.
//
// It holds:
//   - the [Envelope] that starts every --json document (schemaVersion, product, command,
//     document) and [WriteJSON], the one way documents are encoded;
//   - the [Redactor], the one place secrets are recognised and hidden (docs/secrets.md): by
//     name ([SecretName]), by content (URL and DSN credentials) and, for text, word by
//     word; a face teaches it what it knows (the flags of its catalog with [Redactor.Flag],
//     the secret values it read with [Redactor.Learn]);
//   - [Escape] and [NewEscaper], the control-character escaper every byte passes on its
//     way to a terminal.
//
// Arrows point down only: output imports no product package (resolve, profile, sources,
// helm, ansible, kubespray, fleet, …); TestImportsNoProduct holds this.
package output
