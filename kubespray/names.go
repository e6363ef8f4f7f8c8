package kubespray

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Choice is a value a templated include, import or role name takes to reach a file or
// role: Expr is the expression as written (kube_network_plugin, item.role, the condition
// of a {% if %}), Value what it stands for on that path.
type Choice struct {
	Expr, Value string
}

type expansion struct {
	name    string
	choices []Choice
}

var (
	reItemField = regexp.MustCompile(`^item(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[['"]([^'"]+)['"]\])?$`)
	reDictIndex = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\[[^\]]*\]$`)
	reVarName   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	reQuoted    = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)
	reIfElse    = regexp.MustCompile(`\{%-?\s*if\s+(.*?)\s*-?%\}(.*?)(?:\{%-?\s*else\s*-?%\}(.*?))?\{%-?\s*endif\s*-?%\}`)
)

// expandNames substitutes what can be known of a templated name without running it: item
// (or item.field) over a loop written as a list, a variable of the task's vars: written as
// text, NAME[…] over the values of a vars: mapping, an expression that only chooses between
// quoted strings ('a' if … else 'b'), {% if %}a{% else %}b{% endif %}. Any other {{ … }}
// stays, to be matched as a pattern against the files or roles that exist.
func expandNames(name string, vars map[string]*yaml.Node, loop *yaml.Node, depth int) []expansion {
	if depth > 8 {
		return []expansion{{name: name}}
	}
	// Each regexp below needs its literal "{%" or "{{" (most names have neither).
	if m := findIfElse(name); m != nil {
		cond := name[m[2]:m[3]]
		alts := []string{name[m[4]:m[5]], ""}
		if m[6] >= 0 {
			alts[1] = name[m[6]:m[7]]
		}
		var out []expansion
		for i, alt := range alts {
			v := "true"
			if i == 1 {
				v = "false"
			}
			for _, e := range expandNames(name[:m[0]]+alt+name[m[1]:], vars, loop, depth+1) {
				out = append(out, expansion{name: e.name, choices: append([]Choice{{Expr: cond, Value: v}}, e.choices...)})
			}
		}
		return out
	}
	var loc []int
	if strings.Contains(name, "{{") {
		loc = reJinjaExpr.FindStringSubmatchIndex(name)
	}
	if loc == nil {
		return []expansion{{name: name}}
	}
	expr := strings.TrimSpace(name[loc[2]:loc[3]])
	pre, post := name[:loc[0]], name[loc[1]:]
	var vals []expansion
	if m := reItemField.FindStringSubmatch(expr); m != nil && loop != nil && loop.Kind == yaml.SequenceNode {
		field := m[1] + m[2]
		for _, it := range loop.Content {
			v := it
			if field != "" {
				v = get(it, field)
			}
			if v == nil || v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "{{") {
				vals = nil
				break
			}
			vals = append(vals, expansion{name: v.Value, choices: []Choice{{Expr: expr, Value: v.Value}}})
		}
	} else if reVarName.MatchString(expr) && vars[expr] != nil && vars[expr].Kind == yaml.ScalarNode {
		for _, e := range expandNames(vars[expr].Value, vars, loop, depth+1) {
			vals = append(vals, expansion{name: e.name, choices: append([]Choice{{Expr: expr, Value: e.name}}, e.choices...)})
		}
	} else if m := reDictIndex.FindStringSubmatch(expr); m != nil && vars[m[1]] != nil && vars[m[1]].Kind == yaml.MappingNode {
		d := vars[m[1]]
		for j := 1; j < len(d.Content); j += 2 {
			if d.Content[j].Kind == yaml.ScalarNode {
				vals = append(vals, expansion{name: d.Content[j].Value, choices: []Choice{{Expr: expr, Value: d.Content[j].Value}}})
			}
		}
	} else if strings.Contains(expr, " if ") && strings.Contains(expr, " else ") && !strings.ContainsAny(reQuoted.ReplaceAllString(expr, ""), "'\"") {
		// 'a' if cond else 'b': only quoted strings can be the result (the condition's own
		// quoted strings, version numbers and such, are tried too and match nothing).
		for _, q := range reQuoted.FindAllStringSubmatch(expr, -1) {
			vals = append(vals, expansion{name: q[1] + q[2], choices: []Choice{{Expr: expr, Value: q[1] + q[2]}}})
		}
	}
	if vals == nil {
		vals = []expansion{{name: name[loc[0]:loc[1]]}}
	}
	var out []expansion
	for _, v := range vals {
		for _, r := range expandNames(post, vars, loop, depth+1) {
			out = append(out, expansion{name: pre + v.name + r.name, choices: append(append([]Choice(nil), v.choices...), r.choices...)})
		}
	}
	return out
}

// namePattern turns a templated name into a regexp: each {{ … }} (or {% … %}) matches
// one path part; exprs are the expressions, in the order of the regexp's groups.
func namePattern(name string) (*regexp.Regexp, []string) {
	locs := reJinjaAny.FindAllStringSubmatchIndex(name, -1)
	var pat strings.Builder
	var exprs []string
	last := 0
	for _, l := range locs {
		pat.WriteString(regexp.QuoteMeta(name[last:l[0]]))
		pat.WriteString(`([^/]*)`)
		exprs = append(exprs, strings.TrimSpace(name[l[0]+2:l[1]-2]))
		last = l[1]
	}
	pat.WriteString(regexp.QuoteMeta(name[last:]))
	re, err := regexp.Compile("^" + pat.String() + "$")
	if err != nil {
		return regexp.MustCompile(`^\x00$`), nil
	}
	return re, exprs
}

// findIfElse is reIfElse.FindStringSubmatchIndex(name), which needs "{%".
func findIfElse(name string) []int {
	if !strings.Contains(name, "{%") {
		return nil
	}
	return reIfElse.FindStringSubmatchIndex(name)
}

// namePattern is namePattern(name), compiled once per name and checkout: the compile
// dominated the cost of the task compiler's templated names (278 calls for 35 names on
// kubespray 46dbdd3's cluster.yml). The task compiler's goroutine alone calls it.
func (c *Checkout) namePattern(name string) *compiledName {
	if p, ok := c.patterns[name]; ok {
		return p
	}
	p := &compiledName{}
	p.re, p.exprs = namePattern(name)
	// The text before the first {{ … }} (or {% … %}) and after the last: every name the
	// pattern matches starts and ends with them (QuoteMeta'd literals). Not used where the
	// pattern did not compile, nor for a literal holding U+FFFD (which the regexp also
	// matches against an invalid byte of the name tried).
	if p.exprs != nil {
		locs := reJinjaAny.FindAllStringIndex(name, -1)
		pre, suf := name[:locs[0][0]], name[locs[len(locs)-1][1]:]
		if !strings.ContainsRune(pre+suf, utf8.RuneError) {
			p.pre, p.suf, p.fixed = pre, suf, true
		}
	}
	if c.patterns == nil {
		c.patterns = map[string]*compiledName{}
	}
	c.patterns[name] = p
	return p
}

// compiledName is a templated name's pattern (namePattern) and the literal text it starts
// and ends with (fixed: known).
type compiledName struct {
	re       *regexp.Regexp
	exprs    []string
	pre, suf string
	fixed    bool
}

// match is re.FindStringSubmatch(s), without running the regexp where s does not start
// and end with the pattern's literal ends (the task compiler tries every file of a folder
// and every role against each templated name).
func (p *compiledName) match(s string) []string {
	if p.fixed && (len(s) < len(p.pre)+len(p.suf) || !strings.HasPrefix(s, p.pre) || !strings.HasSuffix(s, p.suf)) {
		return nil
	}
	return p.re.FindStringSubmatch(s)
}

var reJinjaAny = regexp.MustCompile(`\{\{.*?\}\}|\{%.*?%\}`)

type resolvedFile struct {
	path string
	// rel is the name that found it, relative to its base (the name as written, or the
	// file a still-templated name matched).
	rel     string
	choices []Choice
}

// matchFiles finds the files under the first of bases that has any for the expanded name:
// the name itself, or every file a still-templated name matches.
func (c *Checkout) matchFiles(bases []string, e expansion) []resolvedFile {
	if !strings.Contains(e.name, "{{") && !strings.Contains(e.name, "{%") {
		for _, base := range bases {
			p := e.name
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, e.name)
			}
			if fi, err := c.stat(p); err == nil && !fi.IsDir() {
				return []resolvedFile{{path: filepath.Clean(p), rel: e.name, choices: e.choices}}
			}
		}
		return nil
	}
	pat := c.namePattern(e.name)
	for _, base := range bases {
		var found []resolvedFile
		for _, rel := range c.filesUnder(base) {
			if m := pat.match(rel); m != nil {
				ch := append([]Choice(nil), e.choices...)
				for i, x := range pat.exprs {
					ch = append(ch, Choice{Expr: x, Value: m[i+1]})
				}
				found = append(found, resolvedFile{path: filepath.Join(base, filepath.FromSlash(rel)), rel: rel, choices: ch})
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// resolveTaskFile finds an include_tasks/import_tasks file as helpers.py and
// included_file.py do: relative to the including file's folder, then the role's tasks/
// folder, then the playbook's folder.
func (b *treeBuilder) resolveTaskFile(sc scope, name string, vars map[string]*yaml.Node, loop *yaml.Node) []resolvedFile {
	if name == "" {
		return nil
	}
	bases := []string{sc.dir}
	if sc.rolePath != "" {
		bases = append(bases, filepath.Join(sc.rolePath, "tasks"), sc.rolePath)
	}
	bases = append(bases, sc.playDir)
	var out []resolvedFile
	seen := map[string]bool{}
	for _, e := range expandNames(name, vars, loop, 0) {
		for _, f := range b.c.matchFiles(bases, e) {
			if !seen[f.path] {
				seen[f.path] = true
				out = append(out, f)
			}
		}
	}
	return out
}

type roleExpansion struct {
	role    string
	tags    []string
	choices []Choice
}

// expandRole resolves an include_role/import_role name, a templated one to every role it
// can be. A templated apply: tag written with an expression of the name takes the value
// that expression has on that path (kubespray's container-engine: name
// "container-engine/{{ item.role }}", apply tags "{{ item.role }}"); other templated tags
// are dropped (their value is known only at run time).
func (b *treeBuilder) expandRole(name string, apply []string, vars map[string]*yaml.Node, loop *yaml.Node) []roleExpansion {
	var out []roleExpansion
	var all []string
	for _, e := range expandNames(name, vars, loop, 0) {
		var matched []roleExpansion
		if strings.Contains(e.name, "{{") || strings.Contains(e.name, "{%") {
			if all == nil {
				all = b.c.roleDirs()
			}
			pat := b.c.namePattern(e.name)
			for _, r := range all {
				if m := pat.match(r); m != nil {
					ch := append([]Choice(nil), e.choices...)
					for i, x := range pat.exprs {
						ch = append(ch, Choice{Expr: x, Value: m[i+1]})
					}
					matched = append(matched, roleExpansion{role: r, choices: ch})
				}
			}
		} else {
			matched = []roleExpansion{{role: e.name, choices: e.choices}}
		}
		for _, m := range matched {
			m.tags = substituteTags(apply, m.choices)
			out = append(out, m)
		}
	}
	return out
}

// substituteTags gives each templated tag "{{ X }}" the value X has among choices; other
// templated tags are left out.
func substituteTags(tags []string, choices []Choice) []string {
	var out []string
	for _, tg := range tags {
		if !strings.Contains(tg, "{{") {
			out = append(out, tg)
			continue
		}
		if m := reJinjaExpr.FindStringSubmatch(tg); m != nil && strings.TrimSpace(reJinjaExpr.ReplaceAllString(tg, "")) == "" {
			for _, c := range choices {
				if c.Expr == strings.TrimSpace(m[1]) {
					out = append(out, c.Value)
					break
				}
			}
		}
	}
	return out
}

// resolveTemplates finds the files a template task's src can name: the role's templates/,
// the role's folder, templates/ beside the task file's folder and the folder itself, the
// playbook's templates/ and folder (the template action's search path: DataLoader
// path_dwim_relative_stack over the role and the task file).
func (b *treeBuilder) resolveTemplates(sc scope, src string, loop *yaml.Node) []string {
	if src == "" {
		return nil
	}
	var bases []string
	if sc.rolePath != "" {
		bases = append(bases, filepath.Join(sc.rolePath, "templates"), sc.rolePath)
	}
	bases = append(bases, filepath.Join(filepath.Dir(sc.dir), "templates"), sc.dir, filepath.Join(sc.playDir, "templates"), sc.playDir)
	var out []string
	seen := map[string]bool{}
	for _, e := range expandNames(src, nil, loop, 0) {
		for _, f := range b.c.matchFiles(bases, e) {
			if !seen[f.path] {
				seen[f.path] = true
				out = append(out, f.path)
			}
		}
	}
	sort.Strings(out)
	return out
}
