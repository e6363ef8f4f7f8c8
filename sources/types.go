package sources

import (
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
)

// Word is one element of a command line (an ExecStart argv element, or an argument given
// directly), with where it was written.
type Word struct {
	Value string
	// Raw is the text as written in the file, quotes and escapes included.
	Raw string
	Pos diag.Position
}

// EnvAssignment is one NAME=value as systemd or an env file sets it.
type EnvAssignment struct {
	Name  string
	Value string
	// Raw is the assignment as written (for Environment=, the one quoted word).
	Raw string
	Pos diag.Position
}

// EnvFileRef is one EnvironmentFile= setting of a unit.
type EnvFileRef struct {
	// Path after specifier expansion (%N and friends), as on the node.
	Path string
	// Optional is true for a path written with a leading '-': a missing file is not an error.
	Optional bool
	Pos      diag.Position
}

// MapItem and MapSlice mirror gopkg.in/yaml.v2's types of the same names, so that
// fmt.Sprint renders a nested mapping exactly as k3s does ("[{a b} {c 1}]").
type MapItem struct {
	Key, Value any
}

// MapSlice is an ordered mapping, as yaml.v2 decodes it.
type MapSlice []MapItem

// Kind is the kind of input an assignment comes from: the one [provenance.Kind], with a
// node's four kinds below. The JSON output contract uses these names as the "kind" of a
// source.
type Kind = provenance.Kind

const (
	// KindDefault is the flag's built-in default.
	KindDefault Kind = "default"
	// KindEnv is an environment variable of the k3s process (unit Environment= or an
	// EnvironmentFile=).
	KindEnv Kind = "env"
	// KindConfig is a config file or one of its drop-ins.
	KindConfig Kind = "config"
	// KindCLI is the command line (the unit's ExecStart, or argv given directly).
	KindCLI Kind = "cli"
)
