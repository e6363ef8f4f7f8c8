package resolve_test

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/resolve"
)

// TestValidateWholeListProperty: on generated nodes the list of k3s's own checks holds its
// shape everywhere — the first finding that stops k3s is not AfterFixing and every later
// one is; Result.Error is the first start or after-start refusal's message; every finding
// names its rule and a phase.
func TestValidateWholeListProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	pool := map[string][]string{
		"server":                  {"https://10.0.0.1:6443", "http://10.0.0.1:6443", "10.0.0.1:6443"},
		"token":                   {"pw", "K10abc::server:pw"},
		"cluster-init":            {"true"},
		"node-ip":                 {"10.0.0.5", "bogus", "[10.0.0.5, 10.0.0.6]"},
		"node-label":              {"[worker]", "[a=b]"},
		"cluster-cidr":            {"10.42.0.0/33", "10.42.0.0/16"},
		"service-cidr":            {"10.43.0.0/30", "10.43.0.0/29"},
		"service-node-port-range": {"30000:32767"},
		"egress-selector-mode":    {"none"},
		"cluster-reset":           {"true"},
		"disable-etcd":            {"true"},
		"lb-server-port":          {"70000"},
	}
	keys := make([]string, 0, len(pool))
	for k := range pool {
		keys = append(keys, k)
	}
	for i := 0; i < 300; i++ {
		agent := rng.Intn(3) == 0
		var cfg strings.Builder
		for _, k := range keys {
			if rng.Intn(3) == 0 {
				if agent && k != "server" && k != "token" && k != "node-ip" && k != "node-label" && k != "lb-server-port" {
					continue
				}
				if !agent && k == "lb-server-port" {
					continue
				}
				vs := pool[k]
				fmt.Fprintf(&cfg, "%s: %s\n", k, vs[rng.Intn(len(vs))])
			}
		}
		unit, cmd := "/etc/systemd/system/k3s.service", "server"
		if agent {
			unit, cmd = "/etc/systemd/system/k3s-agent.service", "agent"
		}
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, unit, []byte("[Service]\nExecStart=/usr/local/bin/k3s "+cmd+"\n"), 0o644)
		_ = afero.WriteFile(fs, "/etc/rancher/k3s/config.yaml", []byte(cfg.String()), 0o644)
		res, err := resolve.Resolve(resolve.Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		stops, firstMsg := 0, ""
		for _, d := range res.Diagnostics {
			if d.Phase == "" {
				continue
			}
			if d.Rule == "" {
				t.Errorf("node %d: %s has no rule", i, d.Code)
			}
			if d.AfterFixing != (stops > 0) {
				t.Errorf("node %d (%q): %s AfterFixing %v after %d stopping findings", i, cfg.String(), d.Code, d.AfterFixing, stops)
			}
			stops++
			if firstMsg == "" && d.Phase != resolve.PhaseRetry {
				j := strings.Index(d.Message, `"`)
				q, err := strconv.QuotedPrefix(d.Message[j:])
				if err != nil {
					t.Fatalf("node %d: %s: no quoted message in %q", i, d.Code, d.Message)
				}
				firstMsg, _ = strconv.Unquote(q)
				if d.AfterFixing {
					firstMsg = "(after fixing)"
				}
			}
		}
		// Result.Error is the first stopping finding when it makes k3s exit; after a
		// retries-forever one k3s never gets further, so there is no Error.
		want := firstMsg
		if strings.HasPrefix(firstMsg, "(") {
			want = ""
		}
		if stops > 0 && res.Error != want {
			t.Errorf("node %d (%q): Error %q, want %q", i, cfg.String(), res.Error, want)
		}
	}
}
