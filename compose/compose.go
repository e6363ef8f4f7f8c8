package compose

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/sources"
)

// DefaultFiles are the names `docker compose` looks for, in its order.
var DefaultFiles = []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}

// File is a parsed compose file.
type File struct {
	// Path is the file as named by the caller; positions use it.
	Path string
	// Dir is the folder relative bind-mount sources and env_file paths are taken from.
	Dir      string
	Services []*Service
	// Volumes are the top-level named volumes; VolumesPos is the `volumes:` key, zero when
	// the file has none.
	Volumes     map[string]bool
	VolumesPos  diag.Position
	Diagnostics diag.Diagnostics
}

// Service is one service of a compose file, interpolated.
type Service struct {
	Name string
	Pos  diag.Position
	// Image and its position.
	Image string
	// Command and Entrypoint, split into words; Has* tell an empty list from none.
	Command       []string
	hasCommand    bool
	CommandPos    diag.Position
	Entrypoint    []string
	hasEntrypoint bool
	Hostname      string
	HostnamePos   diag.Position
	NetworkMode   string
	// Env is the container environment in the order compose builds it: env_file files in
	// order, then environment (which wins).
	Env    []sources.EnvAssignment
	Mounts []Mount
	// VolumesPos is the service's `volumes:` key, zero when it has none.
	VolumesPos diag.Position
}

// Mount is one entry of a service's volumes.
type Mount struct {
	// Type is "volume" (named), "anonymous", "bind" or "tmpfs".
	Type   string
	Source string // volume name, or host path (absolute) for binds
	Target string
	Pos    diag.Position
}

// maxComposeFile bounds a compose file or env file read (never a FIFO or device: see
// rootfs.ReadFile).
const maxComposeFile = 16 << 20

// Load reads a compose file from host (the machine running k3sconf), interpolating with
// shell and the .env file next to it. Problems that compose itself reports become
// diagnostics; the error is only for a file that cannot be read or parsed.
func Load(host afero.Fs, file string, shell func(name string) (string, bool)) (*File, error) {
	data, err := rootfs.ReadFile(host, file, maxComposeFile)
	if err != nil {
		return nil, err
	}
	return Parse(host, file, data, shell)
}

// Parse is Load on the compose file's bytes already read (the command line reads its
// FILE argument with rootfs.ReadArg, the one reader of file arguments); the .env and
// env_file: files are still read from host.
func Parse(host afero.Fs, file string, data []byte, shell func(name string) (string, bool)) (*File, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	f := &File{Path: file, Dir: filepath.Dir(abs), Volumes: map[string]bool{}}
	if shell == nil {
		shell = func(string) (string, bool) { return "", false }
	}
	dotenv := map[string]string{}
	envPath := filepath.Join(f.Dir, ".env")
	if d, err := rootfs.ReadFile(host, envPath, maxComposeFile); err == nil {
		as, ds := parseDotEnv(filepath.Join(filepath.Dir(file), ".env"), d, shell)
		f.Diagnostics = append(f.Diagnostics, ds...)
		for _, a := range as {
			dotenv[a.Name] = a.Value
		}
	}
	look := func(name string) (string, bool) {
		if v, ok := shell(name); ok {
			return v, true
		}
		v, ok := dotenv[name]
		return v, ok
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &diag.ParseError{Pos: diag.Position{File: file}, Msg: err.Error(), Err: err}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &diag.ParseError{Pos: diag.Position{File: file, Line: 1}, Msg: "not a compose file: the top level is not a mapping"}
	}
	p := &parser{f: f, look: look, host: host}
	root := doc.Content[0]
	if k, v := lookup(root, "volumes"); v != nil {
		f.VolumesPos = p.pos(k)
		if v.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(v.Content); i += 2 {
				f.Volumes[v.Content[i].Value] = true
			}
		}
	}
	_, svcs := lookup(root, "services")
	if svcs == nil || svcs.Kind != yaml.MappingNode {
		return f, nil
	}
	for i := 0; i+1 < len(svcs.Content); i += 2 {
		k, v := svcs.Content[i], svcs.Content[i+1]
		if v.Kind != yaml.MappingNode {
			continue
		}
		f.Services = append(f.Services, p.service(k, v))
	}
	return f, nil
}

type parser struct {
	f    *File
	look lookupFunc
	host afero.Fs
}

func (p *parser) pos(n *yaml.Node) diag.Position {
	return diag.Position{File: p.f.Path, Line: n.Line, Column: n.Column}
}

// str interpolates a scalar and reports variables compose would complain about.
func (p *parser) str(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	v, unset := interpolate(n.Value, p.look)
	for _, u := range unset {
		if u.invalid != "" {
			p.f.Diagnostics = append(p.f.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-interpolation-invalid", Pos: p.pos(n),
				Message: fmt.Sprintf("%q is not an interpolation compose accepts (after the name only :-, -, :?, ?, :+ or + may follow; a $ that starts no variable must be written $$): docker compose refuses the whole file with \"invalid interpolation format\", so no service starts", u.invalid),
				Hint:    "write ${VAR:-default} for a default (or ${VAR-default}: only when unset), or $$ for a literal $"})
			continue
		}
		d := diag.Diagnostic{Severity: diag.Info, Code: "compose-variable-unset", Pos: p.pos(n)}
		if u.required != "" || strings.Contains(n.Value, "${"+u.name+":?") || strings.Contains(n.Value, "${"+u.name+"?") {
			d.Message = fmt.Sprintf("${%s} is required here (compose stops with %q unless it is set); k3sconf continues with an empty value", u.name, u.required)
			d.Hint = fmt.Sprintf("export %s before `docker compose up`, or put it in .env next to the compose file", u.name)
		} else {
			d.Message = fmt.Sprintf("${%s} is not set; compose uses an empty string", u.name)
			d.Hint = fmt.Sprintf("set %s in the shell or in .env next to the compose file, or give a default: ${%s:-value}", u.name, u.name)
		}
		p.f.Diagnostics = append(p.f.Diagnostics, d)
	}
	return v
}

func (p *parser) words(n *yaml.Node) []string {
	switch n.Kind {
	case yaml.ScalarNode:
		return splitCommand(p.str(n))
	case yaml.SequenceNode:
		out := []string{}
		for _, c := range n.Content {
			out = append(out, p.str(c))
		}
		return out
	}
	return nil
}

func (p *parser) service(k, v *yaml.Node) *Service {
	s := &Service{Name: k.Value, Pos: p.pos(k)}
	if _, n := lookup(v, "image"); n != nil {
		s.Image = p.str(n)
	}
	if kn, n := lookup(v, "command"); n != nil && n.Tag != "!!null" {
		s.Command, s.hasCommand, s.CommandPos = p.words(n), true, p.pos(kn)
	}
	if _, n := lookup(v, "entrypoint"); n != nil && n.Tag != "!!null" {
		s.Entrypoint, s.hasEntrypoint = p.words(n), true
	}
	if kn, n := lookup(v, "hostname"); n != nil {
		s.Hostname, s.HostnamePos = p.str(n), p.pos(kn)
	}
	if _, n := lookup(v, "network_mode"); n != nil {
		s.NetworkMode = p.str(n)
	}
	if _, n := lookup(v, "env_file"); n != nil {
		p.envFiles(s, n)
	}
	if _, n := lookup(v, "environment"); n != nil {
		p.environment(s, n)
	}
	if kn, n := lookup(v, "volumes"); n != nil {
		s.VolumesPos = p.pos(kn)
		if n.Kind == yaml.SequenceNode {
			for _, it := range n.Content {
				if m, ok := p.mount(it); ok {
					s.Mounts = append(s.Mounts, m)
				}
			}
		}
	}
	return s
}

func (p *parser) envFiles(s *Service, n *yaml.Node) {
	type ref struct {
		path     string
		required bool
		pos      diag.Position
	}
	var refs []ref
	switch n.Kind {
	case yaml.ScalarNode:
		refs = append(refs, ref{p.str(n), true, p.pos(n)})
	case yaml.SequenceNode:
		for _, it := range n.Content {
			switch it.Kind {
			case yaml.ScalarNode:
				refs = append(refs, ref{p.str(it), true, p.pos(it)})
			case yaml.MappingNode:
				r := ref{required: true, pos: p.pos(it)}
				if _, pn := lookup(it, "path"); pn != nil {
					r.path = p.str(pn)
				}
				if _, rn := lookup(it, "required"); rn != nil && rn.Value == "false" {
					r.required = false
				}
				refs = append(refs, r)
			}
		}
	}
	for _, r := range refs {
		hostPath := p.hostPath(r.path)
		data, err := rootfs.ReadFile(p.host, hostPath, maxComposeFile)
		if err != nil {
			if r.required {
				p.f.Diagnostics = append(p.f.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "compose-env-file-missing", Pos: r.pos,
					Message: fmt.Sprintf("env_file %s of service %s cannot be read (%v); compose refuses to start the service", r.path, s.Name, unwrap(err)),
					Hint:    "create the file, fix the path, or mark it `required: false`"})
			}
			continue
		}
		shown := r.path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(filepath.Dir(p.f.Path), r.path)
		}
		as, ds := parseDotEnv(shown, data, p.look)
		p.f.Diagnostics = append(p.f.Diagnostics, ds...)
		s.Env = append(s.Env, as...)
	}
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (p *parser) environment(s *Service, n *yaml.Node) {
	add := func(name, val string, raw string, pos diag.Position, fromShell bool) {
		if fromShell {
			v, ok := p.look(name)
			if !ok {
				return // compose leaves a variable without a value out
			}
			val = v
		}
		s.Env = append(s.Env, sources.EnvAssignment{Name: name, Value: val, Raw: raw, Pos: pos})
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Tag == "!!null" {
				add(k.Value, "", k.Value+":", p.pos(k), true)
				continue
			}
			add(k.Value, p.str(v), k.Value+": "+v.Value, p.pos(k), false)
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			t := p.str(it)
			name, val, ok := strings.Cut(t, "=")
			add(name, val, it.Value, p.pos(it), !ok)
		}
	}
}

// mount reads one volumes entry: the short syntax SRC:DST[:MODE] or DST, or the long one.
func (p *parser) mount(n *yaml.Node) (Mount, bool) {
	m := Mount{Pos: p.pos(n)}
	switch n.Kind {
	case yaml.ScalarNode:
		parts := strings.Split(p.str(n), ":")
		if len(parts) == 1 {
			m.Type, m.Target = "anonymous", parts[0]
			return m, true
		}
		m.Source, m.Target = parts[0], parts[1]
	case yaml.MappingNode:
		_, t := lookup(n, "type")
		_, src := lookup(n, "source")
		_, dst := lookup(n, "target")
		m.Type, m.Source, m.Target = p.str(t), p.str(src), p.str(dst)
		if m.Type == "tmpfs" {
			return m, true
		}
		if m.Type == "volume" && m.Source == "" {
			m.Type = "anonymous"
			return m, true
		}
	default:
		return m, false
	}
	if m.Type == "" {
		m.Type = "volume"
		if strings.HasPrefix(m.Source, "/") || strings.HasPrefix(m.Source, ".") || strings.HasPrefix(m.Source, "~") {
			m.Type = "bind"
		}
	}
	if m.Type == "bind" {
		m.Source = p.hostPath(m.Source)
	}
	m.Target = path.Clean(m.Target)
	return m, true
}

// hostPath makes a path from the compose file absolute on this machine.
func (p *parser) hostPath(s string) string {
	if strings.HasPrefix(s, "~/") {
		if h, ok := p.look("HOME"); ok {
			s = filepath.Join(h, s[2:])
		}
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(p.f.Dir, s)
	}
	return filepath.Clean(s)
}

func lookup(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}
