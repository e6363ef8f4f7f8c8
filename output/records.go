package output

// The records every face's JSON documents share: where a value came from, one assignment
// with what became of it, and a finding. The node, components, compose, identity, status,
// fleet, values and kubespray documents all write them in these shapes (docs/json.md).

// Source says where a value came from. File and Line are absent only for kind "default".
type Source struct {
	Kind   string `json:"kind"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Name   string `json:"name,omitempty"`
}

// History is one assignment of a key with what became of it.
type History struct {
	Kind    string   `json:"kind"`
	File    string   `json:"file,omitempty"`
	Line    int      `json:"line,omitempty"`
	Column  int      `json:"column,omitempty"`
	Name    string   `json:"name,omitempty"`
	Raw     string   `json:"raw,omitempty"`
	Value   string   `json:"value"`
	Items   []string `json:"items,omitempty"`
	Outcome string   `json:"outcome"`
	Reason  string   `json:"reason,omitempty"`
}

// Diagnostic is a finding in a JSON document.
type Diagnostic struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Key      string `json:"key,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	// Phase, AfterFixing, Assumes and Rule: see the diag package's Diagnostic (docs/json.md).
	Phase       string `json:"phase,omitempty"`
	AfterFixing bool   `json:"afterFixing,omitempty"`
	Assumes     string `json:"assumes,omitempty"`
	Rule        string `json:"rule,omitempty"`
}
