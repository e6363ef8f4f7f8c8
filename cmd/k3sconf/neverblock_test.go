package main

import (
	"bytes"
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
