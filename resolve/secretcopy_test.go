package resolve_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestSecretCopyNotQuoted: a key set through a YAML alias of a secret (`agent-token: &a
// zebra`, `KEY: *a`) holds the secret, whatever it spells: no text the resolver builds —
// a finding's message, hint, key and assumptions, the refusal line, a key's note and
// advice, an assignment's reason — quotes it, for every flag of k3s and RKE2, server and
// agent, the newest CLI era and the old one, the value alone and as a list item (issue 25:
// "invalid argument \"zebra\" for \"--node-labels\"" quoted a copy of agent-token). The
// output's redactor cannot find a plain word in prose; the resolver says REDACTED where
// it quotes one. The same word written plainly (no alias) is still quoted: the control
// case proves the flags' checks do quote it.
func TestSecretCopyNotQuoted(t *testing.T) {
	for _, word := range []string{"zebra", "Zebra", "zq"} {
		secretCopyNotQuoted(t, word)
	}
}

func secretCopyNotQuoted(t *testing.T, word string) {
	type run struct {
		product, command, version string
	}
	var runs []run
	for _, p := range []string{"k3s", "rke2"} {
		for _, c := range []string{"server", "agent"} {
			runs = append(runs, run{p, c, ""})
		}
	}
	runs = append(runs, run{"k3s", "server", "v1.30.5+k3s1"}, run{"k3s", "agent", "v1.30.5+k3s1"})
	quoted := map[string]bool{} // flags whose checks quote the plain word (the control case)
	var leaks []string
	for _, rn := range runs {
		p, err := profile.ByName(rn.product)
		if err != nil {
			t.Fatal(err)
		}
		anchor := "agent-token"
		if rn.command == "agent" {
			anchor = "token"
		}
		for _, f := range p.Command(rn.command).Flags {
			if f.Secret || f.Name == "config" || f.Name == "debug" {
				continue
			}
			for _, form := range []string{"*a", "[*a]"} {
				texts := func(alias bool) string {
					v := strings.ReplaceAll(form, "*a", strconvQuote(word))
					if alias {
						v = form
					}
					cfg := anchor + ": &a " + strconvQuote(word) + "\n" + f.Name + ": " + v + "\n"
					return resolveTexts(t, rn.product, rn.command, rn.version, cfg)
				}
				if word == "zebra" && strings.Contains(texts(false), word) {
					quoted[f.Name] = true
				}
				if got := texts(true); strings.Contains(strings.ToLower(got), strings.ToLower(word)) {
					leaks = append(leaks, rn.product+" "+rn.command+" "+rn.version+" "+f.Name+": "+form+": "+excerpt(got, word))
				}
			}
		}
	}
	sort.Strings(leaks)
	for _, l := range leaks {
		t.Errorf("a copy of a secret is quoted: %s", l)
	}
	if word == "zebra" && len(quoted) < 10 {
		t.Errorf("only %d flags' checks quote the plain word: the control case tests little", len(quoted))
	}
}

// resolveTexts is every text the resolver builds for a node with config.yaml cfg.
func resolveTexts(t *testing.T, product, command, version, cfg string) string {
	t.Helper()
	fs := afero.NewMemMapFs()
	unit, conf := "/etc/systemd/system/k3s.service", "/etc/rancher/k3s/config.yaml"
	bin := "/usr/local/bin/k3s"
	if command == "agent" {
		unit = "/etc/systemd/system/k3s-agent.service"
	}
	if product == "rke2" {
		unit, conf, bin = "/usr/local/lib/systemd/system/rke2-"+command+".service", "/etc/rancher/rke2/config.yaml", "/usr/local/bin/rke2"
	}
	_ = afero.WriteFile(fs, unit, []byte("[Service]\nExecStart="+bin+" "+command+"\n"), 0o644)
	_ = afero.WriteFile(fs, conf, []byte(cfg), 0o644)
	_ = afero.WriteFile(fs, "/etc/hostname", []byte("node-a\n"), 0o644)
	p, _ := profile.ByName(product)
	res, err := resolve.Resolve(resolve.Options{FS: fs, Profile: p, Version: version})
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, d := range res.Diagnostics {
		b.WriteString(d.Message + "\n" + d.Hint + "\n" + d.Key + "\n" + d.Assumes + "\n")
	}
	b.WriteString(res.Error + "\n")
	for _, k := range res.Keys {
		b.WriteString(k.Note + "\n" + strings.Join(k.Advice, "\n") + "\n")
		for _, a := range k.History {
			b.WriteString(a.Why() + "\n")
		}
	}
	for _, a := range res.Stray {
		b.WriteString(a.Why() + "\n")
	}
	return b.String()
}

func strconvQuote(s string) string { return strconv.Quote(s) }

func excerpt(s, w string) string {
	i := strings.Index(strings.ToLower(s), strings.ToLower(w))
	return s[max(0, i-80):min(len(s), i+40)]
}

// TestSplitSecretNotQuoted: the value of a secret flag given as the list item before it
// (kubelet-arg: ["--registry-password", "Zebra"]) is quoted as REDACTED by the texts the
// resolver builds (config-component-arg-camelcase would quote it and its kebab form,
// "zebra-code"); the value after a flag that is no secret is quoted as it is (the control).
func TestSplitSecretNotQuoted(t *testing.T) {
	tests := []struct {
		name, cfg string
		quoted    bool
		reason    string
	}{
		{"secret-flag", `kubelet-arg: ["--registry-password", "ZebraCode"]`, false, "the next item is the flag's secret"},
		{"one-dash", "kube-apiserver-arg:\n  - -password\n  - ZebraCode\n", false, "a one-dash flag, a block list"},
		{"token", `kubelet-arg: ["--token", "ZebraCode"]`, false, "--token, no '='"},
		{"not-secret", `kubelet-arg: ["--node-labels", "ZebraCode"]`, true, "a flag that is no secret: the item is checked and quoted"},
		{"with-value", `kubelet-arg: ["--token=x", "ZebraCode"]`, true, "the flag carries its value: the next item is an item of its own"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			texts := resolveTexts(t, "k3s", "server", "", tc.cfg+"\n")
			if !strings.Contains(texts, "looks like a configuration-file field") {
				t.Fatalf("%s: the camelcase finding does not fire, the case tests nothing:\n%s", tc.reason, texts)
			}
			got := strings.Contains(texts, "ZebraCode") || strings.Contains(texts, "zebra-code")
			if got != tc.quoted {
				t.Errorf("%s: quoted = %v, want %v:\n%s", tc.reason, got, tc.quoted, texts)
			}
		})
	}
}
