package values

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/k3sconf/k3sconf/output"
)

// SchemaError is a values.schema.json violation: Helm refuses the values and the job
// fails (chartutil ValidateAgainstSchema, run by install and upgrade on the coalesced
// values, for the chart and each rendered subchart).
type SchemaError struct {
	// Chart names the chart whose schema refuses the values; At is where its values are in
	// the parent's .Values ("" for the chart itself).
	Chart, At string
	// Path is the offending value's leaf path in the parent's .Values ("" when the schema
	// cannot be used at all); Pointer the JSON pointer in the chart's values, as Helm
	// prints it.
	Path, Pointer string
	// Message is the validator's, as Helm prints it ("got string, want integer").
	Message string
	// Source is the assignment of the offending value, nil when no leaf is at the path
	// (a required key missing, an object refused as a whole).
	Source *Assignment
	// Unchecked is set when k3sconf could not check the schema (a $ref to a URL Helm
	// would fetch): the values may or may not pass.
	Unchecked bool
}

func (e SchemaError) Error() string {
	return fmt.Sprintf("%s: at '%s': %s", e.Chart, e.Pointer, e.Message)
}

var schemaPrinter = message.NewPrinter(language.English)

// errNoFetch: k3sconf never uses the network or the Helm job's filesystem.
var errNoFetch = errors.New("k3sconf does not fetch schemas (Helm would)")

type noFetch struct{}

func (noFetch) Load(string) (any, error) { return nil, errNoFetch }

// urnPermissive is Helm's urn loader without a resolver (v3.19.5 and later, v4): an
// unresolved urn: reference is the schema true.
type urnPermissive struct{}

func (urnPermissive) Load(string) (any, error) { return true, nil }

// validateSchemas checks the values of the processed chart and of every rendered
// subchart against their schemas, as ValidateAgainstSchema walks them.
func (e *engine) validateSchemas(top *hchart, vals map[string]any, leaves []*Leaf) []SchemaError {
	byPath := map[string]*Leaf{}
	for _, l := range leaves {
		byPath[l.Name] = l
	}
	var out []SchemaError
	var walk func(c *hchart, v map[string]any)
	walk = func(c *hchart, v map[string]any) {
		if c.src.Schema != nil {
			out = append(out, e.validateOne(c, v, byPath)...)
		}
		for _, d := range c.deps {
			raw, ok := v[d.meta.name]
			if !ok || raw == nil {
				continue
			}
			m, ok := raw.(map[string]any)
			if !ok {
				out = append(out, SchemaError{Chart: d.meta.name, At: d.at, Message: fmt.Sprintf("invalid type for values: expected object (map), got %T", raw)})
				continue
			}
			walk(d, m)
		}
	}
	walk(top, vals)
	return out
}

func (e *engine) validateOne(c *hchart, v map[string]any, byPath map[string]*Leaf) []SchemaError {
	base := SchemaError{Chart: c.meta.name, At: c.at}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.src.Schema))
	if err != nil {
		base.Message = "values.schema.json is not JSON: " + err.Error()
		return []SchemaError{base}
	}
	loader := jsonschema.SchemeURLLoader{"file": noFetch{}, "http": noFetch{}, "https": noFetch{}}
	if e.major >= 4 || e.nulls != NullIfInDefaults {
		// The urn loader came with v3.19.5 (pkg/chartutil/jsonschema.go urnLoader).
		loader["urn"] = urnPermissive{}
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(loader)
	if err := comp.AddResource("file:///values.schema.json", doc); err != nil {
		base.Message = err.Error()
		return []SchemaError{base}
	}
	sch, err := comp.Compile("file:///values.schema.json")
	if err != nil {
		base.Message = err.Error()
		if errors.Is(err, errNoFetch) || strings.Contains(err.Error(), errNoFetch.Error()) {
			base.Unchecked = true
			base.Message = "the schema refers to another document (" + err.Error() + "): not checked"
		}
		return []SchemaError{base}
	}
	err = sch.Validate(v)
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil
	}
	if !errors.As(err, &ve) {
		base.Message = err.Error()
		return []SchemaError{base}
	}
	var out []SchemaError
	var flat func(x *jsonschema.ValidationError)
	flat = func(x *jsonschema.ValidationError) {
		if len(x.Causes) > 0 {
			for _, c := range x.Causes {
				flat(c)
			}
			return
		}
		se := base
		se.Pointer = "/" + strings.Join(escapePointer(x.InstanceLocation), "/")
		if len(x.InstanceLocation) == 0 {
			se.Pointer = ""
		}
		se.Message = x.ErrorKind.LocalizedString(schemaPrinter)
		// The leaf at the location, or the nearest one above it (a list is one leaf).
		p := c.at
		for _, k := range x.InstanceLocation {
			p = JoinPath(p, k)
			if l := byPath[p]; l != nil {
				se.Path, se.Source = p, l.Source
				if secretLeaf(l) {
					se.Message = hideGot(x.ErrorKind).LocalizedString(schemaPrinter)
				}
				break
			}
		}
		if se.Path == "" {
			p := c.at
			for _, k := range x.InstanceLocation {
				p = JoinPath(p, k)
			}
			se.Path = p
		}
		out = append(out, se)
	}
	flat(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// secretLeaf reports whether a leaf's value is a secret a message must not quote: a copy
// of a secret by YAML alias (Assignment.SecretCopy), or under a secret name
// (output.SecretName of its nearest key, as the output redacts it).
func secretLeaf(l *Leaf) bool {
	if l.Source != nil && l.Source.SecretCopy {
		return true
	}
	ks := SplitPath(l.Name)
	return len(ks) > 0 && output.SecretName(strings.TrimRight(ks[len(ks)-1], "]0123456789["))
}

// hideGot is an error kind whose message quotes REDACTED where it quoted the refused value
// (the kinds of santhosh-tekuri/jsonschema v6 kind/kind.go that print Got as text:
// pattern, format, const, enum, contentMediaType). A refused number is printed as it is:
// the output's redactor learns secret numbers of six digits or more (docs/secrets.md).
func hideGot(k jsonschema.ErrorKind) jsonschema.ErrorKind {
	const r = output.Redacted
	switch x := k.(type) {
	case *kind.Pattern:
		c := *x
		c.Got = r
		return &c
	case *kind.Format:
		c := *x
		c.Got = r
		return &c
	case *kind.Const:
		c := *x
		c.Got = r
		return &c
	case *kind.Enum:
		c := *x
		c.Got = r
		return &c
	case *kind.ContentMediaType:
		c := *x
		c.Got = []byte(r)
		return &c
	}
	return k
}

func escapePointer(ks []string) []string {
	out := make([]string, len(ks))
	r := strings.NewReplacer("~", "~0", "/", "~1")
	for i, k := range ks {
		out[i] = r.Replace(k)
	}
	return out
}
