package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		fp := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fleetNodes(t *testing.T, secondCIDR, secondToken string) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"s1/etc/rancher/k3s/config.yaml": "cluster-init: true\ntoken: K10abc::server:s3cr3t-one\nnode-ip: 10.0.0.11\n",
		"s1/etc/hostname":                "s1\n",
		"s2/etc/rancher/k3s/config.yaml": "server: https://10.0.0.11:6443\ntoken: " + secondToken + "\nnode-ip: 10.0.0.12\ncluster-cidr: " + secondCIDR + "\n",
		"s2/etc/hostname":                "s2\n",
	})
	return dir
}

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestFleetExitCodes(t *testing.T) {
	ok := fleetNodes(t, "10.42.0.0/16", "s3cr3t-one")
	writeTree(t, ok, map[string]string{"broken/etc/rancher/k3s/config.yaml": "server: https://10.0.0.11:6443\ndisable: [traefik\n"})
	bad := fleetNodes(t, "10.52.0.0/16", "s3cr3t-one")
	tests := []struct {
		name, reason string
		args         []string
		code         int
		stdout       string
	}{
		{"help", "--help prints the usage with an example", []string{"fleet", "--help"}, exitOK, "Example:"},
		{"no-input", "nothing to compare is a usage error", []string{"fleet"}, exitUsage, ""},
		{"bad-flag", "an unknown flag is a usage error", []string{"fleet", "--bogus"}, exitUsage, ""},
		{"consistent", "two servers that agree", []string{"fleet", filepath.Join(ok, "s1"), filepath.Join(ok, "s2")}, exitOK, "consistent"},
		{"refused", "a server with another cluster-cidr is refused", []string{"fleet", filepath.Join(bad, "s1"), filepath.Join(bad, "s2")}, exitProblem, "error[critical-mismatch]"},
		{"unreadable", "an input that does not exist makes the report incomplete", []string{"fleet", filepath.Join(ok, "s1"), filepath.Join(ok, "missing")}, exitInput, "unreadable:"},
		{"unreadable-wins", "3 before 1: the report is incomplete", []string{"fleet", filepath.Join(bad, "s1"), filepath.Join(bad, "s2"), filepath.Join(ok, "missing")}, exitInput, "critical-mismatch"},
		{"node-file-unparsable", "a node folder whose config.yaml does not parse: incomplete, exit 3", []string{"fleet", filepath.Join(ok, "s1"), filepath.Join(ok, "broken")}, exitInput, "fleet-node-incomplete"},
		{"global-json", "--json before the command applies", []string{"--json", "fleet", filepath.Join(ok, "s1"), filepath.Join(ok, "s2")}, exitOK, `{"schemaVersion":2,"product":"k3s","command":"fleet","document":"fleet","consistent":true`},
		{"fleet-json", "--json after the command too", []string{"fleet", filepath.Join(bad, "s1"), "--json", filepath.Join(bad, "s2")}, exitProblem, `"refused":"s2"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runArgs(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) {
				t.Errorf("%s: exit %d, want %d; stdout %q does not contain %q (stderr %q)", tc.reason, code, tc.code, out, tc.stdout, errs)
			}
		})
	}
}

// TestFleetShowDocuments: show --json --secret-salt on each node, then fleet over the
// folder of documents; no secret (and not the salt) appears in any output.
func TestFleetShowDocuments(t *testing.T) {
	nodes := fleetNodes(t, "10.42.0.0/16", "s3cr3t-two")
	docs := t.TempDir()
	const salt = "salt-of-this-run-4242"
	for _, n := range []string{"s1", "s2"} {
		code, out, errs := runArgs("--json", "show", "--root", filepath.Join(nodes, n), "--secret-salt", salt)
		if code != exitOK {
			t.Fatalf("show %s: exit %d: %s", n, code, errs)
		}
		var doc struct {
			Fleet struct {
				SaltID       string            `json:"saltId"`
				Fingerprints map[string]string `json:"secretFingerprints"`
				NodeName     string            `json:"nodeName"`
			} `json:"fleet"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Fleet.NodeName != n || doc.Fleet.Fingerprints["token"] == "" || doc.Fleet.SaltID == "" {
			t.Errorf("show %s: fleet block %+v: want node name, token fingerprint and salt id", n, doc.Fleet)
		}
		for _, secret := range []string{"s3cr3t", salt} {
			if strings.Contains(out, secret) {
				t.Errorf("show %s --secret-salt wrote %q", n, secret)
			}
		}
		writeTree(t, docs, map[string]string{n + ".json": out})
	}
	code, out, _ := runArgs("fleet", docs)
	if code != exitProblem || !strings.Contains(out, "error[secret-differs]") || !strings.Contains(out, "secret B") {
		t.Errorf("fleet over documents with different tokens: exit %d, want 1 and secret-differs:\n%s", code, out)
	}
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("fleet printed a secret:\n%s", out)
	}
	// Without a salt there is no fleet block, and nothing to compare secrets with.
	_, out, _ = runArgs("--json", "show", "--root", filepath.Join(nodes, "s1"))
	if strings.Contains(out, `"fleet"`) || strings.Contains(out, "secretFingerprints") {
		t.Errorf("show without --secret-salt wrote fingerprints")
	}
}

func TestFleetNodesJSONStdin(t *testing.T) {
	data, err := os.ReadFile("../../live/testdata/node.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "nodes")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	code, out, errs := runArgs("fleet", "--nodes-json", "-")
	if code != exitOK || !strings.Contains(out, "node-a  server  v1.") && !strings.Contains(out, "node-a") {
		t.Errorf("fleet --nodes-json -: exit %d (stderr %q):\n%s", code, errs, out)
	}
}

// TestFleetRelease: node folders take the release from --k3s-version, given before fleet
// (global) or after it, and FOLDER@VERSION for one input (issue 20: before, the global flag
// was dropped and the one after fleet refused).
func TestFleetRelease(t *testing.T) {
	ok := fleetNodes(t, "10.42.0.0/16", "s3cr3t-one")
	s1, s2 := filepath.Join(ok, "s1"), filepath.Join(ok, "s2")
	tests := []struct {
		name, reason string
		args         []string
		code         int
		want         []string // "input release" pairs in the JSON report
	}{
		{"none", "without a release the folders carry none (the newest is modelled)", []string{"fleet", "--json", s1, s2}, exitOK, []string{s1 + " ", s2 + " "}},
		{"global", "--k3s-version before fleet is every folder's release", []string{"--k3s-version", "v1.31.4+k3s1", "fleet", "--json", s1, s2}, exitOK, []string{s1 + " v1.31.4+k3s1", s2 + " v1.31.4+k3s1"}},
		{"after", "--k3s-version after fleet is accepted too", []string{"fleet", "--k3s-version", "v1.31.4+k3s1", "--json", s1, s2}, exitOK, []string{s1 + " v1.31.4+k3s1", s2 + " v1.31.4+k3s1"}},
		{"per-input", "FOLDER@VERSION overrides the global release for that input, and the skew rules apply", []string{"--k3s-version", "v1.31.4+k3s1", "fleet", "--json", s1, s2 + "@v1.33.1+k3s1"}, exitProblem, []string{s1 + " v1.31.4+k3s1", s2 + " v1.33.1+k3s1"}},
		{"bad", "a release k3sconf cannot model is a usage error", []string{"fleet", "--k3s-version", "v1.20.0+k3s1", s1}, exitUsage, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runArgs(tc.args...)
			if code != tc.code {
				t.Fatalf("%s: exit %d, want %d\n%s%s", tc.reason, code, tc.code, out, errOut)
			}
			if tc.want == nil {
				return
			}
			var doc struct {
				Nodes []struct{ Input, Release string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var got []string
			for _, n := range doc.Nodes {
				got = append(got, n.Input+" "+n.Release)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("%s: releases\n%s\nwant\n%s", tc.reason, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
