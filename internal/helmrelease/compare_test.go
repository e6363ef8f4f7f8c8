package helmrelease

import (
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/diag"
)

func rev(t *testing.T, v int, status, hash string, config map[string]any) *Revision {
	rel := map[string]any{"name": "traefik", "version": v, "info": map[string]any{"status": status},
		"chart": map[string]any{"metadata": map[string]any{"name": "traefik", "version": "1.0.0"}, "values": map[string]any{"level": "INFO"}}, "config": config}
	return &Revision{Secret: "sh.helm.release.v1.traefik.v" + string(rune('0'+v)), Namespace: "kube-system", Name: "traefik",
		Version: v, Status: status, ConfigHash: hash, data: kubectl(helmEncode(t, rel, true)), Pos: diag.Position{File: "o.json", Line: v}}
}

func job(phase, hash string) *Job {
	j := &Job{Name: "helm-install-traefik", Namespace: "kube-system", ConfigHash: hash, ExpectedRevision: "1", Pos: diag.Position{File: "o.json", Line: 99}}
	switch phase {
	case "complete":
		j.Conditions = []Condition{{Type: "Complete", Status: "True"}}
	case "failed":
		j.Conditions = []Condition{{Type: "Failed", Status: "True", Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit"}}
	case "running":
		j.Active = 1
	case "suspended":
		j.Suspended = true
	}
	return j
}

func TestCompare(t *testing.T) {
	debug := map[string]any{"level": "DEBUG"}
	info := map[string]any{"level": "INFO"}
	in := Input{Chart: "traefik", Namespace: "kube-system", User: debug,
		Origins: map[string]Origin{"level": {Object: "HelmChartConfig", Pos: diag.Position{File: "config.yaml", Line: 7}}}}
	for _, tc := range []struct {
		name   string
		o      func() *Objects
		in     func(Input) Input
		state  State
		code   string
		want   string // in the summary
		reason string
	}{
		{"no secrets", func() *Objects { return &Objects{HasJobs: true, Jobs: []*Job{job("complete", "H")}} }, nil, Unknown, "", "no Secrets",
			"without Secrets nothing can be said about the release"},
		{"other release only", func() *Objects {
			r := rev(t, 1, "deployed", "H", debug)
			r.Name = "coredns"
			return &Objects{HasSecrets: true, Revisions: []*Revision{r}}
		}, nil, NotInstalled, "", "no release traefik", "a release of another name is not this chart's"},
		{"target namespace", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "H", debug)}}
		}, func(in Input) Input { in.TargetNamespace = "traefik"; return in }, NotInstalled, "", "in namespace traefik",
			"Helm keeps the release in spec.targetNamespace, not the HelmChart's"},
		{"in effect", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "superseded", "G", info), rev(t, 2, "deployed", "H", debug)}, Jobs: []*Job{job("complete", "H")}}
		}, nil, InEffect, "", "in effect: revision 2", "the newest deployed revision has the values"},
		{"in effect, numbers", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "H", map[string]any{"port": 8080})}}
		}, func(in Input) Input { in.User = map[string]any{"port": int64(8080)}; return in }, InEffect, "", "in effect",
			"--set's int64 and the release's JSON float64 are the same value"},
		{"failed job", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}, Jobs: []*Job{job("failed", "H")}}
		}, nil, Failed, "values-release-failed", "job helm-install-traefik failed (BackoffLimitExceeded", "the job's Failed condition is quoted"},
		{"failed revision", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info), rev(t, 2, "failed", "H", debug)}}
		}, nil, Failed, "values-release-failed", "revision 2 has these values but Helm recorded it as failed",
			"Helm recorded the upgrade with these values as failed; revision 1 runs"},
		{"running", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}, Jobs: []*Job{job("running", "H")}}
		}, nil, Pending, "values-release-pending", "is running", "an active pod"},
		{"suspended", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}, Jobs: []*Job{job("suspended", "H")}}
		}, nil, Pending, "values-release-pending", "suspended", "helm-controller creates jobs suspended"},
		{"drifted, same hash", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}, Jobs: []*Job{job("complete", "G")}}
		}, nil, Drifted, "values-release-drifted", "the HelmChartConfig kube-system/traefik changed after the last upgrade",
			"the completed job carries the revision's hash: it was made for the earlier configuration"},
		{"drifted, other hash", func() *Objects {
			return &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}, Jobs: []*Job{job("complete", "H")}}
		}, nil, Drifted, "values-release-drifted", "does not carry its config hash",
			"a completed job whose hash the release lacks did not upgrade (klipper-helm's check_revision)"},
		{"drifted, no jobs given", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}}
		}, nil, Drifted, "values-release-drifted", "has no Jobs", "without Jobs the cause is unknown, and the summary says what to add"},
		{"removed value", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", map[string]any{"level": "DEBUG", "old": "x"})}}
		}, nil, Drifted, "values-release-drifted", "the manifests", "a value the release has and the manifests no longer set is a difference"},
		{"refused", func() *Objects {
			return &Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 1, "deployed", "G", info)}}
		}, func(in Input) Input { in.User, in.Refused = nil, "failed to parse"; return in }, Failed, "", "Helm refuses the values (failed to parse)",
			"values Helm refuses fail every job"},
		{"unreadable", func() *Objects {
			r := rev(t, 1, "deployed", "G", info)
			r.data = "%%%"
			return &Objects{HasSecrets: true, Revisions: []*Revision{r}}
		}, nil, Unknown, "values-release-unreadable", "cannot be read", "a broken Secret is a finding, not a crash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := in
			if tc.in != nil {
				i = tc.in(in)
			}
			s := Compare(tc.o(), i)
			if s.State != tc.state || !strings.Contains(s.Summary, tc.want) {
				t.Errorf("%s: state %s, summary %q; want %s and %q", tc.reason, s.State, s.Summary, tc.state, tc.want)
			}
			var codes []string
			for _, d := range s.Diagnostics {
				codes = append(codes, d.Code)
			}
			if got := strings.Join(codes, ","); got != tc.code {
				t.Errorf("%s: codes %q, want %q", tc.reason, got, tc.code)
			}
		})
	}
}

// TestNote: the line each leaf gets, both ways.
func TestNote(t *testing.T) {
	show := func(v any) string { return "<" + v.(string) + ">" }
	o := &Objects{HasSecrets: true, HasJobs: true, Revisions: []*Revision{rev(t, 6, "deployed", "G", map[string]any{"same": "x"})}, Jobs: []*Job{job("failed", "H")}}
	s := Compare(o, Input{Chart: "traefik", Namespace: "kube-system", User: map[string]any{"same": "x", "level": "DEBUG"}})
	for _, tc := range []struct {
		path      string
		user      bool
		want, why string
	}{
		{"level", true, "pending: job helm-install-traefik failed; revision 6 still has <INFO> (the chart's default)", "the revision has the chart's default there"},
		{"same", true, "revision 6 already has this value", "a value that did not change"},
		{"level", false, "", "a default nobody set says nothing"},
	} {
		if got := s.Note(tc.path, tc.user, show); got != tc.want {
			t.Errorf("Note(%s, %v) = %q, want %q: %s", tc.path, tc.user, got, tc.want, tc.why)
		}
	}
	in := Compare(&Objects{HasSecrets: true, Revisions: []*Revision{rev(t, 7, "deployed", "G", map[string]any{"level": "DEBUG"})}},
		Input{Chart: "traefik", Namespace: "kube-system", User: map[string]any{"level": "DEBUG"}})
	if got := in.Note("level", true, show); got != "in effect: revision 7 has this value" {
		t.Errorf("in effect: %q", got)
	}
}
