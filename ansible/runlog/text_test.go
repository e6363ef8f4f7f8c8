package runlog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// realLog is a log of a golden archive (real ansible-playbook output).
func realLog(t testing.TB, archive, name string) []byte {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/" + archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "log/"+name {
			return f.Data
		}
	}
	t.Fatalf("%s has no log/%s", archive, name)
	return nil
}

func one(t *testing.T, data []byte) *Run {
	t.Helper()
	rs := Parse("x.log", data)
	if len(rs) != 1 {
		t.Fatalf("%d runs, want 1", len(rs))
	}
	return rs[0]
}

func hasProblem(r *Run, sub string) bool {
	for _, p := range r.Problems {
		if strings.Contains(p.Message, sub) {
			return true
		}
	}
	return false
}

// TestHostile: logs cut off, mixed, coloured, prefixed, or not logs at all. Each case says
// what must come out and why.
func TestHostile(t *testing.T) {
	run3 := realLog(t, "generated-text.txtar", "run3.txt") // h2 fails; profile_tasks
	run1 := realLog(t, "generated-text.txtar", "run1.txt")
	json3 := realLog(t, "generated-json.txtar", "run3.json")
	jsonl1 := realLog(t, "generated-jsonl.txtar", "run1.jsonl")
	jsonl3 := realLog(t, "generated-jsonl.txtar", "run3.jsonl")
	recapAt := bytes.Index(run3, []byte("PLAY RECAP"))
	h2Recap := bytes.Index(run3, []byte("\nh2 ")) + 1
	for _, tc := range []struct {
		name, reason string
		data         []byte
		check        func(t *testing.T, rs []*Run)
	}{
		{"cut-before-recap", "a run cut off before its PLAY RECAP has no verdict, but its results are kept",
			run3[:recapAt], func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || len(rs[0].Plays) != 1 || rs[0].statusOf("h2", "Test play\x00fails when asked") != Failed {
					t.Errorf("verdict %s, %d plays", rs[0].Verdict(), len(rs[0].Plays))
				}
			}},
		{"cut-inside-recap", "a recap cut after h1's line would otherwise say ok while h2 failed",
			run3[:h2Recap+45], func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || !hasProblem(rs[0], "does not read") {
					t.Errorf("verdict %s, problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"cut-before-h2-recap", "a recap without h2's line at all: h2 has results, so the recap is cut",
			run3[:h2Recap], func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || !hasProblem(rs[0], "no line for h2") {
					t.Errorf("verdict %s, problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"cut-mid-result", "a result line cut mid-word is reported, not taken",
			append(append([]byte{}, run3[:bytes.Index(run3, []byte("changed: [h"))]...), "chan"...), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete {
					t.Errorf("verdict %s", rs[0].Verdict())
				}
			}},
		{"starts-mid-run", "a log that starts inside a task: the results before any banner are reported",
			run3[bytes.Index(run3, []byte("changed: [")):], func(t *testing.T, rs []*Run) {
				if !hasProblem(rs[0], "before any task banner") || rs[0].Verdict() != FailedRun {
					t.Errorf("verdict %s, problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"two-runs-appended", "log_path appends: one file, two runs, split at the second PLAY banner",
			append(append([]byte{}, run1...), run3...), func(t *testing.T, rs []*Run) {
				if len(rs) != 2 || rs[0].Verdict() != Succeeded || rs[1].Verdict() != FailedRun || rs[1].Source != "x.log#2" {
					t.Errorf("%d runs", len(rs))
				}
			}},
		{"log-path-prefix", "ansible's log_path file prefixes every line with a date, pid, user and name",
			logPathPrefix(run3), func(t *testing.T, rs []*Run) {
				if len(rs) != 1 || rs[0].Verdict() != FailedRun || rs[0].statusOf("h1", "Test play\x00write config") != Changed {
					t.Errorf("%d runs, verdict %s", len(rs), rs[0].Verdict())
				}
			}},
		{"crlf", "a log saved with CRLF line ends",
			bytes.ReplaceAll(run3, []byte("\n"), []byte("\r\n")), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != FailedRun || len(rs[0].Slowest) == 0 {
					t.Errorf("verdict %s, %d slowest", rs[0].Verdict(), len(rs[0].Slowest))
				}
			}},
		{"stderr-interleaved", "warnings and a traceback of 2>&1 between the lines change nothing",
			interleave(run3, "[WARNING]: Could not match supplied host pattern\nTraceback (most recent call last):\n  File \"x\", line 1\nKeyError: 'changed: [h9]'\n"), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != FailedRun || len(rs[0].Problems) != 0 || len(rs[0].Hosts()) != 2 {
					t.Errorf("verdict %s, problems %v, hosts %v", rs[0].Verdict(), rs[0].Problems, rs[0].Hosts())
				}
			}},
		{"indented-output", "task output that looks like events is indented (result dumps): never read as one",
			bytes.Replace(run3, []byte("PLAY RECAP"), []byte("TASK [fake] ***\nok: [h1] => {\n    \"msg\": \"x\"\n    changed: [h7]\n    PLAY RECAP ***\n}\n\nPLAY RECAP"), 1), func(t *testing.T, rs []*Run) {
				if len(rs) != 1 || rs[0].Verdict() != FailedRun || len(rs[0].Hosts()) != 2 {
					t.Errorf("%d runs, verdict %s, hosts %v", len(rs), rs[0].Verdict(), rs[0].Hosts())
				}
			}},
		{"ansi-everywhere", "colour codes in every place ansible puts them and more (OSC titles, cursor moves)",
			bytes.ReplaceAll(run3, []byte("h2"), []byte("\x1b[0;31mh2\x1b[0m\x1b]0;title\x07")), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != FailedRun || strings.Join(rs[0].FailedHosts(), ",") != "h2" {
					t.Errorf("verdict %s, failed %v", rs[0].Verdict(), rs[0].FailedHosts())
				}
			}},
		{"failures-on-stderr", "display_failed_stderr: the fatal lines are not in a log of standard output; the recap still fails h2 and the gap is said",
			dropLines(run3, "fatal: [h2]"), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != FailedRun || !hasProblem(rs[0], "display_failed_stderr") {
					t.Errorf("verdict %s problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"ansible-error", "ansible-playbook stopping before any play prints ERROR!: kept, no verdict",
			[]byte("ERROR! the playbook: site.yml could not be found\n"), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || len(rs[0].Errors) != 1 {
					t.Errorf("verdict %s, errors %v", rs[0].Verdict(), rs[0].Errors)
				}
			}},
		{"empty", "an empty file is no run: said so",
			nil, func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || !hasProblem(rs[0], "no ansible-playbook output") {
					t.Errorf("verdict %s, problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"binary", "garbage bytes: no panic, no run",
			bytes.Repeat([]byte{0, 0xff, '\n', 0x1b, '[', 'T', 'A', 'S', 'K', ' ', '[', ']'}, 1000), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete {
					t.Errorf("verdict %s", rs[0].Verdict())
				}
			}},
		{"json-cut", "a json document cut off: incomplete, said so",
			json3[:len(json3)/2], func(t *testing.T, rs []*Run) {
				if rs[0].Format != "json" || rs[0].Verdict() != Incomplete || !hasProblem(rs[0], "ends early") {
					t.Errorf("format %s verdict %s problems %v", rs[0].Format, rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"json-after-warnings", "2>&1 puts warnings before the json document",
			append([]byte("[WARNING]: provided hosts list is empty\n"), json3...), func(t *testing.T, rs []*Run) {
				if rs[0].Format != "json" || rs[0].Verdict() != FailedRun {
					t.Errorf("format %s verdict %s problems %v", rs[0].Format, rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"jsonl-cut", "a jsonl log cut mid-line: the events before the cut are kept, no verdict",
			jsonl3[:len(jsonl3)*2/3], func(t *testing.T, rs []*Run) {
				if rs[0].Format != "jsonl" || rs[0].Verdict() != Incomplete || rs[0].statusOf("h1", "Test play\x00always changes") != Changed {
					t.Errorf("format %s verdict %s problems %v", rs[0].Format, rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"jsonl-appended", "two jsonl runs in one file are two runs",
			append(append([]byte{}, jsonl1...), jsonl3...), func(t *testing.T, rs []*Run) {
				if len(rs) != 2 || rs[0].Verdict() != Succeeded || rs[1].Verdict() != FailedRun || rs[1].Source != "x.log#2" {
					t.Errorf("%d runs", len(rs))
				}
			}},
		{"json-wrong-types", "a document with the wrong types is reported, not trusted",
			[]byte(`{"plays": {"x": 1}, "stats": []}`), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Incomplete || !hasProblem(rs[0], "not a json callback document") {
					t.Errorf("verdict %s problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
		{"ignoring-without-failure", "a stray ...ignoring is reported",
			[]byte("PLAY [p] ***\n\nTASK [t] ***\nok: [h]\n...ignoring\n\nPLAY RECAP ***\nh : ok=1 changed=0 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0\n"), func(t *testing.T, rs []*Run) {
				if rs[0].Verdict() != Succeeded || !hasProblem(rs[0], "after no failure") {
					t.Errorf("verdict %s problems %v", rs[0].Verdict(), rs[0].Problems)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := Parse("x.log", tc.data)
			if len(rs) == 0 {
				t.Fatalf("%s: no run", tc.reason)
			}
			t.Log(tc.reason)
			tc.check(t, rs)
		})
	}
}

func dropLines(b []byte, prefix string) []byte {
	var out bytes.Buffer
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte(prefix)) {
			out.Write(l)
		}
	}
	return out.Bytes()
}

func logPathPrefix(b []byte) []byte {
	var out bytes.Buffer
	for _, l := range bytes.Split(b, []byte("\n")) {
		out.WriteString("2026-12-01 21:13:58,123 p=1234 u=root n=ansible | ")
		out.Write(l)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

func interleave(b []byte, junk string) []byte {
	var out bytes.Buffer
	for i, l := range bytes.Split(b, []byte("\n")) {
		out.Write(l)
		out.WriteByte('\n')
		if i%7 == 3 {
			out.WriteString(junk)
		}
	}
	return out.Bytes()
}

// TestStatusRules: the verdict is the recap's; "...ignoring" and rescue are not failures.
func TestStatusRules(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		log          string
		want         map[string]Status
		verdict      Verdict
	}{
		{"ignored", "a fatal followed by ...ignoring is an ignored failure", "TASK [t] ***\nfatal: [h]: FAILED! => {}\n...ignoring\nTASK [u] ***\nok: [h]\n", map[string]Status{"t": Ignored, "u": OK}, Succeeded},
		{"rescued", "a fatal the host runs on after is rescued", "TASK [t] ***\nfatal: [h]: FAILED! => {}\nTASK [r] ***\nok: [h]\n", map[string]Status{"t": Rescued, "r": OK}, Succeeded},
		{"failed", "a fatal with nothing after is failed", "TASK [t] ***\nfatal: [h]: FAILED! => {}\n", map[string]Status{"t": Failed}, FailedRun},
		{"force-handlers", "a handler run on a failed host (--force-handlers) does not make the failure rescued", "TASK [t] ***\nfatal: [h]: FAILED! => {}\nRUNNING HANDLER [x] ***\nok: [h]\n", map[string]Status{"t": Failed, "x": OK}, FailedRun},
		{"unreachable-ignored", "ignore_unreachable prints ...ignoring too", "TASK [t] ***\nfatal: [h]: UNREACHABLE! => {}\n...ignoring\n", map[string]Status{"t": Ignored}, Succeeded},
		{"loop-item-failed", "a failed item fails the task", "TASK [t] ***\nok: [h] => (item=a)\nfailed: [h] (item=b) => {}\n", map[string]Status{"t": Failed}, FailedRun},
		{"loop-partly-skipped", "skipped items beside an ok one: ok", "TASK [t] ***\nskipping: [h] => (item=a) \nok: [h] => (item=b)\n", map[string]Status{"t": OK}, Succeeded},
		{"delegated", "h -> other is h's result", "TASK [t] ***\nchanged: [h -> localhost]\n", map[string]Status{"t": Changed}, Succeeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := 0
			if tc.verdict == FailedRun {
				failed = 1
			}
			log := "PLAY [p] ***\n\n" + tc.log + "\nPLAY RECAP ***\nh                          : ok=1    changed=0    unreachable=0    failed=" + string(rune('0'+failed)) + "    skipped=0    rescued=0    ignored=0   \n"
			r := one(t, []byte(log))
			got := map[string]Status{}
			for _, e := range r.Events("h") {
				got[e.Task.Name] = e.Result.Status()
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s: %s is %s, want %s", tc.reason, k, got[k], v)
				}
			}
			if r.Verdict() != tc.verdict {
				t.Errorf("%s: verdict %s, want %s", tc.reason, r.Verdict(), tc.verdict)
			}
		})
	}
}

// TestOlderReleases: lines as releases before 2.8 print them (the recap without skipped=,
// rescued=, ignored=; profile_tasks' timing line with ten stars) and as kubespray's CI logs
// show them (delegated hosts, indented retry hints). Written for this test in those formats.
func TestOlderReleases(t *testing.T) {
	log := "PLAY [kube-master] *************\n" +
		"TASK [Wait until SSH is available] *********************************************\n" +
		"Tuesday 18 June 2019  14:47:16 +0000 (0:00:00.172)       0:00:00.172 ********** \n" +
		"ok: [i1 -> localhost]\n" +
		"fatal: [i2 -> localhost]: FAILED! => {\"changed\": false, \"msg\": \"Timeout\"}\n" +
		"        to retry, use: --limit @/tmp/cluster.retry\n\n" +
		"PLAY RECAP *********************************************************************\n" +
		"i1                         : ok=317  changed=20   unreachable=0    failed=0\n" +
		"i2                         : ok=178  changed=5    unreachable=0    failed=1\n\n" +
		"Sunday 01 October 2017  23:04:24 +0200 (0:00:00.093)       0:18:45.800 ********\n" +
		"===============================================================================\n" +
		"kubernetes/node : install | Copy kubelet from hyperkube container ------- 123.45s\n"
	r := one(t, []byte(log))
	if r.Verdict() != FailedRun || strings.Join(r.FailedHosts(), ",") != "i2" || !r.Profile || len(r.Slowest) != 1 || r.Slowest[0].Seconds != 123.45 {
		t.Errorf("verdict %s, failed %v, profile %v, slowest %v, problems %v", r.Verdict(), r.FailedHosts(), r.Profile, r.Slowest, r.Problems)
	}
	if r.Recap[0].OK != 317 || r.Recap[0].Changed != 20 || r.Recap[1].Failed != 1 {
		t.Errorf("recap %+v", r.Recap)
	}
	if st := r.statusOf("i2", "kube-master\x00Wait until SSH is available"); st != Failed {
		t.Errorf("i2: %s", st)
	}
}

// TestSlowLine: profile_tasks' summary lines, padded or not.
func TestSlowLine(t *testing.T) {
	for _, tc := range []struct{ line, task, sec string }{
		{"r1 : role task ---------------------------------------------------------- 1.33s", "r1 : role task", "1.33"},
		{"a - b ------------------------------------------------------------------- 0.03s", "a - b", "0.03"},
		{"x - ------------------------------------------------------------------- 0.03s", "x -", "0.03"},
		{strings.Repeat("n", 90) + "  1234.56s", strings.Repeat("n", 90), "1234.56"},
		{strings.Repeat("n", 90) + " --- 1.00s", strings.Repeat("n", 90), "1.00"},
	} {
		m := reSlow.FindStringSubmatch(tc.line)
		if m == nil || m[1] != tc.task || m[2] != tc.sec {
			t.Errorf("%q: got %q", tc.line, m)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(realLog(f, "generated-text.txtar", "run3.txt"))
	f.Add(realLog(f, "generated-json.txtar", "run1.json")[:3000])
	f.Add([]byte("PLAY [x] ***\nTASK [y] ***\nfatal: [h]: FAILED! => {}\n...ignoring\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, r := range Parse("f", data) {
			_ = r.Verdict()
			for _, h := range r.Hosts() {
				_ = r.Changes(h)
			}
			_ = Compare([]*Run{r, r})
		}
	})
}
