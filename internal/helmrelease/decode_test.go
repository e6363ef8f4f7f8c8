package helmrelease

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"

	"github.com/k3sconf/k3sconf/helm/values"
)

// helmEncode is what Helm's storage driver stores (pkg/storage/driver/util.go
// encodeRelease: base64 of gzipped JSON); kubectl adds one more base64 layer.
func helmEncode(t testing.TB, rel map[string]any, gz bool) string {
	t.Helper()
	b, err := json.Marshal(rel)
	if err != nil {
		t.Fatal(err)
	}
	if gz {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w.Write(b)
		w.Close()
		b = buf.Bytes()
	}
	return base64.StdEncoding.EncodeToString(b)
}

func kubectl(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestDecodeLayers(t *testing.T) {
	rel := map[string]any{"name": "traefik", "version": 7, "namespace": "kube-system",
		"info":   map[string]any{"status": "deployed", "description": "Upgrade complete", "last_deployed": "2026-11-30T10:00:00Z"},
		"chart":  map[string]any{"metadata": map[string]any{"name": "traefik", "version": "40.1.4"}, "values": map[string]any{"logs": map[string]any{"general": map[string]any{"level": "INFO"}}}},
		"config": map[string]any{"logs": map[string]any{"general": map[string]any{"level": "DEBUG"}}}}
	want := &Release{Name: "traefik", Namespace: "kube-system", Version: 7, Status: "deployed", Description: "Upgrade complete",
		LastDeployed: "2026-11-30T10:00:00Z", ChartName: "traefik", ChartVersion: "40.1.4",
		Config:      map[string]any{"logs": map[string]any{"general": map[string]any{"level": "DEBUG"}}},
		ChartValues: map[string]any{"logs": map[string]any{"general": map[string]any{"level": "INFO"}}}}
	for _, tc := range []struct {
		name, text, reason string
	}{
		{"kubectl", kubectl(helmEncode(t, rel, true)), "kubectl's base64 of Helm's base64 of gzipped JSON: what --objects holds"},
		{"helm only", helmEncode(t, rel, true), "Helm's own encoding, as `kubectl get secret -o jsonpath` | base64 -d gives it"},
		{"uncompressed", kubectl(helmEncode(t, rel, false)), "a release stored before Helm gzipped them: decodeRelease skips gunzip without the magic bytes"},
		{"folded", strings.Join(chunks(kubectl(helmEncode(t, rel, true)), 76), "\n"), "base64 folded at 76 columns (a hand-copied Secret)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.text)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: mismatch (-want +got):\n%s", tc.reason, d)
			}
		})
	}
}

func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}

// TestDecodeBomb: a release that gunzips to more than MaxRelease is refused with a
// TooLargeError after reading MaxRelease+1 bytes, not the whole of it.
func TestDecodeBomb(t *testing.T) {
	// gzip.Reader reads concatenated members as one stream: one member of 1 MiB of
	// zeros, repeated, is a bomb that costs nothing to build.
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	bomb := member([]byte(`{"config":{"x":"`))
	zeros := member(make([]byte, 1<<20))
	for range MaxRelease>>20 + 1 {
		bomb = append(bomb, zeros...)
	}
	var buf bytes.Buffer
	buf.Write(bomb)
	text := kubectl(base64.StdEncoding.EncodeToString(buf.Bytes()))
	if len(text) > maxText {
		t.Fatalf("the bomb is %d bytes of text, over maxText: it would be refused before gunzip", len(text))
	}
	_, err := Decode(text)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != MaxRelease {
		t.Fatalf("Decode(bomb of %d MiB) = %v, want a TooLargeError", MaxRelease>>20+1, err)
	}
	if !strings.Contains(err.Error(), "32 MiB") {
		t.Errorf("the message should name the limit: %v", err)
	}
}

func TestDecodeBad(t *testing.T) {
	good := kubectl(helmEncode(t, map[string]any{"name": "x"}, true))
	for _, tc := range []struct {
		name, text, want, reason string
	}{
		{"not base64", "%%%", "not base64", "kubectl's layer is broken"},
		{"inner not base64", kubectl("not*helm*base64"), "not Helm's encoding", "Helm's layer is broken"},
		{"cut short", good[:60], "", "a truncated Secret: either base64 or gunzip fails"},
		{"not json", kubectl(base64.StdEncoding.EncodeToString([]byte("{not json"))), "not Helm's JSON", "uncompressed, but not JSON"},
		{"too long", strings.Repeat("A", maxText+1), "more than a Secret can hold", "refused before any decoding"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: Decode = %v, want an error with %q", tc.reason, err, tc.want)
			}
		})
	}
}

// TestRealHelmSecrets reads the Secrets real Helm wrote (testdata/values/release-gen):
// labels, the configHash label klipper-helm adds, and the decoded config.
func TestRealHelmSecrets(t *testing.T) {
	o := fixture(t, "release-failed")
	if len(o.Revisions) != 2 || len(o.Jobs) != 1 || len(o.Secrets) != 1 {
		t.Fatalf("got %d revisions, %d jobs, %d other secrets; want 2, 1, 1", len(o.Revisions), len(o.Jobs), len(o.Secrets))
	}
	r := o.Revisions[1]
	if r.Secret != "sh.helm.release.v1.traefik.v2" || r.Name != "traefik" || r.Version != 2 || r.Status != "failed" || len(r.ConfigHash) != 63 {
		t.Errorf("revision 2 labels: %+v", r)
	}
	rel, err := r.Decode()
	if err != nil {
		t.Fatal(err)
	}
	lvl, _ := values.Lookup(rel.Config, "logs.general.level")
	if rel.Status != "failed" || lvl != "DEBUG" || !strings.Contains(rel.Description, "timed out") || rel.ChartVersion != "40.1.4+up40.1.0" {
		t.Errorf("decoded revision 2: status %q, level %v, description %q, chart %q", rel.Status, lvl, rel.Description, rel.ChartVersion)
	}
	j := o.Jobs[0]
	if j.Phase() != "failed" || j.ConfigHash != r.ConfigHash || j.ExpectedRevision != "1" || j.Last().Reason != "BackoffLimitExceeded" {
		t.Errorf("job: phase %s, hash %s (release's %s), expected revision %s, last %+v", j.Phase(), j.ConfigHash, r.ConfigHash, j.ExpectedRevision, j.Last())
	}
	data, _, found, ok := o.SecretData("kube-system", "traefik-dashboard", "values.yaml")
	if !found || !ok || !strings.Contains(string(data), "dashboard:") {
		t.Errorf("SecretData = %q, %v, %v", data, found, ok)
	}
	if _, _, found, _ := o.SecretData("kube-system", "nope", "values.yaml"); found {
		t.Error("SecretData found a Secret that is not there")
	}
}

// fixture collects the objects.json of testdata/values/NAME.txtar.
func fixture(t *testing.T, name string) *Objects {
	t.Helper()
	ar, err := txtar.ParseFile("../../testdata/values/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "objects.json" {
			var n yaml.Node
			if err := yaml.Unmarshal(f.Data, &n); err != nil {
				t.Fatal(err)
			}
			o := &Objects{}
			Collect("objects.json", n.Content[0], o)
			return o
		}
	}
	t.Fatalf("%s has no objects.json", name)
	return nil
}
