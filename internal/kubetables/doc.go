// Package kubetables holds what each Kubernetes minor from v1.22 to v1.36 accepts, as
// tables read from the Kubernetes sources of each minor (data/*.tsv, data/README.md, and
// featuregates_data.go): the admission plugins kube-apiserver registers, the API group
// versions of its scheme (--runtime-config), the apiVersions it decodes its audit policy
// and PodSecurity configuration in, how each component takes a flag given more than once,
// the component flags each minor removed, and the feature gates with their locks. resolve's
// checks read them (the diagnostics' rules name the files); a minor is
// profile.KubernetesMinor of the modelled release.
//
// It is internal: a program reads the findings the checks make, not the tables.
package kubetables
