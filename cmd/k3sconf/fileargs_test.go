package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBounded runs the command under a timeout and an allocation bound: hostile input ends
// the command at once, without reading without limit.
func runBounded(t *testing.T, args []string, maxMB uint64) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan int, 1)
	go func() { done <- run(args, &out, &errb) }()
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("k3sconf %s did not end within 20 s", strings.Join(args, " "))
	}
	runtime.ReadMemStats(&after)
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > maxMB {
		t.Errorf("k3sconf %s allocated %d MB, more than %d", strings.Join(args, " "), mb, maxMB)
	}
	return code, out.String(), errb.String()
}

// TestFileArgumentsOneRule: every file argument of every command goes through
// rootfs.ReadArg. A named FIFO, /dev/zero, a file over the 64 MiB limit (sparse: it costs
// no disk) and a folder are each refused at once with a message naming the path, exit 3;
// nothing blocks, nothing reads without limit.
func TestFileArgumentsOneRule(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(65 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	inv := filepath.Join(dir, "hosts.ini")
	if err := os.WriteFile(inv, []byte("[k]\nnode1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ks := filepath.Join("..", "..", "kubespray", "testdata", "tree")
	node := exitNode(t, nil)
	commands := []struct {
		name string
		args func(p string) []string
	}{
		{"fleet --nodes-json", func(p string) []string { return []string{"fleet", "--nodes-json", p} }},
		{"fleet INPUT", func(p string) []string { return []string{"fleet", p} }},
		{"status --node-json", func(p string) []string { return []string{"--root", node, "status", "--node-json", p} }},
		{"explain --node-json", func(p string) []string { return []string{"--root", node, "explain", "token", "--node-json", p} }},
		{"compose FILE", func(p string) []string { return []string{"compose", p} }},
		{"kubespray -i", func(p string) []string {
			return []string{"kubespray", "explain", "x", "--host", "node1", "-i", p, "--kubespray", ks}
		}},
		{"kubespray -e @file", func(p string) []string {
			return []string{"kubespray", "explain", "x", "--host", "node1", "-i", inv, "-e", "@" + p, "--kubespray", ks}
		}},
		{"kubespray --facts", func(p string) []string {
			return []string{"kubespray", "explain", "x", "--host", "node1", "-i", inv, "--facts", p, "--kubespray", ks}
		}},
	}
	inputs := []struct{ name, path, want string }{
		{"fifo", fifo, "FIFO"},
		{"dev-zero", "/dev/zero", "character device"},
		{"over-limit", big, "limit"},
	}
	for _, c := range commands {
		for _, in := range inputs {
			t.Run(c.name+"/"+in.name, func(t *testing.T) {
				code, out, errs := runBounded(t, c.args(in.path), 100)
				if code != exitInput {
					t.Errorf("exit %d, want 3 (input k3sconf could not read); stdout %s stderr %s", code, out, errs)
				}
				if !strings.Contains(out+errs, in.path) || !strings.Contains(out+errs, in.want) {
					t.Errorf("the message must name %s and say %q; stdout %s stderr %s", in.path, in.want, out, errs)
				}
			})
		}
	}
	// A folder where a file belongs: exit 3 too (fleet reads a folder as a node, so only the
	// flags that name a file are tried).
	for _, c := range commands {
		if c.name == "fleet INPUT" || c.name == "kubespray -i" || c.name == "kubespray --facts" {
			continue
		}
		t.Run(c.name+"/folder", func(t *testing.T) {
			if code, out, errs := runBounded(t, c.args(folder), 100); code != exitInput {
				t.Errorf("exit %d, want 3; stdout %s stderr %s", code, out, errs)
			}
		})
	}
}

// TestInventoryFolderFIFO: a FIFO among the files of a folder given to -i (ansible-core
// 2.14.18's ansible-inventory waits on it for a writer) is input-unreadable, exit 3; the
// folder's other inventory files are read.
func TestInventoryFolderFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hosts"), []byte("[k]\nnode1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "zz"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ks := filepath.Join("..", "..", "kubespray", "testdata", "tree")
	code, out, errs := runBounded(t, []string{"kubespray", "explain", "x", "--host", "node1", "-i", dir, "--kubespray", ks}, 100)
	if code != exitInput || !strings.Contains(out, "input-unreadable") || !strings.Contains(out, "host node1") {
		t.Errorf("want exit 3, the FIFO reported and node1 read; got %d: %s %s", code, out, errs)
	}
}

// TestStreamArguments: a pipe the shell made (what `--nodes-json <(kubectl get nodes -o
// json)` passes: /dev/fd/N, an anonymous pipe) is read where a stream is documented, and
// refused where it is not.
func TestStreamArguments(t *testing.T) {
	pipe := func(text string) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		go func() { w.WriteString(text); w.Close() }()
		return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
	}
	const list = `{"kind":"List","apiVersion":"v1","items":[]}`
	code, out, errs := runBounded(t, []string{"fleet", "--nodes-json", pipe(list)}, 50)
	if strings.Contains(out+errs, "not a regular file") {
		t.Errorf("--nodes-json reads a pipe (exit %d): %s %s", code, out, errs)
	}
	code, out, errs = runBounded(t, []string{"compose", pipe("services: {}\n")}, 50)
	if code != exitInput || !strings.Contains(errs, "FIFO") {
		t.Errorf("compose FILE documents no stream: a pipe is refused, exit 3; got %d: %s %s", code, out, errs)
	}
}
