package values_test

import (
	"encoding/json"
	"fmt"

	"github.com/k3sconf/k3sconf/helm/values"
)

// A HelmChartConfig's value loses to the HelmChart's spec.set, which Helm applies after
// every values file.
func ExampleCompute() {
	chart := &values.Chart{File: "traefik.tgz", Values: map[string]any{
		"global": map[string]any{"systemDefaultRegistry": ""},
		"logs":   map[string]any{"general": map[string]any{"level": "INFO"}},
	}}
	res := values.Compute(chart, values.Input{Major: 4,
		Layers: []values.Layer{{Kind: values.HelmChartConfigValuesContent, File: "traefik-config.yaml",
			Text: []byte("global:\n  systemDefaultRegistry: my.registry\nlogs:\n  general:\n    level: DEBUG\n")}},
		Set: []values.SetArg{{Key: "global.systemDefaultRegistry", Value: ""}},
	})
	b, _ := json.Marshal(res.Values)
	fmt.Println(string(b))
	for _, l := range res.Leaves {
		fmt.Printf("%s from %s\n", l.Name, l.Source.Kind)
		for _, a := range l.History {
			fmt.Printf("  %s %q: %s\n", a.Kind, a.Value, a.Outcome)
		}
	}
	// Output:
	// {"global":{"systemDefaultRegistry":""},"logs":{"general":{"level":"DEBUG"}}}
	// global.systemDefaultRegistry from set
	//   chart-default "": overridden
	//   helmchartconfig-valuescontent "my.registry": overridden
	//   set "": applied
	// logs.general.level from helmchartconfig-valuescontent
	//   chart-default "INFO": overridden
	//   helmchartconfig-valuescontent "DEBUG": applied
}
