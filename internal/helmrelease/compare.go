package helmrelease

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/values"
)

// State is the verdict on a release.
type State string

const (
	// InEffect: the newest deployed revision has every user value k3sconf computed.
	InEffect State = "in-effect"
	// Pending: the values differ and helm-controller's job has not finished.
	Pending State = "pending"
	// Failed: the values differ and the job failed (or Helm recorded the upgrade as
	// failed).
	Failed State = "failed"
	// Drifted: the values differ, and the job that ran last was made for an earlier
	// configuration (or there is no job): the manifests changed after the last upgrade and
	// no job has run since.
	Drifted State = "drifted"
	// NotInstalled: the document has Secrets but none of this release.
	NotInstalled State = "not-installed"
	// Unknown: the document has no Secrets, or the release cannot be read.
	Unknown State = "unknown"
)

// Origin is where a computed leaf's value comes from.
type Origin struct {
	// Object is "HelmChart" or "HelmChartConfig" (or "" when unknown); Pos the value.
	Object string
	Pos    diag.Position
}

// Input is what k3sconf computed for one HelmChart.
type Input struct {
	// Chart and Namespace name the HelmChart; TargetNamespace is where Helm keeps the
	// release (spec.targetNamespace, else the chart's namespace). The release is named as
	// the HelmChart (chart.go job: NAME_ARG is the chart's name).
	Chart, Namespace, TargetNamespace string
	// User is the user-supplied values k3sconf computed: what Helm stores as the release's
	// config. Nil when Helm refuses the values (Refused says why).
	User    map[string]any
	Refused string
	// Unread names the values files k3sconf could not read (a Secret not in --objects):
	// paths they set cannot be compared.
	Unread []string
	// Origins locate each leaf path of User.
	Origins map[string]Origin
	// ChartVersion is the chart version the HelmChart names now ("" when unknown).
	ChartVersion string
}

// Diff is a leaf path where the revision compared differs from the computed values.
type Diff struct {
	Path string
	// Computed is the computed user value (HasComputed false: the manifests no longer set
	// the path); Release the revision's (HasRelease false: the revision does not set it).
	Computed, Release       any
	HasComputed, HasRelease bool
}

// Status is what the cluster's objects say about one HelmChart's release.
type Status struct {
	State State
	// Summary is one sentence about the release as a whole; it quotes no value.
	Summary string
	// Release and Namespace name the Helm release.
	Release, Namespace string
	// Revisions are the release's Secrets, oldest first; Latest is the newest, Deployed
	// the newest with status deployed (either may be nil).
	Revisions        []*Revision
	Latest, Deployed *Revision
	// Compared is the decoded revision the values were compared with (Deployed, else
	// Latest), LatestRelease the decoded Latest.
	Compared, LatestRelease *Release
	// Job is helm-install-NAME (or helm-delete-NAME when only that exists), or nil.
	Job *Job
	// Diffs are the leaf paths that differ, sorted.
	Diffs []Diff
	// Notes are further facts (chart version, a newer failed revision, unread values).
	Notes       []string
	Diagnostics []diag.Diagnostic

	// why is the reason a pending or failed value is not installed, for [Status.Note].
	why string
	// jobs is set when the document has Jobs at all.
	jobs bool
}

// Compare reads the release of the HelmChart in o and compares it with in.
func Compare(o *Objects, in Input) *Status {
	if in.TargetNamespace == "" {
		in.TargetNamespace = in.Namespace
	}
	s := &Status{Release: in.Chart, Namespace: in.TargetNamespace, jobs: o.HasJobs}
	s.Revisions = o.revisionsOf(in.TargetNamespace, in.Chart)
	s.Job = o.job(in.Namespace, "helm-install-"+in.Chart)
	if s.Job == nil {
		s.Job = o.job(in.Namespace, "helm-delete-"+in.Chart)
	}
	if len(s.Revisions) == 0 {
		if !o.HasSecrets {
			s.State = Unknown
			s.Summary = fmt.Sprintf("--objects has no Secrets, so the release's revisions are unknown: add `kubectl get secrets -n %s -l owner=helm,name=%s -o json`", in.TargetNamespace, in.Chart)
		} else {
			s.State = NotInstalled
			s.Summary = fmt.Sprintf("no release %s in namespace %s: --objects has no Secret sh.helm.release.v1.%s.vN", in.Chart, in.TargetNamespace, in.Chart)
			if j := s.Job; j != nil {
				s.Summary += "; " + jobPhrase(j)
			}
		}
		return s
	}
	s.Latest = s.Revisions[len(s.Revisions)-1]
	for _, r := range s.Revisions {
		if r.Status == "deployed" {
			s.Deployed = r
		}
	}
	cmp := s.Deployed
	if cmp == nil {
		cmp = s.Latest
	}
	rel, ok := s.decode(cmp)
	if !ok {
		s.State = Unknown
		s.Summary = fmt.Sprintf("revision %d (%s) cannot be read: see the finding at %s", cmp.Version, cmp.Status, cmp.Pos)
		return s
	}
	s.Compared = rel
	if cmp == s.Latest {
		s.LatestRelease = rel
	} else if lr, ok := s.decode(s.Latest); ok {
		s.LatestRelease = lr
	}
	if in.ChartVersion != "" && rel.ChartVersion != "" && rel.ChartVersion != in.ChartVersion {
		s.Notes = append(s.Notes, fmt.Sprintf("revision %d was installed from %s %s; the HelmChart now names %s", cmp.Version, rel.ChartName, rel.ChartVersion, in.ChartVersion))
	}
	if len(in.Unread) > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("values from %s are not compared: k3sconf could not read them", strings.Join(in.Unread, ", ")))
	}
	if in.User != nil {
		s.Diffs = diff(normalize(in.User), normalize(rel.Config))
	}
	s.judge(in, cmp)
	return s
}

func (s *Status) decode(r *Revision) (*Release, bool) {
	rel, err := r.Decode()
	if err == nil {
		return rel, true
	}
	pos := r.dataPos
	if pos.Line == 0 {
		pos = r.Pos
	}
	s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "values-release-unreadable", Pos: pos,
		Message: fmt.Sprintf("release Secret %s/%s cannot be read: %v", r.Namespace, r.Secret, err),
		Hint:    "give the Secret as `kubectl get secret -o json` prints it; `helm get values` reads the same data"})
	return nil, false
}

// judge decides the state, as helm-controller would see it (chart.go OnChange,
// getJobAndRelatedResources: jobFailed, jobComplete, and the latest release's status and
// config hash label against the job's).
func (s *Status) judge(in Input, cmp *Revision) {
	j := s.Job
	who := s.who(in)
	at := fmt.Sprintf("revision %d", cmp.Version)
	if s.Compared.LastDeployed != "" {
		at += " (" + cmp.Status + " " + s.Compared.LastDeployed + ")"
	} else {
		at += " (" + cmp.Status + ")"
	}
	if s.Latest != cmp {
		s.Notes = append(s.Notes, fmt.Sprintf("the newest revision, %d, is %s%s", s.Latest.Version, s.Latest.Status, describe(s.LatestRelease)))
	}
	if in.User == nil {
		s.State = Failed
		s.why = fmt.Sprintf("Helm refuses the values (%s)", in.Refused)
		s.Summary = fmt.Sprintf("pending: %s, so every job fails and %s keeps what it has", s.why, at)
		return
	}
	if len(s.Diffs) == 0 {
		s.State = InEffect
		s.Summary = fmt.Sprintf("in effect: %s has every value computed here", at)
		if j != nil && j.Condition("Failed") != nil {
			s.Notes = append(s.Notes, jobPhrase(j)+", yet the release already has these values")
		}
		return
	}
	pos := s.firstPos(in, cmp)
	switch {
	case j != nil && j.Condition("Failed") != nil:
		s.State, s.why = Failed, "job "+j.Name+" failed"
		s.Summary = fmt.Sprintf("pending: %s; %s still has the earlier values", jobPhrase(j), at)
		s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "values-release-failed", Pos: j.Pos,
			Message: fmt.Sprintf("%s: the values set here are not installed; %s still has the earlier ones (paths that differ: %d)", jobPhrase(j), at, len(s.Diffs)),
			Hint:    fmt.Sprintf("read the job's log: `kubectl logs -n %s job/%s`; fix the values and helm-controller runs it again", j.Namespace, j.Name)})
	case s.LatestRelease != nil && s.Latest != cmp && s.Latest.Status == "failed" && len(diff(normalize(in.User), normalize(s.LatestRelease.Config))) == 0:
		s.State, s.why = Failed, fmt.Sprintf("helm upgrade to revision %d failed%s", s.Latest.Version, describe(s.LatestRelease))
		s.Summary = fmt.Sprintf("pending: revision %d has these values but Helm recorded it as failed%s; %s is what runs", s.Latest.Version, describe(s.LatestRelease), at)
		s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "values-release-failed", Pos: s.Latest.Pos,
			Message: fmt.Sprintf("helm upgrade to revision %d failed%s: %s still has the earlier values", s.Latest.Version, describe(s.LatestRelease), at),
			Hint:    fmt.Sprintf("`helm history %s -n %s` shows why; the job retries as the HelmChart's failurePolicy says", s.Release, s.Namespace)})
	case j != nil && j.Condition("Complete") == nil && !strings.HasPrefix(j.Name, "helm-delete-"):
		s.State, s.why = Pending, "job "+j.Name+" has not finished"
		s.Summary = fmt.Sprintf("pending: %s; %s has the earlier values until it succeeds", jobPhrase(j), at)
		s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "values-release-pending", Pos: j.Pos,
			Message: fmt.Sprintf("%s: the values set here are not installed yet (paths that differ: %d); %s has the earlier values", jobPhrase(j), len(s.Diffs), at),
			Hint:    fmt.Sprintf("wait for it, or read its log: `kubectl logs -n %s job/%s`", j.Namespace, j.Name)})
	default:
		s.State = Drifted
		why := "no job has run since"
		switch {
		case j == nil && !s.jobs:
			why = "--objects has no Jobs to say whether one has run since (add `kubectl get jobs -n " + in.Namespace + " -o json`)"
		case j == nil:
			why = fmt.Sprintf("no job helm-install-%s exists to apply the change", in.Chart)
		case j.ConfigHash != "" && s.Latest.ConfigHash != "" && j.ConfigHash == s.Latest.ConfigHash:
			why = fmt.Sprintf("no job has run since: job %s completed for the configuration revision %d carries (config hash %s…)", j.Name, s.Latest.Version, short(j.ConfigHash))
		case j.ConfigHash != "" && s.Latest.ConfigHash != "":
			why = fmt.Sprintf("job %s completed, but revision %d does not carry its config hash (the job's %s…, the release's %s…): it did not upgrade the release (klipper-helm's entry exits without acting when the revision is not EXPECTED_RELEASE_REVISION=%s)", j.Name, s.Latest.Version, short(j.ConfigHash), short(s.Latest.ConfigHash), j.ExpectedRevision)
		default:
			why = fmt.Sprintf("job %s completed without applying them", j.Name)
		}
		s.Summary = fmt.Sprintf("not applied: %s changed after the last upgrade, %s, and %s", who, at, why)
		s.Diagnostics = append(s.Diagnostics, diag.Diagnostic{Severity: diag.Warning, Code: "values-release-drifted", Pos: pos,
			Message: fmt.Sprintf("%s changed after the last upgrade, %s, and %s (paths that differ from what the release has: %d)", who, at, why, len(s.Diffs)),
			Hint:    "helm-controller reacts to a changed HelmChart or HelmChartConfig at once: check that it runs (k3s's disable-helm-controller, its log), then `kubectl get helmchart -n " + in.Namespace + " " + in.Chart + " -o yaml` for its status"})
	}
}

// who names the objects whose values differ.
func (s *Status) who(in Input) string {
	seen := map[string]bool{}
	for _, d := range s.Diffs {
		o := in.Origins[d.Path].Object
		if !d.HasComputed || o == "" {
			o = "the manifests"
		}
		seen[o] = true
	}
	var names []string
	for _, o := range []string{"HelmChartConfig", "HelmChart", "the manifests"} {
		if seen[o] {
			if o != "the manifests" {
				o = fmt.Sprintf("the %s %s/%s", o, in.Namespace, in.Chart)
			}
			names = append(names, o)
		}
	}
	return strings.Join(names, " and ")
}

// firstPos is the source of the first differing value the manifests set, else the
// revision's Secret.
func (s *Status) firstPos(in Input, cmp *Revision) diag.Position {
	for _, d := range s.Diffs {
		if o, ok := in.Origins[d.Path]; ok && d.HasComputed && o.Pos.File != "" {
			return o.Pos
		}
	}
	return cmp.Pos
}

func describe(r *Release) string {
	if r == nil || r.Description == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", r.Description)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// jobPhrase says what a job is doing: its last condition, as `kubectl describe` shows it.
func jobPhrase(j *Job) string {
	if c := j.Condition("Failed"); c != nil {
		return fmt.Sprintf("job %s failed (%s)", j.Name, strings.TrimPrefix(condText(c), "Failed: "))
	}
	if c := j.Condition("Complete"); c != nil {
		return fmt.Sprintf("job %s completed", j.Name)
	}
	if j.Suspended {
		return fmt.Sprintf("job %s is suspended (helm-controller resumes it once the job controller has seen it)", j.Name)
	}
	if j.Active > 0 {
		s := fmt.Sprintf("job %s is running", j.Name)
		if j.Failed > 0 {
			s += fmt.Sprintf(" (%d failed attempts so far)", j.Failed)
		}
		return s
	}
	if c := j.Last(); c != nil {
		return fmt.Sprintf("job %s has not finished (%s)", j.Name, condText(c))
	}
	return fmt.Sprintf("job %s has not finished", j.Name)
}

func condText(c *Condition) string {
	t := c.Type
	if c.Reason != "" {
		t += ": " + c.Reason
	}
	if c.Message != "" {
		t += ": " + c.Message
	}
	return t
}

// normalize gives v the types a JSON round trip gives (numbers float64), so that values
// computed from YAML and --set compare with those Helm stored as JSON.
func normalize(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return m
	}
	var out map[string]any
	if json.Unmarshal(b, &out) != nil || out == nil {
		return map[string]any{}
	}
	return out
}

// diff compares two value trees leaf by leaf (lists and empty maps are leaves, as in
// [values.Result] leaves).
func diff(computed, rel map[string]any) []Diff {
	a, b := map[string]any{}, map[string]any{}
	leafs("", computed, a)
	leafs("", rel, b)
	var out []Diff
	for p, v := range a {
		w, ok := b[p]
		if !ok || !reflect.DeepEqual(v, w) {
			out = append(out, Diff{Path: p, Computed: v, HasComputed: true, Release: w, HasRelease: ok})
		}
	}
	for p, w := range b {
		if _, ok := a[p]; !ok {
			out = append(out, Diff{Path: p, Release: w, HasRelease: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func leafs(p string, v any, out map[string]any) {
	if m, ok := v.(map[string]any); ok && (len(m) > 0 || p == "") {
		for k, x := range m {
			leafs(values.JoinPath(p, k), x, out)
		}
		return
	}
	out[p] = v
}

// ValueAt is what the compared revision has at a leaf path: its user value, else its
// chart's default (fromDefaults). ok is false when the revision has neither.
func (s *Status) ValueAt(path string) (v any, fromDefaults, ok bool) {
	if s == nil || s.Compared == nil {
		return nil, false, false
	}
	if v, ok := values.Lookup(normalize(s.Compared.Config), path); ok {
		return v, false, true
	}
	if v, ok := values.Lookup(normalize(s.Compared.ChartValues), path); ok {
		return v, true, true
	}
	return nil, false, false
}

// Note is the line for one leaf: whether the release has its value. user is set when a
// HelmChart or HelmChartConfig gives the value (not the chart's default); show renders a
// value (redacted as the caller redacts values at that path).
func (s *Status) Note(path string, user bool, show func(any) string) string {
	if s == nil || s.Compared == nil {
		return ""
	}
	var d *Diff
	for i := range s.Diffs {
		if s.Diffs[i].Path == path {
			d = &s.Diffs[i]
		}
	}
	rev := fmt.Sprintf("revision %d", s.Compared.Version)
	if d == nil {
		if !user {
			return ""
		}
		if s.State == InEffect {
			return "in effect: " + rev + " has this value"
		}
		return rev + " already has this value"
	}
	has := "does not set it"
	if v, def, ok := s.ValueAt(path); ok {
		has = "has " + show(v)
		if def {
			has += " (the chart's default)"
		}
	}
	switch {
	case !user && d.HasRelease:
		return fmt.Sprintf("%s has %s, set earlier and no longer set: the next upgrade drops it", rev, show(d.Release))
	case !user:
		return ""
	}
	switch s.State {
	case Pending, Failed:
		return fmt.Sprintf("pending: %s; %s still %s", s.why, rev, has)
	case Drifted:
		return fmt.Sprintf("not applied: %s %s", rev, has)
	}
	return rev + " " + has
}
