package ansibletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// toFile is a callback plugin: one of ansible.posix's json callbacks (@MODULE@) as an
// aggregate callback whose display goes to the file named by $@ENV@ (written for json,
// appended line by line for jsonl).
const toFile = `from ansible_collections.ansible.posix.plugins.callback import @MODULE@ as posix_json
import os


class _File(object):
    def __init__(self, display):
        self._display = display

    def display(self, msg, *args, **kwargs):
        with open(os.environ["@ENV@"], "@MODE@") as f:
            f.write(msg + "\n")

    def __getattr__(self, name):
        return getattr(self._display, name)


class CallbackModule(posix_json.CallbackModule):
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "@NAME@"
    CALLBACK_NEEDS_ENABLED = True

    # The options of the callback at their defaults (its DOCUMENTATION is not this file's,
    # so the plugin loader has none to give).
    def set_options(self, *args, **kwargs):
        pass

    def get_option(self, name):
        return {"json_indent": @INDENT@, "show_custom_stats": False}.get(name)

    def __init__(self, display=None):
        super(CallbackModule, self).__init__(display)
        self._display = _File(self._display)
`

func plugin(module, env, mode, name, indent string) string {
	return strings.NewReplacer("@MODULE@", module, "@ENV@", env, "@MODE@", mode, "@NAME@", name, "@INDENT@", indent).Replace(toFile)
}

// Require skips the test where ansible-playbook is missing and returns its version line.
func Require(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("ansible-playbook", "--version").Output()
	if err != nil {
		t.Skipf("ansible-playbook not available: %v", err)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// HaveJSONCallback: ansible-playbook's own Python (its #! line) can import ansible.posix's
// json callbacks.
func HaveJSONCallback() bool {
	path, err := exec.LookPath("ansible-playbook")
	if err != nil {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "#!") {
		return false
	}
	interp := strings.Fields(strings.SplitN(string(b[2:]), "\n", 2)[0])
	if len(interp) == 0 {
		return false
	}
	// One import per process: the first installs ansible's collection finder, which cannot
	// load a second collection module outside ansible-playbook.
	for _, mod := range []string{"json", "jsonl"} {
		args := append(append([]string(nil), interp[1:]...), "-c", "import ansible_collections.ansible.posix.plugins.callback."+mod)
		if exec.Command(interp[0], args...).Run() != nil {
			return false
		}
	}
	return true
}

// Runner runs ansible-playbook in Dir.
type Runner struct {
	Dir string
	// Config is the ansible.cfg body (written to Dir/ansible.cfg); "" is "[defaults]".
	Config string
	// JSON: also write the json callback's document and the jsonl callback's lines (when
	// HaveJSONCallback).
	JSON bool
	n    int
}

// Result is one run's output.
type Result struct {
	Text []byte
	// JSON is the json callback's document of the same run, JSONL the jsonl callback's
	// lines; nil without them.
	JSON, JSONL []byte
	Code        int
}

// Run runs ansible-playbook with args and env (KEY=VALUE, on top of a hermetic
// environment; ANSIBLE_CALLBACKS_ENABLED is extended, not replaced, by the json
// callback). Exit codes 0 and 2 (a host failed) are results; others fail the test.
func (r *Runner) Run(t testing.TB, args []string, env ...string) Result {
	t.Helper()
	r.n++
	cfg := r.Config
	if cfg == "" {
		cfg = "[defaults]\n"
	}
	plugins := filepath.Join(r.Dir, ".ansibletest", "callback_plugins")
	if err := os.MkdirAll(plugins, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, ".ansibletest", "ansible.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"json_to_file.py":  plugin("json", "JSON_TO_FILE", "w", "json_to_file", "4"),
		"jsonl_to_file.py": plugin("jsonl", "JSONL_TO_FILE", "a", "jsonl_to_file", "0"),
	} {
		if err := os.WriteFile(filepath.Join(plugins, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jsonFile := filepath.Join(r.Dir, ".ansibletest", "run.json")
	jsonlFile := filepath.Join(r.Dir, ".ansibletest", "run.jsonl")
	_ = os.Remove(jsonFile)
	_ = os.Remove(jsonlFile)
	cmd := exec.Command("ansible-playbook", args...)
	cmd.Dir = r.Dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANSIBLE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "ANSIBLE_CONFIG="+filepath.Join(r.Dir, ".ansibletest", "ansible.cfg"),
		"ANSIBLE_HOME="+filepath.Join(r.Dir, ".ansibletest", "home"), "ANSIBLE_LOCAL_TEMP="+filepath.Join(r.Dir, ".ansibletest", "tmp"),
		"ANSIBLE_RETRY_FILES_ENABLED=false", "ANSIBLE_CALLBACK_PLUGINS="+plugins, "JSON_TO_FILE="+jsonFile, "JSONL_TO_FILE="+jsonlFile)
	withJSON := r.JSON && HaveJSONCallback()
	if withJSON {
		env = append([]string(nil), env...)
		found := false
		for k, e := range env {
			if v, ok := strings.CutPrefix(e, "ANSIBLE_CALLBACKS_ENABLED="); ok {
				env[k], found = "ANSIBLE_CALLBACKS_ENABLED="+v+",json_to_file,jsonl_to_file", true
			}
		}
		if !found {
			env = append(env, "ANSIBLE_CALLBACKS_ENABLED="+callbacksOf(cfg)+"json_to_file,jsonl_to_file")
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output() // stdout only, as a log written with > file keeps it
	res := Result{Text: out}
	if ee, ok := err.(*exec.ExitError); ok {
		res.Code = ee.ExitCode()
	}
	t.Logf("ansible-playbook %s (%s): %.1fs, exit %d", strings.Join(args, " "), strings.Join(env, " "), time.Since(start).Seconds(), res.Code)
	if (err != nil && res.Code == 0) || (res.Code != 0 && res.Code != 2) {
		t.Fatalf("ansible-playbook: %v\n%s%s", err, out, stderr.Bytes())
	}
	if withJSON {
		b, err := os.ReadFile(jsonFile)
		if err != nil {
			t.Fatalf("the json callback wrote nothing: %v\n%s", err, stderr.Bytes())
		}
		res.JSON = b
		if res.JSONL, err = os.ReadFile(jsonlFile); err != nil {
			t.Fatalf("the jsonl callback wrote nothing: %v\n%s", err, stderr.Bytes())
		}
	}
	return res
}

// callbacksOf is the config's callbacks_enabled list with a trailing comma ("" for none):
// ANSIBLE_CALLBACKS_ENABLED replaces it.
func callbacksOf(cfg string) string {
	for _, l := range strings.Split(cfg, "\n") {
		k, v, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == "callbacks_enabled" && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v) + ","
		}
	}
	return ""
}
