package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	yamlv2 "gopkg.in/yaml.v2"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor ROOT")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run reads and decodes the node's config files. The drop-in folder is listed with
// os.ReadDir, like k3s's dotDFiles (k3s-io/k3s pkg/configfilearg/parser.go).
func run(root string) error {
	cfg := filepath.Join(root, "etc/rancher/k3s/config.yaml")
	files := []string{cfg}
	ents, err := os.ReadDir(cfg + ".d")
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		files = append(files, filepath.Join(cfg+".d", n))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		var ms yamlv2.MapSlice
		if err := yamlv2.Unmarshal(data, &ms); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}
