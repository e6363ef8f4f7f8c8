package output

// SchemaVersion is the version of the JSON output contract shared by every document
// (docs/json.md). Version 2 put every document in one envelope and changed the shapes of
// args, sources, check and explain (docs/json.md, "Changes from schemaVersion 1").
const SchemaVersion = 2

// Envelope is the head of every --json document: schemaVersion, product, command and
// document, in that order, before the document's own fields. Embed it as the first field
// of a document struct (without a json tag) and encoding/json writes its fields first:
//
//	type FleetDoc struct {
//		output.Envelope
//		Nodes []NodeDoc `json:"nodes"`
//	}
//	doc := FleetDoc{Envelope: output.NewEnvelope("k3s", "fleet", "fleet")}
//
// Command is the product's subcommand (server, agent, etcd-snapshot) for documents about
// one node; for documents that are not about one node (compose, fleet, kubespray) it is the
// k3sconf command, as Document is.
type Envelope struct {
	SchemaVersion int    `json:"schemaVersion"`
	Product       string `json:"product"`
	Command       string `json:"command"`
	// Document names the k3sconf command that produced the document ("show", "explain",
	// "kubespray explain", …), and with it the JSON Schema the document follows
	// (docs/schema/<document>.schema.json, spaces as dashes).
	Document string `json:"document"`
}

// NewEnvelope is the envelope of a document at the current SchemaVersion.
func NewEnvelope(product, command, document string) Envelope {
	return Envelope{SchemaVersion: SchemaVersion, Product: product, Command: command, Document: document}
}
