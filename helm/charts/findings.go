package charts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/k3sconf/k3sconf/components"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/helm/values"
	"github.com/k3sconf/k3sconf/internal/fuzzy"
	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/provenance"
)

// stockTraefik is what k3s's own traefik.yaml has ever set (k3s-io/k3s manifests/traefik.yaml,
// all 58 revisions from 49968cc66 of 2019-02-07 to 66a14f0e of 2026-07-28): the objects, the
// spec.set keys and the leaf paths of valuesContent. Anything else in the file was added by
// hand, and k3s writes the file again at its next start.
var stockTraefik = struct {
	objects map[string]bool
	set     map[string]bool
	paths   map[string]bool
}{
	objects: map[string]bool{"HelmChart/kube-system/traefik": true, "HelmChart/kube-system/traefik-crd": true},
	set: map[string]bool{"global.systemDefaultRegistry": true, "image": true, "kubernetes.ingressEndpoint.useDefaultPublishedService": true,
		"metrics.prometheus.enabled": true, "rbac.enabled": true, "ssl.enabled": true},
	paths: map[string]bool{
		`deployment.podAnnotations.prometheus\.io/port`: true, `deployment.podAnnotations.prometheus\.io/scrape`: true,
		"image": true, "image.name": true, "image.repository": true, "image.tag": true,
		"kubernetes.ingressEndpoint.useDefaultPublishedService": true, "metrics.prometheus.enabled": true,
		`podAnnotations.prometheus\.io/port`: true, `podAnnotations.prometheus\.io/scrape`: true,
		"ports.websecure.tls.enabled": true, "priorityClassName": true, "providers.kubernetesIngress.publishedService.enabled": true,
		"rbac.enabled": true, "service.ipFamilyPolicy": true, "service.spec.ipFamilyPolicy": true, "ssl.enabled": true, "tolerations": true,
	},
}

func (rep *Report) findings(ch *values.Chart, comp *components.Report) {
	res := rep.Result
	if res.Err != nil {
		rep.failure(res.Err)
	}
	var defaults map[string]any
	if ch != nil {
		defaults = ch.DefaultsTree()
	}
	for _, l := range res.Leaves {
		for _, a := range l.History {
			if a.Source.Kind == values.ChartDefault {
				continue
			}
			if defaults != nil && !rep.injected(a) {
				rep.unknownPath(a, defaults)
			}
			if a.Source.Kind == values.Set && defaults != nil && !rep.injected(a) {
				rep.setType(a, defaults, secretDefault(l))
			}
		}
	}
	for _, se := range res.SchemaErrors {
		rep.schemaFinding(se)
	}
	var inj []string
	for _, a := range rep.Input.Set {
		if rep.Product == "rke2" && rke2Injected[a.Key] {
			inj = append(inj, a.Key)
		}
	}
	if len(inj) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("spec.set %s: RKE2's cluster configuration, which RKE2 writes into the HelmChart at every start (rancher/rke2 setChartValues, for charts annotated rke2.cattle.io/inject-cluster-config): change cluster-cidr, service-cidr, cluster-dns, cluster-domain or system-default-registry in RKE2's configuration, not here; Helm copies every global into each subchart", strings.Join(inj, ", ")))
	}
	rep.configOverridden()
	for _, c := range res.Conflicts {
		pos := rep.Chart.Pos
		for _, l := range res.Leaves {
			if (l.Name == c.Path || strings.HasPrefix(l.Name, c.Path+".")) && l.Source != nil && l.Source.Kind != values.ChartDefault {
				pos = sourcePos(l.Source.Source)
				break
			}
		}
		rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-type-mismatch", Pos: pos, Key: c.Path,
			Message: c.Message + "; templates written for the default's shape may fail or ignore it",
			Hint:    fmt.Sprintf("give %s the shape of the chart's default (see `k3sconf values %s --all`)", c.Path, rep.Name)})
	}
	secrets := false
	for _, l := range rep.Input.Layers {
		secrets = secrets || l.Text == nil
	}
	// With a Secret's values file Helm may get values k3sconf cannot see: say nothing then.
	if res.Err == nil && len(res.User) == 0 && !secrets {
		rep.diag(diag.Diagnostic{Severity: diag.Info, Code: "values-reused", Pos: rep.Chart.Pos,
			Message: fmt.Sprintf("the HelmChart %s/%s gives no values, and `helm upgrade` with no values reuses the values the release was installed with (pkg/action/upgrade.go reuseValues): values set earlier, and removed from the manifests since, are still in force and no file shows them", rep.Namespace, rep.Name),
			Hint:    "`helm get values " + rep.Name + " -n " + targetNamespace(rep.Chart) + "` shows them; to drop them give at least one value (an empty valuesContent is not enough)"})
	}
	if rep.Product == "k3s" && rep.Chart.Component == "traefik" {
		rep.packagedEdits()
	}
	rep.configNearMisses(comp)
	rep.liveNearMisses()
}

// rke2Injected are the spec.set keys RKE2 writes into every HelmChart it injects cluster
// configuration into (rancher/rke2 pkg/bootstrap/bootstrap.go setChartValues, at 6ce1a8019;
// its packaged charts carry rke2.cattle.io/inject-cluster-config: "true"): first released in
// v1.18.9 (systemDefaultRegistry), v1.19.5 (rke2DataDir), v1.21.2 (clusterCIDR, clusterDNS,
// clusterDomain, serviceCIDR), v1.22.3 (clusterCIDRv4, clusterCIDRv6), v1.23.6
// (cattle.systemDefaultRegistry), v1.31.0 (systemDefaultIngressClass), v1.36.0
// (prime.enabled).
var rke2Injected = map[string]bool{
	"global.clusterCIDR": true, "global.clusterCIDRv4": true, "global.clusterCIDRv6": true, "global.clusterDNS": true,
	"global.clusterDomain": true, "global.rke2DataDir": true, "global.serviceCIDR": true, "global.systemDefaultIngressClass": true,
	"global.prime.enabled": true, "global.systemDefaultRegistry": true, "global.cattle.systemDefaultRegistry": true,
}

// injected reports a spec.set value the distribution itself writes into the HelmChart: the
// user cannot change it there, so a finding about its path helps nobody.
func (rep *Report) injected(a *values.Assignment) bool {
	return rep.Product == "rke2" && a.Source.Kind == values.Set && rke2Injected[a.Path]
}

// liveNearMisses reports the HelmChartConfigs of --objects meant for this chart that do not
// match it (another namespace, no namespace, a near name): the cluster has them, but
// helm-controller never reads them for this chart. Those in manifest files are components'.
func (rep *Report) liveNearMisses() {
	for _, o := range rep.live {
		if o.Kind != "HelmChartConfig" || (o.Namespace == rep.Namespace && o.Name == rep.Name) {
			continue
		}
		sameName := o.Name == rep.Name
		near := fuzzy.Distance(o.Name, rep.Name) <= 2 || strings.HasPrefix(o.Name, rep.Name+"-") || strings.HasSuffix(o.Name, "-"+rep.Name)
		if !sameName && !(near && o.Namespace == rep.Namespace) && !(near && o.Namespace == "default") {
			continue
		}
		matched := false
		for _, c := range rep.objs {
			if c.Kind == "HelmChart" && c.Name == o.Name && c.Namespace == o.Namespace {
				matched = true
			}
		}
		if matched {
			continue
		}
		ns := o.Namespace
		if o.NamespaceMissing {
			ns = "(no namespace, so default)"
		}
		rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "component-helmchartconfig-unmatched", Pos: o.Pos,
			Message: fmt.Sprintf("the cluster has the HelmChartConfig %s/%s, which matches no HelmChart; helm-controller reads only the HelmChartConfig of the HelmChart's own name and namespace, so none of its values reach %s/%s", ns, o.Name, rep.Namespace, rep.Name),
			Hint:    fmt.Sprintf("did you mean %s/%s? Recreate it with metadata.name: %s and metadata.namespace: %s", rep.Namespace, rep.Name, rep.Name, rep.Namespace)})
	}
}

func targetNamespace(ob *components.HelmObject) string {
	if ns := scalar(field(ob.Doc, "spec"), "targetNamespace"); ns != "" {
		return ns
	}
	return ob.Namespace
}

func sourcePos(s provenance.Source) diag.Position { return s.Pos }

// failure reports what Helm refuses: a values file that does not parse, a --set it
// cannot apply. The job fails and the release keeps what it had.
func (rep *Report) failure(f *values.Failure) {
	pos := sourcePos(f.Source.Source)
	if f.Dependencies {
		if pos.File == "" {
			pos = rep.Chart.Pos
		}
		rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-subchart-invalid", Pos: pos,
			Message: fmt.Sprintf("Helm refuses the values while it gives the subcharts theirs (%v): a subchart's key must be a map, its .Values; the Helm job fails on every retry and the release keeps the values it had", f.Err),
			Hint:    "give the subchart's key a map of its values (or remove it); `k3sconf values " + rep.Name + " --all` lists each subchart's values"})
		return
	}
	if f.Source.Kind == values.Set {
		rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-set-failed", Pos: pos,
			Message: fmt.Sprintf("Helm refuses %s: %v; the Helm job fails on every retry and the release keeps the values it had", f.Source.Detail, f.Err),
			Hint:    "a --set key through a value that is not a map (a scalar, a list or null in the values files) fails: set the whole value in valuesContent instead, or remove the conflicting value"})
		return
	}
	inner := 0
	if m := yamlErrLine.FindStringSubmatch(f.Err.Error()); m != nil {
		inner, _ = strconv.Atoi(m[1])
	}
	msg := fmt.Sprintf("%s does not parse as Helm reads a values file; Helm says %q", f.Source.Kind, f.Err.Error())
	if inner > 0 && rep.Chart != nil {
		for _, ob := range []*components.HelmObject{rep.Chart, rep.Config} {
			if ob == nil || ob.File != f.Source.Pos.File {
				continue
			}
			if vc := field(field(ob.Doc, "spec"), "valuesContent"); vc != nil && vc.Line == f.Source.Pos.Line {
				l, _ := contentMap(ob.Data, vc)(inner, 1)
				msg += fmt.Sprintf(": line %d of valuesContent, line %d of %s", inner, l, ob.File)
				pos.Line, pos.Column = l, 0
			}
		}
	}
	rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-content-invalid", Pos: pos,
		Message: msg + "; the Helm job fails on every retry and the release keeps the values it had",
		Hint:    "fix the YAML inside valuesContent (indentation is relative to the block); `helm template` with the text as a values file shows the same error"})
}

// unknownPath reports a value path the chart's defaults do not have when a key near it
// does (a typo): templates read the default's key, so the value does nothing. Keys under
// an empty map or a key the chart lacks with no near neighbour are not reported: charts
// take free-form maps (podAnnotations: {}) and read keys their values.yaml omits.
func (rep *Report) unknownPath(a *values.Assignment, defaults map[string]any) {
	parts := values.SplitPath(a.Path)
	cur := defaults
	prefix := ""
	for _, k := range parts {
		v, ok := cur[k]
		if !ok {
			best, bestD := "", 3
			for sib := range cur {
				d := fuzzy.Distance(strings.ToLower(k), strings.ToLower(sib))
				if d < bestD || d == bestD && sib < best {
					best, bestD = sib, d
				}
			}
			if best == "" || len(k) < 3 || bestD*2 > len(k) {
				return
			}
			want := values.JoinPath(prefix, best)
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-unknown-path", Pos: sourcePos(a.Source), Key: a.Path,
				Message: fmt.Sprintf("%s sets %s, but the chart's defaults have no %s under %s; they have %s, so the value most likely does nothing", a.Source.Kind, a.Path, k, orTop(prefix), want),
				Hint:    fmt.Sprintf("did you mean %s?", want)})
			return
		}
		m, isMap := v.(map[string]any)
		if !isMap || len(m) == 0 {
			return
		}
		cur = m
		prefix = values.JoinPath(prefix, k)
	}
}

func orTop(p string) string {
	if p == "" {
		return "the top level"
	}
	return p
}

// setType reports a spec.set value whose type differs from the chart's default: a
// --set-string that looks typed where the default is a number or a boolean (quoted in the
// manifest), or a string that helm-controller passes typed ("true", "null").
//
// A secret default (under a secret name, or a copy of a secret by YAML alias) is not
// quoted: the message says "(hidden)", as the node's checks do, so a secret that spells a
// word is not printed in a sentence where no word rule sees it as a value (issue 25).
func (rep *Report) setType(a *values.Assignment, defaults map[string]any, secret bool) {
	def, ok := values.Lookup(defaults, a.Path)
	if !ok || def == nil {
		return
	}
	num, str := fmt.Sprintf("the number %v", def), fmt.Sprintf("the string %q", def)
	if secret {
		num, str = "a number (hidden)", "a string (hidden)"
	}
	detail := a.Detail
	switch v := a.Value.(type) {
	case string:
		_, defNum := def.(float64)
		_, defBool := def.(bool)
		if _, err := strconv.ParseFloat(v, 64); err == nil && defNum {
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-set-type", Pos: sourcePos(a.Source), Key: a.Path,
				Message: fmt.Sprintf("spec.set gives %s the string %q (%s) where the chart's default is %s: a quoted or fractional value goes to --set-string, and a template comparing numbers sees a string", a.Path, v, detail, num),
				Hint:    fmt.Sprintf("write it unquoted (%s: %s) if it is an integer, or set it in valuesContent", a.Path, v)})
		}
		if defBool && (strings.EqualFold(v, "yes") || strings.EqualFold(v, "no") || strings.EqualFold(v, "on") || strings.EqualFold(v, "off")) {
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-set-type", Pos: sourcePos(a.Source), Key: a.Path,
				Message: fmt.Sprintf("spec.set gives %s the string %q (%s) where the chart's default is a boolean: --set-string keeps it a string, which templates treat as true", a.Path, v, detail),
				Hint:    fmt.Sprintf("write %s: \"true\" or \"false\" (helm-controller passes those with --set)", a.Path)})
		}
	case bool, nil:
		if _, isStr := def.(string); isStr {
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-set-type", Pos: sourcePos(a.Source), Key: a.Path,
				Message: fmt.Sprintf("spec.set gives %s %s (%s) where the chart's default is %s: helm-controller passes true, false and null with --set even when quoted, so the chart gets %v, not a string", a.Path, detail, detail, str, describe(a.Value)),
				Hint:    fmt.Sprintf("set %s in valuesContent as a quoted string (%s: \"…\"); spec.set cannot give it as a string", a.Path, a.Path)})
		}
	}
}

// secretDefault reports whether the chart's default at a leaf is a secret: the path's
// nearest key is a secret name (output.SecretName), or a default is a copy of a secret
// by YAML alias (values.Assignment.SecretCopy).
func secretDefault(l *values.Leaf) bool {
	if output.SecretName(setKeyName(l.Name)) {
		return true
	}
	for _, a := range l.History {
		if a.Source.Kind == values.ChartDefault && a.SecretCopy {
			return true
		}
	}
	return false
}

func describe(v any) string {
	if v == nil {
		return "null (which deletes the key)"
	}
	return fmt.Sprintf("the boolean %v", v)
}

// packagedEdits reports what in k3s's own traefik.yaml no k3s release wrote: it is in
// effect now (k3s applied the file when it changed) and lost at the next start.
func (rep *Report) packagedEdits() {
	c := rep.Chart
	report := func(pos diag.Position, what string) {
		rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-packaged-edit", Pos: pos,
			Message: fmt.Sprintf("%s in %s was not written by k3s: k3s applied the edited file, so it is in effect now, but k3s writes %s again at its next start and the edit is lost", what, c.File, c.File),
			Hint:    fmt.Sprintf("move it into a HelmChartConfig named %s in namespace %s (its own file in the manifests folder, or kubectl apply)", c.Name, c.Namespace)})
	}
	spec := field(c.Doc, "spec")
	for _, f := range []string{"values", "valuesSecrets"} {
		if k := fieldKey(spec, f); k != nil {
			report(diag.Position{File: c.File, Line: k.Line, Column: k.Column}, "spec."+f)
		}
	}
	if set := field(spec, "set"); set != nil {
		for i := 0; i+1 < len(set.Content); i += 2 {
			if k := set.Content[i]; !stockTraefik.set[k.Value] {
				report(diag.Position{File: c.File, Line: k.Line, Column: k.Column}, "spec.set "+k.Value)
			}
		}
	}
	for _, l := range rep.Result.Leaves {
		for _, a := range l.History {
			if a.Source.Kind == values.HelmChartValuesContent && a.Pos.File == c.File && !stockTraefik.paths[a.Path] && !stockAncestor(a.Path) {
				report(sourcePos(a.Source), "valuesContent "+a.Path)
			}
		}
	}
}

// stockAncestor: a leaf inside a list or map k3s sets whole (tolerations) is k3s's too.
func stockAncestor(p string) bool {
	for q := range stockTraefik.paths {
		if strings.HasPrefix(p, q+".") {
			return true
		}
	}
	return false
}

// configNearMisses surfaces components' findings about HelmChartConfigs meant for this
// chart that match it not: the same name in another namespace, or a near name.
func (rep *Report) configNearMisses(comp *components.Report) {
	for _, d := range comp.Diagnostics {
		if d.Code != "component-helmchartconfig-unmatched" && d.Code != "component-helmchartconfig-disabled" && d.Code != "component-helmchartconfig-skipped" {
			continue
		}
		for _, o := range comp.Helm {
			if o.Kind != "HelmChartConfig" || o.Pos != d.Pos {
				continue
			}
			near := o.Name == rep.Name || fuzzy.Distance(o.Name, rep.Name) <= 2 || strings.HasPrefix(o.Name, rep.Name+"-")
			if near {
				rep.diag(d)
			}
		}
	}
}

// effects says when a change of each kind of source takes effect.
func effects(rep *Report) map[values.Kind]string {
	chartFile := "its manifest"
	if rep.Chart != nil {
		chartFile = rep.Chart.File
	}
	prod := productName(rep.Product)
	inChart := fmt.Sprintf("%s re-applies %s when its content changes, and helm-controller then runs a helm upgrade job", prod, chartFile)
	if rep.Chart != nil && rep.Chart.Component != "" {
		inChart = fmt.Sprintf("an edit to %s takes effect when %s re-applies it (at once) and is lost at %s's next start, which writes the file again", chartFile, prod, prod)
	}
	cfg := "a change to the HelmChartConfig runs a helm upgrade job at once (helm-controller watches HelmChartConfigs)"
	if rep.Config != nil && !strings.HasPrefix(rep.Config.File, "/") {
		cfg = "a change applied with kubectl runs a helm upgrade job at once (helm-controller watches HelmChartConfigs)"
	} else if rep.Config != nil {
		cfg = fmt.Sprintf("%s applies %s when its content changes, and helm-controller runs a helm upgrade job at once", prod, rep.Config.File)
	}
	return map[values.Kind]string{
		values.ChartDefault:                 "changes with the chart version (spec.chart, spec.version), at the next upgrade",
		values.HelmChartValuesContent:       inChart,
		values.HelmChartValues:              inChart,
		values.Set:                          inChart,
		values.HelmChartValuesSecret:        "a change to the Secret runs a helm upgrade job, unless the entry has ignoreUpdates: true",
		values.HelmChartConfigValuesContent: cfg,
		values.HelmChartConfigValues:        cfg,
		values.HelmChartConfigValuesSecret:  "a change to the Secret runs a helm upgrade job, unless the entry has ignoreUpdates: true",
	}
}

// configOverridden reports HelmChartConfig values that spec.set overrides: helm-controller
// passes spec.set as --set/--set-string, which Helm applies after every values file, so
// no HelmChartConfig can change them.
func (rep *Report) configOverridden() {
	for _, l := range rep.Result.Leaves {
		if l.Source == nil || l.Source.Kind != values.Set {
			continue
		}
		for _, a := range l.History {
			switch a.Source.Kind {
			case values.HelmChartConfigValuesContent, values.HelmChartConfigValues:
			default:
				continue
			}
			hint := fmt.Sprintf("change spec.set of the HelmChart in %s, or remove %s from it", rep.Chart.File, l.Name)
			if rep.Chart.Component == "traefik" && l.Name == "global.systemDefaultRegistry" {
				hint = "set system-default-registry in k3s's configuration (config.yaml or --system-default-registry) on every server: k3s writes it into traefik.yaml's spec.set at its next start"
			} else if rep.Chart.Component != "" {
				hint = fmt.Sprintf("%s writes spec.set into %s itself; it cannot be changed from a HelmChartConfig", productName(rep.Product), rep.Chart.File)
			}
			rep.diag(diag.Diagnostic{Severity: diag.Warning, Code: "values-config-overridden", Pos: sourcePos(a.Source), Key: l.Name,
				Message: fmt.Sprintf("the HelmChartConfig sets %s, but the HelmChart's spec.set gives it too (%s), and Helm applies --set and --set-string after every values file: the HelmChartConfig's value never takes effect", l.Name, l.Source.Detail),
				Hint:    hint})
		}
	}
}

// productName is the distribution as people write it.
func productName(p string) string {
	if p == "rke2" {
		return "RKE2"
	}
	return "k3s"
}

// schemaFinding reports a values.schema.json violation: Helm refuses the values, with the
// source of the offending value.
func (rep *Report) schemaFinding(se values.SchemaError) {
	whose := "the chart's values.schema.json"
	if se.At != "" {
		whose = fmt.Sprintf("the values.schema.json of the subchart %s (its .Values are under %s)", se.Chart, se.At)
	}
	if se.Unchecked {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s is not checked: %s", whose, se.Message))
		return
	}
	pos := rep.Chart.Pos
	from := ""
	if se.Source != nil {
		from = fmt.Sprintf("; %s comes from %s", se.Path, describeAssignment(se.Source))
		if se.Source.Source.Kind != values.ChartDefault {
			pos = sourcePos(se.Source.Source)
		}
	}
	at := "at '" + se.Pointer + "'"
	if se.Path == "" && se.Pointer == "" {
		at = "for the values as a whole"
	}
	rep.diag(diag.Diagnostic{Severity: diag.Error, Code: "values-schema-invalid", Pos: pos, Key: se.Path,
		Message: fmt.Sprintf("Helm refuses the values: %s says %s: %s%s; the Helm job fails on every retry (\"values don't meet the specifications of the schema(s)\") and the release keeps the values it had", whose, at, se.Message, from),
		Hint:    fmt.Sprintf("give %s what the schema asks for, or remove it (the chart's values.schema.json says what that is)", orTop(se.Path))})
}

// describeAssignment names where an assignment was written, for a finding.
func describeAssignment(a *values.Assignment) string {
	s := a.Source
	w := s.Pos.String()
	switch {
	case s.Kind == values.ChartDefault && a.Detail != "":
		return fmt.Sprintf("the chart's own default (%s, %s)", w, a.Detail)
	case s.Kind == values.ChartDefault:
		return fmt.Sprintf("the chart's own default (%s, values.yaml)", w)
	case s.Kind == values.Set:
		return fmt.Sprintf("spec.set (%s, %s)", w, a.Detail)
	}
	return fmt.Sprintf("%s (%s)", s.Kind, w)
}
