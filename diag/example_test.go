package diag_test

import (
	"errors"
	"fmt"

	"github.com/k3sconf/k3sconf/diag"
)

// Diagnostics is the one findings type of every face; it is an error when it holds an
// error-severity finding, so a caller can return it as one.
func ExampleDiagnostics() {
	ds := diag.Diagnostics{
		{Severity: diag.Warning, Code: "unknown-key", Pos: diag.Position{File: "config.yaml", Line: 3, Column: 1},
			Message: `unknown key "tls-sans"`, Hint: "did you mean tls-san?"},
		{Severity: diag.Error, Code: "yaml-syntax", Pos: diag.Position{File: "config.yaml.d/10.yaml", Line: 2, Column: 7},
			Message: "mapping values are not allowed in this context"},
	}
	fmt.Println(ds.HasErrors())
	var err error = ds
	var got diag.Diagnostics
	fmt.Println(errors.As(err, &got), len(got))
	for _, d := range ds {
		fmt.Println(d)
	}
	// Output:
	// true
	// true 2
	// warning unknown-key config.yaml:3:1: unknown key "tls-sans"
	// error yaml-syntax config.yaml.d/10.yaml:2:7: mapping values are not allowed in this context
}
