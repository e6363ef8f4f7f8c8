package ansible

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestInventoryRules(t *testing.T) {
	cases := []struct {
		name, reason string
		files        map[string]string
		src, host    string
		want         string // groups in merge order and the value of v
	}{
		{
			name:   "priority before name",
			reason: "inventory/helpers.py sort_groups sorts by (depth, priority, name): a lower ansible_group_priority merges first even if its name sorts later",
			files:  map[string]string{"h.ini": "[b]\nh1\n[a]\nh1\n[a:vars]\nv=1\nansible_group_priority=5\n[b:vars]\nv=2\n"},
			src:    "h.ini", host: "h1", want: "all,b,a v=1",
		},
		{
			name:   "depth before name",
			reason: "a child group (depth 2) merges after its parent (depth 1) whatever the names",
			files:  map[string]string{"h.ini": "[z]\nh1\n[a:children]\nz\n[a:vars]\nv=parent\n[z:vars]\nv=child\n"},
			src:    "h.ini", host: "h1", want: "all,a,z v='child'",
		},
		{
			name:   "ini ignored in a folder",
			reason: "INVENTORY_IGNORE_EXTS includes .ini: a folder given to -i skips hosts.ini",
			files:  map[string]string{"inv/hosts.ini": "[g]\nh1 v=1\n", "inv/hosts.yml": "all:\n  hosts:\n    h1:\n      v: 2\n"},
			src:    "inv", host: "h1", want: "all,ungrouped v=2",
		},
		{
			name:   "vars line is literal_eval'ed too",
			reason: "ansible-core 2.14 ini.py passes [g:vars] values through _parse_value: True is a bool there, true a string",
			files:  map[string]string{"h.ini": "[g]\nh1\n[g:vars]\nv=True\n"},
			src:    "h.ini", host: "h1", want: "all,g v=True",
		},
		{
			name:   "host line is shell-split first",
			reason: "shlex removes the quotes before literal_eval: v='True' is the bool True",
			files:  map[string]string{"h.ini": "h1 v='True'\n"},
			src:    "h.ini", host: "h1", want: "all,ungrouped v=True",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			inv, err := LoadInventory([]string{filepath.Join(dir, c.src)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Resolve(Options{Inventory: inv, Host: c.host})
			if err != nil {
				t.Fatal(err)
			}
			var gs []string
			for _, g := range res.Groups {
				gs = append(gs, g.Name)
			}
			got := strings.Join(gs, ",") + " v=" + Repr(res.Vars["v"].Value)
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("%s (-want +got):\n%s", c.reason, d)
			}
		})
	}
}
