package resolve

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/spf13/afero"
	"sigs.k8s.io/yaml"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/kubetables"
)

// apiserverFile is the part of a file of kube-apiserver's flags that decides how it is
// decoded: its apiVersion and kind, and for an AdmissionConfiguration its plugins.
type apiserverFile struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Plugins    []struct {
		Name          string         `json:"name"`
		Path          string         `json:"path"`
		Configuration map[string]any `json:"configuration"`
	} `json:"plugins"`
}

// checkAPIServerFiles reads the files kube-apiserver's flags name, where the node's inputs
// hold them, and reports an apiVersion the modelled release's kube-apiserver cannot decode
// (profile's apiserver-file table): the audit policy of audit-policy-file (audit.k8s.io
// v1alpha1 and v1beta1 are gone from Kubernetes v1.24: k8s.io/apiserver
// pkg/audit/policy/reader.go fails "failed decoding: no kind "Policy" is registered for
// version …", and pkg/server/options/audit.go wraps it in "loading audit policy file"), and
// the PodSecurity plugin's configuration inside admission-control-config-file (RKE2:
// pod-security-admission-config-file), inline or by path (relative to the file: k8s.io/apiserver
// pkg/admission/config.go), whose pod-security.admission.config.k8s.io/v1 came with v1.25
// and v1beta1 with v1.23 (k8s.io/pod-security-admission admission/api/load: the plugin
// fails to initialise, and cmd/kube-apiserver "failed to initialize admission: couldn't init
// admission plugin "PodSecurity": …"). The PodSecurity configuration is judged from v1.23,
// where the plugin is on by default. A file the node's inputs lack is not judged.
func (r *resolver) checkAPIServerFiles() {
	minor, items := r.apiserverArgItems()
	if minor == 0 || r.res.Command != "server" {
		return
	}
	for _, it := range items {
		flag, val, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(it), "-"), "=")
		flag = strings.TrimRight(flag, "+-") // k3s pkg/util/args.go GetArgs: name+= appends, name-= prepends
		if !ok || val == "" {
			continue
		}
		switch flag {
		case "audit-policy-file":
			r.checkAuditPolicy(val, minor, r.itemPos("kube-apiserver-arg", it), "kube-apiserver-arg")
		case "admission-control-config-file":
			r.checkAdmissionConfig(val, minor, r.itemPos("kube-apiserver-arg", it), "kube-apiserver-arg")
		}
	}
	if r.p.Name == "rke2" {
		// rancher/rke2 pkg/podexecutor/staticpod.go (tags v1.24.8+rke2r1, v1.30.1+rke2r1;
		// pkg/executor/staticpod at v1.36.3+rke2r1): audit-policy-file, or with a CIS profile
		// /etc/rancher/rke2/audit-policy.yaml, which RKE2 writes only when it is missing
		// (rancher/rke2#3813: a user's audit.k8s.io/v1beta1 policy there on v1.24.8).
		if v := r.stringValue("audit-policy-file"); v != "" {
			r.checkAuditPolicy(v, minor, r.keyPos("audit-policy-file"), "audit-policy-file")
		} else if strings.HasPrefix(r.stringValue("profile"), "cis") {
			r.checkAuditPolicy("/etc/rancher/rke2/audit-policy.yaml", minor, r.keyPos("profile"), "profile")
		}
		if v := r.stringValue("pod-security-admission-config-file"); v != "" {
			r.checkAdmissionConfig(v, minor, r.keyPos("pod-security-admission-config-file"), "pod-security-admission-config-file")
		}
	}
}

func (r *resolver) readAPIServerFile(p string) (*apiserverFile, bool) {
	if !path.IsAbs(p) {
		return nil, false // relative to kube-apiserver's working directory: not judged
	}
	data, err := afero.ReadFile(r.fs, p)
	if err != nil {
		return nil, false
	}
	var f apiserverFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, false
	}
	return &f, true
}

func (r *resolver) checkAuditPolicy(p string, minor int, pos diag.Position, key string) {
	f, ok := r.readAPIServerFile(p)
	if !ok {
		return
	}
	group, version, _ := strings.Cut(f.APIVersion, "/")
	kind := f.Kind
	if kind == "" {
		kind = "Policy"
	}
	msg := fmt.Sprintf("loading audit policy file: failed decoding: no kind %q is registered for version %q in scheme \"k8s.io/apiserver/pkg/audit/scheme.go:…\": from file %s", kind, f.APIVersion, p)
	r.refuseAPIServerFile("audit-policy", p, group, version, minor, pos, key, msg, "the audit policy")
}

func (r *resolver) checkAdmissionConfig(p string, minor int, pos diag.Position, key string) {
	if minor < 23 {
		return
	}
	f, ok := r.readAPIServerFile(p)
	if !ok {
		return
	}
	for _, pl := range f.Plugins {
		if pl.Name != "PodSecurity" {
			continue
		}
		apiVersion, kind, file := "", "", p
		switch {
		case pl.Configuration != nil:
			apiVersion, _ = pl.Configuration["apiVersion"].(string)
			kind, _ = pl.Configuration["kind"].(string)
		case pl.Path != "":
			file = pl.Path
			if !path.IsAbs(file) {
				file = path.Join(path.Dir(p), file)
			}
			c, ok := r.readAPIServerFile(file)
			if !ok {
				continue
			}
			apiVersion, kind = c.APIVersion, c.Kind
		}
		if kind == "" {
			kind = "PodSecurityConfiguration"
		}
		group, version, _ := strings.Cut(apiVersion, "/")
		msg := fmt.Sprintf("failed to initialize admission: couldn't init admission plugin \"PodSecurity\": no kind %q is registered for version %q in scheme …", kind, apiVersion)
		r.refuseAPIServerFile("pod-security", file, group, version, minor, pos, key, msg, "the PodSecurity plugin's configuration")
	}
}

func (r *resolver) refuseAPIServerFile(kind, file, group, version string, minor int, pos diag.Position, key, msg, what string) {
	registered, judged, have, row := kubetables.APIServerFileVersionRegistered(kind, group, version, minor)
	if !judged || registered {
		return
	}
	why := fmt.Sprintf("Kubernetes v1.%d decodes %s in %s only", minor, what, group+"/"+strings.Join(have, ", "+group+"/"))
	switch {
	case row.Until != 0 && minor >= row.Until:
		why += fmt.Sprintf("; v1.%d removed %s/%s (v1.%d was the last minor with it)", row.Until, group, version, row.Until-1)
	case row.Since != 0 && minor < row.Since:
		why += fmt.Sprintf("; %s/%s came with v1.%d", group, version, row.Since)
	}
	src := row.Source
	if src == "" {
		src = "internal/kubetables/data/apiserver-file-versions.tsv"
	}
	want := have[0]
	for _, v := range []string{"v1", "v1beta1"} {
		if slices.Contains(have, v) {
			want = v
			break
		}
	}
	r.diag(diag.Diagnostic{Severity: diag.Error, Code: "apiserver-file-version", Pos: pos, Key: key, Phase: PhaseAfterStart,
		Message: fmt.Sprintf("%s (%s) is apiVersion %s, which kube-apiserver of Kubernetes v1.%d (%s %s) cannot decode: %s; %s starts, then shuts down when kube-apiserver exits with %q",
			file, what, strings.TrimSuffix(group+"/"+version, "/"), minor, r.p.Program, releaseName(r.res.Version), why, r.p.Program, msg),
		Hint: fmt.Sprintf("write apiVersion: %s/%s in %s (the fields are the same there), then restart %s", group, want, file, r.p.Program),
		Rule: src})
}
