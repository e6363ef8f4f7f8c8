package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// snapshot records every path of a tree with its mode, size, modification time and content
// hash, so that any write, chmod or touch shows up.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		h := ""
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		out[p] = fmt.Sprintf("%v %d %d %s", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), h)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOnly runs every command on a read-only copy of the example nodes and checks that
// nothing in the tree changed: k3sconf only reads the node it inspects.
func TestReadOnly(t *testing.T) {
	for _, example := range []string{"node", "rke2-node"} {
		root := filepath.Join(t.TempDir(), example)
		copyTree(t, filepath.Join("..", "..", "examples", example), root)
		// Read-only for everyone (root ignores the bits, which is why the tree is compared
		// too).
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				_ = os.Chmod(p, 0o444)
			}
			return nil
		})
		before := snapshot(t, root)
		for _, args := range [][]string{
			{"show"}, {"show", "--all"}, {"--json", "show"}, {"args"}, {"sources"}, {"check"},
			{"explain", "disable", "token", "write-kubeconfig-mode"}, {"--json", "check", "--strict"},
		} {
			run(append([]string{"--root", root}, args...), io.Discard, io.Discard)
		}
		if diff := cmp.Diff(before, snapshot(t, root)); diff != "" {
			t.Errorf("%s: the node changed (-before +after):\n%s", example, diff)
		}
	}
}
