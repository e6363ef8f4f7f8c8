package provenance

import "strconv"

// Position is a place in a file as it is on the node (absolute path, without any --root
// prefix), or a file named on the command line. Line and Column are 1-based; 0 means
// unknown.
type Position struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// String renders file:line:column, leaving out what is unknown.
func (p Position) String() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Column > 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	return s
}

// IsZero reports whether nothing is known about the position.
func (p Position) IsZero() bool { return p == Position{} }

// Kind is the kind of input an assignment comes from. Each face names its own: "default",
// "env", "config", "cli" for a node; "chart", "valuesContent", "set", … for Helm values;
// "role-defaults", "inventory", "extra-vars", … for Ansible.
type Kind string

// Source is where an assignment is written: its kind of input and its position.
type Source struct {
	Kind Kind
	Pos  Position
}

// String renders "kind file:line:column".
func (s Source) String() string {
	if s.Pos.IsZero() {
		return string(s.Kind)
	}
	return string(s.Kind) + " " + s.Pos.String()
}

// Outcome says what became of one assignment. The values are the union over the faces; each
// face documents which it uses.
type Outcome string

const (
	// Applied: this assignment gave the value in force.
	Applied Outcome = "applied"
	// Appended: this assignment contributed items to a list that is in force.
	Appended Outcome = "appended"
	// Overridden: a later assignment of higher precedence won.
	Overridden Outcome = "overridden"
	// Replaced: a later assignment replaced the whole value (a list, or a map in Helm
	// values) before it was used.
	Replaced Outcome = "replaced"
	// Shadowed: not used because another kind of input of higher precedence set it.
	Shadowed Outcome = "shadowed"
	// Skipped: dropped because the consumer does not know the name.
	Skipped Outcome = "skipped"
	// Ignored: never read (after a stop word, or another source took precedence).
	Ignored Outcome = "ignored"
	// Rejected: this assignment makes the product refuse to start.
	Rejected Outcome = "rejected"
	// Unreached: never read because the product stopped at an earlier error.
	Unreached Outcome = "unreached"
	// Unused: only a default; something else was set.
	Unused Outcome = "unused"
	// Deleted: a null removed the key (Helm values).
	Deleted Outcome = "deleted"
)

// Assignment is one place that sets (or tries to set) a value of type V, and what became of
// it. The faces embed it: resolve.Assignment (V string, as the CLI parser receives it),
// values.Assignment and ansible.Assignment (V any, as YAML or Jinja typed it).
type Assignment[V any] struct {
	Source
	Value   V
	Outcome Outcome
	// Reason says why the assignment has its Outcome, when it was written out; a face may
	// keep it in a compact form and render it on demand (resolve.Assignment.Why).
	Reason string
}

// Entry is one name with its value in force and its story: the flag of a node, the leaf
// path of Helm values, the variable of an Ansible host. A is the face's assignment type.
type Entry[A any] struct {
	Name string
	// Value is the value in force (nil when nothing sets it, or a null deleted it).
	Value any
	// Source is the assignment that gave Value (the winner); nil for a default nobody set,
	// or a deleted path.
	Source *A
	// History is every assignment of the name in precedence order, lowest first, the
	// winner included.
	History []*A
}
