package charts

import (
	"context"
	"fmt"
	"strings"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/internal/render"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/internal/helmrelease"
)

// secretLayer reads a valuesSecrets entry's key from the Secret in --objects, when it is
// there: helm-controller mounts it from the Secret of that name in the HelmChart's namespace
// (chart.go setValuesSecret, valuesSecretAddConfig: a projected volume of the job's pod,
// Optional when ignoreUpdates), so its values take the layer's place in the order. The
// values are then located at the Secret's data key in --objects.
func (rep *Report) secretLayer(l *values.Layer, ob *components.HelmObject, name, key string, optional bool) {
	if rep.relObjs == nil {
		return
	}
	ns := rep.Namespace
	data, pos, found, ok := rep.relObjs.SecretData(ns, name, key)
	switch {
	case ok:
		l.Text = data
		l.File, l.Line, l.Column = pos.File, pos.Line, pos.Column
		l.Map = func(int, int) (int, int) { return pos.Line, pos.Column }
		l.Secret += " (read from " + pos.File + ")"
	case found && optional:
		rep.Notes = append(rep.Notes, fmt.Sprintf("the Secret %s/%s in %s has no key %s: the entry has ignoreUpdates, so the volume is optional and the job gets no such file", ns, name, pos.File, key))
		l.Secret += " (missing: skipped)"
	case found:
		rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-secret-missing", Pos: diag.Position{File: ob.File, Line: l.Line, Column: l.Column},
			Message: fmt.Sprintf("the Secret %s/%s (%s) has no key %s (or it is not base64): the job's pod cannot mount its values volume, so the job never starts", ns, name, pos, key),
			Hint:    "add the key to the Secret, or remove it from valuesSecrets (ignoreUpdates: true makes a missing Secret optional)"})
	case rep.relObjs.HasSecrets && !optional:
		rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-secret-missing", Pos: diag.Position{File: ob.File, Line: l.Line, Column: l.Column},
			Message: fmt.Sprintf("--objects has Secrets but not %s/%s, which valuesSecrets names: if the cluster lacks it too, the job's pod cannot mount its values volume and the job never starts", ns, name),
			Hint:    fmt.Sprintf("`kubectl get secret -n %s %s -o json` adds it to --objects; create it, or set ignoreUpdates: true to make it optional", ns, name)})
	}
}

// compareRelease compares the release in --objects with the computed values.
func (rep *Report) compareRelease() {
	if rep.relObjs == nil || rep.Result == nil {
		return
	}
	spec := field(rep.Chart.Doc, "spec")
	in := helmrelease.Input{Chart: rep.Name, Namespace: rep.Namespace, TargetNamespace: scalar(spec, "targetNamespace"),
		User: rep.Result.User, Origins: map[string]helmrelease.Origin{}, ChartVersion: rep.ChartVersion}
	if rep.Result.Err != nil {
		in.User, in.Refused = nil, rep.Result.Err.Error()
	}
	for _, l := range rep.Input.Layers {
		if l.Text == nil {
			in.Unread = append(in.Unread, l.Secret)
		}
	}
	for _, l := range rep.Result.Leaves {
		if l.Source == nil || l.Source.Kind == values.ChartDefault {
			continue
		}
		obj := "HelmChart"
		if strings.HasPrefix(string(l.Source.Kind), "helmchartconfig-") {
			obj = "HelmChartConfig"
		}
		in.Origins[l.Name] = helmrelease.Origin{Object: obj, Pos: sourcePos(l.Source.Source)}
	}
	rep.relStatus = helmrelease.Compare(rep.relObjs, in)
	rep.Diagnostics = append(rep.Diagnostics, rep.relStatus.Diagnostics...)
}

// render asks helm to render the chart with the job's values (Options.HelmBinary), and
// reports a failure at the source of the value Helm names.
func (rep *Report) render(o Options) {
	if o.HelmBinary == "" {
		return
	}
	if rep.ChartData == nil || rep.Result.Err != nil {
		rep.Notes = append(rep.Notes, "the chart is not rendered: "+map[bool]string{true: "its archive was not read", false: "Helm refuses the values before any template runs"}[rep.ChartData == nil])
		return
	}
	ns := scalar(field(rep.Chart.Doc, "spec"), "targetNamespace")
	if ns == "" {
		ns = rep.Namespace
	}
	res, err := render.Render(context.Background(), render.Options{Helm: o.HelmBinary, Chart: rep.ChartData, Release: rep.Name, Namespace: ns, Input: rep.Input})
	if err != nil {
		rep.Incomplete = true
		rep.Notes = append(rep.Notes, fmt.Sprintf("the chart is not rendered: %v", err))
		return
	}
	rep.rendered = res
	for _, s := range res.Skipped {
		rep.Notes = append(rep.Notes, fmt.Sprintf("rendered without %s, which k3sconf could not read", s))
	}
	f := res.Failure
	if f == nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("helm template (%s) renders the chart with these values", res.Version))
		return
	}
	if f.Schema {
		for _, d := range rep.Diagnostics {
			if d.Code == "values-schema-invalid" {
				// k3sconf's own schema check said it, at the value: one finding is enough.
				rep.Notes = append(rep.Notes, fmt.Sprintf("helm template (%s) refuses the values by the chart's values.schema.json too", res.Version))
				return
			}
		}
	}
	pos, key := rep.Chart.Pos, ""
	for _, p := range f.Paths {
		for _, l := range rep.Result.Leaves {
			if (l.Name == p || strings.HasPrefix(l.Name, p+".")) && l.Source != nil && l.Source.Kind != values.ChartDefault {
				pos, key = sourcePos(l.Source.Source), l.Name
				break
			}
		}
		if key != "" {
			break
		}
	}
	what := "a template"
	if f.Schema {
		what = "the chart's values.schema.json"
	} else if f.Template != "" {
		what = f.Template
	}
	msg := fmt.Sprintf("helm template (%s) fails in %s: %s; the Helm job fails the same way on every retry, and the release keeps what it has", res.Version, what, f.Last)
	if key != "" {
		msg = fmt.Sprintf("%s = %s: %s", key, formatValue(lookupLeaf(rep, key)), msg)
	}
	hint := "change the values as the chart's message asks"
	if key != "" {
		hint = fmt.Sprintf("give %s the type the chart expects (a version or a number meant as text is quoted: \"2.11\")", key)
	}
	rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-template-failed", Pos: pos, Key: key, Message: msg,
		Hint: hint + "; Helm's whole message: " + f.Message})
}

func lookupLeaf(rep *Report, p string) any {
	for _, l := range rep.Result.Leaves {
		if l.Name == p {
			return l.Value
		}
	}
	return nil
}

// ReleaseStatus is what Options.ObjectsData says about the Helm release: its revisions, the
// helm-install job, and whether the newest deployed revision has the values of the report
// (State, Summary, Diffs); nil without objects. Its type is internal to k3sconf (the
// release comparison, internal/helmrelease): read its fields, or the release part of what
// `k3sconf values --objects` prints.
func (rep *Report) ReleaseStatus() *helmrelease.Status { return rep.relStatus }
