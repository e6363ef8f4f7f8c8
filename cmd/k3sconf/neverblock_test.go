package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNodeJSONFIFO: `status --node-json FIFO` fails at once with a message naming the FIFO,
// instead of waiting for a writer.
func TestNodeJSONFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "node.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"status", "--root", dir, "--node-json", p}, &out, &errb) }()
	select {
	case <-done:
		if !strings.Contains(errb.String(), "FIFO") {
			t.Errorf("the error must name the FIFO; stderr: %s", errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("status --node-json waited on a FIFO")
	}
}

// TestHostInputsNeverBlock: a FIFO where fleet and kubespray find files by themselves (a
// folder of show documents; an inventory's group_vars folder) is reported, not read: each
// command finishes instead of waiting for a writer.
func TestHostInputsNeverBlock(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := func(rel string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, rel), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	write("ks/cluster.yml", "- hosts: all\n  roles:\n    - kubespray_defaults\n")
	write("ks/roles/kubespray_defaults/defaults/main.yml", "kube_proxy_mode: ipvs\n")
	write("inv/hosts.yml", "all:\n  hosts:\n    n1:\n")
	fifo("inv/group_vars/all/zz.yml")
	fifo("docs/node-1.json")
	cases := []struct {
		name, reason string
		args         []string
		want         int
	}{
		{"kubespray", "ansible lists a group_vars folder and keeps only os.path.isfile entries " +
			"(ansible-core 2.14 DataLoader._get_dir_vars_files), so it skips a FIFO; k3sconf must skip it too, without opening it",
			[]string{"kubespray", "explain", "kube_proxy_mode", "--host", "n1", "-i", filepath.Join(dir, "inv/hosts.yml"), "--kubespray", filepath.Join(dir, "ks")}, exitOK},
		{"fleet", "a folder of show documents is read file by file; a FIFO among them is unreadable input (exit 3), not a wait",
			[]string{"fleet", filepath.Join(dir, "docs")}, exitInput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(tc.args, &out, &errb) }()
			select {
			case code := <-done:
				if code != tc.want {
					t.Errorf("%s: exit %d, want %d; stdout: %s stderr: %s", tc.reason, code, tc.want, out.String(), errb.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: waited on a FIFO", tc.reason)
			}
		})
	}
}
