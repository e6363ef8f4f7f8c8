package output

import (
	"encoding/json"
	"io"
)

// WriteJSON writes a document as every --json command does: encoding/json without HTML
// escaping ("<", ">" and "&" stay as written), one document followed by a newline,
// indented by two spaces when indent is set (for a person at a terminal) and compact
// otherwise (for pipes and files, where re-indenting would cost as much as encoding).
func WriteJSON(w io.Writer, v any, indent bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
