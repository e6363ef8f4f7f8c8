package profile_test

import (
	"fmt"

	"github.com/k3sconf/k3sconf/profile"
)

// A flag of k3s server as the catalog declares it: its type, default, environment
// variable, and whether servers must agree on it and its value is a secret.
func ExampleCommand_Lookup() {
	p, err := profile.ByName("k3s")
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"cluster-cidr", "token", "write-kubeconfig-mode"} {
		f := p.Command("server").Lookup(name)
		fmt.Println(f.Name, f.Type, f.EnvVars, "critical:", f.Critical, "secret:", f.Secret)
	}
	// Output:
	// cluster-cidr stringslice [] critical: true secret: false
	// token string [K3S_TOKEN] critical: false secret: true
	// write-kubeconfig-mode string [K3S_KUBECONFIG_MODE] critical: false secret: false
}
