package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKubesprayReadOnly: explain and where only read the checkout and the inventory.
func TestKubesprayReadOnly(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "kubespray", "testdata"), root)
	before := snapshot(t, root)
	tree, inv := filepath.Join(root, "tree"), filepath.Join(root, "inv", "inventory.ini")
	for _, args := range [][]string{
		{"kubespray", "explain", "container_manager", "kube_version", "--host", "node2", "-i", inv, "--kubespray", tree},
		{"kubespray", "explain", "container_manager", "--host", "etcd1", "-i", inv, "--kubespray", tree, "--json", "-e", "a=1"},
		{"kubespray", "where", "containerd_version", "--kubespray", tree},
	} {
		if code := run(args, io.Discard, io.Discard); code != exitOK {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, root)); diff != "" {
		t.Errorf("the checkout or inventory changed (-before +after):\n%s", diff)
	}
}
