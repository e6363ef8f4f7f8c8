package ansible

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// Facts are a host's setup facts, given by the user: what `ansible -m setup HOST` prints
// (`HOST | SUCCESS => {"ansible_facts": {...}}`), that JSON object alone, an
// `ansible_facts` dump (keys without the ansible_ prefix), or a file of ansible's jsonfile
// fact cache (keys with it). A task sees them as ansible-core 2.14 hands them over
// (vars/manager.py get_vars: namespace_facts gives `ansible_facts` with the prefix
// removed; INJECT_FACTS_AS_VARS, on by default, adds each as `ansible_NAME`).
type Facts struct {
	// File is where they were read.
	File string
	m    *Map // by name without the ansible_ prefix
}

// FactsError is a facts file that does not hold facts (it was read).
type FactsError struct {
	File string
	Err  error
}

func (e *FactsError) Error() string { return e.Err.Error() }
func (e *FactsError) Unwrap() error { return e.Err }

// ParseFacts reads facts from the text of a setup dump (see [Facts]); an error is a
// *FactsError.
func ParseFacts(file string, data []byte) (*Facts, error) {
	f, err := parseFacts(file, data)
	if err != nil {
		return nil, &FactsError{File: file, Err: err}
	}
	return f, nil
}

func parseFacts(file string, data []byte) (*Facts, error) {
	i := bytes.IndexByte(data, '{')
	if i < 0 {
		return nil, fmt.Errorf("%s: no JSON object (want the output of `ansible -m setup HOST` or an ansible_facts dump)", file)
	}
	// `HOST | SUCCESS => {` before the object: its lines are kept, so positions still count.
	body := append([]byte(nil), data...)
	for j := 0; j < i; j++ {
		if body[j] != '\n' {
			body[j] = ' '
		}
	}
	es, err := LoadVarsYAML(file, body)
	if err != nil {
		return nil, err
	}
	f := &Facts{File: file, m: &Map{}}
	top := es
	for _, e := range es {
		if e.Name == "ansible_facts" {
			m, ok := e.Value.(*Map)
			if !ok {
				return nil, fmt.Errorf("%s: ansible_facts is not a mapping", file)
			}
			top = nil
			for _, it := range m.Items {
				top = append(top, Entry{Name: pyStrOf(it.Key), Value: it.Value})
			}
		}
	}
	for _, e := range top {
		name := e.Name
		if name != "ansible_local" {
			name = strings.TrimPrefix(name, "ansible_")
		}
		f.m.Set(name, e.Value)
	}
	if len(f.m.Items) == 0 {
		return nil, fmt.Errorf("%s: no facts in it", file)
	}
	return f, nil
}

// LoadFacts reads the facts of host from path, through the one reader of file arguments:
// a file holds that host's facts; a folder holds one file per host, HOST.json or HOST
// (ansible's jsonfile fact cache, fact_caching_connection, names them so). A folder
// without the host's file gives nil, nil: no facts for that host.
func LoadFacts(path, host string) (*Facts, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		found := ""
		for _, n := range []string{host + ".json", host} {
			p := filepath.Join(path, n)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				found = p
				break
			}
		}
		if found == "" {
			return nil, nil
		}
		path = found
	}
	data, err := rootfs.ReadArg(path, false)
	if err != nil {
		return nil, err
	}
	return ParseFacts(path, data)
}

// Lookup gives a fact as a task sees it: `ansible_facts` (the mapping) or `ansible_NAME`.
func (f *Facts) Lookup(name string) (any, bool) {
	if f == nil {
		return nil, false
	}
	if name == "ansible_facts" {
		return f.m, true
	}
	if name == "ansible_local" {
		return f.m.Get("ansible_local")
	}
	if short, ok := strings.CutPrefix(name, "ansible_"); ok {
		return f.m.Get(short)
	}
	return nil, false
}

// Get is the fact NAME (without the ansible_ prefix).
func (f *Facts) Get(name string) (any, bool) {
	if f == nil {
		return nil, false
	}
	return f.m.Get(name)
}
