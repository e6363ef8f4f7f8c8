// Package provenance is the one model of where a value comes from, shared by every face of
// k3sconf: the k3s/RKE2 node (package resolve), Helm values (package helm/values) and
// Ansible variables (packages ansible and kubespray).
//
// Every face answers the same question — which value is in force, where it was written, and
// what became of every other place that set it — with the same four shapes:
//
//   - a [Position]: a file as it is on the node, a line and a column;
//   - a [Source]: the [Kind] of input (a config file, a HelmChart's valuesContent, an
//     inventory's group_vars, …) and its Position;
//   - an [Assignment]: one place that sets a value, with the [Outcome] it had (applied,
//     overridden, replaced, …) and the reason;
//   - an [Entry]: one name (a flag, a Helm values path, a variable) with the value in force,
//     the assignment that gave it (Source) and every assignment in precedence order
//     (History).
//
// A face's own assignment and entry types embed these, so the common fields read the same
// everywhere: a.Kind, a.Pos, a.Value, a.Outcome and e.Source.Kind, whatever the face; what
// only one face has (the flag's spelling on the node, the Helm --set argument, the Ansible
// precedence level) is a field beside them.
//
// The package holds no product knowledge and imports nothing of k3sconf: the kinds and the
// outcome sentences belong to the faces.
package provenance
