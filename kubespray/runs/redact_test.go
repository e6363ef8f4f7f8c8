package runs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k3sconf/k3sconf/output"
)

// TestRedact: the names and ERROR! lines a report quotes from its logs pass the one
// redactor's word rules; plain names, the comparison of runs and --show-secrets are left
// as they are.
func TestRedact(t *testing.T) {
	bar := " ****************************************\n"
	log := "\nPLAY [deploy token=tok3nVALUEx1]" + bar + "\n" +
		"TASK [download : login password=pa55wordVALUE]" + bar + "changed: [n1]\n\n" +
		"TASK [fetch https://u:urlPa55VALUE@dl.example/x]" + bar + "changed: [n1]\n\n" +
		"TASK [Write kubelet config]" + bar + "changed: [n1]\n\n" +
		"PLAY RECAP" + bar + "n1 : ok=3 changed=3 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0\n"
	errLog := "ERROR! Invalid extra vars data supplied. '{\"registry_password\": \"echoedVALUE9\", \"x\": [' could not be made into a dictionary\n" +
		// ansible-core's field error (playbook/base.py) quotes the value apart from its name.
		"ERROR! the field 'registry_password' has an invalid value (fieldVALUE7x), and could not be converted to an bool. The error was: fieldVALUE7x is not a bool\n" +
		"ERROR! the field 'retries' has an invalid value (three), and could not be converted to an int.\n"
	build := func() *Report {
		r, err := Build(Options{Logs: []Log{{Name: "e.log", Data: []byte(errLog)}, {Name: "a.log", Data: []byte(log)}, {Name: "b.log", Data: []byte(log)}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	secrets := []string{"tok3nVALUEx1", "pa55wordVALUE", "urlPa55VALUE", "echoedVALUE9", "fieldVALUE7x"}
	text := func(r *Report) string {
		var b bytes.Buffer
		Text(&b, r)
		return b.String()
	}
	plain := text(build())
	for _, s := range secrets {
		if !strings.Contains(plain, s) {
			t.Fatalf("the unredacted report lacks %q: the test tests nothing:\n%s", s, plain)
		}
	}
	r := build()
	r.Redact(output.NewTextRedactor(false))
	got := text(r)
	for _, s := range secrets {
		if strings.Contains(got, s) {
			t.Errorf("redacted report holds %q:\n%s", s, got)
		}
	}
	for _, want := range []string{"login password=REDACTED", "https://u:REDACTED@dl.example/x", "Write kubelet config", `"registry_password": "REDACTED"`,
		"the field 'registry_password' has an invalid value (REDACTED)", "The error was: REDACTED is not a bool",
		"the field 'retries' has an invalid value (three)",
		"new in this run (3)"} {
		if !strings.Contains(got, want) {
			t.Errorf("redacted report lacks %q:\n%s", want, got)
		}
	}
	shown := build()
	shown.Redact(output.NewTextRedactor(true))
	if s := text(shown); s != plain {
		t.Errorf("--show-secrets changed the report:\n%s", s)
	}
}
