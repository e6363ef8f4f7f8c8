package helmrelease

import (
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/diag"
)

// Labels and annotations helm-controller and klipper-helm write (k3s-io/helm-controller
// v0.17.7 pkg/controllers/chart/chart.go, commit 21a911f8; k3s-io/klipper-helm v0.13.3
// entry, commit 09c5242).
const (
	// ReleaseType is the type of Helm's release Secrets (helm pkg/storage/driver/secrets.go
	// newSecretsObject: "helm.sh/release.v1").
	ReleaseType = "helm.sh/release.v1"
	// ConfigHashKey is the pod template annotation helm-controller's hashObjects sets
	// ("SHA256=HEX"), and the release label klipper-helm adds with
	// `--labels helmcharts.helm.cattle.io/configHash=$CONFIG_HASH` (HEX cut to 63 bytes).
	ConfigHashKey = "helmcharts.helm.cattle.io/configHash"
	// ChartLabel names the HelmChart on its Jobs.
	ChartLabel = "helmcharts.helm.cattle.io/chart"
)

// Objects are the release Secrets, Helm Jobs and other Secrets of an --objects document.
type Objects struct {
	// Revisions are the release Secrets (owner=helm, type helm.sh/release.v1), in input
	// order.
	Revisions []*Revision
	// Jobs are the Jobs (any; helm-controller's are named helm-install-NAME and
	// helm-delete-NAME).
	Jobs []*Job
	// Secrets are every other Secret: a valuesSecrets entry may name one.
	Secrets []*Secret
	// HasSecrets and HasJobs say whether the document has any Secret or Job at all, so that
	// "none for this chart" can be told from "not given".
	HasSecrets, HasJobs bool
}

// Revision is one release Secret, sh.helm.release.v1.NAME.vN, as its labels describe it;
// [Revision.Decode] reads its data.
type Revision struct {
	// Secret, Namespace and Pos locate the Secret (Pos is its metadata.name).
	Secret, Namespace string
	Pos               diag.Position
	// Name, Version and Status are the labels name, version and status Helm sets.
	Name    string
	Version int
	Status  string
	// ConfigHash is the helmcharts.helm.cattle.io/configHash label ("" when the release was
	// not made by a helm-controller job).
	ConfigHash string
	// data is data.release as kubectl prints it; dataPos locates it.
	data    string
	dataPos diag.Position
}

// Secret is a Secret that is not a release: its keys, their data as kubectl prints it
// (base64), and positions.
type Secret struct {
	Name, Namespace string
	Pos             diag.Position
	Type            string
	Data            map[string]string
	DataPos         map[string]diag.Position
}

// Job is a Job, with what helm-controller and the job controller record on it.
type Job struct {
	Name, Namespace string
	Pos             diag.Position
	// Chart is the helmcharts.helm.cattle.io/chart label.
	Chart string
	// Created is metadata.creationTimestamp; Suspended spec.suspend.
	Created   string
	Suspended bool
	// ConfigHash is the pod template's helmcharts.helm.cattle.io/configHash annotation
	// without "SHA256=", cut to 63 bytes as helm-controller cuts it for the label; EnvHash
	// and ExpectedRevision are the CONFIG_HASH and EXPECTED_RELEASE_REVISION the job's
	// container gets.
	ConfigHash, EnvHash, ExpectedRevision string
	// Active, Succeeded and Failed count pods (status).
	Active, Succeeded, Failed int
	// Conditions are status.conditions in order.
	Conditions []Condition
	// StartTime and CompletionTime are status.startTime and status.completionTime.
	StartTime, CompletionTime string
}

// Condition is one Job condition.
type Condition struct {
	Type, Status, Reason, Message, LastTransitionTime string
}

// Collect adds the object m (a mapping from a kubectl JSON or YAML document; a List's items
// are walked) to o when it is a Secret or a Job. file names the document in positions.
func Collect(file string, m *yaml.Node, o *Objects) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	if items := field(m, "items"); items != nil && items.Kind == yaml.SequenceNode {
		for _, it := range items.Content {
			Collect(file, it, o)
		}
		return
	}
	api, kind := scalar(m, "apiVersion"), scalar(m, "kind")
	md := field(m, "metadata")
	pos := diag.Position{File: file, Line: m.Line, Column: m.Column}
	if n := field(md, "name"); n != nil {
		pos.Line, pos.Column = n.Line, n.Column
	}
	name, ns := scalar(md, "name"), scalar(md, "namespace")
	if ns == "" {
		ns = "default"
	}
	labels := field(md, "labels")
	switch {
	case api == "v1" && kind == "Secret":
		o.HasSecrets = true
		data := field(m, "data")
		typ := scalar(m, "type")
		if typ == ReleaseType && scalar(labels, "owner") == "helm" {
			r := &Revision{Secret: name, Namespace: ns, Pos: pos, Name: scalar(labels, "name"),
				Status: scalar(labels, "status"), ConfigHash: scalar(labels, ConfigHashKey)}
			r.Version, _ = strconv.Atoi(scalar(labels, "version"))
			if d := field(data, "release"); d != nil {
				r.data, r.dataPos = d.Value, diag.Position{File: file, Line: d.Line, Column: d.Column}
			}
			o.Revisions = append(o.Revisions, r)
			return
		}
		s := &Secret{Name: name, Namespace: ns, Pos: pos, Type: typ, Data: map[string]string{}, DataPos: map[string]diag.Position{}}
		if data != nil && data.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(data.Content); i += 2 {
				k, v := data.Content[i], data.Content[i+1]
				s.Data[k.Value] = v.Value
				s.DataPos[k.Value] = diag.Position{File: file, Line: v.Line, Column: v.Column}
			}
		}
		o.Secrets = append(o.Secrets, s)
	case strings.HasPrefix(api, "batch/") && kind == "Job":
		o.HasJobs = true
		j := &Job{Name: name, Namespace: ns, Pos: pos, Chart: scalar(labels, ChartLabel), Created: scalar(md, "creationTimestamp")}
		spec := field(m, "spec")
		j.Suspended = scalar(spec, "suspend") == "true"
		tmpl := field(spec, "template")
		h := scalar(field(field(tmpl, "metadata"), "annotations"), ConfigHashKey)
		if _, hex, ok := strings.Cut(h, "="); ok {
			h = hex
		}
		j.ConfigHash = cut63(h)
		if cs := field(field(tmpl, "spec"), "containers"); cs != nil && cs.Kind == yaml.SequenceNode {
			for _, c := range cs.Content {
				env := field(c, "env")
				if env == nil || env.Kind != yaml.SequenceNode {
					continue
				}
				for _, e := range env.Content {
					switch scalar(e, "name") {
					case "CONFIG_HASH":
						j.EnvHash = scalar(e, "value")
					case "EXPECTED_RELEASE_REVISION":
						j.ExpectedRevision = scalar(e, "value")
					}
				}
			}
		}
		st := field(m, "status")
		j.Active, _ = strconv.Atoi(scalar(st, "active"))
		j.Succeeded, _ = strconv.Atoi(scalar(st, "succeeded"))
		j.Failed, _ = strconv.Atoi(scalar(st, "failed"))
		j.StartTime, j.CompletionTime = scalar(st, "startTime"), scalar(st, "completionTime")
		if cs := field(st, "conditions"); cs != nil && cs.Kind == yaml.SequenceNode {
			for _, c := range cs.Content {
				j.Conditions = append(j.Conditions, Condition{Type: scalar(c, "type"), Status: scalar(c, "status"),
					Reason: scalar(c, "reason"), Message: scalar(c, "message"), LastTransitionTime: scalar(c, "lastTransitionTime")})
			}
		}
		o.Jobs = append(o.Jobs, j)
	}
}

// cut63 is helm-controller's cut of the hash to a label value's 63 bytes.
func cut63(s string) string {
	if len(s) > 63 {
		return s[:63]
	}
	return s
}

// SecretData returns the decoded value of key in the Secret namespace/name, and where it
// is; ok is false when the Secret or the key is not in the document, or the value is not
// base64.
func (o *Objects) SecretData(namespace, name, key string) (data []byte, pos diag.Position, found, ok bool) {
	if o == nil {
		return nil, diag.Position{}, false, false
	}
	for _, s := range o.Secrets {
		if s.Namespace != namespace || s.Name != name {
			continue
		}
		v, has := s.Data[key]
		if !has {
			return nil, s.Pos, true, false
		}
		b, err := b64(v)
		return b, s.DataPos[key], true, err == nil
	}
	return nil, diag.Position{}, false, false
}

// Secret returns the Secret namespace/name, or nil.
func (o *Objects) Secret(namespace, name string) *Secret {
	if o == nil {
		return nil
	}
	for _, s := range o.Secrets {
		if s.Namespace == namespace && s.Name == name {
			return s
		}
	}
	return nil
}

// revisionsOf are the revisions of release name in namespace, oldest first.
func (o *Objects) revisionsOf(namespace, name string) []*Revision {
	var out []*Revision
	for _, r := range o.Revisions {
		if r.Namespace == namespace && r.Name == name {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// job returns the Job namespace/name, or nil.
func (o *Objects) job(namespace, name string) *Job {
	for _, j := range o.Jobs {
		if j.Namespace == namespace && j.Name == name {
			return j
		}
	}
	return nil
}

// Condition returns the job's condition of type t with status True, or nil.
func (j *Job) Condition(t string) *Condition {
	for i := range j.Conditions {
		if j.Conditions[i].Type == t && j.Conditions[i].Status == "True" {
			return &j.Conditions[i]
		}
	}
	return nil
}

// Last is the job's last condition (the newest lastTransitionTime; the last listed among
// equals), or nil.
func (j *Job) Last() *Condition {
	var last *Condition
	for i := range j.Conditions {
		c := &j.Conditions[i]
		if last == nil || c.LastTransitionTime >= last.LastTransitionTime {
			last = c
		}
	}
	return last
}

func field(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(m *yaml.Node, key string) string {
	if n := field(m, key); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}
