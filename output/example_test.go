package output_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/output"
)

// The redactor every face writes through judges a value by its name, its content and its
// structure: a secret name hides the value whole, a URL or DSN only its credentials, an
// environment list item by its name; anything else is left as it is.
func ExampleRedactor_Data() {
	r := output.NewTextRedactor(false)
	values := map[string]any{
		"token":     "K10abc::server:xyz",
		"endpoint":  "postgres://k3s:hunter2@db:5432/k3s",
		"node-name": "worker-1",
		"env":       []any{map[string]any{"name": "DB_PASSWORD", "value": "hunter2"}},
	}
	out := r.Data("", values).(map[string]any)
	fmt.Println(out["token"])
	fmt.Println(out["endpoint"])
	fmt.Println(out["node-name"])
	fmt.Println(out["env"])
	// Output:
	// REDACTED
	// postgres://k3s:REDACTED@db:5432/k3s
	// worker-1
	// [map[name:DB_PASSWORD value:REDACTED]]
}

// Escape makes input safe to print on a terminal: a control character is shown as an
// escape, not sent.
func ExampleEscape() {
	fmt.Println(output.Escape("node\x1b[2Jname"))
	// Output:
	// node\u001b[2Jname
}
