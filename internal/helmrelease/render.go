package helmrelease

import (
	"fmt"
)

// Doc is the release part of the `values` JSON document (docs/json.md#values).
type Doc struct {
	State   string `json:"state"`
	Summary string `json:"summary"`
	// Name and Namespace name the Helm release.
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	// Compared is the revision the values were compared with; Revisions every revision,
	// oldest first.
	Compared    *RevisionDoc    `json:"compared"`
	Revisions   []RevisionDoc   `json:"revisions"`
	Job         *JobDoc         `json:"job"`
	Differences []DifferenceDoc `json:"differences"`
	Notes       []string        `json:"notes"`
}

// RevisionDoc is one release Secret.
type RevisionDoc struct {
	Version      int    `json:"version"`
	Status       string `json:"status"`
	Secret       string `json:"secret"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	Column       int    `json:"column"`
	ConfigHash   string `json:"configHash,omitempty"`
	Chart        string `json:"chart,omitempty"`
	Description  string `json:"description,omitempty"`
	LastDeployed string `json:"lastDeployed,omitempty"`
}

// JobDoc is helm-controller's job.
type JobDoc struct {
	Name             string `json:"name"`
	Namespace        string `json:"namespace"`
	File             string `json:"file"`
	Line             int    `json:"line"`
	Column           int    `json:"column"`
	Phase            string `json:"phase"`
	Condition        string `json:"condition,omitempty"`
	ConfigHash       string `json:"configHash,omitempty"`
	ExpectedRevision string `json:"expectedRevision,omitempty"`
}

// DifferenceDoc is a leaf path where the release and the computed values differ; a side
// that does not set the path has no value field.
type DifferenceDoc struct {
	Path      string `json:"path"`
	Computed  any    `json:"computed,omitempty"`
	Release   any    `json:"release,omitempty"`
	InValues  bool   `json:"inValues"`
	InRelease bool   `json:"inRelease"`
}

// Phase is the job's state in one word: failed, complete, suspended, running or pending.
func (j *Job) Phase() string {
	switch {
	case j.Condition("Failed") != nil:
		return "failed"
	case j.Condition("Complete") != nil:
		return "complete"
	case j.Suspended:
		return "suspended"
	case j.Active > 0:
		return "running"
	}
	return "pending"
}

func (s *Status) revisionDoc(r *Revision, decoded *Release) RevisionDoc {
	d := RevisionDoc{Version: r.Version, Status: r.Status, Secret: r.Secret, File: r.Pos.File, Line: r.Pos.Line, Column: r.Pos.Column, ConfigHash: r.ConfigHash}
	if decoded != nil {
		d.Chart = decoded.ChartName + " " + decoded.ChartVersion
		d.Description, d.LastDeployed = decoded.Description, decoded.LastDeployed
	}
	return d
}

// Doc is the status as JSON. show redacts a value at a leaf path; scrub redacts text.
func (s *Status) Doc(show func(path string, v any) any, scrub func(string) string) *Doc {
	d := &Doc{State: string(s.State), Summary: scrub(s.Summary), Name: s.Release, Namespace: s.Namespace,
		Revisions: []RevisionDoc{}, Differences: []DifferenceDoc{}, Notes: []string{}}
	for _, r := range s.Revisions {
		var dec *Release
		switch {
		case s.Compared != nil && r.Version == s.Compared.Version && (r == s.Deployed || (s.Deployed == nil && r == s.Latest)):
			dec = s.Compared
		case r == s.Latest:
			dec = s.LatestRelease
		}
		rd := s.revisionDoc(r, dec)
		rd.Description = scrub(rd.Description)
		d.Revisions = append(d.Revisions, rd)
		if dec != nil && dec == s.Compared {
			c := rd
			d.Compared = &c
		}
	}
	if j := s.Job; j != nil {
		jd := &JobDoc{Name: j.Name, Namespace: j.Namespace, File: j.Pos.File, Line: j.Pos.Line, Column: j.Pos.Column,
			Phase: j.Phase(), ConfigHash: j.ConfigHash, ExpectedRevision: j.ExpectedRevision}
		if c := j.Last(); c != nil {
			jd.Condition = scrub(condText(c))
		}
		d.Job = jd
	}
	for _, x := range s.Diffs {
		dd := DifferenceDoc{Path: x.Path, InValues: x.HasComputed, InRelease: x.HasRelease}
		if x.HasComputed {
			dd.Computed = show(x.Path, x.Computed)
		}
		if x.HasRelease {
			dd.Release = show(x.Path, x.Release)
		}
		d.Differences = append(d.Differences, dd)
	}
	for _, n := range s.Notes {
		d.Notes = append(d.Notes, scrub(n))
	}
	return d
}

// Lines is the status as text, for the head of the `values` report: the release and its
// revisions, the job, the verdict and the notes. show renders a value at a leaf path
// (redacted); scrub redacts text.
func (s *Status) Lines(show func(path string, v any) string, scrub func(string) string) []string {
	var out []string
	head := fmt.Sprintf("release %s in %s:", s.Release, s.Namespace)
	if len(s.Revisions) == 0 {
		return append(out, head+" "+scrub(s.Summary))
	}
	out = append(out, head)
	for _, r := range s.Revisions {
		l := fmt.Sprintf("  revision %d  %-10s %s (%s)", r.Version, r.Status, r.Secret, r.Pos)
		if r == s.Latest && s.LatestRelease != nil && s.LatestRelease.Description != "" {
			l += "  " + fmt.Sprintf("%q", s.LatestRelease.Description)
		}
		out = append(out, scrub(l))
	}
	if j := s.Job; j != nil {
		out = append(out, scrub(fmt.Sprintf("  %s (%s)", jobPhrase(j), j.Pos)))
	}
	out = append(out, "  "+scrub(s.Summary))
	for _, x := range s.Diffs {
		if x.HasComputed {
			continue
		}
		out = append(out, fmt.Sprintf("  revision %d also has %s = %s, which the manifests no longer set: the next upgrade drops it", s.Compared.Version, x.Path, show(x.Path, x.Release)))
	}
	for _, n := range s.Notes {
		out = append(out, "  note: "+scrub(n))
	}
	return out
}
