package fleet

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/internal/nodereport"
	"github.com/k3sconf/k3sconf/internal/rootfs"
	"github.com/k3sconf/k3sconf/live"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/report"
	"github.com/k3sconf/k3sconf/resolve"
	"github.com/k3sconf/k3sconf/sources"
)

// Kind says which kind of input a node came from.
type Kind string

const (
	KindNodeObject Kind = "node-object"
	KindFolder     Kind = "folder"
	KindShow       Kind = "show-document"
)

// Node is one node of the fleet, whatever input it came from.
type Node struct {
	// Name is the name the node registers under when known, else its host name, else the
	// input's name.
	Name string
	// NodeName and Hostname are what the input tells ("" when it does not).
	NodeName, Hostname string
	// Input is where the node came from: a file, a folder, "nodes.json items[2]".
	Input string
	Kind  Kind
	// Product is k3s or rke2; Role is server or agent.
	Product, Role string
	// Release is the node's release (v1.30.5+k3s1); "" when the input does not tell.
	Release string
	// CLI is the command-line layer its values were parsed with ("urfave/cli v1").
	CLI string
	// Keys are the node's effective values, secrets redacted, in the node's provenance
	// model: each entry's Value is what show --json writes (a string, bool, number or list
	// of strings) and its Source the assignment that gave it (kind, position, the name it
	// was set under; nil for a default), as resolve.Key has them. Neither the source's own
	// Value nor the History is kept: fleet compares values in force.
	Keys map[string]*provenance.Entry[resolve.Assignment]
	// Secrets maps each secret key that has a value to its fingerprint; SaltID says
	// which salt made them ("" when the input has no fingerprints).
	Secrets map[string]string
	SaltID  string
	// Omitted lists the secret keys whose values the input hides without a fingerprint
	// (node-args annotations write "********").
	Omitted []string
	// rawSecrets: the input is a show document written with --show-secrets, whose secret
	// values fleet hides itself (it compares secrets only by fingerprint).
	rawSecrets bool
	// Addresses are the node's addresses as the Node object lists them.
	Addresses []string
	// Error is why the node's configuration could not be read fully (a node file that does
	// not parse, k3s refusing to start); the rest is still compared.
	Error string
	// Unreadable is set when a file of a node folder could not be read or parsed (what
	// makes `k3sconf show` exit 3): the report is incomplete.
	Unreadable bool

	// nameSecret: node-name copies a secret by YAML alias (show's secretCopy mark), so
	// NodeName is REDACTED; realName is the name itself when the input holds it (a node
	// folder, a document written with --show-secrets), compared in memory and never
	// printed.
	nameSecret bool
	realName   string
}

// compareName is the name the node registers under for comparing nodes ("" when unknown).
func (n *Node) compareName() string {
	if n.nameSecret {
		return n.realName
	}
	return n.NodeName
}

// InputError is an input that could not be read at all.
type InputError struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

// Loader reads inputs. The zero value is ready to use.
type Loader struct {
	// Salt, when set, fingerprints the secrets of node folders and node objects with it,
	// so they compare with show documents made with the same salt. Without it node
	// folders are fingerprinted with a key made for this run and never written.
	Salt string
	// Version is the release node folders are resolved as (--k3s-version): "" for the
	// newest. An input written PATH@VERSION (k3sconf fleet s1 s2@v1.30.5+k3s1) overrides it
	// for that input. Show documents and node objects carry their own release.
	Version string

	runKey string
}

// splitRelease takes a per-input release off path: "s2@v1.30.5+k3s1" is the folder s2 at
// that release, unless a file or folder of that whole name exists.
func splitRelease(path string) (string, string) {
	i := strings.LastIndexByte(path, '@')
	if i <= 0 {
		return path, ""
	}
	if _, err := os.Stat(path); err == nil {
		return path, ""
	}
	if _, err := profile.ParseVersion(path[i+1:]); err != nil {
		return path, ""
	}
	return path[:i], path[i+1:]
}

func (l *Loader) key() (salt, id string) {
	if l.Salt != "" {
		return l.Salt, nodereport.SaltID(l.Salt)
	}
	if l.runKey == "" {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		l.runKey = hex.EncodeToString(b)
	}
	return l.runKey, "this run"
}

// Path reads one command-line input: a node folder, a folder of show documents, a show
// document, or kubectl's node list.
func (l *Loader) Path(path string) ([]*Node, []InputError) {
	path, version := splitRelease(path)
	if version == "" {
		version = l.Version
	} else {
		// The input's own release beats the global one, for everything read under it.
		l.key() // one fingerprint key for every input of the run
		sub := *l
		sub.Version = version
		return sub.Path(path)
	}
	if version != "" {
		if _, err := l.profileFor().Behaviour(version); err != nil {
			return nil, []InputError{{Input: path, Error: err.Error()}}
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, []InputError{{Input: path, Error: err.Error()}}
	}
	if fi.IsDir() {
		docs, err := jsonFiles(path)
		if err != nil {
			return nil, []InputError{{Input: path, Error: err.Error()}}
		}
		if len(docs) > 0 && !looksLikeNode(path) {
			var nodes []*Node
			var errs []InputError
			for _, d := range docs {
				// A document, never a folder again: x.json linked to "." would recurse.
				n, e := l.document(d)
				nodes = append(nodes, n...)
				errs = append(errs, e...)
			}
			return nodes, errs
		}
		n, err := l.Folder(path)
		if err != nil {
			return nil, []InputError{{Input: path, Error: err.Error()}}
		}
		return []*Node{n}, nil
	}
	return l.document(path)
}

// document reads a show document or node list named by path, through the one reader of
// file arguments (rootfs.ReadArg: a regular file under the size limit, never a FIFO or
// device, so nothing blocks).
func (l *Loader) document(path string) ([]*Node, []InputError) {
	data, err := rootfs.ReadArg(path, false)
	if err != nil {
		return nil, []InputError{{Input: path, Error: err.Error()}}
	}
	return l.Data(data, path)
}

// looksLikeNode tells a node folder (it has etc/ or var/lib/rancher) from a folder of
// documents.
func looksLikeNode(dir string) bool {
	for _, p := range []string{"etc", "var/lib/rancher", "usr/local/bin"} {
		if fi, err := os.Stat(filepath.Join(dir, p)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// jsonFiles lists dir's *.json files, sorted.
func jsonFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Data reads a show document or a node list from data; input names it in messages.
func (l *Loader) Data(data []byte, input string) ([]*Node, []InputError) {
	var probe struct {
		Kind          string          `json:"kind"`
		SchemaVersion json.RawMessage `json:"schemaVersion"`
		Document      string          `json:"document"`
		Keys          json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, []InputError{{Input: input, Error: "not JSON: " + jsonError(data, err)}}
	}
	switch {
	case probe.Document != "" && probe.Document != "show":
		// schemaVersion 2 names the command that wrote a document; explain's has keys too.
		return nil, []InputError{{Input: input, Error: fmt.Sprintf("a k3sconf %s document; fleet reads documents of `k3sconf --json show`", probe.Document)}}
	case probe.Kind != "":
		nodes, err := l.NodeList(data, input)
		if err != nil {
			return nodes, []InputError{{Input: input, Error: err.Error()}}
		}
		return nodes, nil
	case probe.SchemaVersion != nil && probe.Keys != nil:
		n, err := l.Show(data, input)
		if err != nil {
			return nil, []InputError{{Input: input, Error: err.Error()}}
		}
		return []*Node{n}, nil
	}
	return nil, []InputError{{Input: input, Error: "neither `kubectl get nodes -o json` output (no kind) nor a `k3sconf --json show` document (no schemaVersion and keys)"}}
}

// jsonError adds the line and column to a JSON syntax error.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the offending byte itself.
		line, col := 1, 1
		for _, b := range data[:max(0, min(int(se.Offset)-1, len(data)))] {
			if b == '\n' {
				line++
				col = 1
			} else {
				col++
			}
		}
		return fmt.Sprintf("line %d column %d: %v", line, col, err)
	}
	return err.Error()
}

// Folder resolves the node whose files are under dir, as `k3sconf --root dir` does.
func (l *Loader) Folder(dir string) (*Node, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", dir)
	}
	node := k3sconf.Node(dir)
	res, err := resolve.Resolve(resolve.Options{FS: node, Version: l.Version})
	if err != nil {
		return nil, err
	}
	n := l.fromResult(res, dir, KindFolder)
	if res.InputInvalid() {
		// The error as the show document writes it (redacted), never res.Error.
		n.Error = firstNonEmpty(n.Error, "a node file could not be read")
		n.Unreadable = true
	}
	if res.Command == "server" || res.Command == "agent" {
		id := identity.Derive(node, res, dir)
		n.NodeName = id.Name
		if id.BaseFrom != identity.FromNodeName {
			n.Hostname = id.Base
		} else if b, err := rootfs.ReadHostFile(filepath.Join(dir, "etc", "hostname")); err == nil {
			// The host name matters even when node-name hides it (duplicate-hostname).
			n.Hostname = strings.TrimSpace(string(b))
		}
	}
	n.finish()
	return n, nil
}

// fromResult builds a node from a resolution: values redacted as show --json writes
// them, secrets fingerprinted in memory.
func (l *Loader) fromResult(res *resolve.Result, input string, kind Kind) *Node {
	doc := nodereport.JSON(res, report.NewRedactor(res, false))
	salt, id := l.key()
	n := &Node{Input: input, Kind: kind, Product: res.Product, Role: res.Command, Keys: entries(doc.Keys),
		Secrets: nodereport.SecretFingerprints(res, salt), SaltID: id, Error: doc.Error, CLI: "urfave/cli " + res.Era,
		nameSecret: nodeNameCopies(doc)}
	if res.Version != "" && res.Version != "newest" {
		n.Release = res.Version
	}
	return n
}

// NodeList reads `kubectl get nodes -o json` (or one Node) and resolves each node's
// annotations with the CLI layer of its release.
func (l *Loader) NodeList(data []byte, input string) ([]*Node, error) {
	anns, err := live.ParseNodeList(data, "")
	if err != nil {
		return nil, err
	}
	var out []*Node
	var errs []string
	for i, a := range anns {
		where := fmt.Sprintf("%s items[%d] (%s)", input, i, a.Node)
		n, err := l.annotationNode(a, where)
		if err != nil {
			errs = append(errs, where+": "+err.Error())
			continue
		}
		out = append(out, n)
	}
	if len(errs) > 0 {
		return out, errors.New(strings.Join(errs, "; "))
	}
	return out, nil
}

func (l *Loader) annotationNode(a *live.Annotations, where string) (*Node, error) {
	prof := profile.K3s()
	if a.Program == "rke2" || strings.Contains(a.KubeletVersion, "rke2") {
		prof = profile.RKE2()
	}
	role := "agent"
	for _, lbl := range []string{"node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"} {
		if a.Labels[lbl] == "true" {
			role = "server"
		}
	}
	if !a.HasArgs {
		// A server with --disable-agent registers no Node; a Node without the annotation
		// was not started by k3s (or was started before k3s wrote it).
		n := &Node{Name: a.Node, NodeName: a.Node, Hostname: a.Hostname, Input: where, Kind: KindNodeObject,
			Product: prof.Name, Role: role, Release: a.KubeletVersion, Keys: map[string]*provenance.Entry[resolve.Assignment]{},
			Error: "no " + prof.Program + ".io/node-args annotation: nothing to compare but its name and release"}
		n.finish()
		return n, nil
	}
	command := role
	if len(a.Args) > 0 && (a.Args[0] == "server" || a.Args[0] == "agent") {
		command = a.Args[0]
	}
	ro := resolve.Options{Profile: prof, Command: command, Version: a.KubeletVersion}
	if _, err := prof.Behaviour(a.KubeletVersion); err != nil {
		// Releases k3sconf does not model (before v1.22.4) parse with the oldest era.
		ro.Version = "v1.22.4"
	}
	res, _, err := live.ResolveAnnotations(a, ro)
	if err != nil {
		return nil, err
	}
	n := l.fromResult(res, where, KindNodeObject)
	n.Release = a.KubeletVersion
	n.Role = command
	n.NodeName, n.Hostname, n.Addresses = a.Node, a.Hostname, a.Addresses
	// k3s wrote "********" for these: nothing to compare.
	for name := range n.Secrets {
		if k := res.Key(name); k != nil && strings.Contains(report.FormatValue(k.Value), live.OmittedValue) {
			delete(n.Secrets, name)
			n.Omitted = append(n.Omitted, name)
		}
	}
	sort.Strings(n.Omitted)
	n.finish()
	return n, nil
}

// Show reads a document written by `k3sconf --json show`.
func (l *Loader) Show(data []byte, input string) (*Node, error) {
	var doc nodereport.Document
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a k3sconf show document: %s", jsonError(data, err))
	}
	if doc.Keys == nil {
		return nil, errors.New("not a k3sconf show document: no keys")
	}
	// node-name copying a secret: a document written with --show-secrets holds it, which
	// is compared in memory; redactDocument hides it.
	nameSecret, realName := nodeNameCopies(&doc), ""
	if k := doc.Keys["node-name"]; nameSecret && k != nil {
		if s, ok := k.Value.(string); ok && s != output.Redacted {
			realName = strings.ToLower(s)
		}
	}
	// The keys the document already hides (written without --show-secrets): the rest of
	// the secrets it holds are raw, and the finding about not comparing them says which.
	hidden := map[string]bool{}
	for name, k := range doc.Keys {
		if s, ok := k.Value.(string); ok && s == output.Redacted {
			hidden[name] = true
		}
	}
	redactDocument(&doc)
	role := doc.Command
	if l.Version != "" && doc.Version != "" && doc.Version != "newest" && doc.Version != l.Version {
		// A document holds values resolved under its own release; it cannot be re-read
		// under another one.
		return nil, fmt.Errorf("the document was written for release %s, not %s: write it again with k3sconf --k3s-version %s --json show, or leave the release off this input", doc.Version, l.Version, l.Version)
	}
	n := &Node{Input: input, Kind: KindShow, Product: doc.Product, Role: role, Keys: entries(doc.Keys), Error: doc.Error, CLI: doc.CLI,
		nameSecret: nameSecret, realName: realName}
	if doc.Version != "" && doc.Version != "newest" {
		n.Release = doc.Version
	}
	if f := doc.Fleet; f != nil {
		n.SaltID = f.SaltID
		n.Secrets = f.Fingerprints
		n.NodeName, n.Hostname = f.NodeName, f.Hostname
	}
	if n.Secrets == nil {
		n.Secrets = map[string]string{}
		for name, k := range doc.Keys {
			if s, ok := k.Value.(string); ok && s == output.Redacted {
				n.Omitted = append(n.Omitted, name)
				if !hidden[name] {
					n.rawSecrets = true
				}
			}
		}
		sort.Strings(n.Omitted)
	}
	n.finish()
	return n, nil
}

// entries are the keys of a show document as the provenance model has them.
func entries(keys map[string]*nodereport.Key) map[string]*provenance.Entry[resolve.Assignment] {
	out := make(map[string]*provenance.Entry[resolve.Assignment], len(keys))
	for name, k := range keys {
		if k == nil {
			continue
		}
		e := &provenance.Entry[resolve.Assignment]{Name: name, Value: k.Value}
		if s := k.Source; s.Kind != "" && s.Kind != string(sources.KindDefault) {
			a := &resolve.Assignment{Name: s.Name}
			a.Kind = sources.Kind(s.Kind)
			a.Pos = diag.Position{File: s.File, Line: s.Line, Column: s.Column}
			e.Source = a
		}
		out[name] = e
	}
	return out
}

// finish names the node. A node-name that copies a secret is REDACTED wherever fleet
// prints it; the name itself, when the input holds it, is kept for comparing.
func (n *Node) finish() {
	if n.NodeName == "" {
		if k := n.Keys["node-name"]; k != nil {
			if s, ok := k.Value.(string); ok {
				n.NodeName = s
			}
		}
	}
	if n.nameSecret && n.NodeName != "" {
		if n.realName == "" && n.NodeName != output.Redacted {
			n.realName = strings.ToLower(n.NodeName)
		}
		n.NodeName = output.Redacted
	}
	n.Name = firstNonEmpty(n.NodeName, n.Hostname, displayInput(n.Input))
}

// nodeNameCopies reports whether a show document marks node-name as a copy of a secret.
func nodeNameCopies(doc *nodereport.Document) bool {
	k := doc.Keys["node-name"]
	return k != nil && k.SecretCopy
}

func displayInput(p string) string {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return filepath.Base(filepath.Clean(p))
	}
	base := filepath.Base(p)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// profileFor is the profile the loader's release is checked against: RKE2 when the
// release names it (v1.30.5+rke2r1), else k3s (both accept the same version range).
func (l *Loader) profileFor() *profile.Profile {
	if strings.Contains(l.Version, "rke2") {
		return profile.RKE2()
	}
	return profile.K3s()
}

// historyItems are the list items of a key's history in order (an entry's Items, or its
// one Value), for the list rule.
func historyItems(hs []output.History) []any {
	var out []any
	for _, h := range hs {
		if len(h.Items) > 0 {
			for _, it := range h.Items {
				out = append(out, it)
			}
		} else {
			out = append(out, h.Value)
		}
	}
	return out
}

// redactDocument redacts a show document as it is read: one written with --show-secrets
// holds the node's secrets as they are. The secret flags of its product and command (the
// profile's) are hidden whole (only the credentials of a URL-valued one) and taught to the
// redactor, so the document's error, notes and histories that quote them are redacted; the
// other values are redacted as data (output.Redactor.Data), as show writes them.
func redactDocument(doc *nodereport.Document) {
	prof := profile.K3s()
	if doc.Product == "rke2" {
		prof = profile.RKE2()
	}
	red := output.NewTextRedactor(false)
	cmd := prof.Command(doc.Command)
	secret := func(name string) bool {
		if k := doc.Keys[name]; k != nil && k.SecretCopy {
			return true // a copy of a secret by YAML alias (show marks it)
		}
		if cmd != nil {
			if f := cmd.Lookup(name); f != nil {
				return f.Secret
			}
		}
		return output.SecretName(name)
	}
	for name, k := range doc.Keys {
		if k == nil {
			continue
		}
		if !secret(name) {
			// The list rule (output.Redactor.FlagValue): the item after a secret flag on
			// its own (kubelet-arg: ["--registry-password", "x"]) is a secret, in the
			// list in force and in the history (an assignment per item).
			if list, ok := k.Value.([]any); ok {
				red.LearnData(name, list)
			}
			if len(k.History) > 1 {
				red.LearnData(name, historyItems(k.History))
			}
			continue
		}
		red.LearnData(name, k.Value)
		for _, h := range k.History {
			red.Learn(name, h.Value)
			red.Learn(name, h.Raw)
			for _, it := range h.Items {
				red.Learn(name, it)
			}
		}
	}
	red.Done()
	hide := func(name, v string) string {
		if secret(name) {
			return red.Scrub(red.Value(name, v))
		}
		return red.String(name, v)
	}
	for name, k := range doc.Keys {
		if k == nil {
			continue
		}
		// prev is the item before, for the list rule: a secret flag on its own hides the
		// next item (also across history entries: each config list item is one).
		prev := ""
		item := func(s string) string {
			if v, ok := red.FlagValue(prev, s); ok {
				prev = ""
				return v
			}
			prev = s
			return hide(name, s)
		}
		switch v := k.Value.(type) {
		case string:
			k.Value = hide(name, v)
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				if s, ok := x.(string); ok {
					out[i] = item(s)
				} else {
					out[i], prev = x, ""
				}
			}
			k.Value = out
		}
		prev = ""
		for i := range k.History {
			h := &k.History[i]
			if len(h.Items) > 0 {
				h.Raw = hide(name, h.Raw)
				for j := range h.Items {
					h.Items[j] = item(h.Items[j])
				}
				h.Value = h.Items[0]
			} else if fv, ok := red.FlagValue(prev, h.Value); ok {
				// The value of a secret flag given as the item before.
				if h.Raw != "" {
					h.Raw, _ = red.FlagValue(prev, h.Raw)
				}
				h.Value, prev = fv, ""
			} else {
				h.Value, h.Raw = item(h.Value), hide(name, h.Raw)
			}
			h.Reason = red.Scrub(h.Reason)
		}
		k.Note = red.Scrub(k.Note)
		for i := range k.Advice {
			k.Advice[i] = red.Scrub(k.Advice[i])
		}
	}
	doc.Error = red.Scrub(doc.Error)
	for i := range doc.Args {
		doc.Args[i] = red.Scrub(doc.Args[i])
	}
	doc.Args = red.Argv(doc.Args)
	for i := range doc.Diagnostics {
		d := &doc.Diagnostics[i]
		d.Message, d.Hint, d.Key = red.Scrub(d.Message), red.Scrub(d.Hint), red.Key(d.Key)
	}
}
