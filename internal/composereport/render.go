package composereport

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/k3sconf/k3sconf/compose"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/report"
)

// Text writes the report for people, ending with the compose lines that fix it.
func Text(w io.Writer, rep *compose.Report, red *output.Redactor) {
	fmt.Fprintf(w, "%s: %d k3s node(s)\n", rep.File.Path, len(rep.Nodes))
	for _, n := range rep.Nodes {
		s := n.Service
		fmt.Fprintf(w, "\n%s  (k3s %s", s.Name, n.Role)
		if s.Image != "" {
			fmt.Fprintf(w, ", image %s", s.Image)
		}
		fmt.Fprintf(w, ")  %s\n", s.Pos)
		fmt.Fprintf(w, "  argv:           %s\n", strings.Join(red.Argv(append([]string{"k3s"}, n.Args...)), " "))
		if n.NameFrom != "" {
			name := n.NodeName
			if name == "" {
				name = "(the Docker host's name)"
			}
			fmt.Fprintf(w, "  node name:      %s, pinned by %s\n", name, n.NameFrom)
		} else {
			fmt.Fprintln(w, "  node name:      not pinned: the container's host name, its container ID, new for every new container")
		}
		fmt.Fprintf(w, "  node password:  %s %s\n", n.NodeDir.Path, keepLine(n.NodeDir))
		if n.Role == "server" {
			fmt.Fprintf(w, "  cluster state:  %s %s\n", n.DataDir.Path, keepLine(n.DataDir))
		}
		yes := "no"
		if n.Survives {
			yes = "yes"
		}
		fmt.Fprintf(w, "  identity survives `docker compose down` + `up`: %s\n", yes)
	}
	var ds []diag.Diagnostic
	ds = append(ds, rep.Diagnostics...)
	for _, n := range rep.Nodes {
		ds = append(ds, n.Diagnostics...)
	}
	if len(ds) > 0 {
		fmt.Fprintln(w)
	}
	nodereport.Findings(w, ds, red)
	if fix := compose.FixYAML(rep); fix != "" {
		fmt.Fprintf(w, "\nfix: add these lines to %s (%s):\n\n%s", rep.File.Path, overrideHint(rep.File.Path), fix)
	}
}

func keepLine(k compose.Keep) string {
	switch k.How {
	case "bind":
		return fmt.Sprintf("is bind-mounted from %s: kept by `down` and `down -v`", k.Mount.Source)
	case "volume":
		return fmt.Sprintf("is on the named volume %s: kept by `down`, deleted by `down -v`", k.Mount.Source)
	case "anonymous":
		return "is on an anonymous volume: a new container gets a new, empty one"
	case "tmpfs":
		return "is on a tmpfs: empty in every new container"
	}
	return "is in the container's own filesystem: deleted with the container"
}

// overrideHint says how to apply the fix without editing the file.
func overrideHint(file string) string {
	base := filepath.Base(file)
	for _, d := range compose.DefaultFiles {
		if base == d {
			ext := filepath.Ext(base)
			return fmt.Sprintf("or save them as %s next to it: compose merges that file automatically", strings.TrimSuffix(base, ext)+".override"+ext)
		}
	}
	return "or save them in a second file and pass both with -f"
}

// composeDocument is the JSON form of a report: `k3sconf compose --json`.
type composeDocument struct {
	// The envelope's product is "k3s" and its command "compose": a compose file is not
	// one node.
	output.Envelope
	File        string              `json:"file"`
	Nodes       []nodeJSON          `json:"nodes"`
	Survives    bool                `json:"survives"`
	Fix         string              `json:"fix,omitempty"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
}

// nodeJSON is one k3s service.
type nodeJSON struct {
	Service     string              `json:"service"`
	Role        string              `json:"role"`
	Image       string              `json:"image,omitempty"`
	Args        []string            `json:"args"`
	NodeName    string              `json:"nodeName,omitempty"`
	NameFrom    string              `json:"nameFrom,omitempty"`
	NodeDir     keepJSON            `json:"nodeDir"`
	DataDir     *keepJSON           `json:"dataDir,omitempty"`
	Survives    bool                `json:"survives"`
	Diagnostics []output.Diagnostic `json:"diagnostics"`
}

// keepJSON says where a path lives.
type keepJSON struct {
	Path   string `json:"path"`
	How    string `json:"how"`
	Source string `json:"source,omitempty"`
}

func keepDoc(k compose.Keep) keepJSON {
	d := keepJSON{Path: k.Path, How: k.How}
	if k.Mount != nil {
		d.Source = k.Mount.Source
	}
	return d
}

// JSON builds the `compose --json` document (docs/json.md), for encoding/json.
func JSON(rep *compose.Report, red *output.Redactor) any {
	d := &composeDocument{Envelope: output.NewEnvelope("k3s", "compose", "compose"), File: rep.File.Path, Nodes: []nodeJSON{}, Survives: !rep.Failed(), Fix: compose.FixYAML(rep),
		Diagnostics: diagDocs(rep.Diagnostics, red)}
	for _, n := range rep.Nodes {
		nd := nodeJSON{Service: n.Service.Name, Role: n.Role, Image: n.Service.Image, Args: []string{}, NodeName: n.NodeName,
			NameFrom: n.NameFrom, NodeDir: keepDoc(n.NodeDir), Survives: n.Survives, Diagnostics: diagDocs(n.Diagnostics, red)}
		nd.Args = append(nd.Args, red.Argv(n.Args)...)
		if n.Role == "server" {
			k := keepDoc(n.DataDir)
			nd.DataDir = &k
		}
		d.Nodes = append(d.Nodes, nd)
	}
	return d
}

func diagDocs(ds []diag.Diagnostic, red *output.Redactor) []output.Diagnostic {
	out := []output.Diagnostic{}
	for _, d := range ds {
		out = append(out, output.Diagnostic{Severity: string(d.Severity), Code: d.Code, File: d.Pos.File, Line: d.Pos.Line,
			Column: d.Pos.Column, Key: red.Key(d.Key), Message: red.Scrub(d.Message), Hint: red.Scrub(d.Hint)})
	}
	return out
}

// NewRedactor returns the redactor that hides the secrets of every node (tokens in command or
// environment), or nothing with show set.
func NewRedactor(rep *compose.Report, show bool) *output.Redactor {
	var rs []*output.Redactor
	for _, n := range rep.Nodes {
		if n.Result != nil {
			rs = append(rs, report.NewRedactor(n.Result, show))
		}
	}
	return output.Merge(show, rs...)
}
