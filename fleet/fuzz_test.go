package fleet_test

import (
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/k3sconf/k3sconf/fleet"
	"github.com/k3sconf/k3sconf/internal/fleetreport"
)

// FuzzFleet feeds arbitrary bytes as node lists and show documents (seeded with the
// scenarios' inputs, twice each so that pairs are compared): loading, comparing and
// rendering must never panic.
func FuzzFleet(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(scenarioDir, "*.txtar"))
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if filepath.Ext(file.Name) == ".json" {
				f.Add(file.Data, file.Data)
			}
		}
	}
	f.Add([]byte(`{"kind":"List","items":[{"kind":"Node","metadata":{"name":"a","labels":{"node-role.kubernetes.io/control-plane":"true"},"annotations":{"k3s.io/node-args":"[\"server\",\"--cluster-cidr\",\"bogus\"]"}}}]}`),
		[]byte(`{"schemaVersion":1,"product":"k3s","command":"server","keys":{"cluster-dns":{"value":7},"disable":{"value":[1,null]},"server":{"value":"::"}}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		l := &fleet.Loader{}
		n1, e1 := l.Data(a, "a.json")
		n2, e2 := l.Data(b, "b.json")
		rep := fleet.Analyze(append(n1, n2...), append(e1, e2...))
		fleetreport.Text(io.Discard, rep)
		if _, err := json.Marshal(fleetreport.JSON(rep)); err != nil {
			t.Fatal(err)
		}
	})
}
