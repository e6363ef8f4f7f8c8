package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// extract writes an archive's files under dir.
func extract(t *testing.T, archive, dir string) []string {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, f.Name)
	}
	return names
}

// TestKubesprayRunsJSON: `kubespray runs --json` on real logs (the golden archives of
// ansible/runlog and the seed's runs of the script test) validates against
// docs/schema/kubespray-runs.schema.json, and the exit code follows the last run.
func TestKubesprayRunsJSON(t *testing.T) {
	schemas := loadSchemas(t)
	dir := t.TempDir()
	extract(t, "testdata/script/kubespray-runs.txtar", dir)
	logs := map[string][]string{}
	for _, a := range []string{"generated-text", "generated-json", "generated-jsonl", "seed-containerd"} {
		sub := filepath.Join(dir, a)
		for _, n := range extract(t, filepath.Join("..", "..", "ansible", "runlog", "testdata", a+".txtar"), sub) {
			if strings.HasPrefix(n, "log/") {
				logs[a] = append(logs[a], filepath.Join(sub, filepath.FromSlash(n)))
			}
		}
	}
	ks := filepath.Join(dir, "ks")
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"text", logs["generated-text"], exitProblem}, // run 3 fails on h2
		{"json", logs["generated-json"], exitProblem}, // the same runs
		{"mixed", append(append([]string{}, logs["generated-json"][:2]...), logs["generated-text"][1]), exitOK},
		{"seed-var", append(append([]string{}, logs["seed-containerd"]...), "--var", "containerd_max_container_log_line_size", "--kubespray", ks, "-i", filepath.Join(ks, "inv", "hosts.ini")), exitOK},
		{"seed-var-not-run", append(append([]string{}, logs["seed-containerd"]...), "--var", "kubelet_max_pods", "--kubespray", ks), exitOK},
		{"cut", []string{filepath.Join(dir, "deploy.log"), filepath.Join(dir, "cut.log")}, exitProblem},
		{"unreadable", []string{filepath.Join(dir, "deploy.log"), filepath.Join(dir, "nope.log")}, exitInput},
		{"nothing-read", []string{filepath.Join(dir, "nope.log")}, exitInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(append([]string{"kubespray", "runs", "--json"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tc.code, errs)
			}
			validate(t, schemas, tc.name, []byte(out), "kubespray runs")
		})
	}
	// The schema is tight: a status outside the set fails.
	_, out, _ := runCLI(append([]string{"kubespray", "runs", "--json"}, logs["generated-text"]...)...)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	m["runs"].([]any)[0].(map[string]any)["failures"].([]any)[0].(map[string]any)["status"] = "fine"
	b, _ := json.Marshal(m)
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if schemas["kubespray runs"].Validate(v) == nil {
		t.Error("a failure with status \"fine\" validates")
	}
}

// TestKubesprayRunsFIFO: a log argument that is a FIFO (a `mkfifo` left where a log was
// expected) is reported as unreadable at once (exit 3), not waited on; the other logs still
// render.
func TestKubesprayRunsFIFO(t *testing.T) {
	dir := t.TempDir()
	extract(t, "testdata/script/kubespray-runs.txtar", dir)
	p := filepath.Join(dir, "fifo.log")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"kubespray", "runs", filepath.Join(dir, "deploy.log"), p}, &out, &errb)
	}()
	select {
	case code := <-done:
		if code != exitInput || !strings.Contains(out.String(), "FIFO") || !strings.Contains(out.String(), "run 1: ") {
			t.Errorf("exit %d; stdout: %s stderr: %s", code, out.String(), errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("kubespray runs waited on a FIFO")
	}
}

// TestKubesprayRunsReadOnly: runs only reads the logs, the checkout and the inventory.
func TestKubesprayRunsReadOnly(t *testing.T) {
	dir := t.TempDir()
	extract(t, "testdata/script/kubespray-runs.txtar", dir)
	before := snapshot(t, dir)
	ks := filepath.Join(dir, "ks")
	args := []string{"kubespray", "runs", filepath.Join(dir, "deploy.log"), filepath.Join(dir, "edited.log"),
		"--var", "containerd_max_container_log_line_size", "--kubespray", ks, "-i", filepath.Join(ks, "inv", "hosts.ini")}
	for _, a := range [][]string{args, append(args, "--json")} {
		if code, _, errs := runCLI(a...); code != exitOK {
			t.Errorf("%v: exit %d: %s", a, code, errs)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("a file changed (-before +after):\n%s", diff)
	}
}
