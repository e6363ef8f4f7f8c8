package resolve

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// templateMarkers are placeholders that configuration tools and READMEs leave in a value
// when nothing rendered them. k3s takes every value literally: it expands no variables in
// config.yaml (pkg/configfilearg reads plain YAML), and systemd has already substituted
// the unit's ${VAR} by the time k3s sees the command line.
var templateMarkers = []struct {
	re *regexp.Regexp
	// what names the kind of template, for the message.
	what string
	// configOnly: the marker means something only in a config file (on the command line
	// systemd would have expanded it).
	configOnly bool
}{
	{regexp.MustCompile(`\{\{.*?\}\}`), "a Jinja/Go template expression ({{ … }}) that was not rendered (Ansible, Helm, gomplate)", false},
	{regexp.MustCompile(`\{%.*?%\}`), "a Jinja template statement ({% … %}) that was not rendered", false},
	{regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`), "a shell/Terraform variable (${…}) that no tool substituted: k3s does not expand variables in config files", true},
	{regexp.MustCompile(`<[A-Za-z][A-Za-z0-9 _.-]*>`), "a placeholder in angle brackets (<…>) copied from documentation", false},
	{regexp.MustCompile(`\b(?:REPLACE|CHANGEME|CHANGE_ME|CHANGE-ME)[A-Z0-9_-]*`), "a REPLACE/CHANGEME placeholder", false},
}

// checkTemplates reports values in force (or contributing to a list in force) that are
// still templates. k3s or the component would reject them (an IP, a URL) or, worse,
// accept them literally (a token, a label value, a node name).
func (r *resolver) checkTemplates() {
	for _, k := range r.res.Keys {
		for _, a := range k.History {
			if a.Outcome != provenance.Applied && a.Outcome != provenance.Appended {
				continue
			}
			if a.Kind != sources.KindConfig && a.Kind != sources.KindCLI && a.Kind != sources.KindEnv {
				continue
			}
			vals := a.Items
			if len(vals) == 0 {
				vals = []string{a.Value}
			}
			for _, v := range vals {
				if !mayHoldTemplate(v) {
					continue
				}
				for _, m := range templateMarkers {
					if m.configOnly && a.Kind != sources.KindConfig {
						continue
					}
					found := m.re.FindString(v)
					if found == "" {
						continue
					}
					shown := fmt.Sprintf(" (%s)", found)
					if a.Secret() {
						shown = ""
					}
					r.diag(diag.Diagnostic{Severity: diag.Warning, Code: "value-unrendered-template", Pos: a.Pos, Key: k.Name(),
						Message: fmt.Sprintf("%s%s is %s, and %s takes it literally", k.Name(), shown, m.what, r.p.Program),
						Hint:    fmt.Sprintf("render the template (re-run the tool that writes %s) or write the real value", a.Pos.File)})
					break
				}
			}
		}
	}
}

// mayHoldTemplate reports whether v holds a byte or word that every match of one of the
// templateMarkers contains ("{{", "{%" and "${" a brace, "<…>" an angle bracket, the
// placeholders REPLACE or CHANGE): most values hold none, and the expressions then need not
// run (they cost 5% of show on 2,000 drop-ins).
func mayHoldTemplate(v string) bool {
	return strings.ContainsAny(v, "{<") || strings.Contains(v, "REPLACE") || strings.Contains(v, "CHANGE")
}
