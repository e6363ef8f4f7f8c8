package charts_test

import (
	"fmt"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/helm/charts"
	"github.com/k3sconf/k3sconf/resolve"
)

// A HelmChart of a server's manifests folder and the HelmChartConfig that overrides one of
// its values: each leaf path with the value the Helm job gets and where it was written.
func ExampleInspect() {
	node := afero.NewMemMapFs()
	_ = afero.WriteFile(node, "/etc/systemd/system/k3s.service", []byte("[Service]\nExecStart=/usr/local/bin/k3s server\n"), 0o644)
	_ = afero.WriteFile(node, "/var/lib/rancher/k3s/server/manifests/app.yaml", []byte(`apiVersion: helm.cattle.io/v1
kind: HelmChart
metadata:
  name: app
  namespace: kube-system
spec:
  chart: app
  repo: https://charts.example.com
  valuesContent: |-
    replicas: 2
    logs:
      level: INFO
---
apiVersion: helm.cattle.io/v1
kind: HelmChartConfig
metadata:
  name: app
  namespace: kube-system
spec:
  valuesContent: |-
    logs:
      level: DEBUG
`), 0o644)
	res, err := resolve.Resolve(resolve.Options{FS: node})
	if err != nil {
		panic(err)
	}
	rep, err := charts.Inspect(charts.Options{Node: node, Res: res, Name: "app"})
	if err != nil {
		panic(err)
	}
	for _, l := range rep.Result.Leaves {
		fmt.Println(l.Name, "=", l.Value, "from", l.Source.Kind, l.Source.Pos)
	}
	// Output:
	// logs.level = DEBUG from helmchartconfig-valuescontent /var/lib/rancher/k3s/server/manifests/app.yaml:22:7
	// replicas = 2 from helmchart-valuescontent /var/lib/rancher/k3s/server/manifests/app.yaml:10:5
}
